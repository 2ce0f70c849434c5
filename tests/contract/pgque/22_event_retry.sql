-- contract: event_retry puts one event of an open batch on the retry queue, by seconds from now or at a timestamp, returns 1, and returns 0 for an event already queued for retry.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select contract.put('e1', pgque.send('q', 'one'));
select contract.put('e2', pgque.send('q', 'two'));
select contract.put('e3', pgque.send('q', 'three'));
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.put('batch', pgque.next_batch('q', 'c'));
select contract.eq(pgque.event_retry(contract.got('batch'), contract.got('e1'), 0), 1, 'by seconds, due now');
select contract.eq(pgque.event_retry(contract.got('batch'), contract.got('e1'), 0), 0, 'the same event again');
select contract.eq(pgque.event_retry(contract.got('batch'), contract.got('e2'), now() + interval '1 hour'), 1, 'at a timestamp, an hour away');
select contract.eq(pgque.event_retry(contract.got('batch'), contract.got('e3'), timestamptz '2000-01-01 00:00:00+00'), 1, 'at a past timestamp');
select contract.eq(pgque.event_retry(contract.got('batch'), contract.got('e2'), 0), 0, 'e2 is already queued');
select pgque.ack(contract.got('batch'));
select contract.eq(pgque.maint_retry_events(), 2, 'e1 and e3 are due, e2 is not');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.eq((select string_agg(payload || ':' || retry_count, ',' order by msg_id) from pgque.receive('q', 'c', 10)),
  'one:1,three:1', 'e1 and e3 come back retried once');
