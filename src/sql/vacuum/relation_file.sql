-- A table's file and size, to see VACUUM FULL (or TRUNCATE) replace the file.
-- $1 text: the table. Returns one row: filenode bigint, heap_bytes bigint,
--   heap_pages bigint, total_bytes bigint
select pg_relation_filenode($1::regclass)::bigint                           as filenode,
       pg_relation_size($1::regclass)                                       as heap_bytes,
       pg_relation_size($1::regclass) / current_setting('block_size')::int  as heap_pages,
       pg_total_relation_size($1::regclass)                                 as total_bytes
