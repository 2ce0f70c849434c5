-- The lab's own hook for §4's "move it to dead and send an alert": a trigger on the change to
-- dead, whichever statement makes it (fail.sql on the last attempt, reap.sql when the last
-- lease runs out). It sends NOTIFY job_dead with the job's id: delivered at commit, like any
-- NOTIFY, and only to a session listening then. A retry (back to ready) sends nothing.
create or replace function job_dead_alert() returns trigger
language plpgsql as $$
begin
  perform pg_notify('job_dead', json_build_object(
    'id', new.id, 'queue', new.queue, 'attempts', new.attempts,
    'last_error', left(new.last_error, 200))::text);
  return null;
end
$$;
create trigger job_dead_alert
  after update of status on jobs
  for each row when (new.status = 'dead' and old.status is distinct from 'dead')
  execute function job_dead_alert();
