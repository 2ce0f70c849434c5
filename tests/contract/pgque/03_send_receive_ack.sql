-- contract: send, ticker, receive and ack, each committed on its own, deliver each event once as a pgque.message, and ack closes the batch.
select pgque.create_queue('orders');
select contract.eq(pgque.subscribe('orders', 'worker'), 1, 'subscribe of a new consumer');
select contract.eq(pgque.subscribe('orders', 'worker'), 0, 'subscribe again returns 0');
select contract.put('e1', pgque.send('orders', 'order.created', 'first'));
select contract.put('e2', pgque.send('orders', 'second'));
select contract.ok(contract.got('e2') > contract.got('e1'), 'event ids grow');
select pgque.force_next_tick('orders');
select contract.ok(pgque.ticker('orders') is not null, 'the forced tick is made');
create table contract.got_messages as select * from pgque.receive('orders', 'worker', 100);
select contract.eq((select count(*) from contract.got_messages), 2::bigint, 'both events received');
select contract.eq((select count(distinct batch_id) from contract.got_messages), 1::bigint, 'in one batch');
select contract.put('batch', (select min(batch_id) from contract.got_messages));
select contract.eq((select type from contract.got_messages where msg_id = contract.got('e1')),
  'order.created', 'the type given to send');
select contract.eq((select type from contract.got_messages where msg_id = contract.got('e2')),
  'default', 'the 2-argument send''s type');
select contract.eq((select payload from contract.got_messages where msg_id = contract.got('e1')),
  'first', 'the payload');
select contract.eq((select count(*) from contract.got_messages where retry_count is null), 2::bigint,
  'retry_count is NULL on the first delivery');
select contract.eq((select count(*) from contract.got_messages
                     where created_at is not null and extra1 is null and extra2 is null
                       and extra3 is null and extra4 is null), 2::bigint,
  'created_at set, extras NULL');
-- The batch stays the consumer's until it is acked: receive returns it again.
select contract.eq((select count(*) from pgque.receive('orders', 'worker', 100)
                     where batch_id = contract.got('batch')), 2::bigint,
  'an unacked batch is received again');
select contract.eq((select current_batch from pgque.get_consumer_info('orders', 'worker')),
  contract.got('batch'), 'get_consumer_info shows the open batch');
select contract.eq(pgque.ack(contract.got('batch')), 1, 'ack of the open batch');
select contract.eq(pgque.ack(contract.got('batch')), 0, 'ack of a closed batch returns 0');
select contract.eq((select current_batch from pgque.get_consumer_info('orders', 'worker')),
  null::bigint, 'no open batch after ack');
-- Nothing new: no batch, no rows.
select contract.eq((select count(*) from pgque.receive('orders', 'worker', 100)), 0::bigint,
  'nothing left to receive');
