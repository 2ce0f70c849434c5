-- Observing: get_queue_info, get_consumer_info, get_table_info. Read only.

-- pgq.get_queue_info(i_queue text) returns table
--   i_queue  a queue name, or null (default) for every queue
-- Returns (queue_name text, ntables int, cur_table int, cur_table_name text,
--          rotation_period interval, switch_time timestamptz,
--          max_retries int, last_tick bigint, last_tick_time timestamptz,
--          ticks_kept int, events_since_tick bigint, consumers int,
--          retries_pending int, dead_letters int,
--          rotation_ready boolean, rotation_note text,
--          rotation_reason text, rotation_args text[]).
-- events_since_tick counts event ids handed out after the last tick: an
-- estimate, it includes rolled-back sends and ones still in flight.
-- rotation_ready / rotation_note: what maint() would do now (see
-- pgq.rotation_status; a lock on the table is only found by trying);
-- rotation_reason / rotation_args: the note as a code and its values.
-- Guarantee: reads only. Raises PQ001 for an unknown queue name.
create function pgq.get_queue_info(i_queue text default null)
returns table (queue_name text, ntables int, cur_table int, cur_table_name text,
               rotation_period interval, switch_time timestamptz, max_retries int,
               last_tick bigint, last_tick_time timestamptz, ticks_kept int,
               events_since_tick bigint, consumers int, retries_pending int,
               dead_letters int, rotation_ready boolean, rotation_note text,
               rotation_reason text, rotation_args text[])
language plpgsql stable as $$
#variable_conflict use_column
begin
    if i_queue is not null then
        perform pgq.find_queue(i_queue);
    end if;
    return query
        select q.queue_name, q.queue_ntables, q.queue_cur_table,
               'pgq.event_' || q.queue_id || '_' || q.queue_cur_table,
               q.queue_rotation_period, q.queue_switch_time, q.queue_max_retries,
               q.queue_last_tick, t.tick_time,
               (select count(*)::int from pgq.tick k where k.tick_queue = q.queue_id),
               coalesce(pg_sequence_last_value(format('pgq.%I', 'event_' || q.queue_id || '_id_seq')::regclass), 0)
                   - t.tick_event_seq,
               (select count(*)::int from pgq.subscription s where s.sub_queue = q.queue_id),
               (select count(*)::int from pgq.retry_queue r where r.rq_queue = q.queue_id),
               (select count(*)::int from pgq.dead_letter d where d.dl_queue = q.queue_id),
               rs.ready, rs.note, rs.reason, rs.args
          from pgq.queue q
          join pgq.tick t on t.tick_queue = q.queue_id and t.tick_id = q.queue_last_tick
          cross join lateral pgq.rotation_status(q.queue_id) rs
         where i_queue is null or q.queue_name = i_queue
         order by q.queue_id;
end;
$$;

-- pgq.get_consumer_info(i_queue text, i_consumer text) returns table
--   i_queue     a queue name, or null (default) for every queue
--   i_consumer  a consumer name, or null (default) for every consumer
-- Returns (queue_name text, consumer_name text, last_tick bigint,
--          last_tick_time timestamptz, lag_ticks int, lag_events bigint,
--          lag_time interval, batch_id bigint, batch_end_tick bigint,
--          batch_acked_upto bigint, last_ack_time timestamptz,
--          retries_pending int, dead_letters int, holds_rotation boolean,
--          subconsumers int).
--   last_tick       the cursor: tick of the last acked batch
--   lag_ticks       ticks taken after the cursor
--   lag_events      committed events for this consumer after the cursor
--                   (ticked or not yet), exact
--   lag_time        now() - the cursor tick's time
--   batch_id        the open batch, or null; batch_end_tick its last tick;
--   batch_acked_upto  msg_id of the last event of the pages acked so far
--                   in the open batch (0: none); pages go in (txid, msg_id)
--                   order, so with several transactions in a batch this is
--                   a position, not a bound on ids
--   holds_rotation  this consumer's cursor is what keeps maint() from
--                   switching tables (rule 3 in 70_maint.sql)
--   subconsumers    how many subconsumers share this cursor (0: a plain
--                   consumer; see 45_coop.sql and get_subconsumer_info)
-- Guarantee: reads only. Raises PQ001 / PQ002 for an unknown queue /
-- consumer name.
create function pgq.get_consumer_info(i_queue text default null, i_consumer text default null)
returns table (queue_name text, consumer_name text, last_tick bigint,
               last_tick_time timestamptz, lag_ticks int, lag_events bigint,
               lag_time interval, batch_id bigint, batch_end_tick bigint,
               batch_acked_upto bigint, last_ack_time timestamptz,
               retries_pending int, dead_letters int, holds_rotation boolean,
               subconsumers int)
language plpgsql stable as $$
#variable_conflict use_column
declare
    r record;
begin
    if i_queue is not null and i_consumer is not null then
        perform pgq.find_subscription(i_queue, i_consumer);
    elsif i_queue is not null then
        perform pgq.find_queue(i_queue);
    end if;
    for r in
        select q.queue_id, q.queue_name as qname, q.queue_switch_step2, s.*, t.tick_time, t.tick_snapshot
          from pgq.subscription s
          join pgq.queue q on q.queue_id = s.sub_queue
          join pgq.tick t on t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick
         where (i_queue is null or q.queue_name = i_queue)
           and (i_consumer is null or s.sub_consumer = i_consumer)
         order by q.queue_id, s.sub_consumer
    loop
        queue_name := r.qname;
        consumer_name := r.sub_consumer;
        last_tick := r.sub_last_tick;
        last_tick_time := r.tick_time;
        select count(*)::int into lag_ticks from pgq.tick k
         where k.tick_queue = r.queue_id and k.tick_id > r.sub_last_tick;
        execute format(
            'select count(*) from %s e
              where e.ev_txid >= pg_snapshot_xmin($1)
                and not pg_visible_in_snapshot(e.ev_txid, $1)
                and (e.ev_owner is null or e.ev_owner = $2)', pgq.event_table(r.queue_id))
            into lag_events using r.tick_snapshot, r.sub_id;
        lag_time := now() - r.tick_time;
        batch_id := r.sub_batch;
        batch_end_tick := r.sub_next_tick;
        batch_acked_upto := coalesce(r.sub_pos_id, 0);
        last_ack_time := r.sub_last_ack;
        select count(*)::int into retries_pending from pgq.retry_queue rq where rq.rq_sub = r.sub_id;
        select count(*)::int into dead_letters from pgq.dead_letter d
         where d.dl_queue = r.queue_id and d.dl_consumer = r.sub_consumer;
        holds_rotation := r.queue_switch_step2 is not null
                          and pg_snapshot_xmin(r.tick_snapshot) <= r.queue_switch_step2;
        select count(*)::int into subconsumers from pgq.subconsumer k where k.sc_sub = r.sub_id;
        return next;
    end loop;
end;
$$;

-- pgq.get_table_info(i_queue text) returns table
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
-- Guarantee: reads only. Raises PQ001 for an unknown queue.
create function pgq.get_table_info(i_queue text)
returns table (table_no int, table_name text, is_current boolean, is_next boolean,
               events bigint, dead_tuples bigint, tup_upd bigint, tup_del bigint,
               size_bytes bigint, min_msg_id bigint, max_msg_id bigint)
language plpgsql stable as $$
#variable_conflict use_column
declare
    q pgq.queue := pgq.find_queue(i_queue);
    v_tbl text;
begin
    for n in 0 .. q.queue_ntables - 1 loop
        v_tbl := pgq.event_table(q.queue_id, n);
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
