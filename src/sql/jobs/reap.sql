-- Runs before each claim: a lease that ran out on the last attempt makes the job dead.
update jobs
   set status = 'dead', locked_until = null,
       last_error = coalesce(last_error || '; ', '') || 'lease expired on the last attempt'
 where status = 'running' and locked_until < now() and attempts >= max_attempts
