-- On reconnect (and on the safety-net poll): what is claimable right now?
select count(*) as claimable
  from jobs
 where (status = 'ready' and run_at <= now())
    or (status = 'running' and locked_until < now() and attempts < max_attempts)
