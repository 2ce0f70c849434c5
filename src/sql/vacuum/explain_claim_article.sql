-- EXPLAIN (ANALYZE, BUFFERS) of the article's claim. ANALYZE really runs it: on an empty
-- queue it changes nothing; with ready jobs it claims one (wrap it in BEGIN ... ROLLBACK
-- to leave the queue as it was, at the cost of one aborted row version).
-- Parameterless. Returns one row, one column "QUERY PLAN" (json): read it with
-- plan_summary.sql / plan_nodes.sql.
explain (analyze, buffers, format json)
update jobs
   set status = 'running', attempts = attempts + 1,
       locked_until = now() + interval '30 seconds'
 where id = (
   select id from jobs
    where (status = 'ready' and run_at <= now())
       or (status = 'running' and locked_until < now())
    order by priority desc, run_at
    for update skip locked
    limit 1
 )
returning id, payload, attempts
