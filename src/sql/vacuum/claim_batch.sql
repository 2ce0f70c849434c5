-- Claim up to $1 jobs (int, the batch size, e.g. 500) in one statement: the article's
-- claim with `limit 1` raised to `limit $1`. Each job still gets its own new row version
-- (ready -> running), exactly as if claimed alone; a batch saves round trips and
-- transactions, not row versions, so the bloat is the same.
-- Two changes to the article's text, neither changing what is claimed:
--   `id = any(array(...))` instead of `id = (...)`: the locking subquery runs once (an
--     InitPlan), so it never locks more than $1 rows;
--   `(select now())` instead of `now()`: evaluated once per statement, not once per row.
--     Same value either way (lab time does not move during a statement). It mattered
--     when the lab clock read a table (a 20,000-job DELETE round took 6.7 s with bare
--     now(), 1.7 s wrapped); lab.now() now reads a setting and is inlined, so it is cheap
--     either way.
-- Returns: id bigint, payload jsonb, attempts int — one row per claimed job.
update jobs
   set status = 'running', attempts = attempts + 1,
       locked_until = (select now()) + interval '30 seconds'
 where id = any(array(
   select id from jobs
    where (status = 'ready' and run_at <= (select now()))
       or (status = 'running' and locked_until < (select now()))
    order by priority desc, run_at
    for update skip locked
    limit $1
 ))
returning id, payload, attempts
