-- Size and tuple counts of one table. Run flush_stats.sql first (PGlite's statistics lag).
-- $1 text: the table, e.g. 'vac_keep.jobs'.
-- Returns one row:
--   heap_bytes bigint, heap_pages bigint, index_bytes bigint, total_bytes bigint,
--   n_live_tup bigint, n_dead_tup bigint, n_tup_ins bigint, n_tup_upd bigint,
--   n_tup_del bigint, n_tup_hot_upd bigint, vacuum_count bigint
-- n_dead_tup is an estimate kept by the statistics system: +1 per updated or deleted
-- row at commit, less what page pruning frees, set to what is left after a VACUUM.
-- TRUNCATE starts the counts again from 0.
select pg_relation_size(s.relid)                                        as heap_bytes,
       pg_relation_size(s.relid) / current_setting('block_size')::int   as heap_pages,
       pg_indexes_size(s.relid)                                         as index_bytes,
       pg_total_relation_size(s.relid)                                  as total_bytes,
       s.n_live_tup,
       s.n_dead_tup,
       s.n_tup_ins,
       s.n_tup_upd,
       s.n_tup_del,
       s.n_tup_hot_upd,
       s.vacuum_count
  from pg_stat_user_tables as s
 where s.relid = $1::regclass
