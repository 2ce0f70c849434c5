-- Guarded by the attempt the worker claimed with: a worker whose lease ran out and whose
-- job was claimed again (attempts moved on) updates 0 rows.
update jobs
   set status = 'done', locked_until = null
 where id = $1 and attempts = $2 and status = 'running'
