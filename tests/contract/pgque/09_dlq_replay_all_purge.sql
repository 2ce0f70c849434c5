-- contract: with max_retries 0 the first nack dead-letters (reason 'max retries exceeded' when none is given); dlq_replay_all returns (replayed, failed, first_error); dlq_purge deletes a queue's dead letters older than its interval (30 days by default).
select pgque.create_queue('jobs');
select pgque.create_queue('other');
select pgque.set_queue_config('jobs', 'max_retries', '0');
select pgque.subscribe('jobs', 'worker');
select pgque.send_batch('jobs', array['a', 'b', 'c']);
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
select contract.eq(count(*), 3::bigint, 'three nacks')
  from (select pgque.nack(m.batch_id, m) from pgque.receive('jobs', 'worker', 100) m) n;
select pgque.ack(current_batch) from pgque.get_consumer_info('jobs', 'worker');
select contract.eq(count(*), 3::bigint, 'all three dead at the first nack, with the default reason')
  from pgque.dlq_inspect('jobs') where dl_reason = 'max retries exceeded' and ev_retry is null;
select contract.eq(count(*), 2::bigint, 'dlq_inspect''s limit_count') from pgque.dlq_inspect('jobs', 2);
-- dlq_replay_all: one row of three columns.
create table contract.replay as select * from pgque.dlq_replay_all('jobs');
select contract.eq((select replayed from contract.replay), 3::bigint, 'replayed');
select contract.eq((select failed from contract.replay), 0::bigint, 'failed');
select contract.eq((select first_error from contract.replay), null::text, 'first_error');
select contract.eq(count(*), 0::bigint, 'the queue''s dead letters are gone') from pgque.dead_letter;
select contract.eq((select replayed::text || '/' || failed::text || '/' || coalesce(first_error, '-')
                      from pgque.dlq_replay_all('other')), '0/0/-', 'a queue with none');
select contract.eq((select replayed::text || '/' || failed::text || '/' || coalesce(first_error, '-')
                      from pgque.dlq_replay_all('no such queue')), '0/0/-', 'an unknown queue');
-- The replayed events are new events: delivered again, dead again at their first nack.
select pgque.force_next_tick('jobs');
select pgque.ticker('jobs');
select contract.eq(count(*), 3::bigint, 'the three replayed events are delivered')
  from (select pgque.nack(m.batch_id, m, interval '0 seconds', 'still bad') from pgque.receive('jobs', 'worker', 100) m) n;
select pgque.ack(current_batch) from pgque.get_consumer_info('jobs', 'worker');
select contract.eq(pgque.dlq_purge('jobs'), 0, 'nothing is 30 days old');
-- @wait 1
select contract.eq(pgque.dlq_purge('jobs', interval '1 hour'), 0, 'nothing is an hour old');
select contract.eq(pgque.dlq_purge('other', interval '0 seconds'), 0, 'another queue''s purge');
select contract.eq(pgque.dlq_purge('jobs', interval '0 seconds'), 3, 'older than 0 seconds: all three');
select contract.eq(pgque.dlq_purge('no such queue', interval '0 seconds'), 0, 'an unknown queue purges nothing');
