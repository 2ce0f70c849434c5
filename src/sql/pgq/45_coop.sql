-- Cooperative consumers: several subconsumers share one consumer's cursor.
--
-- A consumer (the group) gets subconsumers with register_subconsumer. From
-- then on only they consume for it: each call of receive_part hands the
-- caller a *part* of the group's open batch, a run of events in (ev_txid,
-- ev_id) order that no other part holds; ack_part acks that part. The
-- group's cursor (its subscription row, the one rotation looks at) moves to
-- the batch's last tick only when every event of the batch was cut into a
-- part and every part is acked. Until then the group holds rotation back
-- like any lagging consumer.
--
-- What PgQ does, and what we chose. PgQ's pgq_coop hands each subconsumer a
-- whole batch (next_batch(queue, consumer, subconsumer)): the main cursor
-- moves at once and the subconsumer's own subscription row keeps the
-- batch's start tick, which is what holds rotation back meanwhile. Here the
-- unit is a part of one batch instead, so that a learner sees one batch's
-- events divide between subconsumers; the group's cursor waiting for the
-- last part plays the role of PgQ's subconsumer rows. A part's size is the
-- events not yet cut divided by the subconsumers holding no part (the caller
-- included), rounded up, at most i_max: two idle subconsumers receiving one
-- after the other split a batch in halves.
--
-- A subconsumer that dies holding a part. Like PgQ (next_batch_custom with
-- a dead interval, the Python CoopConsumer's subconsumer_timeout), nothing
-- notices a death as such: a part handed out longer than i_dead_interval
-- ago and still not acked is taken over by the next subconsumer that calls
-- receive_part with nothing of its own to finish; it gets the same events
-- again (at-least-once: the dead one may have done part of the work). A
-- subconsumer removed with unregister_subconsumer frees its part at once.
-- A late ack from the old holder is refused (PQ011): the part is no longer
-- its own. Meanwhile the group's cursor waits.
--
-- Retries: nack is refused for a group's batch (PQ009); a group consumes
-- every event its parts hold, failures are the subconsumer's to handle.

-- pgq.find_subconsumer(i_queue text, i_consumer text, i_subconsumer text)
--   returns pgq.subconsumer
-- Returns the subconsumer row, locked, after locking the group's row (so
-- calls of one group run one after the other).
-- Guarantee: raises PQ001 / PQ002 / PQ010 for an unknown queue / consumer /
-- subconsumer.
create function pgq.find_subconsumer(i_queue text, i_consumer text, i_subconsumer text)
returns pgq.subconsumer
language plpgsql as $$
declare
    s pgq.subscription := pgq.find_subscription(i_queue, i_consumer, true);
    c pgq.subconsumer;
begin
    select * into c from pgq.subconsumer
     where sc_sub = s.sub_id and sc_name = i_subconsumer
       for update;
    if not found then
        raise exception 'pgq: "%" is not a subconsumer of consumer "%" on queue "%"', i_subconsumer, i_consumer, i_queue
            using errcode = 'PQ010',
                  hint = 'add it with pgq.register_subconsumer(queue, consumer, subconsumer)';
    end if;
    return c;
end;
$$;

-- pgq.register_subconsumer(i_queue text, i_consumer text, i_subconsumer text) returns integer
--   i_queue, i_consumer  names (the consumer must be subscribed)
--   i_subconsumer        the new subconsumer's name
-- Returns 1 when added now, 0 when it already was.
-- Guarantee: the consumer becomes (or stays) a group; its cursor is
-- unchanged. Raises PQ001 / PQ002, 22023 for an empty name, PQ009 when the
-- consumer has a plain batch open (ack it first: a batch is either plain or
-- cut into parts).
create function pgq.register_subconsumer(i_queue text, i_consumer text, i_subconsumer text)
returns integer
language plpgsql as $$
declare
    s pgq.subscription := pgq.find_subscription(i_queue, i_consumer, true);
begin
    if i_subconsumer is null or i_subconsumer = '' then
        raise exception 'pgq: a subconsumer needs a name' using errcode = '22023';
    end if;
    if exists (select 1 from pgq.subconsumer where sc_sub = s.sub_id and sc_name = i_subconsumer) then
        return 0;
    end if;
    if s.sub_batch is not null
       and not exists (select 1 from pgq.subconsumer where sc_sub = s.sub_id) then
        raise exception 'pgq: consumer "%" has batch % open: ack it before adding subconsumers', i_consumer, s.sub_batch
            using errcode = 'PQ009';
    end if;
    insert into pgq.subconsumer (sc_sub, sc_name, sc_registered_at, sc_last_seen)
    values (s.sub_id, i_subconsumer, now(), now());
    return 1;
