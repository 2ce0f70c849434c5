-- contract: receive_coop registers its group and member on first use, gives each member a batch of its own from the group's one cursor, returns an empty window with no batch left open, and with dead_interval hands a stale member's batch to another member under a new batch id.
select pgque.create_queue('q');
select contract.eq(count(*), 0::bigint, 'a cold receive_coop: nothing yet') from pgque.receive_coop('q', 'g', 'w1');
select contract.eq(pgque.touch_subconsumer('q', 'g', 'w1'), 1, 'it registered the member');
select contract.eq(pgque.register_subconsumer('q', 'g', 'w1'), 0, 'and its group: registering them again returns 0');
select pgque.send('q', 'a');
select pgque.ticker('q');
select contract.put('b1', m.batch_id), contract.eq(m.payload, 'a', 'w1 gets the first window')
  from pgque.receive_coop('q', 'g', 'w1') m;
select pgque.send_batch('q', array['b', 'c']);
select pgque.force_next_tick('q');
select contract.put('t3', pgque.ticker('q'));
create table contract.w2 as select * from pgque.receive_coop('q', 'g', 'w2');
select contract.eq((select string_agg(payload, ',' order by msg_id) from contract.w2), 'b,c',
  'w2, new, gets the next window while w1 holds its batch');
select contract.ok((select min(batch_id) from contract.w2) <> contract.got('b1'), 'a batch of its own');
select contract.eq((select string_agg(payload || '@' || (batch_id = contract.got('b1'))::text, ',') from pgque.receive_coop('q', 'g', 'w1')),
  'a@true', 'w1 gets its open batch again');
select contract.eq((select last_tick from pgque.get_consumer_info('q', 'g')), contract.got('t3'),
  'the group''s cursor moved past both windows as they were handed out');
select contract.eq(pgque.ack(contract.got('b1')), 1, 'w1 acks');
select contract.eq(pgque.ack((select min(batch_id) from contract.w2)), 1, 'w2 acks');
select contract.eq((select count(*) from pgque.get_consumer_info('q') where current_batch is not null), 0::bigint,
  'no batch open');
-- A window without events: nothing returned, nothing left open.
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.eq(count(*), 0::bigint, 'an empty window') from pgque.receive_coop('q', 'g', 'w1');
select contract.eq((select current_batch from pgque.get_consumer_info('q', 'g.w1')), null::bigint,
  'receive_coop finished the empty batch itself');
-- A member that goes quiet with a batch: after dead_interval another member takes it over.
select pgque.send('q', 'd');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.put('b_w1', m.batch_id) from pgque.receive_coop('q', 'g', 'w1') m;
-- @wait 2
select contract.eq(count(*), 0::bigint, 'within dead_interval (1 hour) w2 does not take it')
  from pgque.receive_coop('q', 'g', 'w2', 100, interval '1 hour');
select contract.put('b_w2', m.batch_id), contract.eq(m.payload, 'd', 'past dead_interval (1 s) w2 takes w1''s window')
  from pgque.receive_coop('q', 'g', 'w2', 100, interval '1 second') m;
select contract.ok(contract.got('b_w2') <> contract.got('b_w1'), 'under a new batch id');
select contract.eq(pgque.ack(contract.got('b_w1')), 0, 'w1''s old batch id no longer acks');
select contract.eq(pgque.ack(contract.got('b_w2')), 1, 'w2''s does');
-- The cooperative primitives, and their refusals.
select contract.eq(pgque.next_batch('q', 'g', 'w1'), null::bigint, 'cooperative next_batch: nothing to hand out');
select contract.eq((select row(i.*)::text from pgque.next_batch_custom('q', 'g', 'w1', null, null, null) i), '(,,)',
  'cooperative next_batch_custom: (batch_id, prev_tick_id, next_tick_id), all NULL');
select contract.expect_error($$select * from pgque.receive_coop('q', 'g', 'w1', 0)$$, 'P0001',
  'pgque.receive_coop: max_return must be >= 1, got 0');
select contract.expect_error($$select * from pgque.receive_coop('nope', 'g', 'w1')$$, 'P0001', 'Event queue not created yet');
select contract.expect_error($$select pgque.register_subconsumer('q', 'g.x', 'w')$$, 'P0001',
  'cooperative consumer name must not contain dot: g.x');
select contract.expect_error($$select pgque.register_subconsumer('q', 'g', 'w.x')$$, 'P0001',
  'cooperative subconsumer name must not contain dot: w.x');
select contract.expect_error($$select pgque.register_subconsumer('q', 'g', '')$$, 'P0001', 'subconsumer name must not be empty');
select contract.expect_error($$select pgque.register_subconsumer('q', '', 'w')$$, 'P0001', 'consumer name must not be empty');
select contract.expect_error($$select pgque.register_subconsumer('', 'g', 'w')$$, 'P0001', 'queue name must not be empty');
select contract.eq(pgque.unregister_subconsumer('nope', 'g', 'w1'), 0, 'unregister_subconsumer on an unknown queue');
select contract.eq(pgque.unregister_subconsumer('q', 'g', 'nobody'), 0, 'unregister_subconsumer of an unknown member');
select contract.eq(pgque.subscribe_subconsumer('q', 'g', 'w3'), 1, 'subscribe_subconsumer: register_subconsumer''s alias');
select contract.eq(pgque.unsubscribe_subconsumer('q', 'g', 'w3'), 1, 'unsubscribe_subconsumer: unregister_subconsumer''s alias');
