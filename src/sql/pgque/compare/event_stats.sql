-- The rotation queue's event tables after a round (statistics flushed first): dead tuples
-- in all of them, their total size with indexes, and events still stored.
select coalesce(sum(dead_tuples), 0)::bigint as dead, coalesce(sum(size_bytes), 0)::bigint as bytes,
       coalesce(sum(events), 0)::bigint as events
  from pgque.get_table_info($1)
