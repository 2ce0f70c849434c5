-- contract: register_consumer_at registers a consumer at a given tick, so it receives what came after that tick; for a registered consumer it moves the position there, drops its open batch and returns 0.
select pgque.create_queue('q');
select pgque.subscribe('q', 'early');
select contract.put('t1', (select last_tick_id from pgque.get_queue_info('q')));
select pgque.send('q', 'one');
select contract.put('t2', pgque.ticker('q'));
select pgque.send('q', 'two');
select pgque.force_next_tick('q');
select contract.put('t3', pgque.ticker('q'));
-- A new consumer registered at t2 sees 'two' only; one registered by subscribe starts at t3.
select contract.eq(pgque.register_consumer_at('q', 'from_t2', contract.got('t2')), 1, 'a new registration at t2');
select contract.eq(pgque.register_consumer('q', 'now'), 1, 'register_consumer starts at the last tick');
select contract.eq((select last_tick from pgque.get_consumer_info('q', 'from_t2')), contract.got('t2'), 'positioned at t2');
select contract.eq((select last_tick from pgque.get_consumer_info('q', 'now')), contract.got('t3'), 'positioned at t3');
select contract.eq((select string_agg(payload, ',') from pgque.receive('q', 'from_t2', 10)), 'two', 'from t2: the event after it');
select contract.eq((select count(*) from pgque.receive('q', 'now', 10)), 0::bigint, 'from t3: nothing');
-- early reads its first batch (t1..t2) and, with that batch open, is moved back to t1.
select contract.eq((select string_agg(payload, ',') from pgque.receive('q', 'early', 10)), 'one', 'early''s first batch');
select contract.ok((select current_batch is not null from pgque.get_consumer_info('q', 'early')), 'early has an open batch');
select contract.eq(pgque.register_consumer_at('q', 'early', contract.got('t1')), 0, 'an existing registration returns 0');
select contract.eq((select row(last_tick, current_batch, next_tick)::text from pgque.get_consumer_info('q', 'early')),
  format('(%s,,)', contract.got('t1')), 'back at t1, no open batch');
select contract.eq((select string_agg(payload, ',') from pgque.receive('q', 'early', 10)), 'one', 'the first batch again');
select contract.eq(pgque.register_consumer('q', 'early'), 0, 'register_consumer of a registered consumer: 0, position kept');
select contract.eq((select last_tick from pgque.get_consumer_info('q', 'early')), contract.got('t1'), 'still at t1');
