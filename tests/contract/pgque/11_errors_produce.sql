-- contract: the produce functions refuse an unknown queue with P0001 'queue not found: <queue>' and a NULL payload array with 'payloads must not be null'; an empty array returns {} without looking the queue up.
select pgque.create_queue('q');
select contract.expect_error($$select pgque.send('nope', 'x')$$, 'P0001', 'queue not found: nope');
select contract.expect_error($$select pgque.send('nope', 'type', 'x')$$, 'P0001', 'queue not found: nope');
select contract.expect_error($$select pgque.send('nope', '{"a": 1}'::jsonb)$$, 'P0001', 'queue not found: nope');
select contract.expect_error($$select pgque.send('nope', 'type', '{"a": 1}'::jsonb)$$, 'P0001', 'queue not found: nope');
select contract.expect_error($$select pgque.send_batch('nope', array['x'])$$, 'P0001', 'queue not found: nope');
select contract.expect_error($$select pgque.send_batch('nope', 'type', array['{}']::jsonb[])$$, 'P0001', 'queue not found: nope');
select contract.expect_error($$select pgque.insert_event('nope', 'type', 'x')$$, 'P0001', 'queue not found: nope');
select contract.expect_error($$select pgque.insert_event('nope', 'type', 'x', 'a', 'b', 'c', 'd')$$, 'P0001', 'queue not found: nope');
select contract.expect_error($$select pgque.send_batch('q', null::text[])$$, 'P0001', 'payloads must not be null');
select contract.expect_error($$select pgque.send_batch('q', 'type', null::jsonb[])$$, 'P0001', 'payloads must not be null');
select contract.eq(pgque.send_batch('nope', array[]::text[]), '{}'::bigint[], 'an empty text array, even for an unknown queue');
select contract.eq(pgque.send_batch('nope', 'type', array[]::jsonb[]), '{}'::bigint[], 'an empty jsonb array');
-- Nothing was written by the refused calls.
select contract.eq((select ev_new from pgque.get_queue_info('q')), 0::bigint, 'no event in q');
