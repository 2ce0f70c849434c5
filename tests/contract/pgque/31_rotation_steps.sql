-- contract: maint() runs rotation step 1 only: a queue past its rotation_period switches to its next event table when no consumer is still on the old one (at once when it has no consumer), and it cannot switch again until maint_rotate_tables_step2() has run in a later transaction.
select pgque.create_queue('lonely');
select pgque.create_queue('busy');
select pgque.set_queue_config('lonely', 'rotation_period', '1 second');
select pgque.set_queue_config('busy', 'rotation_period', '1 second');
select pgque.subscribe('busy', 'c');
-- @wait 2
select pgque.maint();
select contract.eq((select queue_cur_table from pgque.get_queue_info('lonely')), 1,
  'a queue without consumers rotates');
select contract.eq((select queue_cur_table from pgque.get_queue_info('busy')), 0,
  'a consumer still at the first tick holds its queue on the first table');
-- @wait 2
select pgque.maint();
select contract.eq((select queue_cur_table from pgque.get_queue_info('lonely')), 1,
  'maint() alone does not rotate again: step 2 has not run');
select contract.eq(pgque.maint_rotate_tables_step2(), 0, 'step 2 returns 0');
-- The consumer moves past a tick taken after step 2.
select pgque.send('busy', 'x');
select pgque.ticker('busy');
select contract.eq(pgque.ack(m.batch_id), 1, 'c reads and acks') from pgque.receive('busy', 'c', 10) m;
-- @wait 2
select pgque.maint();
select contract.eq((select queue_cur_table from pgque.get_queue_info('lonely')), 2, 'after step 2, the next rotation');
select contract.eq((select queue_cur_table from pgque.get_queue_info('busy')), 1,
  'the consumer left the old table: its queue rotates');
