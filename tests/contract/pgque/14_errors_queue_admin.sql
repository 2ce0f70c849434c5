-- contract: create_queue takes names of up to 57 bytes (UTF-8) and refuses longer ones and NULL; drop_queue and set_queue_config refuse an unknown queue, drop_queue a queue with consumers, set_queue_config an unknown parameter or an out-of-range value.
select contract.eq(pgque.create_queue(repeat('q', 57)), 1, 'a 57-byte name');
select contract.eq(pgque.create_queue(repeat('日', 19)), 1, 'a 57-byte name of 19 three-byte characters');
select contract.eq(pgque.create_queue(repeat('q', 57)), 0, 'create_queue of an existing queue returns 0');
select contract.expect_error(format('select pgque.create_queue(%L)', repeat('q', 58)), 'P0001',
  'queue name too long: 58 bytes (max 57). pg_notify channel ''pgque_<queue_name>'' must fit in 63 bytes.');
select contract.expect_error(format('select pgque.create_queue(%L)', repeat('日', 20)), 'P0001',
  'queue name too long: 60 bytes (max 57). pg_notify channel ''pgque_<queue_name>'' must fit in 63 bytes.');
select contract.expect_error($$select pgque.create_queue(null)$$, 'P0001', 'Invalid NULL value');
select contract.eq((select count(*) from pgque.get_queue_info()), 2::bigint, 'only the two queues exist');
-- A long name works end to end (its notify channel fits).
select pgque.send(repeat('q', 57), 'x');
select contract.ok(pgque.ticker(repeat('q', 57)) is not null, 'the 57-byte queue ticks');
select contract.eq(pgque.drop_queue(repeat('q', 57)), 1, 'drop_queue returns 1');
select contract.expect_error($$select pgque.drop_queue('nope')$$, 'P0001', 'No such event queue');
select contract.expect_error($$select pgque.drop_queue('nope', true)$$, 'P0001', 'No such event queue');
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select contract.expect_error($$select pgque.drop_queue('q')$$, 'P0001', 'cannot drop queue, consumers still attached');
select contract.expect_error($$select pgque.drop_queue('q', false)$$, 'P0001', 'cannot drop queue, consumers still attached');
-- set_queue_config's refusals, one call each, in this order (a failing one names its call).
-- PgQue's format string for an unknown parameter is "%s": the name is followed by a literal s.
select contract.expect_error(format('select pgque.set_queue_config(%L, %L, %L)', queue, param, value), state, message)
  from (values
    ('nope', 'ticker_max_lag', '1 second', 'P0001', 'No such event queue'),
    (null, 'ticker_max_lag', '1 second', 'P0001', 'Invalid NULL value'),
    ('q', null, '1', 'P0001', 'Invalid NULL value'),
    ('q', 'colour', 'blue', 'P0001', 'cannot change parameter "colours"'),
    ('q', 'max_retries', '-1', 'P0001', 'set_queue_config: max_retries must be >= 0, got -1'),
    ('q', 'ticker_max_count', '0', 'P0001', 'set_queue_config: ticker_max_count must be > 0, got 0'),
    ('q', 'ticker_max_lag', '0', 'P0001', 'set_queue_config: ticker_max_lag must be > 0, got 00:00:00'),
    ('q', 'ticker_idle_period', '-1 second', 'P0001', 'set_queue_config: ticker_idle_period must be > 0, got -00:00:01'),
    ('q', 'rotation_period', '0 seconds', 'P0001', 'set_queue_config: rotation_period must be > 0, got 00:00:00'),
    ('q', 'max_retries', 'many', '22P02', 'invalid input syntax for type bigint: "many"')
  ) as refusal(queue, param, value, state, message);
-- Accepted values, and NULL back to the default.
select contract.eq(pgque.set_queue_config('q', 'ticker_max_count', '7'), 1, 'a valid value');
select contract.eq((select queue_ticker_max_count from pgque.get_queue_info('q')), 7, 'is set');
select contract.eq(pgque.set_queue_config('q', 'ticker_max_count', null), 1, 'NULL resets');
select contract.eq((select queue_ticker_max_count from pgque.get_queue_info('q')), 500, 'to the default 500');
select contract.eq(pgque.drop_queue('q', true), 1, 'drop_queue with force drops a queue with consumers');
select contract.eq((select count(*) from pgque.get_consumer_info('q')), 0::bigint, 'and its consumers');
