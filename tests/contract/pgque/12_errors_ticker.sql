-- contract: ticker(queue) refuses an unknown queue ('no such queue'), a paused queue and an external-ticker queue; force_next_tick and force_tick refuse them with their own messages; ticker() skips such queues.
select pgque.create_queue('paused');
select pgque.create_queue('external');
select contract.expect_error($$select pgque.ticker('nope')$$, 'P0001', 'no such queue');
select contract.expect_error($$select pgque.force_next_tick('nope')$$, 'P0001', 'queue not found: nope');
select contract.expect_error($$select pgque.force_tick('nope')$$, 'P0001', 'queue not found: nope');
select contract.eq(pgque.set_queue_config('paused', 'ticker_paused', 'true'), 1, 'set_queue_config returns 1');
select contract.expect_error($$select pgque.ticker('paused')$$, 'P0001', 'Ticker has been paused for this queue');
select contract.expect_error($$select pgque.force_next_tick('paused')$$, 'P0001',
  'queue paused is paused (queue_ticker_paused = true)');
select contract.expect_error($$select pgque.force_tick('paused')$$, 'P0001',
  'queue paused is paused (queue_ticker_paused = true)');
select pgque.set_queue_config('external', 'external_ticker', 'true');
select contract.expect_error($$select pgque.ticker('external')$$, 'P0001', 'This queue has external tick source.');
select contract.expect_error($$select pgque.force_tick('external')$$, 'P0001',
  'queue external is configured for external ticker; force_tick is meaningless — push ticks via pgque.ticker(queue, tick_id, ts, event_seq)');
select pgque.send('paused', 'x');
select pgque.send('external', 'x');
select contract.eq(pgque.ticker(), 0::bigint, 'ticker() passes over paused and external queues');
select contract.eq((select queue_ticker_paused from pgque.get_queue_info('paused')),
  true, 'get_queue_info shows the pause');
select pgque.set_queue_config('paused', 'ticker_paused', 'false');
select contract.eq(pgque.ticker(), 1::bigint, 'unpaused, it ticks again');
