-- A person fixed the cause: the dead job gets a fresh set of attempts.
update jobs
   set status = 'ready', attempts = 0, run_at = now(), locked_until = null
 where id = $1 and status = 'dead'