end;
$$;

-- pgq.unregister_subconsumer(i_queue text, i_consumer text, i_subconsumer text) returns integer
-- Returns 1.
-- Guarantee: the subconsumer is gone; a part it held and had not acked is
-- free for the next receive_part of any other subconsumer. When the last
-- subconsumer goes, the group becomes a plain consumer again: an open
-- batch is dropped back to its cursor (its parts forgotten), so the next
-- receive delivers the whole batch again (at-least-once). Raises PQ001 /
-- PQ002 / PQ010.
create function pgq.unregister_subconsumer(i_queue text, i_consumer text, i_subconsumer text)
returns integer
language plpgsql as $$
declare
    c pgq.subconsumer := pgq.find_subconsumer(i_queue, i_consumer, i_subconsumer);
begin
    delete from pgq.subconsumer where sc_id = c.sc_id;
    if not exists (select 1 from pgq.subconsumer where sc_sub = c.sc_sub) then
        delete from pgq.coop_part where part_sub = c.sc_sub;
        update pgq.subscription
           set sub_batch = null, sub_next_tick = null,
               sub_pos_txid = null, sub_pos_id = null,
               sub_page_txid = null, sub_page_id = null, sub_page_more = false
         where sub_id = c.sc_sub;
    end if;
    return 1;
end;
$$;

-- pgq.part_events(s pgq.subscription, p pgq.coop_part) returns setof record
-- The events of part p of the group's open batch, in (ev_txid, ev_id) order.
create function pgq.part_events(s pgq.subscription, p pgq.coop_part)
returns table (ev_id bigint, ev_time timestamptz, ev_txid xid8, ev_owner int,
               ev_retry int, ev_type text, ev_data text)
language plpgsql stable as $$
declare
    v_last pg_snapshot;
    v_next pg_snapshot;
begin
    select t.tick_snapshot into v_last from pgq.tick t
     where t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick;
    select t.tick_snapshot into v_next from pgq.tick t
     where t.tick_queue = s.sub_queue and t.tick_id = s.sub_next_tick;
    return query
        select b.* from pgq.batch_events(s.sub_queue, s.sub_id, v_last, v_next) b
         where (b.ev_txid, b.ev_id) >= (p.part_first_txid, p.part_first_id)
           and (b.ev_txid, b.ev_id) <= (p.part_last_txid, p.part_last_id)
         order by b.ev_txid, b.ev_id;
end;
$$;

-- pgq.finish_group_batch(s pgq.subscription) returns boolean
-- Moves the group's cursor to its batch's last tick when nothing of the
-- batch is left uncut and every part is acked; returns whether it did.
create function pgq.finish_group_batch(s pgq.subscription)
returns boolean
language plpgsql as $$
declare
    v_last pg_snapshot;
    v_next pg_snapshot;
begin
    if exists (select 1 from pgq.coop_part
                where part_sub = s.sub_id and part_batch = s.sub_batch and part_acked_at is null) then
        return false;
    end if;
    select t.tick_snapshot into v_last from pgq.tick t
     where t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick;
    select t.tick_snapshot into v_next from pgq.tick t
     where t.tick_queue = s.sub_queue and t.tick_id = s.sub_next_tick;
    if exists (select 1 from pgq.batch_events(s.sub_queue, s.sub_id, v_last, v_next,
                                              s.sub_pos_txid, s.sub_pos_id, 1)) then
        return false;  -- events not cut into a part yet
    end if;
    delete from pgq.coop_part where part_sub = s.sub_id and part_batch = s.sub_batch;
    update pgq.subscription
       set sub_last_tick = s.sub_next_tick,
           sub_batch = null, sub_next_tick = null,
           sub_pos_txid = null, sub_pos_id = null,
           sub_last_batch = s.sub_batch,
           sub_last_ack = now()
     where sub_id = s.sub_id;
    return true;
end;
$$;

