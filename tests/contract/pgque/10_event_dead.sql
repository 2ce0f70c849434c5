-- contract: the 12-argument event_dead writes one dead-letter row for an open batch's consumer from the values it is given (extras default to NULL), once per event, and refuses a batch that is not open.
select pgque.create_queue('jobs');
select pgque.subscribe('jobs', 'worker');
select contract.put('event', pgque.send('jobs', 'job.run', 'original'));
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
select contract.put('batch', m.batch_id) from pgque.receive('jobs', 'worker', 100) m;
select contract.eq(pgque.event_dead(contract.got('batch'), contract.got('event'), 'by hand',
                                    timestamptz '2026-01-01 00:00:00+00', null::xid8, 4, 'given.type', 'given data'),
                   1, 'event_dead with 8 arguments');
select contract.eq(pgque.event_dead(contract.got('batch'), contract.got('event'), 'twice',
                                    timestamptz '2026-01-01 00:00:00+00', null::xid8, 4, 'given.type', 'given data'),
                   1, 'event_dead of the same event again');
select contract.eq(count(*), 1::bigint, 'one row for one event') from pgque.dead_letter;
create table contract.row1 as select * from pgque.dead_letter where ev_id = contract.got('event');
select contract.eq((select dl_reason || '|' || ev_type || '|' || ev_data from contract.row1),
  'by hand|given.type|given data', 'the values given, not the event''s');
select contract.eq((select ev_retry from contract.row1), 4, 'ev_retry as given');
select contract.eq((select ev_time from contract.row1), timestamptz '2026-01-01 00:00:00+00', 'ev_time as given');
select contract.ok((select ev_txid is null and ev_extra1 is null and ev_extra4 is null from contract.row1),
  'ev_txid NULL as given, extras default to NULL');
select contract.eq((select dl_consumer_id from contract.row1),
  (select co_id from pgque.consumer where co_name = 'worker'), 'the batch''s consumer');
-- Any event id is taken: event_dead does not look the event up.
select contract.eq(pgque.event_dead(contract.got('batch'), 424242, null, now(), '77'::xid8, null,
                                    null, null, 'e1', 'e2', 'e3', 'e4'), 1, 'event_dead with all 12 arguments');
select contract.eq((select ev_extra1 || ev_extra2 || ev_extra3 || ev_extra4 || '|' || ev_txid::text
                      from pgque.dead_letter where ev_id = 424242), 'e1e2e3e4|77', 'extras and ev_txid');
select contract.eq((select dl_reason from pgque.dead_letter where ev_id = 424242), null::text, 'a NULL reason stays NULL');
select contract.eq(pgque.ack(contract.got('batch')), 1, 'ack');
select contract.expect_error(format('select pgque.event_dead(%s, 1, null, now(), null, null, null, null)', contract.got('batch')),
  'P0001', format('batch not found: %s', contract.got('batch')));
