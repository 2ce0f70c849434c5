-- contract: pgque.queue has PgQue's columns in PgQue's order and types; a queue names its event tables' prefix and its two sequences, the tick sequence stands at the newest tick, and queue_disable_insert refuses sends ('Insert into queue disallowed') except in a replica session.
select contract.eq(
  (select string_agg(attname || ' ' || format_type(atttypid, null), ', ' order by attnum)
     from (select * from pg_attribute where attrelid = 'pgque.queue'::regclass and attnum > 0 and not attisdropped
            order by attnum limit 19) a),
  'queue_id integer, queue_name text, queue_ntables integer, queue_cur_table integer, '
  'queue_rotation_period interval, queue_switch_step1 bigint, queue_switch_step2 bigint, '
  'queue_switch_time timestamp with time zone, queue_external_ticker boolean, queue_disable_insert boolean, '
  'queue_ticker_paused boolean, queue_ticker_max_count integer, queue_ticker_max_lag interval, '
  'queue_ticker_idle_period interval, queue_data_pfx text, queue_event_seq text, queue_tick_seq text, '
  'queue_extra_maint text[], queue_max_retries integer',
  'PgQue''s columns of pgque.queue, in order');
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select contract.eq((select queue_data_pfx || ' ' || queue_event_seq || ' ' || queue_tick_seq from pgque.queue where queue_name = 'q'),
  format('pgque.event_%s pgque.event_%s_id_seq pgque.event_%s_tick_seq', q.queue_id, q.queue_id, q.queue_id),
  'the prefix and the sequences, by name')
  from pgque.queue q where q.queue_name = 'q';
select pgque.send('q', 'x');
select pgque.ticker('q');
select contract.eq((select last_value from pg_sequences where schemaname || '.' || sequencename = q.queue_tick_seq),
  (select last_tick_id from pgque.get_queue_info('q')), 'the tick sequence stands at the newest tick')
  from pgque.queue q where q.queue_name = 'q';
update pgque.queue set queue_disable_insert = true where queue_name = 'q';
select contract.expect_error($$select pgque.send('q', 'y')$$, 'P0001', 'Insert into queue disallowed');
set session_replication_role = replica;
select contract.ok(pgque.send('q', 'z') > 0, 'a replica session still inserts');
reset session_replication_role;
update pgque.queue set queue_disable_insert = false where queue_name = 'q';
select contract.ok(pgque.send('q', 'w') > 0, 'allowed again');
