-- contract: every subscribed consumer receives every event, each in its own batch, and one consumer's ack does not move another.
select pgque.create_queue('orders');
select pgque.subscribe('orders', 'billing');
select pgque.subscribe('orders', 'email');
select pgque.send_batch('orders', array['a', 'b', 'c']::text[]);
select pgque.force_next_tick('orders');
select pgque.ticker('orders');
create table contract.billing as select * from pgque.receive('orders', 'billing', 100);
create table contract.email as select * from pgque.receive('orders', 'email', 100);
select contract.eq((select string_agg(payload, ',' order by msg_id) from contract.billing), 'a,b,c',
  'billing receives every event');
select contract.eq((select string_agg(payload, ',' order by msg_id) from contract.email), 'a,b,c',
  'email receives every event');
select contract.ok((select min(batch_id) from contract.billing) <> (select min(batch_id) from contract.email),
  'each consumer has a batch of its own');
select contract.eq(pgque.ack((select min(batch_id) from contract.billing)), 1, 'billing acks');
select contract.eq((select current_batch from pgque.get_consumer_info('orders', 'billing')), null::bigint,
  'billing''s batch is closed');
select contract.eq((select current_batch from pgque.get_consumer_info('orders', 'email')),
  (select min(batch_id) from contract.email), 'email''s batch is still open');
select contract.ok((select last_tick from pgque.get_consumer_info('orders', 'email'))
                   < (select last_tick from pgque.get_consumer_info('orders', 'billing')),
  'billing''s position moved past email''s');
select contract.eq((select count(*) from pgque.receive('orders', 'email', 100)), 3::bigint,
  'email''s batch is still open to it');
select contract.eq(pgque.ack((select min(batch_id) from contract.email)), 1, 'email acks');
select contract.eq((select count(*) from pgque.get_consumer_info('orders')), 2::bigint,
  'get_consumer_info(queue) lists both consumers');
