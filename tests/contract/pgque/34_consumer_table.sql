-- contract: pgque.consumer holds one row per consumer name with a subscription on any queue (a cooperative member's as '<group>.<member>'); the last unsubscribe deletes the name and its dead letters with it, and drop_queue(queue, true) does the same.
select pgque.create_queue('a');
select pgque.create_queue('b');
select contract.eq((select count(*) from pgque.consumer), 0::bigint, 'no consumer yet');
select pgque.subscribe('a', 'c');
select pgque.subscribe('b', 'c');
select contract.eq((select count(*) from pgque.consumer where co_name = 'c'), 1::bigint, 'one row for a name on two queues');
select pgque.register_subconsumer('a', 'g', 'm1');
select contract.eq((select string_agg(co_name, ',' order by co_name) from pgque.consumer), 'c,g,g.m1', 'a group and its member by name');
-- A dead letter for c on a: max_retries 0, one nack.
select pgque.set_queue_config('a', 'max_retries', '0');
select contract.put('ev', pgque.send('a', 'poison'));
select pgque.ticker('a');
select contract.eq(pgque.nack(m.batch_id, m, interval '0 seconds', 'bad'), 1, 'nack past max_retries')
  from pgque.receive('a', 'c', 10) m;
select pgque.ack(current_batch) from pgque.get_consumer_info('a', 'c');
select contract.eq((select c.co_name from pgque.dead_letter d join pgque.consumer c on c.co_id = d.dl_consumer_id
                     where d.ev_id = contract.got('ev')), 'c', 'the dead letter names c by id');
-- Still subscribed to b: the name and its dead letter stay.
select contract.eq(pgque.unsubscribe('a', 'c'), 1, 'unsubscribe c from a');
select contract.eq((select count(*) from pgque.dead_letter), 1::bigint, 'c is still on b: its dead letter stays');
-- The last subscription goes: the name goes, and its dead letters with it.
select contract.eq(pgque.unsubscribe('b', 'c'), 1, 'unsubscribe c from b');
select contract.eq((select count(*) from pgque.consumer where co_name = 'c'), 0::bigint, 'the name is gone');
select contract.eq((select count(*) from pgque.dead_letter), 0::bigint, 'and its dead letter with it');
-- A member unregistered: its name goes, the group's stays.
select contract.eq(pgque.unregister_subconsumer('a', 'g', 'm1'), 1, 'the member goes');
select contract.eq((select string_agg(co_name, ',' order by co_name) from pgque.consumer), 'g', 'only the group is left');
-- drop_queue with force unsubscribes every consumer: no name is left.
select contract.eq(pgque.drop_queue('a', true), 1, 'drop a with its consumers');
select contract.eq((select count(*) from pgque.consumer), 0::bigint, 'no consumer is left');
