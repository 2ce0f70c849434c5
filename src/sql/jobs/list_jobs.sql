select id, queue, payload, status, priority,
       run_at::text as run_at, attempts, max_attempts,
       locked_until::text as locked_until, last_error,
       (status = 'ready' and run_at <= now())
         or (status = 'running' and locked_until < now() and attempts < max_attempts) as claimable
  from jobs
 order by id desc
 limit $1
