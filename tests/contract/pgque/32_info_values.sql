-- contract: a new queue has PgQue's defaults (3 tables, 2 hours rotation, ticker 500 events / 3 seconds / 1 minute idle, first tick 1), the info functions return no row for an unknown queue, and their lags count from the last tick and the consumer's last activity.
select pgque.create_queue('q');
select contract.eq((select row(queue_name, queue_ntables, queue_cur_table, queue_rotation_period, queue_external_ticker,
                               queue_ticker_paused, queue_ticker_max_count, queue_ticker_max_lag,
                               queue_ticker_idle_period, ev_new, last_tick_id)::text
                      from pgque.get_queue_info('q')),
  '(q,3,0,02:00:00,f,f,500,00:00:03,00:01:00,0,1)', 'a new queue');
select contract.eq((select ev_per_sec from pgque.get_queue_info('q')), null::float8, 'ev_per_sec needs two ticks');
select contract.eq((select count(*) from pgque.get_queue_info('nope')), 0::bigint, 'get_queue_info of an unknown queue: no row');
select contract.eq((select count(*) from pgque.get_consumer_info('nope')), 0::bigint, 'get_consumer_info of an unknown queue: no row');
select pgque.subscribe('q', 'c');
-- @wait 1
select contract.ok((select ticker_lag >= interval '1 second' from pgque.get_queue_info('q')), 'ticker_lag: time since the last tick');
select contract.eq((select row(queue_name, consumer_name, last_tick, current_batch, next_tick, pending_events)::text
                      from pgque.get_consumer_info('q', 'c')),
  '(q,c,1,,,0)', 'a new consumer');
select contract.ok((select lag >= interval '1 second' and last_seen >= interval '1 second' from pgque.get_consumer_info('q', 'c')),
  'lag (since its tick) and last_seen (since it was active)');
