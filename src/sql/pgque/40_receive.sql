-- Consuming: PgQ's next_batch, get_batch_events and finish_batch, and PgQue's
-- receive, ack and nack over them.

-- pgque.batch_events(i_queue_id int, i_owner int, i_last pg_snapshot, i_next pg_snapshot)
--   i_queue_id  queue id
--   i_owner     the consumer (a cooperative group's sub_id for its members):
--               events addressed to another consumer are skipped
--   i_last      snapshot of the batch's first tick
--   i_next      snapshot of the batch's last tick
-- Returns the batch's events in ev_id order (as PgQ): those whose
-- transaction is visible in i_next and was not yet visible in i_last.
-- Guarantee: reads only. Consecutive batches [t0,t1], [t1,t2], ... cover
-- every committed event once: a transaction is visible in t2's snapshot and
-- not in t1's exactly once along the chain. Rolled-back events are never
-- visible to the query at all. The read is one range of the (ev_txid, ev_id)
-- index per table: anything below i_last's xmin was visible in i_last,
-- anything from i_next's xmax on was not visible in i_next.
create function pgque.batch_events(
    i_queue_id int, i_owner int, i_last pg_snapshot, i_next pg_snapshot)
returns table (ev_id bigint, ev_time timestamptz, ev_txid xid8, ev_owner int,
               ev_retry int, ev_type text, ev_data text, ev_extra1 text,
               ev_extra2 text, ev_extra3 text, ev_extra4 text)
language plpgsql stable as $$
begin
    return query execute format(
        'select e.ev_id, e.ev_time, e.ev_txid, e.ev_owner, e.ev_retry, e.ev_type, e.ev_data,
                e.ev_extra1, e.ev_extra2, e.ev_extra3, e.ev_extra4
           from %s e
          where e.ev_txid >= pg_snapshot_xmin($1)
            and e.ev_txid < pg_snapshot_xmax($2)
            and pg_visible_in_snapshot(e.ev_txid, $2)
            and not pg_visible_in_snapshot(e.ev_txid, $1)
            and (e.ev_owner is null or e.ev_owner = $3)
          order by e.ev_id', pgque.event_table(i_queue_id))
    using i_last, i_next, i_owner;
end;
$$;

-- pgque.refuse_coop(s pgque.subscription, i_queue text) returns void
-- Raises when the consumer is a cooperative group with members, or a member:
-- a plain next_batch / receive would bypass the group. PgQue's words:
-- 'consumer <c> on queue <q> is a cooperative main consumer; use cooperative
-- receive/next_batch with a subconsumer', and for a member '... is a
-- cooperative subconsumer; use receive_coop / next_batch (cooperative form)
-- instead of the legacy 5-arg next_batch_custom'. A group whose members are
-- all gone receives as a plain consumer. Reads only.
create function pgque.refuse_coop(s pgque.subscription, i_queue text)
returns void
language plpgsql stable as $$
begin
    if s.sub_role = 'coop_member' then
        raise exception 'consumer % on queue % is a cooperative subconsumer; use receive_coop / next_batch (cooperative form) instead of the legacy 5-arg next_batch_custom', s.sub_consumer, i_queue
            using hint = 'call pgque.receive_coop(queue, consumer, subconsumer, max_return)';
    end if;
    if exists (select 1 from pgque.subscription m where m.sub_main = s.sub_id) then
        raise exception 'consumer % on queue % is a cooperative main consumer; use cooperative receive/next_batch with a subconsumer', s.sub_consumer, i_queue
            using hint = 'call pgque.receive_coop(queue, consumer, subconsumer, max_return)';
    end if;
end;
$$;

-- pgque.batch_end(prev pgque.tick, i_min_count int8, i_min_interval interval,
--                 i_min_lag interval) returns pgque.tick
--   prev  the consumer's cursor tick
--   i_min_count, i_min_interval  how many events, or how much time, a batch should
--         gather at least (a null one does not count; both null: the next tick)
--   i_min_lag  the end tick must be at least this old (null: any)
-- Returns the tick the next batch ends at, or a row of nulls when none may yet.
-- Guarantee: PgQ's rule. With no conditions, the next tick after prev. With
-- them, the newest tick ends the batch when it satisfies a condition and
-- overshoots none by more than double (more than twice i_min_count events,
-- or twice i_min_interval, since the cursor); when it overshoots, the first
-- tick that satisfies a condition ends it instead, so a consumer that fell
-- far behind catches up in batches of about the size asked for. Reads only.
create function pgque.batch_end(prev pgque.tick, i_min_count int8, i_min_interval interval,
                                i_min_lag interval)
returns pgque.tick
language plpgsql stable as $$
declare
    found_tick pgque.tick;
begin
    if i_min_count is null and i_min_interval is null then
        select * into found_tick from pgque.tick
         where tick_queue = prev.tick_queue and tick_id > prev.tick_id
         order by tick_id limit 1;
    else
        found_tick := pgque.merged_batch_tick(prev, i_min_count, i_min_interval);
    end if;
    if i_min_lag is not null and now() - found_tick.tick_time < i_min_lag then
        return null;
    end if;
    return found_tick;
end;
$$;

-- pgque.merged_batch_tick(prev pgque.tick, i_min_count int8, i_min_interval interval)
--   returns pgque.tick
-- batch_end's rule for a batch with conditions (see there). Reads only.
create function pgque.merged_batch_tick(prev pgque.tick, i_min_count int8, i_min_interval interval)
returns pgque.tick
language plpgsql stable as $$
declare
    newest pgque.tick;
    first_ok pgque.tick;
    v_enough boolean := false;
    v_overshoot boolean := false;
begin
    select * into newest from pgque.tick
     where tick_queue = prev.tick_queue and tick_id > prev.tick_id
     order by tick_id desc limit 1;
    if not found then
        return null;
    end if;
    if i_min_count is not null then
        v_enough := newest.tick_event_seq - prev.tick_event_seq >= i_min_count;
        v_overshoot := newest.tick_event_seq - prev.tick_event_seq > i_min_count * 2;
    end if;
    if i_min_interval is not null then
        v_enough := v_enough or newest.tick_time - prev.tick_time >= i_min_interval;
        v_overshoot := v_overshoot or newest.tick_time - prev.tick_time > i_min_interval * 2;
    end if;
    if not v_overshoot then
        return case when v_enough then newest end;
    end if;
    select * into first_ok from pgque.tick t
     where t.tick_queue = prev.tick_queue and t.tick_id > prev.tick_id
       and ((i_min_count is not null and t.tick_event_seq - prev.tick_event_seq >= i_min_count)
            or (i_min_interval is not null and t.tick_time - prev.tick_time >= i_min_interval))
     order by t.tick_id limit 1;
    return first_ok;
end;
$$;

-- pgque.next_batch_custom(i_queue text, i_consumer text, i_min_lag interval,
--                         i_min_count int, i_min_interval interval) returns record
--   i_queue, i_consumer  names
--   i_min_lag       open a batch only if its end tick is at least this old
--   i_min_count     ... or (with i_min_interval) only once this many events
--                   have accumulated after the cursor
--   i_min_interval  ... or once the cursor's tick is this old
--   (nulls: no such condition; all null: the next tick, as next_batch)
-- Returns (batch_id, cur_tick_id, prev_tick_id, cur_tick_time,
-- prev_tick_time, cur_tick_event_seq, prev_tick_event_seq): the open batch
-- and its two ticks, or a row of nulls when none is ready.
-- Guarantee: as PgQ: a batch spans from the consumer's cursor to a later
-- tick (batch_end: the next one; with i_min_count / i_min_interval a tick
-- that can merge several); an open batch is
-- returned again until it is finished, so a consumer that crashed before
-- its ack gets the same batch after a restart. Raises PgQue's 'Not
-- subscriber to queue: <q>/<c>' and the cooperative refusals (refuse_coop).
create function pgque.next_batch_custom(
    i_queue text, i_consumer text, i_min_lag interval, i_min_count int4, i_min_interval interval,
    out batch_id bigint, out cur_tick_id bigint, out prev_tick_id bigint,
    out cur_tick_time timestamptz, out prev_tick_time timestamptz,
    out cur_tick_event_seq bigint, out prev_tick_event_seq bigint)
language plpgsql as $$
declare
    s pgque.subscription := pgque.find_subscription(i_queue, i_consumer, true);
    prev pgque.tick;
    nxt pgque.tick;
begin
    perform pgque.refuse_coop(s, i_queue);
    select * into prev from pgque.tick where tick_queue = s.sub_queue and tick_id = s.sub_last_tick;
    prev_tick_id := prev.tick_id;
    prev_tick_time := prev.tick_time;
    prev_tick_event_seq := prev.tick_event_seq;
    if s.sub_batch is not null then
        select * into nxt from pgque.tick where tick_queue = s.sub_queue and tick_id = s.sub_next_tick;
        update pgque.subscription set sub_active = now() where sub_id = s.sub_id;
        batch_id := s.sub_batch;
        cur_tick_id := nxt.tick_id;
        cur_tick_time := nxt.tick_time;
        cur_tick_event_seq := nxt.tick_event_seq;
        return;
    end if;
    nxt := pgque.batch_end(prev, i_min_count, i_min_interval, i_min_lag);
    if nxt.tick_id is null then
        -- no batch: every column null (as PgQue)
        prev_tick_id := null;
        prev_tick_time := null;
        prev_tick_event_seq := null;
        return;
    end if;
    batch_id := nextval('pgque.batch_id_seq');
    cur_tick_id := nxt.tick_id;
    cur_tick_time := nxt.tick_time;
    cur_tick_event_seq := nxt.tick_event_seq;
    update pgque.subscription
       set sub_batch = batch_id, sub_next_tick = nxt.tick_id, sub_active = now()
     where sub_id = s.sub_id;
end;
$$;

-- pgque.next_batch_info(i_queue text, i_consumer text) returns record
-- next_batch_custom with no conditions: the same columns.
create function pgque.next_batch_info(
    i_queue text, i_consumer text,
    out batch_id bigint, out cur_tick_id bigint, out prev_tick_id bigint,
    out cur_tick_time timestamptz, out prev_tick_time timestamptz,
    out cur_tick_event_seq bigint, out prev_tick_event_seq bigint)
language sql as $$
    select * from pgque.next_batch_custom(i_queue, i_consumer, null, null, null)
$$;

-- pgque.next_batch(i_queue text, i_consumer text) returns bigint
--   i_queue, i_consumer  names
-- Returns the consumer's open batch id, or opens the next one, or null when
-- no tick follows the consumer's cursor.
-- Guarantee: as next_batch_custom with no conditions: one tick interval a
-- batch, the open one returned again until it is finished.
create function pgque.next_batch(i_queue text, i_consumer text)
returns bigint
language sql as $$
    select batch_id from pgque.next_batch_custom(i_queue, i_consumer, null, null, null)
$$;

-- pgque.get_batch_events(i_batch_id bigint) returns setof record
--   i_batch_id  an open batch
-- Returns (ev_id bigint, ev_time timestamptz, ev_txid bigint, ev_retry int,
--          ev_type text, ev_data text, ev_extra1..4 text), in ev_id order:
-- every event of the batch, whatever a receive returned of it.
-- Volatile, as PgQue's: it sees a batch opened earlier in the same statement
-- (get_batch_events(next_batch(q, c))).
-- Guarantee: reads only. Raises PgQue's 'batch not found' for a batch that
-- is not open.
create function pgque.get_batch_events(i_batch_id bigint)
returns table (ev_id bigint, ev_time timestamptz, ev_txid bigint, ev_retry int,
               ev_type text, ev_data text, ev_extra1 text, ev_extra2 text,
               ev_extra3 text, ev_extra4 text)
language plpgsql as $$
declare
    s pgque.subscription;
    v_last pg_snapshot;
    v_next pg_snapshot;
begin
    s := pgque.find_batch(i_batch_id, 'batch not found');
    select t.tick_snapshot into v_last from pgque.tick t
     where t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick;
    select t.tick_snapshot into v_next from pgque.tick t
     where t.tick_queue = s.sub_queue and t.tick_id = s.sub_next_tick;
    return query
        select b.ev_id, b.ev_time, b.ev_txid::text::bigint, b.ev_retry, b.ev_type, b.ev_data,
               b.ev_extra1, b.ev_extra2, b.ev_extra3, b.ev_extra4
          from pgque.batch_events(s.sub_queue, coalesce(s.sub_main, s.sub_id), v_last, v_next) b;
end;
$$;

-- pgque.get_batch_cursor(i_batch_id bigint, i_cursor_name text, i_quick_limit int,
--                        i_extra_where text) returns setof record
-- pgque.get_batch_cursor(i_batch_id, i_cursor_name, i_quick_limit): no filter
--   i_cursor_name  the cursor to declare (quoted as an identifier)
--   i_quick_limit  how many events to return at once (0 or less: none)
--   i_extra_where  a trusted SQL fragment over get_batch_events' columns,
--                  spliced in verbatim as PgQ's is: never user input
-- Returns the first i_quick_limit events of the batch, as get_batch_events;
-- the rest are read with `fetch N from <cursor>` in the same transaction
-- (a cursor lives until the transaction ends: call it inside begin … commit).
-- Null arguments: no rows, no cursor (as PgQ). Guarantee: reads only; raises
-- get_batch_events' 'batch not found' for a batch that is not open.
create function pgque.get_batch_cursor(i_batch_id bigint, i_cursor_name text,
                                       i_quick_limit int4, i_extra_where text)
returns table (ev_id bigint, ev_time timestamptz, ev_txid bigint, ev_retry int,
               ev_type text, ev_data text, ev_extra1 text, ev_extra2 text,
               ev_extra3 text, ev_extra4 text)
language plpgsql as $$
declare
    v_sql text;
begin
    if i_batch_id is null or i_cursor_name is null or i_quick_limit is null then
        return;
    end if;
    perform 1 from pgque.get_batch_events(i_batch_id) limit 1;
    v_sql := format('select * from pgque.get_batch_events(%s) e', i_batch_id);
    if i_extra_where is not null then
        v_sql := v_sql || ' where ' || i_extra_where;
    end if;
    execute format('declare %I no scroll cursor for %s order by 1', i_cursor_name, v_sql);
    if i_quick_limit <= 0 then
        return;
    end if;
    return query execute format('fetch %s from %I', i_quick_limit, i_cursor_name);
end;
$$;

create function pgque.get_batch_cursor(i_batch_id bigint, i_cursor_name text, i_quick_limit int4)
returns table (ev_id bigint, ev_time timestamptz, ev_txid bigint, ev_retry int,
               ev_type text, ev_data text, ev_extra1 text, ev_extra2 text,
               ev_extra3 text, ev_extra4 text)
language sql as $$
    select * from pgque.get_batch_cursor(i_batch_id, i_cursor_name, i_quick_limit, null)
$$;

-- pgque.finish_batch(i_batch_id bigint) returns integer
--   i_batch_id  an open batch
-- Returns 1 when the batch was open and is now finished, 0 (with PgQue's
-- warning 'finish_batch: batch <id> not found') when no consumer has it
-- open (already finished, or never opened).
-- Guarantee: a plain consumer's cursor moves to the batch's end tick; a
-- cooperative member just lets go of its batch (the group's cursor moved
-- when the batch was handed out). Every event of the batch is then done for
-- this consumer, also those no receive returned: nacked ones come back only
-- as retries.
create function pgque.finish_batch(i_batch_id bigint)
returns integer
language plpgsql as $$
declare
    s pgque.subscription;
begin
    select * into s from pgque.subscription where sub_batch = i_batch_id for update;
    if not found then
        raise warning 'finish_batch: batch % not found', i_batch_id;
        return 0;
    end if;
    if s.sub_role = 'coop_member' then
        update pgque.subscription
           set sub_last_tick = null, sub_next_tick = null, sub_batch = null, sub_active = now()
         where sub_id = s.sub_id;
    else
        update pgque.subscription
           set sub_last_tick = sub_next_tick, sub_next_tick = null, sub_batch = null,
               sub_active = now()
         where sub_id = s.sub_id;
    end if;
    return 1;
end;
$$;

-- pgque.check_max_return(i_caller text, i_max_return int) returns void
--   i_caller      the function that checks, as PgQue names it in the message
--   i_max_return  the limit given to it (null: no limit)
-- Guarantee: raises PgQue's '<caller>: max_return must be >= 1, got <n>'
-- for a limit below 1; nothing else. receive and receive_coop call it before
-- they take a batch.
create function pgque.check_max_return(i_caller text, i_max_return int)
returns void
language plpgsql immutable as $$
begin
    if i_max_return < 1 then
        raise exception '%: max_return must be >= 1, got %', i_caller, i_max_return;
    end if;
end;
$$;

-- pgque.batch_messages(i_batch_id bigint, i_max_return int) returns setof pgque.message
--   i_batch_id    an open batch, or null (then nothing)
--   i_max_return  at most this many events are returned
-- Returns the batch's events as pgque.message rows, in ev_id order.
-- Guarantee: a batch with no event for its consumer is finished at once
-- (the cursor moves on; there is nothing to ack). What receive and
-- receive_coop return once they have their batch.
create function pgque.batch_messages(i_batch_id bigint, i_max_return int)
returns setof pgque.message
language plpgsql as $$
declare
    ev record;
    n int := 0;
begin
    if i_batch_id is null then
        return;
    end if;
    for ev in select * from pgque.get_batch_events(i_batch_id) loop
        return next row(ev.ev_id, i_batch_id, ev.ev_type, ev.ev_data, ev.ev_retry, ev.ev_time,
                        ev.ev_extra1, ev.ev_extra2, ev.ev_extra3, ev.ev_extra4)::pgque.message;
        n := n + 1;
        exit when n >= coalesce(i_max_return, n + 1);
    end loop;
    if n = 0 then
        perform pgque.finish_batch(i_batch_id);
    end if;
end;
$$;

-- pgque.receive(i_queue text, i_consumer text, i_max_return int) returns setof pgque.message
--   i_queue, i_consumer  names
--   i_max_return  at most this many events are returned (default 100, >= 1)
-- Returns the consumer's batch (next_batch) as pgque.message rows, in
-- ev_id order, at most i_max_return of them; no rows when no tick follows
-- the cursor, or when the batch holds no event for this consumer (it is
-- then finished at once: the cursor moves on).
-- Guarantee: as PgQue's receive. The limit cuts only what is returned:
-- ack(batch_id) finishes the whole batch, so events beyond the limit are
-- skipped for this consumer (PgQue's batch-ownership caveat). Receive with a
-- limit at least the batch size (ticker_max_count bounds it), or read the
-- rest with get_batch_events before the ack. An un-acked batch is returned
-- again by the next receive. Raises PgQue's 'pgque.receive: max_return
-- must be >= 1, got <n>' for a limit below 1 (a null limit: no limit), and
-- next_batch's errors.
create function pgque.receive(i_queue text, i_consumer text, i_max_return int default 100)
returns setof pgque.message
language plpgsql as $$
begin
    perform pgque.check_max_return('pgque.receive', i_max_return);
    return query select * from pgque.batch_messages(pgque.next_batch(i_queue, i_consumer), i_max_return);
end;
$$;

-- pgque.ack(i_batch_id bigint) returns integer
--   i_batch_id  the batch_id receive returned
-- Returns 1 when the batch is finished, 0 when it was not open (acked
-- already, or unknown).
-- Guarantee: PgQue's alias of finish_batch: the whole batch is done for
-- its consumer, also the events the receive limit left out.
create function pgque.ack(i_batch_id bigint)
returns integer
language sql as $$ select pgque.finish_batch(i_batch_id) $$;

-- pgque.batch_event(i_batch_id bigint, i_event_id bigint) returns record
-- Returns the open batch's subscription row fields (sub_queue, sub_id, sub_main,
-- the queue's effective max_retries) and the event as the batch has it.
-- Guarantee: reads only; raises PgQue's 'batch not found: <id>' for a batch
-- that is not open, 'msg_id <id> not found in batch <id>' for an event not
-- in it (nack's words). What nack and the lab's retry listing share.
create function pgque.batch_event(i_batch_id bigint, i_event_id bigint,
    out sub_queue int, out sub_id int, out sub_main int, out max_retries int,
    out ev_id bigint, out ev_time timestamptz, out ev_txid bigint, out ev_retry int,
    out ev_type text, out ev_data text, out ev_extra1 text, out ev_extra2 text,
    out ev_extra3 text, out ev_extra4 text)
language plpgsql stable as $$
begin
    select s.sub_queue, s.sub_id, s.sub_main, coalesce(q.queue_max_retries, 5)
      into sub_queue, sub_id, sub_main, max_retries
      from pgque.subscription s join pgque.queue q on q.queue_id = s.sub_queue
     where s.sub_batch = i_batch_id;
    if not found then
        raise exception 'batch not found: %', i_batch_id;
    end if;
    select b.ev_id, b.ev_time, b.ev_txid, b.ev_retry, b.ev_type, b.ev_data,
           b.ev_extra1, b.ev_extra2, b.ev_extra3, b.ev_extra4
      into ev_id, ev_time, ev_txid, ev_retry, ev_type, ev_data,
           ev_extra1, ev_extra2, ev_extra3, ev_extra4
      from pgque.get_batch_events(i_batch_id) b where b.ev_id = i_event_id;
    if not found then
        raise exception 'msg_id % not found in batch %', i_event_id, i_batch_id;
    end if;
end;
$$;

-- pgque.nack(i_batch_id bigint, i_msg pgque.message, i_retry_after interval, i_reason text) returns integer
--   i_batch_id     the open batch the event is in
--   i_msg          the event; only its msg_id is read (as PgQue: the rest
--                  is taken from the batch itself)
--   i_retry_after  how long before it is delivered again (default 60 s)
--   i_reason       why, kept with the dead letter (and the lab's retry row)
-- Returns 1.
-- Guarantee: if the event's retry count (null: 0) has reached the queue's
-- max_retries (default 5), it goes to pgque.dead_letter (once: nacking it
-- again changes nothing); otherwise to pgque.retry_queue (event_retry),
-- due after i_retry_after in whole seconds (PgQue passes it on to
-- event_retry as an integer number of seconds; a negative delay is due at
-- once), with the retry count one higher. The event stays in the batch:
-- still ack the batch. Raises PgQue's 'batch not found: <id>' for a batch
-- that is not open and 'msg_id <id> not found in batch <id>' if the event
-- is not in it.
create function pgque.nack(
    i_batch_id bigint, i_msg pgque.message,
    i_retry_after interval default '60 seconds',
    i_reason text default null)
returns integer
language plpgsql as $$
declare
    ev record := pgque.batch_event(i_batch_id, (i_msg).msg_id);
begin
    if coalesce(ev.ev_retry, 0) >= ev.max_retries then
        perform pgque.event_dead(i_batch_id, ev.ev_id, coalesce(i_reason, 'max retries exceeded'),
                                 ev.ev_time, ev.ev_txid::text::xid8, ev.ev_retry, ev.ev_type,
                                 ev.ev_data, ev.ev_extra1, ev.ev_extra2, ev.ev_extra3, ev.ev_extra4);
    else
        perform pgque.event_retry_raw(i_batch_id, ev.ev_id,
                                      now() + make_interval(secs => extract(epoch from i_retry_after)::integer),
                                      i_reason);
    end if;
    return 1;
end;
$$;
