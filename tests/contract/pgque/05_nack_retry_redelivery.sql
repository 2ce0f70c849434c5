-- contract: a nacked event goes to the retry queue, maint_retry_events puts it back once due, and the next batch delivers it again with the same msg_id and retry_count 1.
select pgque.create_queue('jobs');
select pgque.subscribe('jobs', 'worker');
select contract.put('event', pgque.send('jobs', 'job.run', 'payload 1'));
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
create table contract.inbox as select m, m.batch_id from pgque.receive('jobs', 'worker', 100) m;
select contract.eq((select count(*) from contract.inbox), 1::bigint, 'one message');
-- Due at once: retry_after 0 seconds.
select contract.eq(pgque.nack(batch_id, m, interval '0 seconds', 'try again'), 1, 'nack returns 1')
  from contract.inbox;
select contract.eq(pgque.ack(batch_id), 1, 'the nacked batch is still acked') from contract.inbox;
-- Nothing comes back until maint_retry_events moves it.
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
select contract.eq((select count(*) from pgque.receive('jobs', 'worker', 100)), 0::bigint,
  'the retry is not in the queue before maint_retry_events');
select contract.eq(pgque.maint_retry_events(), 1, 'maint_retry_events moves the due event');
select contract.eq(pgque.maint_retry_events(), 0, 'and then nothing');
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
create table contract.again as select * from pgque.receive('jobs', 'worker', 100);
select contract.eq((select count(*) from contract.again), 1::bigint, 'the event comes back');
select contract.eq((select msg_id from contract.again), contract.got('event'), 'with its msg_id');
select contract.eq((select retry_count from contract.again), 1, 'retry_count 1');
select contract.eq((select type || '/' || payload from contract.again), 'job.run/payload 1',
  'type and payload kept');
select contract.eq((select created_at from contract.again), (select (m).created_at from contract.inbox),
  'created_at is the original event time');
-- The default retry_after is 60 seconds: a second nack is not due yet.
select contract.eq(pgque.nack(a.batch_id, row(a.*)::pgque.message), 1, 'nack with the default delay')
  from contract.again a;
select pgque.ack(batch_id) from contract.again;
select contract.eq(pgque.maint_retry_events(), 0, 'a retry 60 seconds away is not due');
