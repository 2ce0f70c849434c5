-- contract: unsubscribe (and unregister_consumer) returns 0 for a consumer that is not subscribed or a queue that does not exist, and 1 for a subscribed consumer, whose pending retries go with it.
select pgque.create_queue('q');
select contract.eq(pgque.unsubscribe('q', 'nobody'), 0, 'unsubscribe of a consumer never subscribed');
select contract.eq(pgque.unsubscribe('nope', 'nobody'), 0, 'unsubscribe on an unknown queue');
select contract.eq(pgque.unregister_consumer('q', 'nobody'), 0, 'unregister_consumer of a consumer never subscribed');
select pgque.create_queue('other');
select pgque.subscribe('other', 'c');
select contract.eq(pgque.unsubscribe('q', 'c'), 0, 'c is subscribed to another queue only');
select pgque.subscribe('q', 'c');
select pgque.send('q', 'x');
select pgque.ticker('q');
select contract.eq(pgque.nack(m.batch_id, m, interval '0 seconds'), 1, 'nack, due at once')
  from pgque.receive('q', 'c', 10) m;
select pgque.ack(current_batch) from pgque.get_consumer_info('q', 'c');
select contract.eq(pgque.unsubscribe('q', 'c'), 1, 'unsubscribe of a subscribed consumer');
select contract.eq(pgque.maint_retry_events(), 0, 'its retry went with it');
select contract.eq(pgque.unsubscribe('q', 'c'), 0, 'unsubscribe again');
select contract.eq((select count(*) from pgque.get_consumer_info('q')), 0::bigint, 'no consumer on q');
select contract.eq((select count(*) from pgque.get_consumer_info('other', 'c')), 1::bigint, 'c is still on the other queue');
-- Subscribed again, it starts at the current tick: the old event is not delivered.
select contract.eq(pgque.subscribe('q', 'c'), 1, 'subscribe again');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.eq(count(*), 0::bigint, 'nothing from before the new subscription') from pgque.receive('q', 'c', 10);
