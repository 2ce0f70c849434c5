-- Consuming: receive a batch, ack it, nack single events in it.

-- pgq.batch_events(i_queue_id int, i_sub_id int, i_last pg_snapshot, i_next pg_snapshot,
--                  i_after_txid xid8, i_after_id bigint, i_limit int)
--   i_queue_id  queue id
--   i_sub_id    the consumer: events addressed to another consumer are skipped
--   i_last      snapshot of the batch's first tick (the consumer's cursor)
--   i_next      snapshot of the batch's last tick
--   i_after_txid, i_after_id  only events after this (ev_txid, ev_id) key
--               (paging inside a batch); nulls: from the batch's start
--   i_limit     at most this many (null: all)
-- Returns the batch's events in (ev_txid, ev_id) order, i.e. grouped by
-- producing transaction: those whose transaction is visible in i_next and
-- was not yet visible in i_last.
-- Guarantee: reads only. Consecutive batches [t0,t1], [t1,t2], ... cover
-- every committed event once: a transaction is visible in t2's snapshot and
-- not in t1's exactly once along the chain. Rolled-back events are never
-- visible to the query at all. The read is one range of the (ev_txid, ev_id)
-- index per table: anything below i_last's xmin was visible in i_last,
-- anything from i_next's xmax on was not visible in i_next; so a page costs
-- its own size, not the batch's.
create function pgq.batch_events(
    i_queue_id int, i_sub_id int, i_last pg_snapshot, i_next pg_snapshot,
    i_after_txid xid8 default null, i_after_id bigint default null,
    i_limit int default null)
returns table (ev_id bigint, ev_time timestamptz, ev_txid xid8, ev_owner int,
               ev_retry int, ev_type text, ev_data text)
