-- contract: set_tick_period_ms takes exact divisors of 1000 from 1 to 1000 and returns the value set; it refuses NULL, 0, values over 1000 and non-divisors with one message.
select contract.eq(pgque.set_tick_period_ms(50), 50, '50 ms');
select contract.eq(pgque.set_tick_period_ms(1000), 1000, '1000 ms');
select contract.eq(pgque.set_tick_period_ms(1), 1, '1 ms');
select contract.eq(pgque.set_tick_period_ms(250), 250, '250 ms');
select contract.expect_error($$select pgque.set_tick_period_ms(0)$$, 'P0001',
  'tick_period_ms must be an exact divisor of 1000 between 1 and 1000 (got 0)');
select contract.expect_error($$select pgque.set_tick_period_ms(-5)$$, 'P0001',
  'tick_period_ms must be an exact divisor of 1000 between 1 and 1000 (got -5)');
select contract.expect_error($$select pgque.set_tick_period_ms(null)$$, 'P0001',
  'tick_period_ms must be an exact divisor of 1000 between 1 and 1000 (got NULL)');
select contract.expect_error($$select pgque.set_tick_period_ms(1001)$$, 'P0001',
  'tick_period_ms must be an exact divisor of 1000 between 1 and 1000 (got 1001)');
select contract.expect_error($$select pgque.set_tick_period_ms(300)$$, 'P0001',
  'tick_period_ms must be an exact divisor of 1000 between 1 and 1000 (got 300)');
-- A refusal leaves the last value: status() reports it.
select contract.ok(exists (select 1 from pgque.status() where detail like '%tick_period_ms=250 %'),
  'status() reports tick_period_ms=250');
select pgque.set_tick_period_ms(100);
select contract.ok(exists (select 1 from pgque.status() where detail like '%tick_period_ms=100 (10.00 ticks/sec)%'),
  'status() reports 100 ms as 10 ticks a second');
