-- contract: a queue with external_ticker takes its ticks from the 4-argument ticker(queue, tick_id, time, event_seq), which refuses other queues and a tick_id or event_seq that goes backwards.
select pgque.create_queue('ext');
select pgque.create_queue('own');
select pgque.set_queue_config('ext', 'external_ticker', 'true');
select pgque.subscribe('ext', 'c');
select pgque.send('ext', 'x');
select contract.expect_error($$select pgque.ticker('ext', 1, now(), 5)$$, 'P0001',
  'external ticker tick_id must be strictly greater than current max (1 <= 1)');
select contract.expect_error($$select pgque.ticker('ext', 10, now(), 0)$$, 'P0001',
  'external ticker event_seq must be >= previous tick (0 < 1)');
select contract.eq(pgque.ticker('ext', 10, now(), 1), 10::bigint, 'the external tick is made with its own id');
select contract.eq((select last_tick_id from pgque.get_queue_info('ext')), 10::bigint, 'it is the last tick');
select contract.eq((select string_agg(payload, ',') from pgque.receive('ext', 'c', 10)), 'x',
  'the batch up to it holds the event');
select contract.expect_error($$select pgque.ticker('own', 2, now(), 1)$$, 'P0001',
  'queue own is not configured for external ticker (queue_external_ticker = false); use pgque.ticker(queue) instead');
select contract.expect_error($$select pgque.ticker('nope', 2, now(), 1)$$, 'P0001', 'queue not found: nope');
select pgque.set_queue_config('ext', 'ticker_paused', 'true');
select contract.expect_error($$select pgque.ticker('ext', 11, now(), 1)$$, 'P0001',
  'queue ext is paused (queue_ticker_paused = true)');