language plpgsql stable as $$
begin
    return query execute format(
        'select e.ev_id, e.ev_time, e.ev_txid, e.ev_owner, e.ev_retry, e.ev_type, e.ev_data
           from %s e
          where (e.ev_txid, e.ev_id) > ($4, $5)
            and e.ev_txid < pg_snapshot_xmax($2)
            and pg_visible_in_snapshot(e.ev_txid, $2)
            and not pg_visible_in_snapshot(e.ev_txid, $1)
            and (e.ev_owner is null or e.ev_owner = $3)
          order by e.ev_txid, e.ev_id
          limit $6', pgq.event_table(i_queue_id))
    using i_last, i_next, i_sub_id,
          coalesce(i_after_txid, pg_snapshot_xmin(i_last)),
          case when i_after_txid is null then -1 else i_after_id end,
          i_limit;
end;
$$;

-- pgq.refuse_group(s pgq.subscription) returns void
-- Raises PQ009 when the consumer is a cooperative group (has subconsumers):
-- plain receive / ack / nack would bypass its parts. Reads only.
create function pgq.refuse_group(s pgq.subscription)
returns void
language plpgsql stable as $$
begin
    if exists (select 1 from pgq.subconsumer where sc_sub = s.sub_id) then
        raise exception 'pgq: consumer "%" is a cooperative group: its subconsumers receive and ack parts', s.sub_consumer
            using errcode = 'PQ009',
                  hint = 'call pgq.receive_part(queue, consumer, subconsumer) and pgq.ack_part(batch, consumer, subconsumer)';
    end if;
end;
$$;

-- pgq.open_batch(i_batch_id bigint, i_consumer text) returns pgq.subscription
--   i_batch_id  a batch id from receive
--   i_consumer  optional: the consumer the caller believes owns it
-- Returns the owning subscription row, locked.
-- Guarantee: raises PQ004 if the batch was already acked, PQ003 if no
-- consumer has it open, PQ005 if it belongs to another consumer, PQ009 if
-- it is a cooperative group's (its parts are acked with ack_part).
create function pgq.open_batch(i_batch_id bigint, i_consumer text default null)
returns pgq.subscription
language plpgsql as $$
declare
    s pgq.subscription;
    v_owner text;
begin
    select * into s from pgq.subscription where sub_batch = i_batch_id for update;
    if not found then
        select sub_consumer into v_owner from pgq.subscription where sub_last_batch = i_batch_id;
        if found then
            raise exception 'pgq: batch % was already acked by consumer "%"', i_batch_id, v_owner
                using errcode = 'PQ004',
                      hint = 'receive again to get the next batch';
        end if;
        raise exception 'pgq: batch % is not open (unknown, or finished long ago)', i_batch_id
            using errcode = 'PQ003';
    end if;
    if i_consumer is not null and i_consumer <> s.sub_consumer then
        raise exception 'pgq: batch % belongs to consumer "%", not "%"', i_batch_id, s.sub_consumer, i_consumer
            using errcode = 'PQ005';
    end if;
    perform pgq.refuse_group(s);
    return s;
end;
$$;

-- pgq.receive(i_queue text, i_consumer text, i_max int) returns table
--   i_queue, i_consumer  names
--   i_max       at most this many events per call (default 100)
-- Returns (batch_id bigint, msg_id bigint, type text, payload text,
--          retry_count int, created_at timestamptz, txid bigint),
-- grouped by transaction ((txid, msg_id) order); no rows when nothing new
-- is ticked.
-- Guarantee: if the consumer has an open batch, returns it again from the
-- first un-acked event (redelivery: at-least-once). Otherwise opens the
-- next batch: from the consumer's cursor to the queue's newest tick
-- (pending ticks merge into one batch). A batch with no events for this
-- consumer is skipped over at once (the cursor moves; nothing to ack). A
-- batch bigger than i_max is handed out in pages under one batch_id: ack
-- each page; the next receive continues the same batch. Events wait for a
-- tick: one sent after the newest tick is not received until the next tick.
-- Raises PQ001 / PQ002 for an unknown queue / consumer, 22023 for i_max < 1,
-- PQ009 for a cooperative group (its subconsumers call receive_part).
create function pgq.receive(i_queue text, i_consumer text, i_max int default 100)
returns table (batch_id bigint, msg_id bigint, type text, payload text,
               retry_count int, created_at timestamptz, txid bigint)
language plpgsql as $$
#variable_conflict use_column
declare
    s pgq.subscription;
    v_last pg_snapshot;
    v_next pg_snapshot;
    v_opening boolean := false;
    v_n int := 0;
    v_page_txid xid8;
    v_page_id bigint;
    v_more boolean := false;
    ev record;
begin
    if i_max is null or i_max < 1 then
        raise exception 'pgq: receive needs a limit of at least 1, not %', i_max
            using errcode = '22023';
    end if;
    s := pgq.find_subscription(i_queue, i_consumer, true);
    perform pgq.refuse_group(s);

    if s.sub_batch is null then
        select max(t.tick_id) into s.sub_next_tick
          from pgq.tick t
         where t.tick_queue = s.sub_queue and t.tick_id > s.sub_last_tick;
        if s.sub_next_tick is null then
            return;  -- no tick since the cursor: nothing to deliver yet
        end if;
        v_opening := true;
        s.sub_pos_txid := null;
        s.sub_pos_id := null;
    end if;

    select t.tick_snapshot into v_last from pgq.tick t
     where t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick;
    select t.tick_snapshot into v_next from pgq.tick t
     where t.tick_queue = s.sub_queue and t.tick_id = s.sub_next_tick;

    for ev in
        select * from pgq.batch_events(s.sub_queue, s.sub_id, v_last, v_next,
                                       s.sub_pos_txid, s.sub_pos_id, i_max + 1)
    loop
        v_n := v_n + 1;
        if v_n > i_max then
            v_more := true;
            exit;
        end if;
        if s.sub_batch is null then
            s.sub_batch := nextval('pgq.batch_id_seq');
        end if;
        v_page_txid := ev.ev_txid;
        v_page_id := ev.ev_id;
        batch_id := s.sub_batch;
        msg_id := ev.ev_id;
        type := ev.ev_type;
        payload := ev.ev_data;
        retry_count := ev.ev_retry;
        created_at := ev.ev_time;
        txid := ev.ev_txid::text::bigint;
        return next;
    end loop;

    if v_n = 0 then
        if v_opening then
            -- an empty span of ticks: step over it, there is nothing to ack
            update pgq.subscription
               set sub_last_tick = s.sub_next_tick
             where sub_id = s.sub_id;
        end if;
        return;
    end if;

    update pgq.subscription
       set sub_batch = s.sub_batch,
           sub_next_tick = s.sub_next_tick,
           sub_pos_txid = s.sub_pos_txid,
           sub_pos_id = s.sub_pos_id,
           sub_page_txid = v_page_txid,
           sub_page_id = v_page_id,
           sub_page_more = v_more
     where sub_id = s.sub_id;
end;
$$;

-- pgq.ack(i_batch_id bigint, i_consumer text) returns integer
--   i_batch_id  the batch_id receive returned
--   i_consumer  optional: the consumer acking; refuses another's batch
-- Returns 1 when the batch is finished (the cursor moved to the batch's
-- last tick), 0 when a page was acked and the batch has more events (the
-- next receive continues it).
-- Guarantee: after 1, the batch's events are never delivered to this
-- consumer again; nacked ones come back only as retries. Raises PQ003 /
-- PQ004 / PQ005 (see open_batch), PQ006 if nothing was received since the
-- last page ack; a refused ack changes nothing.
create function pgq.ack(i_batch_id bigint, i_consumer text default null)
returns integer
language plpgsql as $$
declare
    s pgq.subscription := pgq.open_batch(i_batch_id, i_consumer);
begin
    if s.sub_page_id is null then
        raise exception 'pgq: batch % has no received events waiting for an ack', i_batch_id
            using errcode = 'PQ006',
                  hint = 'call receive to get the rest of the batch';
    end if;
    if s.sub_page_more then
        update pgq.subscription
           set sub_pos_txid = s.sub_page_txid,
               sub_pos_id = s.sub_page_id,
               sub_page_txid = null,
               sub_page_id = null,
               sub_page_more = false,
               sub_last_ack = now()
         where sub_id = s.sub_id;
        return 0;
    end if;
    update pgq.subscription
       set sub_last_tick = s.sub_next_tick,
           sub_batch = null,
           sub_next_tick = null,
           sub_pos_txid = null,
           sub_pos_id = null,
           sub_page_txid = null,
           sub_page_id = null,
           sub_page_more = false,
           sub_last_batch = i_batch_id,
           sub_last_ack = now()
     where sub_id = s.sub_id;
    return 1;
end;
$$;

-- pgq.nack(i_batch_id bigint, i_msg_id bigint, i_delay interval, i_reason text, i_consumer text) returns text
--   i_batch_id  the open batch the event was received in
--   i_msg_id    the event (msg_id from receive)
--   i_delay     how long before it is delivered again (default 60 s)
--   i_reason    why, kept with the retry and the dead letter
--   i_consumer  optional: the consumer nacking; refuses another's batch
-- Returns 'retry' (queued in pgq.retry_queue until now() + i_delay) or
-- 'dead' (its retry count had reached the queue's max_retries: moved to
-- pgq.dead_letter).
-- Guarantee: the event itself stays in the batch; still ack the batch. A
-- retry is released by maint_retry_events() once it is due *and* the batch
-- is acked (if the batch is redelivered instead, the event comes with it,
-- so it must not also come back as a retry), as a new event addressed to
-- this consumer only, with retry_count + 1. Nacking the same event in the
-- same batch again returns the first outcome and changes nothing. Raises
-- PQ003/4/5 for the batch, PQ007 if the event was not delivered in it,
-- 22023 for a negative or null delay.
create function pgq.nack(
    i_batch_id bigint, i_msg_id bigint,
    i_delay interval default '60 seconds',
    i_reason text default null,
    i_consumer text default null)
returns text
language plpgsql as $$
declare
    s pgq.subscription := pgq.open_batch(i_batch_id, i_consumer);
    q pgq.queue;
    v_last pg_snapshot;
    v_next pg_snapshot;
    ev record;
begin
    if i_delay is null or i_delay < interval '0' then
        raise exception 'pgq: nack needs a delay of zero or more, not %', i_delay
            using errcode = '22023';
    end if;
    select * into q from pgq.queue where queue_id = s.sub_queue;

    if exists (select 1 from pgq.retry_queue
                where rq_sub = s.sub_id and rq_batch = i_batch_id and rq_ev_id = i_msg_id) then
        return 'retry';
    end if;
    if exists (select 1 from pgq.dead_letter
                where dl_queue = q.queue_id and dl_consumer = s.sub_consumer
                  and dl_batch = i_batch_id and dl_ev_id = i_msg_id) then
        return 'dead';
    end if;

    select t.tick_snapshot into v_last from pgq.tick t
     where t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick;
    select t.tick_snapshot into v_next from pgq.tick t
     where t.tick_queue = s.sub_queue and t.tick_id = s.sub_next_tick;
    select * into ev
      from pgq.batch_events(s.sub_queue, s.sub_id, v_last, v_next) b
     where b.ev_id = i_msg_id;
    -- delivered: at or before the last key handed out (or acked) in this batch
    if not found
       or (ev.ev_txid, ev.ev_id) > (coalesce(s.sub_page_txid, s.sub_pos_txid),
                                    coalesce(s.sub_page_id, s.sub_pos_id))
       or coalesce(s.sub_page_id, s.sub_pos_id) is null then
        raise exception 'pgq: event % was not delivered in batch %', i_msg_id, i_batch_id
            using errcode = 'PQ007';
    end if;

    if ev.ev_retry >= q.queue_max_retries then
        insert into pgq.dead_letter (dl_queue, dl_consumer, dl_batch, dl_ev_id, dl_reason, dl_time,
                                     ev_time, ev_txid, ev_retry, ev_type, ev_data)
        values (q.queue_id, s.sub_consumer, i_batch_id, ev.ev_id, i_reason, now(),
                ev.ev_time, ev.ev_txid, ev.ev_retry, ev.ev_type, ev.ev_data);
        return 'dead';
    end if;
    insert into pgq.retry_queue (rq_queue, rq_sub, rq_batch, rq_ev_id, rq_retry_after, rq_reason,
                                 rq_nacked_at, ev_time, ev_retry, ev_type, ev_data)
    values (q.queue_id, s.sub_id, i_batch_id, ev.ev_id, now() + i_delay, i_reason,
            now(), ev.ev_time, ev.ev_retry + 1, ev.ev_type, ev.ev_data);
    return 'retry';
end;
$$;
