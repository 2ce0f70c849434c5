-- The article's claim, verbatim (§2). Its lease branch, `or (status = 'running' and
-- locked_until < now())`, is not covered by the partial index jobs_ready
-- (where status = 'ready'), so the planner reads the whole table and sorts.
-- Parameterless. Returns: id bigint, payload jsonb, attempts int (0 or 1 row).
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
