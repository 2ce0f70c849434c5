-- Extend the lease of a job this worker still holds.
update jobs
   set locked_until = now() + interval '30 seconds'
 where id = $1 and attempts = $2 and status = 'running'
returning locked_until::text as locked_until
