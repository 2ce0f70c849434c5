-- contract: insert_event with 3 arguments stores type and data; with 7 it also stores ev_extra1..4, which receive returns as extra1..4 and get_batch_events as ev_extra1..4.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select contract.put('plain', pgque.insert_event('q', 'kind.a', 'data a'));
select contract.put('extra', pgque.insert_event('q', 'kind.b', 'data b', 'x1', 'x2', null, 'x4'));
select contract.ok(contract.got('extra') > contract.got('plain'), 'ids grow');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.put('batch', pgque.next_batch('q', 'c'));
create table contract.events as select * from pgque.get_batch_events(contract.got('batch'));
select contract.eq((select ev_type || '/' || ev_data from contract.events where ev_id = contract.got('plain')),
  'kind.a/data a', 'the 3-argument insert');
select contract.eq((select row(ev_extra1, ev_extra2, ev_extra3, ev_extra4)::text from contract.events where ev_id = contract.got('plain')),
  '(,,,)', 'no extras');
select contract.eq((select row(ev_extra1, ev_extra2, ev_extra3, ev_extra4)::text from contract.events where ev_id = contract.got('extra')),
  '(x1,x2,,x4)', 'the 7-argument insert''s extras');
select contract.ok((select bool_and(ev_time is not null and ev_txid is not null and ev_retry is null) from contract.events),
  'ev_time and ev_txid set, ev_retry NULL');
select contract.eq((select row(extra1, extra2, extra3, extra4)::text from pgque.receive('q', 'c', 10) where msg_id = contract.got('extra')),
  '(x1,x2,,x4)', 'receive returns the extras');
select contract.eq(pgque.ack(contract.got('batch')), 1, 'ack');
