-- A person fixed the cause: the dead job gets a fresh set of attempts.
-- attempts never goes back: the guards of complete/fail/heartbeat compare the attempt a
-- worker claimed with, so resetting it to 0 would let a worker still holding an old attempt
-- pass for the next claim of the same number. The budget grows instead.
update jobs
   set status = 'ready', max_attempts = attempts + max_attempts, run_at = now(), locked_until = null
 where id = $1 and status = 'dead'
