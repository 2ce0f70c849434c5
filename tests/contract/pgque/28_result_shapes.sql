-- contract: the info functions' out columns, pgque.message's fields and pgque.dead_letter's columns have PgQue's names, types and order.
create function contract.out_columns(fn regprocedure) returns text
language sql stable as $$
  select string_agg(u.name || ' ' || format_type(u.type, null), ', ' order by u.ord)
    from pg_proc p,
         unnest(p.proargnames, p.proargmodes, p.proallargtypes) with ordinality u(name, mode, type, ord)
   where p.oid = fn and u.mode in ('o', 't')
$$;
create function contract.fields(rel regclass) returns text
language sql stable as $$
  select string_agg(attname || ' ' || format_type(atttypid, null), ', ' order by attnum)
    from pg_attribute where attrelid = rel and attnum > 0 and not attisdropped
$$;
-- Each shape as PgQue has it; one statement compares them all and names every difference.
create table contract.shapes (what text, expected text);
insert into contract.shapes values
  ('pgque.get_queue_info(text)',
   'queue_name text, queue_ntables integer, queue_cur_table integer, queue_rotation_period interval, '
   'queue_switch_time timestamp with time zone, queue_external_ticker boolean, queue_ticker_paused boolean, '
   'queue_ticker_max_count integer, queue_ticker_max_lag interval, queue_ticker_idle_period interval, '
   'ticker_lag interval, ev_per_sec double precision, ev_new bigint, last_tick_id bigint'),
  ('pgque.get_consumer_info(text,text)',
   'queue_name text, consumer_name text, lag interval, last_seen interval, last_tick bigint, '
   'current_batch bigint, next_tick bigint, pending_events bigint'),
  ('pgque.get_batch_info(bigint)',
   'queue_name text, consumer_name text, batch_start timestamp with time zone, batch_end timestamp with time zone, '
   'prev_tick_id bigint, tick_id bigint, lag interval, seq_start bigint, seq_end bigint'),
  ('pgque.next_batch_info(text,text)',
   'batch_id bigint, cur_tick_id bigint, prev_tick_id bigint, cur_tick_time timestamp with time zone, '
   'prev_tick_time timestamp with time zone, cur_tick_event_seq bigint, prev_tick_event_seq bigint'),
  ('pgque.dlq_replay_all(text)', 'replayed bigint, failed bigint, first_error text'),
  ('pgque.get_batch_events(bigint)',
   'ev_id bigint, ev_time timestamp with time zone, ev_txid bigint, ev_retry integer, ev_type text, ev_data text, '
   'ev_extra1 text, ev_extra2 text, ev_extra3 text, ev_extra4 text'),
  ('pgque.status()', 'component text, status text, detail text'),
  ('pgque.message',
   'msg_id bigint, batch_id bigint, type text, payload text, retry_count integer, created_at timestamp with time zone, '
   'extra1 text, extra2 text, extra3 text, extra4 text'),
  ('pgque.dead_letter',
   'dl_id bigint, dl_queue_id integer, dl_consumer_id integer, dl_time timestamp with time zone, dl_reason text, '
   'ev_id bigint, ev_time timestamp with time zone, ev_txid xid8, ev_retry integer, ev_type text, ev_data text, '
   'ev_extra1 text, ev_extra2 text, ev_extra3 text, ev_extra4 text');
-- The other forms of a function have the same columns.
insert into contract.shapes select 'pgque.get_queue_info()', expected from contract.shapes where what = 'pgque.get_queue_info(text)';
insert into contract.shapes select f, expected from contract.shapes,
  unnest(array['pgque.get_consumer_info(text)', 'pgque.get_consumer_info()']) f
  where what = 'pgque.get_consumer_info(text,text)';
insert into contract.shapes select 'pgque.next_batch_custom(text,text,interval,integer,interval)', expected
  from contract.shapes where what = 'pgque.next_batch_info(text,text)';
select contract.eq(
  (select string_agg(format('%s: expected (%s), got (%s)', what, expected, coalesce(actual, 'nothing')), E';\n' order by what)
     from (select what, expected,
                  case when what like '%(%'
                       then (select contract.out_columns(p) from (select to_regprocedure(what) p) x where p is not null)
                       else (select contract.fields(r) from (select to_regclass(what) r) x where r is not null)
                  end as actual
             from contract.shapes) s
    where actual is distinct from expected),
  null::text, 'shapes that differ from PgQue''s');
select contract.eq(pg_get_function_result('pgque.receive(text,text,integer)'::regprocedure), 'SETOF pgque.message', 'receive');
select contract.eq(pg_get_function_result('pgque.dlq_inspect(text,integer)'::regprocedure), 'SETOF pgque.dead_letter', 'dlq_inspect');
