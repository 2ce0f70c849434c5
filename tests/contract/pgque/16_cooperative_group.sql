-- contract: a cooperative group (register_subconsumer) cannot be unsubscribed as a whole while it has members, and its main consumer refuses the plain receive/next_batch; touch_subconsumer of an unknown member returns 0; when its last member leaves, the main consumer is a normal consumer again.
select pgque.create_queue('q');
select contract.eq(pgque.register_subconsumer('q', 'group', 'm1'), 1, 'the first member (and the group)');
select contract.eq(pgque.register_subconsumer('q', 'group', 'm2'), 1, 'a second member');
select contract.eq(pgque.register_subconsumer('q', 'group', 'm2'), 0, 'a member registered again');
select contract.expect_error($$select pgque.unsubscribe('q', 'group')$$, 'P0001',
  'cannot unregister cooperative main consumer with registered subconsumers');
select contract.expect_error($$select pgque.unregister_consumer('q', 'group')$$, 'P0001',
  'cannot unregister cooperative main consumer with registered subconsumers');
select contract.eq(pgque.touch_subconsumer('q', 'group', 'm1'), 1, 'touch_subconsumer of a member');
select contract.eq(pgque.touch_subconsumer('q', 'group', 'zz'), 0, 'touch_subconsumer of an unknown member');
select contract.eq(pgque.touch_subconsumer('nope', 'group', 'm1'), 0, 'touch_subconsumer on an unknown queue');
-- The main consumer is the group's cursor, not a worker.
select contract.expect_error($$select * from pgque.receive('q', 'group', 10)$$, 'P0001',
  'consumer group on queue q is a cooperative main consumer; use cooperative receive/next_batch with a subconsumer');
select contract.expect_error($$select pgque.next_batch('q', 'group')$$, 'P0001',
  'consumer group on queue q is a cooperative main consumer; use cooperative receive/next_batch with a subconsumer');
select contract.expect_error($$select * from pgque.next_batch_info('q', 'group')$$, 'P0001',
  'consumer group on queue q is a cooperative main consumer; use cooperative receive/next_batch with a subconsumer');
-- A normal consumer is converted only when asked to.
select pgque.subscribe('q', 'plain');
select contract.expect_error($$select pgque.register_subconsumer('q', 'plain', 'w')$$, 'P0001',
  'consumer plain on queue q is already a normal consumer; explicit conversion is required');
select contract.eq(pgque.register_subconsumer('q', 'plain', 'w', true), 1, 'converted with convert_normal');
-- A member with an open batch stays until its batch is handled.
select pgque.send('q', 'x');
select pgque.ticker('q');
select contract.eq(count(*), 1::bigint, 'm2 receives the event') from pgque.receive_coop('q', 'group', 'm2', 10);
select contract.expect_error($$select pgque.unregister_subconsumer('q', 'group', 'm2')$$, 'P0001',
  'cannot unregister active cooperative subconsumer q/group/m2 without batch_handling = 1');
select contract.expect_error($$select pgque.unregister_subconsumer('q', 'group', 'm2', 2)$$, 'P0001',
  'unsupported batch_handling value: 2');
select contract.eq(pgque.unregister_subconsumer('q', 'group', 'm2', 1), 1, 'batch_handling 1 retries its batch and removes it');
select contract.eq(pgque.touch_subconsumer('q', 'group', 'm2'), 0, 'm2 is gone');
select contract.eq(pgque.unregister_subconsumer('q', 'group', 'm1'), 1, 'the last member leaves');
select contract.eq(pgque.unregister_subconsumer('q', 'group', 'm1'), 0, 'unregister_subconsumer of a member no longer there');
-- No members left: the main consumer receives like any consumer, from where the group was.
select pgque.send('q', 'y');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.eq((select string_agg(payload, ',') from pgque.receive('q', 'group', 10)), 'y',
  'the former main consumer receives the next event');
select pgque.ack(current_batch) from pgque.get_consumer_info('q', 'group');
select contract.eq(pgque.unsubscribe('q', 'group'), 1, 'and unsubscribes like any consumer');
-- Members are consumers named <group>.<member>: get_consumer_info lists them, and the plain
-- API knows them by that name.
select pgque.register_subconsumer('q', 'team', 'a');
select pgque.register_subconsumer('q', 'team', 'b');
select contract.eq((select string_agg(consumer_name, ',' order by consumer_name) from pgque.get_consumer_info('q')),
  'plain,plain.w,team,team.a,team.b', 'the consumers of q');
select contract.expect_error($$select * from pgque.receive('q', 'team.a', 10)$$, 'P0001',
  'consumer team.a on queue q is a cooperative subconsumer; use receive_coop / next_batch (cooperative form) instead of the legacy 5-arg next_batch_custom');
select pgque.send('q', 'z');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.eq(count(*), 1::bigint, 'b receives') from pgque.receive_coop('q', 'team', 'b', 10);
select contract.expect_error($$select pgque.unsubscribe('q', 'team.b')$$, 'P0001',
  'cannot unregister active cooperative subconsumer without forced batch handling');
select contract.eq(pgque.unsubscribe('q', 'team.a'), 1, 'an idle member leaves by unsubscribe under its full name');
select contract.eq(pgque.touch_subconsumer('q', 'team', 'a'), 0, 'a is gone');
