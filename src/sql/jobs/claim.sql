-- The article's claim, with one fix: a job whose lease ran out on its last attempt is not
-- revived (that would be attempt max_attempts + 1); reap.sql makes it dead instead.
update jobs
   set status = 'running', attempts = attempts + 1,
       locked_until = now() + interval '30 seconds'
 where id = (
   select id from jobs
    where (status = 'ready' and run_at <= now())
       or (status = 'running' and locked_until < now()   -- revive jobs whose lease ran out
           and attempts < max_attempts)                  -- fix: only if an attempt is left
    order by priority desc, run_at
    for update skip locked
    limit 1
 )
returning id, payload, attempts
