-- contract: ticker() with no argument ticks every queue that is due and returns how many it ticked; a queue with only its create_queue tick is always due.
select pgque.create_queue('a');
select pgque.create_queue('b');
select pgque.create_queue('c');
select pgque.send('a', 'x');
select pgque.send('b', 'y');
-- a and b hold their first event; c holds none, but its one tick (from create_queue) has
-- no tick before it to pace an idle queue by, so it ticks too.
select contract.eq(pgque.ticker(), 3::bigint, 'ticker() counts the queues it ticked');
-- Now every queue has two ticks and no new event: none is due right after.
select contract.eq(pgque.ticker(), 0::bigint, 'nothing is due right after');
select contract.eq(pgque.ticker('c'), null::bigint, 'ticker(queue) returns NULL when no tick is due');
