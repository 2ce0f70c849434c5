-- contract: (the lab's scheduler) pgque.start() switches on PgQue's four jobs with PgQue's names and periods; pgque.run_jobs(time) runs them on the lab clock in time order, each in a transaction of its own, so a nacked event is back in a batch within the retry job's 30 s and one tick, its retry drawing a new step of the event sequence; stop() switches them off.
-- @engines: lab
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select contract.eq((select status from pgque.status() where component = 'ticker'), 'stopped', 'nothing scheduled before start()');
select pgque.start();
select contract.eq((select string_agg(job_name || ' ' || schedule::text, ', ' order by job_order) from pgque.lab_job where scheduled),
  'pgque_ticker 00:00:01, pgque_retry_events 00:00:30, pgque_maint 00:00:30, pgque_rotate_step2 00:00:10', 'PgQue''s four jobs and periods');
select contract.eq((select status from pgque.status() where component = 'ticker'), 'scheduled', 'status() reports the ticker job');
select contract.eq((select status from pgque.status() where component = 'maintenance'), 'scheduled', 'status() reports the maint job');
select contract.put('t0', extract(epoch from now())::bigint);
select pgque.send('q', 'work');
call pgque.run_jobs(now() + interval '1 second');
select contract.ok((select runs >= 1 from pgque.lab_job where job_name = 'pgque_ticker'), 'the ticker job ran within its first second');
select contract.put('batch', m.batch_id), contract.eq(pgque.nack(m.batch_id, m, interval '0 seconds'), 1, 'nack, due at once')
  from pgque.receive('q', 'c', 100) m;
select contract.eq(pgque.ack(contract.got('batch')), 1, 'ack');
select contract.put('seq', (select last_value from pgque.event_1_id_seq));
call pgque.run_jobs(now() + interval '28 seconds');
select contract.eq((select count(*) from pgque.retry_queue), 1::bigint, 'at 29 s the retry job has not run yet');
call pgque.run_jobs(now() + interval '2 seconds');
select contract.eq((select runs from pgque.lab_job where job_name = 'pgque_retry_events'), 1::bigint, 'the retry job ran once, at 30 s');
select contract.eq((select last_value from pgque.event_1_id_seq), contract.got('seq') + 1, 'the retry drew a new step of the event sequence');
-- the consumer walks its batches (idle ticks give empty ones) until the retry
create table contract.back (payload text, retry_count int, at bigint);
do $$
begin
  for i in 1 .. 50 loop
    insert into contract.back select payload, retry_count, extract(epoch from now())::bigint from pgque.receive('q', 'c', 100);
    exit when exists (select 1 from contract.back);
  end loop;
end $$;
select contract.eq((select payload || ' ' || retry_count from contract.back), 'work 1', 'the nacked event is back, retry_count 1');
select contract.ok((select max(tick_time) from pgque.tick) <= to_timestamp(contract.got('t0')) + interval '31 seconds',
  'ticked within the retry job''s 30 s and one tick');
select pgque.stop();
select contract.eq((select count(*) from pgque.lab_job where scheduled), 0::bigint, 'stop() switches every job off');
call pgque.run_jobs(now() + interval '60 seconds');
select contract.eq((select runs from pgque.lab_job where job_name = 'pgque_retry_events'), 1::bigint, 'stopped jobs do not run');
