-- contract: maint_retry_events moves at most 10 due retries per call (call it until it returns 0), and maint() does not move retries at all.
select pgque.create_queue('jobs');
select pgque.subscribe('jobs', 'worker');
select pgque.send_batch('jobs', array(select 'job ' || g from generate_series(1, 15) g));
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
select contract.eq(count(*), 15::bigint, 'fifteen nacks')
  from (select pgque.nack(m.batch_id, m, interval '0 seconds') from pgque.receive('jobs', 'worker', 100) m) n;
select pgque.ack(current_batch) from pgque.get_consumer_info('jobs', 'worker');
-- maint() is rotation and the queues' extra maintenance, not the retry job.
select pgque.maint();
select pgque.maint();
select contract.eq(pgque.maint_retry_events(), 10, 'the first call moves 10');
select contract.eq(pgque.maint_retry_events(), 5, 'the second moves the other 5');
select contract.eq(pgque.maint_retry_events(), 0, 'the third finds none');
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
select contract.eq(count(*), 15::bigint, 'all fifteen come back, each retried once')
  from pgque.receive('jobs', 'worker', 100) where retry_count = 1;