-- pgq.receive_part(i_queue text, i_consumer text, i_subconsumer text,
--                  i_max int, i_dead_interval interval) returns table
--   i_queue, i_consumer, i_subconsumer  names
--   i_max            at most this many events in a new part (default 100)
--   i_dead_interval  a part handed out longer ago than this and not acked
--                    is taken over (default 30 s of lab time)
-- Returns (batch_id, part_no, msg_id, type, payload, retry_count,
--          created_at, txid, taken_over boolean), in (txid, msg_id) order;
-- no rows when there is nothing for this subconsumer now.
-- Guarantee, in this order:
--   1. the subconsumer holds an un-acked part: the same part again;
--   2. no batch open: opens the next one from the group's cursor to the
--      newest tick (an empty span is stepped over, as receive does);
--   3. a part of the open batch whose holder was removed, or that was
--      handed out before now() - i_dead_interval, is taken over (the same
--      events, taken_over = true, part_deliveries + 1);
--   4. otherwise a new part is cut from the batch's events not yet in one:
--      ceil(uncut / subconsumers holding no part), at most i_max;
--   5. nothing uncut and every other part held by a live holder: no rows
--      (the group's cursor waits for those parts' acks).
-- Parts never overlap; the group's cursor never moves here except over an
-- empty span. Raises PQ001 / PQ002 / PQ010, 22023 for i_max < 1 or a
-- negative dead interval.
create function pgq.receive_part(
    i_queue text, i_consumer text, i_subconsumer text,
    i_max int default 100, i_dead_interval interval default '30 seconds')
returns table (batch_id bigint, part_no int, msg_id bigint, type text, payload text,
               retry_count int, created_at timestamptz, txid bigint, taken_over boolean)
language plpgsql as $$
#variable_conflict use_column
declare
    c pgq.subconsumer;
    s pgq.subscription;
    p pgq.coop_part;
    v_last pg_snapshot;
    v_next pg_snapshot;
    v_uncut bigint;
    v_idle int;
    v_size int;
    v_taken boolean := false;
    v_n int := 0;
    v_no int;
    v_first_txid xid8;
    v_first_id bigint;
    v_end_txid xid8;
    v_end_id bigint;
    ev record;
