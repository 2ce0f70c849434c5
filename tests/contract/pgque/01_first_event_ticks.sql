-- contract: after create_queue and one committed send, ticker() makes a tick at once, without waiting for ticker_max_lag.
select contract.eq(pgque.create_queue('orders'), 1, 'create_queue of a new queue');
-- create_queue ticks the new queue once itself.
select contract.put('first_tick', (select last_tick_id from pgque.get_queue_info('orders')));
select contract.ok(contract.got('first_tick') is not null, 'create_queue left a tick');
select contract.eq(pgque.subscribe('orders', 'worker'), 1, 'subscribe of a new consumer');
select contract.ok(pgque.send('orders', 'created', 'order 1') is not null, 'send returns an event id');
select contract.eq((select ev_new from pgque.get_queue_info('orders')), 0::bigint,
  'the first event is not new to the tick create_queue made');
-- One new event and no time passed: the queue's single tick lets the ticker tick now.
select contract.put('tick', pgque.ticker('orders'));
select contract.ok(contract.got('tick') is not null, 'ticker(queue) ticks after the first send');
select contract.ok(contract.got('tick') > contract.got('first_tick'), 'the new tick comes after the first');
select contract.eq((select last_tick_id from pgque.get_queue_info('orders')), contract.got('tick'),
  'get_queue_info reports the new tick as the last');
select contract.eq((select count(*) from pgque.receive('orders', 'worker', 10)), 1::bigint,
  'the event is in the batch the tick closed');
-- The rule is the event sequence's: a new sequence reads as 1 before and after its first
-- event, so the tick create_queue made already counts event 1. Two events are one new
-- event to the ticker, which then waits for ticker_max_lag (or ticker_max_count).
select pgque.create_queue('pair');
select pgque.set_queue_config('pair', 'ticker_max_lag', '1 second');
select pgque.send('pair', 'one');
select pgque.send('pair', 'two');
select contract.eq((select ev_new from pgque.get_queue_info('pair')), 1::bigint,
  'two events after create_queue are one new event');
select contract.eq(pgque.ticker('pair'), null::bigint, 'the ticker waits for ticker_max_lag');
-- @wait 1
select contract.ok(pgque.ticker('pair') is not null, 'the ticker ticks once ticker_max_lag has passed');
