-- The SKIP LOCKED queue's table after a round: dead tuples (statistics flushed first by
-- flush_stats.sql) and size with its indexes.
select coalesce(s.n_dead_tup, 0) as dead, pg_total_relation_size('pgq_compare.jobs') as bytes
  from pg_stat_user_tables as s
 where s.relid = 'pgq_compare.jobs'::regclass