begin
    if i_max is null or i_max < 1 then
        raise exception 'pgq: receive needs a limit of at least 1, not %', i_max
            using errcode = '22023';
    end if;
    if i_dead_interval is null or i_dead_interval < interval '0' then
        raise exception 'pgq: the dead interval must be zero or more, not %', i_dead_interval
            using errcode = '22023';
    end if;
    c := pgq.find_subconsumer(i_queue, i_consumer, i_subconsumer);
    update pgq.subconsumer set sc_last_seen = now() where sc_id = c.sc_id;
    select * into s from pgq.subscription where sub_id = c.sc_sub;

    if s.sub_batch is null then
        select max(t.tick_id) into s.sub_next_tick
          from pgq.tick t
         where t.tick_queue = s.sub_queue and t.tick_id > s.sub_last_tick;
        if s.sub_next_tick is null then
            return;  -- no tick since the cursor
        end if;
        select t.tick_snapshot into v_last from pgq.tick t
         where t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick;
        select t.tick_snapshot into v_next from pgq.tick t
         where t.tick_queue = s.sub_queue and t.tick_id = s.sub_next_tick;
        if not exists (select 1 from pgq.batch_events(s.sub_queue, s.sub_id, v_last, v_next,
                                                      null, null, 1)) then
            update pgq.subscription set sub_last_tick = s.sub_next_tick where sub_id = s.sub_id;
            return;  -- an empty span: step over it
        end if;
        s.sub_batch := nextval('pgq.batch_id_seq');
        s.sub_pos_txid := null;
        s.sub_pos_id := null;
        update pgq.subscription
           set sub_batch = s.sub_batch, sub_next_tick = s.sub_next_tick,
               sub_pos_txid = null, sub_pos_id = null,
               sub_page_txid = null, sub_page_id = null, sub_page_more = false
         where sub_id = s.sub_id;
    else
        select t.tick_snapshot into v_last from pgq.tick t
         where t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick;
        select t.tick_snapshot into v_next from pgq.tick t
         where t.tick_queue = s.sub_queue and t.tick_id = s.sub_next_tick;
    end if;

    -- 1. its own part, again
    select * into p from pgq.coop_part
     where part_sub = s.sub_id and part_batch = s.sub_batch
       and part_sc = c.sc_id and part_acked_at is null;
    if not found then
        -- 3. a part of a removed or silent holder
        select * into p from pgq.coop_part
         where part_sub = s.sub_id and part_batch = s.sub_batch and part_acked_at is null
           and (part_sc is null or part_given_at < now() - i_dead_interval)
         order by part_no
         limit 1
           for update;
        if found then
            update pgq.coop_part
               set part_sc = c.sc_id, part_given_at = now(), part_deliveries = part_deliveries + 1
             where part_sub = p.part_sub and part_batch = p.part_batch and part_no = p.part_no;
            v_taken := true;
        end if;
    end if;

    if p.part_no is null then
        -- 4. cut a new part
        select count(*) into v_uncut
          from pgq.batch_events(s.sub_queue, s.sub_id, v_last, v_next, s.sub_pos_txid, s.sub_pos_id);
        if v_uncut = 0 then
            return;  -- 5. the rest is held by others
        end if;
        select count(*)::int into v_idle
          from pgq.subconsumer k
         where k.sc_sub = s.sub_id
           and not exists (select 1 from pgq.coop_part q
                            where q.part_sub = s.sub_id and q.part_batch = s.sub_batch
                              and q.part_sc = k.sc_id and q.part_acked_at is null);
        v_size := least(i_max::bigint, (v_uncut + greatest(v_idle, 1) - 1) / greatest(v_idle, 1))::int;
        v_no := coalesce((select max(q.part_no) from pgq.coop_part q
                           where q.part_sub = s.sub_id and q.part_batch = s.sub_batch), 0) + 1;
        for ev in
            select * from pgq.batch_events(s.sub_queue, s.sub_id, v_last, v_next,
                                           s.sub_pos_txid, s.sub_pos_id, v_size)
        loop
            v_n := v_n + 1;
            if v_n = 1 then
                v_first_txid := ev.ev_txid;
                v_first_id := ev.ev_id;
            end if;
            v_end_txid := ev.ev_txid;
            v_end_id := ev.ev_id;
            batch_id := s.sub_batch;
            part_no := v_no;
            msg_id := ev.ev_id;
            type := ev.ev_type;
            payload := ev.ev_data;
            retry_count := ev.ev_retry;
            created_at := ev.ev_time;
            txid := ev.ev_txid::text::bigint;
            taken_over := false;
            return next;
        end loop;
        insert into pgq.coop_part (part_sub, part_batch, part_no, part_sc,
                                   part_first_txid, part_first_id, part_last_txid, part_last_id,
                                   part_events, part_given_at)
        values (s.sub_id, s.sub_batch, v_no, c.sc_id,
                v_first_txid, v_first_id, v_end_txid, v_end_id, v_n, now());
        update pgq.subscription set sub_pos_txid = v_end_txid, sub_pos_id = v_end_id
         where sub_id = s.sub_id;
        return;
    end if;

    for ev in select * from pgq.part_events(s, p) loop
        batch_id := s.sub_batch;
        part_no := p.part_no;
        msg_id := ev.ev_id;
        type := ev.ev_type;
        payload := ev.ev_data;
        retry_count := ev.ev_retry;
        created_at := ev.ev_time;
        txid := ev.ev_txid::text::bigint;
        taken_over := v_taken;
        return next;
    end loop;
end;
$$;

-- pgq.ack_part(i_batch_id bigint, i_consumer text, i_subconsumer text) returns integer
--   i_batch_id  the batch_id receive_part returned
-- Returns 1 when this ack finished the group's batch (the cursor moved to
-- its last tick), 0 when other parts (acked or not yet cut) remain.
-- Guarantee: the part is never handed out again. Raises PQ010 for an
-- unknown subconsumer, PQ004 for a batch the group already finished, PQ003
-- for a batch that is not the group's open one, PQ011 when the subconsumer holds no
-- un-acked part of it (e.g. another took it over after the dead interval).
create function pgq.ack_part(i_batch_id bigint, i_consumer text, i_subconsumer text)
returns integer
language plpgsql as $$
declare
    s pgq.subscription;
    v_sc int;
    v_no int;
