-- contract: get_batch_info describes an open batch (queue, consumer, its two ticks' times, ids and event sequence values, and lag since its end tick); after ack it returns a row of NULLs.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select contract.put('t1', (select last_tick_id from pgque.get_queue_info('q')));
select pgque.send('q', 'x');
select contract.put('t2', pgque.ticker('q'));
-- @wait 1
select contract.put('batch', pgque.next_batch('q', 'c'));
create table contract.info as select * from pgque.get_batch_info(contract.got('batch'));
select contract.eq((select queue_name || '/' || consumer_name from contract.info), 'q/c', 'queue and consumer');
select contract.eq((select prev_tick_id from contract.info), contract.got('t1'), 'prev_tick_id');
select contract.eq((select tick_id from contract.info), contract.got('t2'), 'tick_id');
select contract.ok((select batch_start <= batch_end from contract.info), 'batch_start (prev tick time) <= batch_end (tick time)');
select contract.ok((select lag >= interval '1 second' from contract.info), 'lag: time since the end tick');
select contract.ok((select seq_start <= seq_end from contract.info), 'seq_start <= seq_end');
select contract.eq((select row(batch_start, batch_end, seq_start, seq_end)::text from contract.info),
  (select row(prev_tick_time, cur_tick_time, prev_tick_event_seq, cur_tick_event_seq)::text from pgque.next_batch_info('q', 'c')),
  'the bounds next_batch_info gives');
select pgque.ack(contract.got('batch'));
select contract.eq((select row(i.*)::text from pgque.get_batch_info(contract.got('batch')) i), '(,,,,,,,,)',
  'an acked batch: a row of NULLs');
