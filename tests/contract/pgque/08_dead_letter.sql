-- contract: a nack of an event already retried max_retries times puts it in pgque.dead_letter (once, however often it is nacked), dlq_inspect lists it, and dlq_replay sends it again as a new event.
select pgque.create_queue('jobs');
select pgque.set_queue_config('jobs', 'max_retries', '1');
select pgque.subscribe('jobs', 'worker');
select contract.put('event', pgque.send('jobs', 'job.run', 'poison'));
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
select contract.eq(pgque.nack(m.batch_id, m, interval '0 seconds', 'first failure'), 1, 'first nack retries')
  from pgque.receive('jobs', 'worker', 100) m;
select pgque.ack(current_batch) from pgque.get_consumer_info('jobs', 'worker');
select contract.eq(pgque.maint_retry_events(), 1, 'the retry returns');
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
create table contract.inbox as select m, m.batch_id from pgque.receive('jobs', 'worker', 100) m;
select contract.eq((select (m).retry_count from contract.inbox), 1, 'delivered a second time');
select contract.eq(pgque.nack(batch_id, m, interval '0 seconds', 'gave up'), 1, 'the second nack dead-letters')
  from contract.inbox;
select contract.eq(pgque.nack(batch_id, m, interval '0 seconds', 'gave up again'), 1, 'a repeated nack returns 1')
  from contract.inbox;
select pgque.ack(batch_id) from contract.inbox;
select contract.eq(pgque.maint_retry_events(), 0, 'nothing went to the retry queue');
select contract.eq(count(*), 1::bigint, 'one dead letter') from pgque.dead_letter;
create table contract.dead as select * from pgque.dlq_inspect('jobs');
select contract.eq((select count(*) from contract.dead), 1::bigint, 'dlq_inspect lists it');
select contract.eq((select dl_reason from contract.dead), 'gave up', 'the first terminal nack''s reason');
select contract.eq((select ev_id from contract.dead), contract.got('event'), 'the event''s id');
select contract.eq((select ev_retry from contract.dead), 1, 'its retry count');
select contract.eq((select ev_type || '/' || ev_data from contract.dead), 'job.run/poison', 'type and data');
select contract.ok((select dl_time is not null and ev_time is not null and ev_txid is not null from contract.dead),
  'dl_time, ev_time and ev_txid are set');
select contract.eq((select dl_queue_id from contract.dead), (select queue_id from pgque.queue where queue_name = 'jobs'),
  'dl_queue_id is the queue''s id');
select contract.put('dl', (select dl_id from contract.dead));
select contract.put('replayed', pgque.dlq_replay(contract.got('dl')));
select contract.ok(contract.got('replayed') > contract.got('event'), 'dlq_replay returns a new event id');
select contract.eq(count(*), 0::bigint, 'the dead letter is gone') from pgque.dead_letter;
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
create table contract.replayed as select * from pgque.receive('jobs', 'worker', 100);
select contract.eq((select msg_id from contract.replayed), contract.got('replayed'), 'the replayed event is delivered');
select contract.eq((select retry_count from contract.replayed), null::int, 'as a new event, not a retry');
select contract.eq((select type || '/' || payload from contract.replayed), 'job.run/poison', 'with its type and payload');
select contract.expect_error(format('select pgque.dlq_replay(%s)', contract.got('dl')), 'P0001',
  format('dead letter entry not found: %s', contract.got('dl')));
select contract.eq(count(*), 0::bigint, 'dlq_inspect of an unknown queue is empty') from pgque.dlq_inspect('nope');
