-- Size and tuple counts of one table. Run flush_stats.sql first (PGlite's statistics lag).
-- $1 text: the table, e.g. 'vac_keep.jobs'.
-- Returns one row:
--   heap_bytes bigint, heap_pages bigint, index_bytes bigint, total_bytes bigint,
--   n_live_tup bigint, n_dead_tup bigint, n_tup_ins bigint, n_tup_upd bigint,
--   n_tup_del bigint, n_tup_hot_upd bigint, vacuum_count bigint
-- n_dead_tup is an estimate kept by the statistics system: +1 per updated or deleted
-- row at commit, less what page pruning frees, set to what is left after a VACUUM.
-- TRUNCATE starts the counts again from 0.
-- A partitioned table (vac_partition.jobs) has no storage of its own: its rows, pages and
-- statistics are its partitions'. So every figure is summed over the table's leaves
-- (lab.leaves, setup_helpers.sql). A dropped partition's figures go with it.
with leaves as (
  select l as relid from lab.leaves($1::regclass) as l
)
select coalesce(sum(pg_relation_size(l.relid)), 0)::bigint                    as heap_bytes,
       coalesce(sum(pg_relation_size(l.relid)), 0)::bigint
         / current_setting('block_size')::int                                 as heap_pages,
       coalesce(sum(pg_indexes_size(l.relid)), 0)::bigint                     as index_bytes,
       coalesce(sum(pg_total_relation_size(l.relid)), 0)::bigint              as total_bytes,
       coalesce(sum(s.n_live_tup), 0)::bigint                                 as n_live_tup,
       coalesce(sum(s.n_dead_tup), 0)::bigint                                 as n_dead_tup,
       coalesce(sum(s.n_tup_ins), 0)::bigint                                  as n_tup_ins,
       coalesce(sum(s.n_tup_upd), 0)::bigint                                  as n_tup_upd,
       coalesce(sum(s.n_tup_del), 0)::bigint                                  as n_tup_del,
       coalesce(sum(s.n_tup_hot_upd), 0)::bigint                              as n_tup_hot_upd,
       coalesce(sum(s.vacuum_count), 0)::bigint                               as vacuum_count
  from leaves as l
  left join pg_stat_user_tables as s on s.relid = l.relid
