-- contract: force_tick, the PgQ name of force_next_tick, makes no tick itself: it returns the last tick id and pushes the event sequence past ticker_max_count so that the next ticker() ticks.
select pgque.create_queue('q');
select contract.put('t1', (select last_tick_id from pgque.get_queue_info('q')));
-- Two ticks, no new event: the ticker has nothing to do.
select pgque.ticker('q');
select contract.put('t2', (select last_tick_id from pgque.get_queue_info('q')));
select contract.eq(pgque.ticker('q'), null::bigint, 'no tick is due');
select contract.eq(pgque.force_tick('q'), contract.got('t2'), 'force_tick returns the last tick id');
select contract.eq((select last_tick_id from pgque.get_queue_info('q')), contract.got('t2'), 'and made no tick');
select contract.ok((select ev_new >= 2 * queue_ticker_max_count + 1000 from pgque.get_queue_info('q')),
  'the event sequence jumps by 2 * ticker_max_count + 1000 or more');
select contract.put('t3', pgque.ticker('q'));
select contract.ok(contract.got('t3') > contract.got('t2'), 'the next ticker() ticks');
select contract.eq(pgque.force_next_tick('q'), contract.got('t3'), 'force_next_tick returns the last tick id too');
select contract.ok(pgque.ticker('q') > contract.got('t3'), 'and the ticker ticks again');
select contract.eq(pgque.ticker('q'), null::bigint, 'then nothing is due');
