-- Buffer accesses counted per relation since the server started: read it before and
-- after a claim (flush_stats.sql before each read) and subtract, to get the pages the
-- claim touched in this table and in its indexes only. Unlike EXPLAIN's BUFFERS, this
-- leaves out pages read by functions the query calls.
-- $1 text: the table, e.g. 'vac_plan.jobs'.
-- Returns one row: heap_blks bigint (hit + read), idx_blks bigint (hit + read, all its
--   indexes), heap_blks_read bigint, idx_blks_read bigint
select coalesce(s.heap_blks_hit, 0) + coalesce(s.heap_blks_read, 0) as heap_blks,
       coalesce(s.idx_blks_hit, 0) + coalesce(s.idx_blks_read, 0)   as idx_blks,
       coalesce(s.heap_blks_read, 0)                                as heap_blks_read,
       coalesce(s.idx_blks_read, 0)                                 as idx_blks_read
  from pg_statio_user_tables as s
 where s.relid = $1::regclass
