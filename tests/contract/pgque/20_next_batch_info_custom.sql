-- contract: next_batch_info returns the batch with its tick bounds; next_batch_custom takes min_lag, min_count and min_interval, ending the batch at the last tick unless that is more than twice min_count events away, then at the first tick with min_count events.
select pgque.create_queue('q');
select pgque.set_queue_config('q', 'ticker_max_count', '2');
select pgque.subscribe('q', 'a');
select pgque.subscribe('q', 'b');
select pgque.subscribe('q', 'c');
select contract.put('t1', (select last_tick_id from pgque.get_queue_info('q')));
-- No tick after the consumer's: a row of NULLs.
select contract.eq((select row(i.*)::text from pgque.next_batch_info('q', 'c') i), '(,,,,,,)', 'no batch yet');
-- Four ticks: the first event, then two events per tick (ticker_max_count 2).
select pgque.send('q', 'e1');
select contract.put('t2', pgque.ticker('q'));
select pgque.send_batch('q', array['e2', 'e3']);
select contract.put('t3', pgque.ticker('q'));
select pgque.send_batch('q', array['e4', 'e5']);
select contract.put('t4', pgque.ticker('q'));
select pgque.send_batch('q', array['e6', 'e7']);
select contract.put('t5', pgque.ticker('q'));
select contract.ok(contract.got('t5') is not null and contract.got('t4') > contract.got('t3'), 'ticks at ticker_max_count');
-- next_batch_info: the next tick after the consumer's.
create table contract.info as select * from pgque.next_batch_info('q', 'c');
select contract.ok((select batch_id is not null from contract.info), 'a batch');
select contract.eq((select cur_tick_id from contract.info), contract.got('t2'), 'cur_tick_id: the next tick');
select contract.eq((select prev_tick_id from contract.info), contract.got('t1'), 'prev_tick_id: the consumer''s tick');
select contract.ok((select prev_tick_time <= cur_tick_time and cur_tick_event_seq >= prev_tick_event_seq from contract.info),
  'tick times and event sequence values in order');
select contract.eq((select row(i.*)::text from pgque.next_batch_info('q', 'c') i), (select row(i.*)::text from contract.info i),
  'called again: the same open batch');
select contract.eq(pgque.next_batch('q', 'c'), (select batch_id from contract.info), 'next_batch: the same batch id');
-- next_batch_custom: each limit not met gives a row of NULLs.
select contract.eq((select row(i.*)::text from pgque.next_batch_custom('q', 'a', null, 10, null) i), '(,,,,,,)',
  'min_count 10: six events are not enough');
select contract.eq((select row(i.*)::text from pgque.next_batch_custom('q', 'a', interval '1 hour', null, null) i), '(,,,,,,)',
  'min_lag 1 hour: the ticks are too young');
select contract.eq((select row(i.*)::text from pgque.next_batch_custom('q', 'a', null, null, interval '1 hour') i), '(,,,,,,)',
  'min_interval 1 hour: the ticks are too close');
-- min_count 2: the last tick is 6 events away, more than twice 2: the first tick with 2 events.
create table contract.custom as select * from pgque.next_batch_custom('q', 'a', null, 2, null);
select contract.eq((select cur_tick_id from contract.custom), contract.got('t3'), 'min_count 2 ends at t3');
select contract.eq((select prev_tick_id from contract.custom), contract.got('t1'), 'from a''s tick');
select contract.eq((select string_agg(payload, ',' order by msg_id) from pgque.receive('q', 'a', 10)), 'e1,e2,e3',
  'receive returns the open custom batch');
-- min_count 4: the last tick is 6 events away, within twice 4: the batch runs to it.
select contract.eq((select cur_tick_id from pgque.next_batch_custom('q', 'b', null, 4, null)), contract.got('t5'),
  'min_count 4 ends at the last tick');
select contract.eq((select count(*) from pgque.receive('q', 'b', 10)), 7::bigint, 'all seven events');
select contract.eq((select row(prev_tick_id, tick_id)::text from pgque.get_batch_info((select batch_id from contract.custom))),
  format('(%s,%s)', contract.got('t1'), contract.got('t3')), 'get_batch_info agrees');
