-- Observing: get_queue_info and get_consumer_info (PgQue's overloads and
-- columns), queue_report and consumer_report (those columns, then the lab's:
-- what L4's page reads, in one call each), both over one internal read each
-- (queue_rows, consumer_rows), get_batch_info, get_table_info and
-- get_cursor_info (the lab's own). Read only.

-- pgque.events_after(i_queue_id int, i_snap pg_snapshot, i_owner int) returns bigint
-- How many committed events of the queue were not yet visible in snapshot
-- i_snap (a tick's): exact. i_owner null (the default): for every consumer,
-- retries included; a subscription's id (a group's, for its members): the
-- events for it, its own retries included and others' left out. Reads only.
create function pgque.events_after(i_queue_id int, i_snap pg_snapshot, i_owner int default null)
returns bigint
language plpgsql stable as $$
declare
    n bigint;
begin
    execute format(
        'select count(*) from %s e
          where e.ev_txid >= pg_snapshot_xmin($1)
            and not pg_visible_in_snapshot(e.ev_txid, $1)
            and ($2 is null or e.ev_owner is null or e.ev_owner = $2)', pgque.event_table(i_queue_id))
        into n using i_snap, i_owner;
    return n;
end;
$$;

-- PgQue's info functions, with PgQue's overloads and columns only (a lab
-- column would change what `select *` shows and what a caller declares):
--   pgque.get_queue_info()                      every queue
--   pgque.get_queue_info(i_queue_name text)     one queue (none: no rows)
--   pgque.get_consumer_info()                   every consumer of every queue
--   pgque.get_consumer_info(i_queue_name text)  the queue's consumers
--   pgque.get_consumer_info(i_queue_name text, i_consumer_name text)
-- Like PgQue's, they read the queue, tick and subscription rows only, never
-- an event table, so a session that calls one and stays in its transaction
-- holds no lock that rotation would wait on. The columns:
--   ticker_lag      now() - the last tick's time
--   ev_per_sec      events per second between the last two ticks (null with one)
--   ev_new          as PgQue: the event sequence's last_value minus the last
--                   tick's: an estimate (it counts rolled-back sends, ones still
--                   in flight, and force_next_tick's jump; on a fresh queue the
--                   first event reads as none: last_value is 1 before and after)
--   lag             now() - the consumer's cursor tick's time
--   last_seen       now() - its last receive, ack or heartbeat
--   last_tick       the cursor: the tick its last finished batch ended at (a
--                   cooperative member: its open batch's start tick, or null)
--   current_batch   the open batch (null when none), next_tick its end tick
--   pending_events  as PgQ: event ids handed out between the cursor tick and
--                   the newest tick (an estimate, as ev_new)
-- A cooperative group's members are listed too, as '<group>.<member>' (as
-- PgQue). Rows come in PgQue's order: queue name, then consumer name.
-- Guarantee: reads only. An unknown queue or consumer name gives no rows.
-- pgque.queue_rows(i_queue_name text) returns table (internal, not PgQue's)
-- Each queue (the one named; null: every queue) with its newest tick, read
-- once for get_queue_info and queue_report: get_queue_info's columns, then
-- the queue's id and max_retries setting and the newest tick's time and
-- snapshot. Reads only the queue and tick rows.
create function pgque.queue_rows(i_queue_name text)
returns table (queue_name text, queue_ntables int, queue_cur_table int,
               queue_rotation_period interval, queue_switch_time timestamptz,
               queue_external_ticker boolean, queue_ticker_paused boolean,
               queue_ticker_max_count int, queue_ticker_max_lag interval,
               queue_ticker_idle_period interval, ticker_lag interval,
               ev_per_sec float8, ev_new bigint, last_tick_id bigint,
               queue_id int, queue_max_retries int, tick_time timestamptz,
               tick_snapshot pg_snapshot)
language sql stable as $$
    select q.queue_name, q.queue_ntables, q.queue_cur_table, q.queue_rotation_period,
           q.queue_switch_time, q.queue_external_ticker, q.queue_ticker_paused,
           q.queue_ticker_max_count, q.queue_ticker_max_lag, q.queue_ticker_idle_period,
           now() - t.tick_time,
           (select (t.tick_event_seq - p.tick_event_seq)::float8
                   / nullif(extract(epoch from t.tick_time - p.tick_time), 0)::float8
              from pgque.tick p
             where p.tick_queue = q.queue_id and p.tick_id < t.tick_id
             order by p.tick_id desc limit 1),
           pgque.event_seq(q.queue_id) - t.tick_event_seq,
           q.queue_last_tick,
           q.queue_id, q.queue_max_retries, t.tick_time, t.tick_snapshot
      from pgque.queue q
      join pgque.tick t on t.tick_queue = q.queue_id and t.tick_id = q.queue_last_tick
     where i_queue_name is null or q.queue_name = i_queue_name
     order by q.queue_name
$$;

create function pgque.get_queue_info(i_queue_name text)
returns table (queue_name text, queue_ntables int, queue_cur_table int,
               queue_rotation_period interval, queue_switch_time timestamptz,
               queue_external_ticker boolean, queue_ticker_paused boolean,
               queue_ticker_max_count int, queue_ticker_max_lag interval,
               queue_ticker_idle_period interval, ticker_lag interval,
               ev_per_sec float8, ev_new bigint, last_tick_id bigint)
language sql stable as $$
    select r.queue_name, r.queue_ntables, r.queue_cur_table, r.queue_rotation_period,
           r.queue_switch_time, r.queue_external_ticker, r.queue_ticker_paused,
           r.queue_ticker_max_count, r.queue_ticker_max_lag, r.queue_ticker_idle_period,
           r.ticker_lag, r.ev_per_sec, r.ev_new, r.last_tick_id
      from pgque.queue_rows(i_queue_name) r
     order by r.queue_name
$$;

create function pgque.get_queue_info()
returns table (queue_name text, queue_ntables int, queue_cur_table int,
               queue_rotation_period interval, queue_switch_time timestamptz,
               queue_external_ticker boolean, queue_ticker_paused boolean,
               queue_ticker_max_count int, queue_ticker_max_lag interval,
               queue_ticker_idle_period interval, ticker_lag interval,
               ev_per_sec float8, ev_new bigint, last_tick_id bigint)
language sql stable as $$ select * from pgque.get_queue_info(null::text) $$;

-- pgque.consumer_rows(i_queue_name text, i_consumer_name text) returns table
-- (internal, not PgQue's)
-- Each subscription (of the queue and consumer named; null: every one) with
-- its queue and cursor tick, read once for get_consumer_info and
-- consumer_report: get_consumer_info's columns, then the queue's id and
-- pending step-2 switch, the subscription's id and group (sub_main), and
-- the cursor tick's time and snapshot. Reads only the queue, tick and
-- subscription rows.
create function pgque.consumer_rows(i_queue_name text, i_consumer_name text)
returns table (queue_name text, consumer_name text, lag interval, last_seen interval,
               last_tick bigint, current_batch bigint, next_tick bigint,
               pending_events bigint,
               queue_id int, queue_switch_step2 bigint, sub_id int, sub_main int,
               tick_time timestamptz, tick_snapshot pg_snapshot)
language sql stable as $$
    select q.queue_name, s.sub_consumer, now() - t.tick_time, now() - s.sub_active,
           s.sub_last_tick, s.sub_batch, s.sub_next_tick,
           (select k.tick_event_seq from pgque.tick k
             where k.tick_queue = q.queue_id and k.tick_id = q.queue_last_tick) - t.tick_event_seq,
           q.queue_id, q.queue_switch_step2, s.sub_id, s.sub_main, t.tick_time, t.tick_snapshot
      from pgque.subscription s
      join pgque.queue q on q.queue_id = s.sub_queue
      left join pgque.tick t on t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick
     where (i_queue_name is null or q.queue_name = i_queue_name)
       and (i_consumer_name is null or s.sub_consumer = i_consumer_name)
     order by q.queue_name, s.sub_consumer
$$;

create function pgque.get_consumer_info(i_queue_name text, i_consumer_name text)
returns table (queue_name text, consumer_name text, lag interval, last_seen interval,
               last_tick bigint, current_batch bigint, next_tick bigint,
               pending_events bigint)
language sql stable as $$
    select r.queue_name, r.consumer_name, r.lag, r.last_seen, r.last_tick, r.current_batch,
           r.next_tick, r.pending_events
      from pgque.consumer_rows(i_queue_name, i_consumer_name) r
     order by r.queue_name, r.consumer_name
$$;

create function pgque.get_consumer_info(i_queue_name text)
returns table (queue_name text, consumer_name text, lag interval, last_seen interval,
               last_tick bigint, current_batch bigint, next_tick bigint,
               pending_events bigint)
language sql stable as $$ select * from pgque.get_consumer_info(i_queue_name, null) $$;

create function pgque.get_consumer_info()
returns table (queue_name text, consumer_name text, lag interval, last_seen interval,
               last_tick bigint, current_batch bigint, next_tick bigint,
               pending_events bigint)
language sql stable as $$ select * from pgque.get_consumer_info(null::text, null::text) $$;

-- pgque.queue_report(i_queue text) returns table
--   i_queue  a queue name, or null (default) for every queue
-- Returns get_queue_info's columns, then the lab's, which L4's page reads in
-- the same call: (cur_table_name text, max_retries int,
--   last_tick_time timestamptz, ticks_kept int, consumers int,
--   retries_pending int, dead_letters int, rotation_ready boolean,
--   rotation_note text, rotation_reason text, rotation_args text[],
--   events_waiting bigint).
--   events_waiting  committed events no tick has cut yet: exact (it reads the
--                   event tables, which get_queue_info does not)
--   max_retries  the effective value (PgQue: coalesce(setting, 5))
--   rotation_*   what maint() would do now (see pgque.rotation_status; a
--                lock on the table is only found by trying); reason/args
--                say it as a code and its values
-- Guarantee: reads only. An unknown queue name gives no rows.
create function pgque.queue_report(i_queue text default null)
returns table (queue_name text, queue_ntables int, queue_cur_table int,
               queue_rotation_period interval, queue_switch_time timestamptz,
               queue_external_ticker boolean, queue_ticker_paused boolean,
               queue_ticker_max_count int, queue_ticker_max_lag interval,
               queue_ticker_idle_period interval, ticker_lag interval,
               ev_per_sec float8, ev_new bigint, last_tick_id bigint,
               cur_table_name text, max_retries int, last_tick_time timestamptz,
               ticks_kept int, consumers int, retries_pending int, dead_letters int,
               rotation_ready boolean, rotation_note text, rotation_reason text,
               rotation_args text[], events_waiting bigint)
language plpgsql stable as $$
-- plpgsql, not sql: rotation_status is made later (70_maint.sql)
begin
    return query
    select r.queue_name, r.queue_ntables, r.queue_cur_table, r.queue_rotation_period,
           r.queue_switch_time, r.queue_external_ticker, r.queue_ticker_paused,
           r.queue_ticker_max_count, r.queue_ticker_max_lag, r.queue_ticker_idle_period,
           r.ticker_lag, r.ev_per_sec, r.ev_new, r.last_tick_id,
           'pgque.event_' || r.queue_id || '_' || r.queue_cur_table,
           coalesce(r.queue_max_retries, 5),
           r.tick_time,
           (select count(*)::int from pgque.tick k where k.tick_queue = r.queue_id),
           (select count(*)::int from pgque.subscription s
             where s.sub_queue = r.queue_id and s.sub_role <> 'coop_member'),
           (select count(*)::int from pgque.retry_queue rq where rq.ev_queue = r.queue_id),
           (select count(*)::int from pgque.dead_letter d where d.dl_queue_id = r.queue_id),
           rs.ready, rs.note, rs.reason, rs.args,
           pgque.events_after(r.queue_id, r.tick_snapshot)
      from pgque.queue_rows(i_queue) r
     cross join lateral pgque.rotation_status(r.queue_id) rs
     order by r.queue_name;
end;
$$;

-- pgque.consumer_report(i_queue text, i_consumer text) returns table
--   i_queue     a queue name, or null (default) for every queue
--   i_consumer  a consumer name, or null (default) for every consumer
-- Returns get_consumer_info's rows and columns, then the lab's:
--   (last_tick_time timestamptz, lag_ticks int, lag_events bigint,
--    retries_pending int, dead_letters int, holds_rotation boolean,
--    subconsumers int).
--   lag_ticks       ticks taken after the cursor
--   lag_events      committed events for this consumer after the cursor
--                   (ticked or not yet), exact: it reads the event tables
--   holds_rotation  its cursor (or a member's open batch) is what keeps
--                   maint() from switching tables (rule 3 in 70_maint.sql)
--   subconsumers    members of a cooperative group (0: a plain consumer)
-- (get_subconsumer_info shows a group's members with their batches.)
-- Guarantee: reads only. An unknown queue or consumer name gives no rows.
create function pgque.consumer_report(i_queue text default null, i_consumer text default null)
returns table (queue_name text, consumer_name text, lag interval, last_seen interval,
               last_tick bigint, current_batch bigint, next_tick bigint,
               pending_events bigint,
               last_tick_time timestamptz, lag_ticks int,
               lag_events bigint, retries_pending int, dead_letters int,
               holds_rotation boolean, subconsumers int)
language plpgsql stable as $$
#variable_conflict use_column
declare
    r record;
begin
    for r in select * from pgque.consumer_rows(i_queue, i_consumer) loop
        queue_name := r.queue_name;
        consumer_name := r.consumer_name;
        lag := r.lag;
        last_seen := r.last_seen;
        last_tick := r.last_tick;
        current_batch := r.current_batch;
        next_tick := r.next_tick;
        pending_events := r.pending_events;
        last_tick_time := r.tick_time;
        select count(*)::int into lag_ticks from pgque.tick k
         where k.tick_queue = r.queue_id and k.tick_id > r.last_tick;
        lag_events := null;
        if r.tick_snapshot is not null then
            lag_events := pgque.events_after(r.queue_id, r.tick_snapshot, coalesce(r.sub_main, r.sub_id));
        end if;
        select count(*)::int into retries_pending from pgque.retry_queue rq where rq.ev_owner = r.sub_id;
        select count(*)::int into dead_letters from pgque.dead_letter d
          join pgque.consumer c on c.co_id = d.dl_consumer_id
         where d.dl_queue_id = r.queue_id and c.co_name = r.consumer_name;
        select r.queue_switch_step2 is not null and exists (
                   select 1 from pgque.subscription x
                     join pgque.tick xt on xt.tick_queue = x.sub_queue and xt.tick_id = x.sub_last_tick
                    where (x.sub_id = r.sub_id or x.sub_main = r.sub_id)
                      and pg_snapshot_xmin(xt.tick_snapshot)::text::bigint <= r.queue_switch_step2)
          into holds_rotation;
        select count(*)::int into subconsumers from pgque.subscription m where m.sub_main = r.sub_id;
        return next;
    end loop;
end;
$$;

-- pgque.get_batch_info(i_batch_id bigint) returns record
--   i_batch_id  an open batch
-- Returns PgQ's (queue_name text, consumer_name text, batch_start
-- timestamptz, batch_end timestamptz, prev_tick_id bigint, tick_id bigint,
-- lag interval, seq_start bigint, seq_end bigint): its two ticks, their
-- times and event sequence positions, and now() - the end tick's time; all
-- null for a batch that is not open (as PgQue: no error).
-- Guarantee: reads only.
create function pgque.get_batch_info(i_batch_id bigint,
    out queue_name text, out consumer_name text, out batch_start timestamptz,
    out batch_end timestamptz, out prev_tick_id bigint, out tick_id bigint,
    out lag interval, out seq_start bigint, out seq_end bigint)
language sql as $$
    select q.queue_name, s.sub_consumer, prev.tick_time, cur.tick_time,
           s.sub_last_tick, s.sub_next_tick, now() - cur.tick_time,
           prev.tick_event_seq, cur.tick_event_seq
      from pgque.subscription s
      join pgque.queue q on q.queue_id = s.sub_queue
      join pgque.tick prev on prev.tick_queue = s.sub_queue and prev.tick_id = s.sub_last_tick
      join pgque.tick cur on cur.tick_queue = s.sub_queue and cur.tick_id = s.sub_next_tick
     where s.sub_batch = i_batch_id
$$;

-- pgque.get_table_info(i_queue text) returns table
--   i_queue  queue name
-- Returns one row per event table: (table_no int, table_name text,
--          is_current boolean, is_next boolean, events bigint,
--          dead_tuples bigint, tup_upd bigint, tup_del bigint,
--          size_bytes bigint, min_msg_id bigint, max_msg_id bigint).
--   is_next      the table the next rotation truncates and makes current
--   events       committed events in it now
--   dead_tuples, tup_upd, tup_del   from pg_stat_user_tables. Statistics
--                lag: run `select pg_stat_force_next_flush()` as a statement
--                of its own first. tup_upd and tup_del stay 0 for ever.
--   size_bytes   pg_total_relation_size (heap and its ev_txid index)
-- Guarantee: reads only. Raises find_queue's 'queue not found: <queue>' for an unknown queue.
create function pgque.get_table_info(i_queue text)
returns table (table_no int, table_name text, is_current boolean, is_next boolean,
               events bigint, dead_tuples bigint, tup_upd bigint, tup_del bigint,
               size_bytes bigint, min_msg_id bigint, max_msg_id bigint)
language plpgsql stable as $$
#variable_conflict use_column
declare
    q pgque.queue := pgque.find_queue(i_queue);
    v_tbl text;
begin
    for n in 0 .. q.queue_ntables - 1 loop
        v_tbl := pgque.event_table(q.queue_id, n);
        table_no := n;
        table_name := v_tbl;
        is_current := n = q.queue_cur_table;
        is_next := n = (q.queue_cur_table + 1) % q.queue_ntables;
        execute format('select count(*), min(ev_id), max(ev_id) from %s', v_tbl)
            into events, min_msg_id, max_msg_id;
        select coalesce(st.n_dead_tup, 0), coalesce(st.n_tup_upd, 0), coalesce(st.n_tup_del, 0)
          into dead_tuples, tup_upd, tup_del
          from pg_stat_user_tables st
         where st.relid = v_tbl::regclass;
        if not found then
            dead_tuples := 0; tup_upd := 0; tup_del := 0;
        end if;
        size_bytes := pg_total_relation_size(v_tbl::regclass);
        return next;
    end loop;
end;
$$;

-- pgque.get_cursor_info(i_queue text) returns table
--   i_queue  queue name
-- Returns one row per consumer (a cooperative group is one, as in
-- get_consumer_info): where its cursor stands among the event tables.
--   (consumer_name text, last_tick bigint, unread bigint, next_msg_id bigint,
--    table_no int, table_name text, tables int[])
--   last_tick    the cursor: the tick its last finished batch ended at
--   unread       committed events for it that its cursor tick's snapshot
--                does not see (ticked or not yet): the same count as
--                get_consumer_info's lag_events
--   table_no     the oldest event table, in rotation order (the next to be
--                truncated first, the current one last), holding one of those
--                events: where its next batch starts reading; null when it
--                has none (caught up). table_name is that table's name,
--                next_msg_id the smallest of its unread ev_ids there.
--   tables       every table holding its unread events, oldest first
-- The lab's own (PgQ and PgQue have no such call). Guarantee: reads only.
-- Raises find_queue's 'queue not found: <queue>' for an unknown queue.
create function pgque.get_cursor_info(i_queue text)
returns table (consumer_name text, last_tick bigint, unread bigint, next_msg_id bigint,
               table_no int, table_name text, tables int[])
language plpgsql stable as $$
#variable_conflict use_column
declare
    q pgque.queue := pgque.find_queue(i_queue);
    r record;
    v_no int;
    v_count bigint;
    v_min bigint;
begin
    for r in
        select s.sub_id, s.sub_consumer, s.sub_last_tick, t.tick_snapshot
          from pgque.subscription s
          join pgque.tick t on t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick
         where s.sub_queue = q.queue_id and s.sub_role <> 'coop_member'
         order by s.sub_consumer
    loop
        consumer_name := r.sub_consumer;
        last_tick := r.sub_last_tick;
        unread := 0;
        next_msg_id := null;
        table_no := null;
        table_name := null;
        tables := '{}';
        -- oldest first: the table after the current one, round to the current one
        for k in 1 .. q.queue_ntables loop
            v_no := (q.queue_cur_table + k) % q.queue_ntables;
            execute format(
                'select count(*), min(e.ev_id) from only %s e
                  where e.ev_txid >= pg_snapshot_xmin($1)
                    and not pg_visible_in_snapshot(e.ev_txid, $1)
                    and (e.ev_owner is null or e.ev_owner = $2)', pgque.event_table(q.queue_id, v_no))
                into v_count, v_min using r.tick_snapshot, r.sub_id;
            if v_count > 0 then
                unread := unread + v_count;
                tables := tables || v_no;
                if table_no is null then
                    table_no := v_no;
                    table_name := pgque.event_table(q.queue_id, v_no);
                    next_msg_id := v_min;
                end if;
            end if;
        end loop;
        return next;
    end loop;
end;
$$;
