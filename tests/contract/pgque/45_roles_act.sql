-- contract: the roles act as PgQue's: a session as pgque_writer sends but cannot receive (42501), one as pgque_reader receives and acks but cannot send; the functions run with their owner's rights, so neither needs rights on PgQue's tables or internal functions.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
grant usage on schema contract to public;
set role pgque_writer;
select contract.ok(pgque.send('q', 'x') > 0, 'a writer sends');
select contract.ok(pgque.send_batch('q', 'job', array['y', 'z']) is not null, 'and sends a batch');
select contract.expect_error($$select * from pgque.receive('q', 'c', 10)$$, '42501', 'permission denied for function receive');
reset role;
select pgque.force_next_tick('q');
select pgque.ticker('q');
set role pgque_reader;
select contract.eq((select string_agg(payload, ',' order by msg_id) from pgque.receive('q', 'c', 10)), 'x,y,z', 'a reader receives');
select contract.eq((select pgque.ack(current_batch) from pgque.get_consumer_info('q', 'c')), 1, 'and acks');
select contract.expect_error($$select pgque.send('q', 'w')$$, '42501', 'permission denied for function send');
reset role;
