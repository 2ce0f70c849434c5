-- contract: only a transaction that has a transaction id holds rotation back: a read-only REPEATABLE READ transaction held open in another session does not, while one that took an id before step 2 does, until it ends.
select pgque.create_queue('q');
select pgque.set_queue_config('q', 'rotation_period', '1 second');
select pgque.subscribe('q', 'c');
-- A reporting transaction: read-only, REPEATABLE READ, its snapshot taken, left open.
-- @session2 begin isolation level repeatable read read only
-- @session2 select count(*) from pgque.get_queue_info()
select contract.eq(pgque.send('q', 'one') > 0, true, 'send');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.eq(pgque.ack(m.batch_id), 1, 'c reads and acks') from pgque.receive('q', 'c', 10) m;
-- @wait 2
select pgque.maint();
select contract.eq((select queue_cur_table from pgque.get_queue_info('q')), 1,
  'the read-only REPEATABLE READ transaction did not hold rotation back');
-- @session2 commit
-- Now a transaction with an id, open since before step 2.
-- @session2 begin
-- @session2 select pg_current_xact_id()
select contract.eq(pgque.maint_rotate_tables_step2(), 0, 'step 2, in a later transaction');
select pgque.send('q', 'two');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.eq(pgque.ack(m.batch_id), 1, 'c reads and acks again') from pgque.receive('q', 'c', 10) m;
-- @wait 2
select pgque.maint();
select contract.eq((select queue_cur_table from pgque.get_queue_info('q')), 1,
  'the transaction with an id holds rotation back');
-- @session2 rollback
select pgque.send('q', 'three');
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.eq(pgque.ack(m.batch_id), 1, 'c reads and acks a batch cut after it ended') from pgque.receive('q', 'c', 10) m;
-- @wait 2
select pgque.maint();
select contract.eq((select queue_cur_table from pgque.get_queue_info('q')), 2,
  'once it ended, the queue rotates');
