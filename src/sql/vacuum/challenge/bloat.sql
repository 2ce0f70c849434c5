-- Challenge vacuum-bloat: a lab table of at least 100 pages that holds at most 10 live rows.
-- The article's claim reads such a table from its first page to its last: its `or` branch
-- keeps it off the partial index (see the plan viewer), so the pages it reads are the
-- table's pages. Sizes from the file, live rows from pg_stat_user_tables (the lab flushes
-- the statistics after each action); no scan of the table itself, which may be large.
select coalesce(bool_or(pg_relation_size(s.relid) >= 100 * current_setting('block_size')::bigint
                        and s.n_live_tup <= 10), false) as solved
  from pg_stat_user_tables as s
 where s.schemaname in ('vac_keep', 'vac_delete', 'vac_delete_vacuum', 'vac_rotate')
   and s.relname = 'jobs'
