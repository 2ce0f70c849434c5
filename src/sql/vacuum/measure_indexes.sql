-- Size of each index of one table.
-- $1 text: the table, e.g. 'vac_keep.jobs'.
-- Returns one row per index, by name: index_name text, bytes bigint, pages bigint
select c.relname::text                                        as index_name,
       pg_relation_size(c.oid)                                as bytes,
       pg_relation_size(c.oid) / current_setting('block_size')::int as pages
  from pg_index as i
  join pg_class as c on c.oid = i.indexrelid
 where i.indrelid = $1::regclass
 order by c.relname
