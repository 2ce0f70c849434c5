-- Challenge vacuum-bloat: a lab table of at least 100 pages that holds at most 10 live rows.
-- The article's claim reads such a table from its first page to its last: its `or` branch
-- keeps it off the partial index (see the plan viewer), so the pages it reads are the
-- table's pages. Sizes from the file, live rows from the statistics (the lab flushes them
-- after each action); no scan of the table itself, which may be large.
-- pg_stat_get_live_tuples(oid) is what pg_stat_user_tables shows as n_live_tup; called on
-- the four tables alone, it spares the view's join and grouping over every table's indexes
-- (measured in PGlite with 20,000 jobs a table: p50 1.2 ms through the view, 0.5 ms so).
select coalesce(bool_or(pg_relation_size(t.oid) >= 100 * current_setting('block_size')::bigint
                        and pg_stat_get_live_tuples(t.oid) <= 10), false) as solved
  from unnest(array[to_regclass('vac_keep.jobs'), to_regclass('vac_delete.jobs'),
                    to_regclass('vac_delete_vacuum.jobs'), to_regclass('vac_rotate.jobs')]) as t(oid)
 where t.oid is not null
