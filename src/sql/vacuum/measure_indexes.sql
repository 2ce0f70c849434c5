-- Size of each index of one table.
-- $1 text: the table, e.g. 'vac_keep.jobs'.
-- Returns one row per index, by name: index_name text, bytes bigint, pages bigint
-- An index made on a partitioned table (vac_partition.jobs) has no storage either: each
-- partition has its own copy. So an index's size is summed over its leaves
-- (lab.leaves, setup_helpers.sql), under the parent's name (jobs_pkey, jobs_ready).
select c.relname::text                                                      as index_name,
       coalesce(sum(pg_relation_size(p.relid)), 0)::bigint                  as bytes,
       coalesce(sum(pg_relation_size(p.relid)), 0)::bigint
         / current_setting('block_size')::int                               as pages
  from pg_index as i
  join pg_class as c on c.oid = i.indexrelid
  left join lateral lab.leaves(c.oid::regclass) as p(relid) on true
 where i.indrelid = $1::regclass
 group by c.relname
 order by c.relname
