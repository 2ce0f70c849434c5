-- contract: the info functions' out columns and pgque.message's fields have PgQue's names, types and order, and a new queue has PgQue's defaults (3 tables, 2 hours rotation, ticker 500 events / 3 seconds / 1 minute idle).
create function contract.out_columns(fn regprocedure) returns text
language sql stable as $$
  select string_agg(u.name || ' ' || format_type(u.type, null), ', ' order by u.ord)
    from pg_proc p,
         unnest(p.proargnames, p.proargmodes, p.proallargtypes) with ordinality u(name, mode, type, ord)
   where p.oid = fn and u.mode in ('o', 't')
$$;
select contract.eq(contract.out_columns('pgque.get_queue_info(text)'),
  'queue_name text, queue_ntables integer, queue_cur_table integer, queue_rotation_period interval, '
  'queue_switch_time timestamp with time zone, queue_external_ticker boolean, queue_ticker_paused boolean, '
  'queue_ticker_max_count integer, queue_ticker_max_lag interval, queue_ticker_idle_period interval, '
  'ticker_lag interval, ev_per_sec double precision, ev_new bigint, last_tick_id bigint', 'get_queue_info(text)');
select contract.eq(contract.out_columns('pgque.get_queue_info()'), contract.out_columns('pgque.get_queue_info(text)'),
  'get_queue_info()');
select contract.eq(contract.out_columns('pgque.get_consumer_info(text,text)'),
  'queue_name text, consumer_name text, lag interval, last_seen interval, last_tick bigint, '
  'current_batch bigint, next_tick bigint, pending_events bigint', 'get_consumer_info(text, text)');
select contract.eq(contract.out_columns('pgque.get_consumer_info(text)'), contract.out_columns('pgque.get_consumer_info(text,text)'),
  'get_consumer_info(text)');
select contract.eq(contract.out_columns('pgque.get_consumer_info()'), contract.out_columns('pgque.get_consumer_info(text,text)'),
  'get_consumer_info()');
select contract.eq(contract.out_columns('pgque.get_batch_info(bigint)'),
  'queue_name text, consumer_name text, batch_start timestamp with time zone, batch_end timestamp with time zone, '
  'prev_tick_id bigint, tick_id bigint, lag interval, seq_start bigint, seq_end bigint', 'get_batch_info');
select contract.eq(contract.out_columns('pgque.next_batch_info(text,text)'),
  'batch_id bigint, cur_tick_id bigint, prev_tick_id bigint, cur_tick_time timestamp with time zone, '
  'prev_tick_time timestamp with time zone, cur_tick_event_seq bigint, prev_tick_event_seq bigint', 'next_batch_info');
select contract.eq(contract.out_columns('pgque.next_batch_custom(text,text,interval,integer,interval)'),
  contract.out_columns('pgque.next_batch_info(text,text)'), 'next_batch_custom');
select contract.eq(contract.out_columns('pgque.dlq_replay_all(text)'),
  'replayed bigint, failed bigint, first_error text', 'dlq_replay_all');
select contract.eq(contract.out_columns('pgque.get_batch_events(bigint)'),
  'ev_id bigint, ev_time timestamp with time zone, ev_txid bigint, ev_retry integer, ev_type text, ev_data text, '
  'ev_extra1 text, ev_extra2 text, ev_extra3 text, ev_extra4 text', 'get_batch_events');
select contract.eq((select string_agg(attname || ' ' || format_type(atttypid, null), ', ' order by attnum)
                      from pg_attribute where attrelid = 'pgque.message'::regclass and attnum > 0 and not attisdropped),
  'msg_id bigint, batch_id bigint, type text, payload text, retry_count integer, created_at timestamp with time zone, '
  'extra1 text, extra2 text, extra3 text, extra4 text', 'pgque.message');
select contract.eq(pg_get_function_result('pgque.receive(text,text,integer)'::regprocedure), 'SETOF pgque.message', 'receive');
select contract.eq(pg_get_function_result('pgque.dlq_inspect(text,integer)'::regprocedure), 'SETOF pgque.dead_letter', 'dlq_inspect');
select contract.eq((select string_agg(attname || ' ' || format_type(atttypid, null), ', ' order by attnum)
                      from pg_attribute where attrelid = 'pgque.dead_letter'::regclass and attnum > 0 and not attisdropped),
  'dl_id bigint, dl_queue_id integer, dl_consumer_id integer, dl_time timestamp with time zone, dl_reason text, '
  'ev_id bigint, ev_time timestamp with time zone, ev_txid xid8, ev_retry integer, ev_type text, ev_data text, '
  'ev_extra1 text, ev_extra2 text, ev_extra3 text, ev_extra4 text', 'pgque.dead_letter');
-- A new queue's defaults.
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