begin
    select * into s from pgq.subscription
     where sub_batch = i_batch_id and sub_consumer = i_consumer
       for update;
    if not found then
        if exists (select 1 from pgq.subscription
                    where sub_last_batch = i_batch_id and sub_consumer = i_consumer) then
            raise exception 'pgq: batch % was already finished by consumer "%"', i_batch_id, i_consumer
                using errcode = 'PQ004';
        end if;
        raise exception 'pgq: batch % is not open for consumer "%"', i_batch_id, i_consumer
            using errcode = 'PQ003';
    end if;
    select sc_id into v_sc from pgq.subconsumer
     where sc_sub = s.sub_id and sc_name = i_subconsumer
       for update;
    if not found then
        raise exception 'pgq: "%" is not a subconsumer of consumer "%"', i_subconsumer, i_consumer
            using errcode = 'PQ010';
    end if;
    update pgq.subconsumer set sc_last_seen = now() where sc_id = v_sc;
    update pgq.coop_part set part_acked_at = now()
     where part_sub = s.sub_id and part_batch = i_batch_id
       and part_sc = v_sc and part_acked_at is null
    returning part_no into v_no;
    if v_no is null then
        raise exception 'pgq: subconsumer "%" holds no part of batch %', i_subconsumer, i_batch_id
            using errcode = 'PQ011',
                  hint = 'a part not acked within the dead interval is taken over by another subconsumer';
    end if;
    return case when pgq.finish_group_batch(s) then 1 else 0 end;
end;
$$;

-- pgq.get_subconsumer_info(i_queue text, i_consumer text) returns table
--   i_queue     queue name
--   i_consumer  a consumer name, or null (default) for every group
-- Returns one row per subconsumer: (consumer_name, subconsumer_name,
--   lag_events, batch_id, part_no, part_events, part_first_id,
--   part_last_id, part_age, part_deliveries, last_seen, idle).
--   lag_events  the group's lag (the cursor is shared): committed events
--               after the group's cursor, exact
--   part_*      the un-acked part it holds now (nulls: none); part_age is
--               now() - when it was handed out, part_deliveries how many
--               times it was (above 1: taken over or received again)
--   idle        now() - its last receive or ack
-- Guarantee: reads only. Raises PQ001 / PQ002.
create function pgq.get_subconsumer_info(i_queue text, i_consumer text default null)
returns table (consumer_name text, subconsumer_name text, lag_events bigint,
               batch_id bigint, part_no int, part_events int, part_first_id bigint,
               part_last_id bigint, part_age interval, part_deliveries int,
               last_seen timestamptz, idle interval)
language plpgsql stable as $$
#variable_conflict use_column
declare
    q pgq.queue := pgq.find_queue(i_queue);
    r record;
begin
    if i_consumer is not null then
        perform pgq.find_subscription(i_queue, i_consumer);
    end if;
    for r in
        select s.sub_id, s.sub_consumer, s.sub_batch, k.sc_id, k.sc_name, k.sc_last_seen, t.tick_snapshot
          from pgq.subconsumer k
          join pgq.subscription s on s.sub_id = k.sc_sub
          join pgq.tick t on t.tick_queue = s.sub_queue and t.tick_id = s.sub_last_tick
         where s.sub_queue = q.queue_id
           and (i_consumer is null or s.sub_consumer = i_consumer)
         order by s.sub_consumer, k.sc_name
    loop
        consumer_name := r.sub_consumer;
        subconsumer_name := r.sc_name;
        execute format(
            'select count(*) from %s e
              where e.ev_txid >= pg_snapshot_xmin($1)
                and not pg_visible_in_snapshot(e.ev_txid, $1)
                and (e.ev_owner is null or e.ev_owner = $2)', pgq.event_table(q.queue_id))
            into lag_events using r.tick_snapshot, r.sub_id;
        batch_id := null; part_no := null; part_events := null; part_first_id := null;
        part_last_id := null; part_age := null; part_deliveries := null;
        select r.sub_batch, p.part_no, p.part_events, p.part_first_id, p.part_last_id,
               now() - p.part_given_at, p.part_deliveries
          into batch_id, part_no, part_events, part_first_id, part_last_id, part_age, part_deliveries
          from pgq.coop_part p
         where p.part_sub = r.sub_id and p.part_batch = r.sub_batch
           and p.part_sc = r.sc_id and p.part_acked_at is null;
        last_seen := r.sc_last_seen;
        idle := now() - r.sc_last_seen;
        return next;
    end loop;
end;
$$;
