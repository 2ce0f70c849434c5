-- contract: maint_retry_events re-inserts a retried event with a new step of the event sequence, so the ticker counts it as a new event and ticks at ticker_max_lag, not at the idle pace.
select pgque.create_queue('jobs');
select pgque.create_queue('calm');
select pgque.set_queue_config('jobs', 'ticker_max_lag', '1 second');
select pgque.set_queue_config('calm', 'ticker_max_lag', '1 second');
select pgque.subscribe('jobs', 'worker');
-- Each queue's two ticks, 3 seconds apart, set its idle pace: with no new event the ticker
-- waits twice that gap (6 s) before the next tick.
-- @wait 3
select pgque.send('jobs', 'job 1');
select pgque.send('calm', 'only event');
select contract.eq(pgque.ticker(), 2::bigint, 'both first events tick at once');
select contract.put('batch', m.batch_id), contract.eq(pgque.nack(m.batch_id, m, interval '0 seconds'), 1, 'nack, due at once')
  from pgque.receive('jobs', 'worker', 100) m;
select contract.eq(pgque.ack(contract.got('batch')), 1, 'ack');
select contract.eq((select ev_new from pgque.get_queue_info('jobs')), 0::bigint,
  'no new event before maint_retry_events');
select contract.eq(pgque.maint_retry_events(), 1, 'the retry goes back into the queue');
select contract.eq((select ev_new from pgque.get_queue_info('jobs')), 1::bigint,
  'the re-inserted retry is a new event to the ticker');
select contract.eq(pgque.ticker('jobs'), null::bigint, 'one new event waits for ticker_max_lag');
-- @wait 2
select contract.eq(pgque.ticker('calm'), null::bigint,
  'an idle queue 2 s after its last tick waits for its idle pace');
select contract.ok(pgque.ticker('jobs') is not null,
  'past ticker_max_lag (1 s) and inside the idle pace, the retry ticks');
create table contract.again as select * from pgque.receive('jobs', 'worker', 100);
select contract.eq((select retry_count from contract.again), 1, 'the retried event is delivered');
