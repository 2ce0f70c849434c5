-- Retry with exponential backoff (10 s × 2^attempts), or dead letter after max_attempts.
update jobs
   set status       = case when attempts >= max_attempts then 'dead' else 'ready' end,
       run_at       = case when attempts >= max_attempts then run_at
                           else now() + interval '10 seconds' * power(2, attempts) end,
       locked_until = null,
       last_error   = $3
 where id = $1 and attempts = $2 and status = 'running'
returning status, run_at::text as run_at
