-- contract: batch_retry puts every event of an open batch not already queued for retry on the retry queue and returns how many it queued.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select contract.put('e1', pgque.send('q', 'one'));
select pgque.send_batch('q', array['two', 'three']);
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.put('batch', pgque.next_batch('q', 'c'));
select contract.eq(pgque.event_retry(contract.got('batch'), contract.got('e1'), 3600), 1, 'one event queued an hour away');
select contract.eq(pgque.batch_retry(contract.got('batch'), 0), 2, 'batch_retry queues the other two');
select contract.eq(pgque.batch_retry(contract.got('batch'), 0), 0, 'and then none');
select pgque.ack(contract.got('batch'));
select contract.eq(pgque.maint_retry_events(), 2, 'the two due ones move');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.eq((select string_agg(payload || ':' || retry_count, ',' order by msg_id) from pgque.receive('q', 'c', 10)),
  'two:1,three:1', 'retried once');
