-- Cooperative consumers (PgQue's subconsumers): several workers share one consumer's cursor.
--
-- A consumer becomes a cooperative group when a subconsumer is registered
-- under it. The group's row (sub_role 'coop_main') keeps the group's cursor;
-- each member has a row of its own ('coop_member', named '<group>.<member>')
-- that holds the batch it works on. receive_coop hands the calling member
-- the group's *next batch*, a whole tick interval of its own, and moves the
-- group's cursor past it at once; so two members receiving one after the
-- other work on two different batches side by side. A member's open batch
-- starts at its own row's sub_last_tick, which is what holds rotation back
-- until it is acked (70_maint.sql looks at every row's cursor).
--
-- A member that dies holding a batch. Nothing notices a death as such (as
-- in PgQue): a batch whose member has not called receive_coop, ack or
-- touch_subconsumer for longer than the dead_interval a caller passes to
-- receive_coop is taken over by that caller, if it holds no batch itself.
-- The taker gets the same events under a new batch id, so the old holder's
-- late ack finishes nothing (it returns 0): at-least-once, the dead one may
-- have done part of the work.
--
-- Retries: nack works on a member's batch as on any; the retry is addressed
-- to the group, so whichever member receives next gets it.

-- pgque.validate_coop_names(i_queue text, i_consumer text, i_subconsumer text) returns void
-- Raises PgQue's refusals of a cooperative call's names: 'queue name must
-- not be empty', 'consumer name must not be empty', 'subconsumer name must
-- not be empty', 'cooperative consumer name must not contain dot: <c>',
-- 'cooperative subconsumer name must not contain dot: <s>' (a member's row
-- is named '<group>.<member>'). Pure.
create function pgque.validate_coop_names(i_queue text, i_consumer text, i_subconsumer text)
returns void
language plpgsql immutable as $$
begin
    if coalesce(i_queue, '') = '' then
        raise exception 'queue name must not be empty';
    end if;
    if coalesce(i_consumer, '') = '' then
        raise exception 'consumer name must not be empty';
    end if;
    if coalesce(i_subconsumer, '') = '' then
        raise exception 'subconsumer name must not be empty';
    end if;
    if position('.' in i_consumer) > 0 then
        raise exception 'cooperative consumer name must not contain dot: %', i_consumer;
    end if;
    if position('.' in i_subconsumer) > 0 then
        raise exception 'cooperative subconsumer name must not contain dot: %', i_subconsumer;
    end if;
end;
$$;

-- pgque.register_subconsumer(i_queue text, i_consumer text, i_subconsumer text,
--                            i_convert_normal boolean) returns integer
--   i_queue           queue name
--   i_consumer        the group; registered (at the newest tick) if new
--   i_subconsumer     the member's name, unique in the group, no dot
--   i_convert_normal  allow turning an existing plain consumer into a group
--                     (default false: refused, as PgQue does)
-- Returns 1 for a new member, 0 when it was registered already.
-- Guarantee: the group keeps the plain consumer's cursor. Raises, in
-- PgQue's words: 'Event queue not created yet' for an unknown queue, the
-- name checks of validate_coop_names, 'consumer <c> on queue <q> is already
-- a normal consumer; explicit conversion is required' without
-- i_convert_normal, 'cannot convert active normal consumer <c> on queue <q>
-- to cooperative main' while it holds a batch (ack it first).
create function pgque.register_subconsumer(
    i_queue text, i_consumer text, i_subconsumer text, i_convert_normal boolean default false)
returns integer
language plpgsql as $$
declare
    q pgque.queue;
    m pgque.subscription;
    v_name text := i_consumer || '.' || i_subconsumer;
    v_new boolean;
begin
    perform pgque.validate_coop_names(i_queue, i_consumer, i_subconsumer);
    q := pgque.find_queue(i_queue, 'Event queue not created yet');
    v_new := pgque.register_consumer(i_queue, i_consumer) = 1;
    select * into m from pgque.subscription
     where sub_queue = q.queue_id and sub_consumer = i_consumer for update;
    if m.sub_role = 'coop_member' then
        raise exception 'consumer % on queue % is not a cooperative main consumer', i_consumer, i_queue;
    end if;
    if m.sub_role = 'normal' then
        if not v_new and not coalesce(i_convert_normal, false) then
            raise exception 'consumer % on queue % is already a normal consumer; explicit conversion is required', i_consumer, i_queue
                using hint = 'pass convert_normal => true';
        end if;
        if m.sub_batch is not null then
            raise exception 'cannot convert active normal consumer % on queue % to cooperative main', i_consumer, i_queue
                using hint = 'ack its open batch first';
        end if;
        update pgque.subscription set sub_role = 'coop_main' where sub_id = m.sub_id;
    end if;
    if exists (select 1 from pgque.subscription where sub_queue = q.queue_id and sub_consumer = v_name) then
        return 0;
    end if;
    insert into pgque.consumer (co_name) values (v_name) on conflict (co_name) do nothing;
    insert into pgque.subscription (sub_queue, sub_consumer, sub_role, sub_main, sub_last_tick,
                                    sub_active, sub_registered_at)
    values (q.queue_id, v_name, 'coop_member', m.sub_id, null, now(), now());
    return 1;
end;
$$;

-- pgque.find_member(i_queue text, i_consumer text, i_subconsumer text) returns pgque.subscription
-- Returns the member's row, locked, after locking the group's row (so calls
-- of one group run one after the other), or a row of nulls when the member
-- is not registered. Raises PgQue's 'cooperative main consumer not found:
-- <q>/<c>' when the group is not.
create function pgque.find_member(i_queue text, i_consumer text, i_subconsumer text)
returns pgque.subscription
language plpgsql as $$
declare
    g pgque.subscription;
    m pgque.subscription;
begin
    select sb.* into g from pgque.subscription sb join pgque.queue q on q.queue_id = sb.sub_queue
     where q.queue_name = i_queue and sb.sub_consumer = i_consumer
       for update of sb;
    if not found then
        raise exception 'cooperative main consumer not found: %/%', i_queue, i_consumer;
    end if;
    select * into m from pgque.subscription
     where sub_main = g.sub_id and sub_consumer = i_consumer || '.' || i_subconsumer
       for update;
    return m;
end;
$$;

-- pgque.unregister_subconsumer(i_queue text, i_consumer text, i_subconsumer text,
--                              i_batch_handling int) returns integer
--   i_batch_handling  0 (default): refuse while the member holds a batch;
--                     1: nack every event of its batch (retry, or dead
--                     letter past max_retries), then unregister
-- Returns 1, or 0 when the group or the member is not registered (as
-- PgQue).
-- Guarantee: when the last member goes, the group becomes a plain consumer
-- again, with the group's cursor. Raises PgQue's 'unsupported
-- batch_handling value: <n>', and 'cannot unregister active cooperative
-- subconsumer <q>/<c>/<s> without batch_handling = 1' for a member holding a
-- batch.
create function pgque.unregister_subconsumer(
    i_queue text, i_consumer text, i_subconsumer text, i_batch_handling int default 0)
returns integer
language plpgsql as $$
declare
    m pgque.subscription;
    ev record;
begin
    perform pgque.validate_coop_names(i_queue, i_consumer, i_subconsumer);
    if i_batch_handling not in (0, 1) then
        raise exception 'unsupported batch_handling value: %', i_batch_handling;
    end if;
    if not exists (select 1 from pgque.subscription sb join pgque.queue q on q.queue_id = sb.sub_queue
                    where q.queue_name = i_queue and sb.sub_consumer = i_consumer) then
        return 0;
    end if;
    m := pgque.find_member(i_queue, i_consumer, i_subconsumer);
    if m.sub_id is null then
        return 0;
    end if;
    if m.sub_batch is not null then
        if i_batch_handling <> 1 then
            raise exception 'cannot unregister active cooperative subconsumer %/%/% without batch_handling = 1', i_queue, i_consumer, i_subconsumer
                using hint = 'ack its batch first, or pass batch_handling => 1 (its events are nacked)';
        end if;
        for ev in select * from pgque.get_batch_events(m.sub_batch) loop
            perform pgque.nack(m.sub_batch, row(ev.ev_id, m.sub_batch, null, null, null, null,
                                                null, null, null, null)::pgque.message,
                               interval '0', 'subconsumer unregistered');
        end loop;
    end if;
    delete from pgque.subscription where sub_id = m.sub_id;
    perform pgque.forget_consumers(m.sub_consumer);
    if not exists (select 1 from pgque.subscription where sub_main = m.sub_main) then
        update pgque.subscription set sub_role = 'normal' where sub_id = m.sub_main;
    end if;
    return 1;
end;
$$;

-- pgque.touch_subconsumer(i_queue text, i_consumer text, i_subconsumer text) returns integer
-- Returns 1 when the member's heartbeat (sub_active) is now, 0 when there
-- is no such member (as PgQue). Raises validate_coop_names's refusals.
create function pgque.touch_subconsumer(i_queue text, i_consumer text, i_subconsumer text)
returns integer
language plpgsql as $$
declare
    n int;
begin
    perform pgque.validate_coop_names(i_queue, i_consumer, i_subconsumer);
    update pgque.subscription sb set sub_active = now()
      from pgque.queue q
     where q.queue_id = sb.sub_queue and q.queue_name = i_queue
       and sb.sub_consumer = i_consumer || '.' || i_subconsumer and sb.sub_role = 'coop_member';
    get diagnostics n = row_count;
    return n;
end;
$$;

-- pgque.next_batch_custom(i_queue text, i_consumer text, i_subconsumer text,
--                         i_min_lag interval, i_min_count int, i_min_interval interval,
--                         i_dead_interval interval) returns (batch_id bigint,
--                         prev_tick_id bigint, next_tick_id bigint)
-- Returns the member's open batch, or a stale member's batch it takes over,
-- or the group's next batch (its ticks), or a row of nulls when no tick
-- follows the group's cursor (or none meets the conditions, as the plain
-- next_batch_custom reads them: batch_end).
-- Guarantee: (registers the member, as PgQue's receive_coop does) 1. a
-- member holding a batch gets it again (its heartbeat moves); 2. else, with
-- i_dead_interval, the batch of the member idle longest beyond it is moved
-- to the caller under a new batch id; 3. else the group's cursor moves to
-- the batch's end tick and the caller holds that batch. An empty window
-- opens nothing and leaves the member's heartbeat as it was (so a member
-- that stopped polling still looks idle). Raises as register_subconsumer.
create function pgque.next_batch_custom(i_queue text, i_consumer text, i_subconsumer text,
    i_min_lag interval, i_min_count int4, i_min_interval interval,
    i_dead_interval interval default null,
    out batch_id bigint, out prev_tick_id bigint, out next_tick_id bigint)
language plpgsql as $$
declare
    g pgque.subscription;
    m pgque.subscription;
    v pgque.subscription;
    prev pgque.tick;
    nxt pgque.tick;
begin
    perform pgque.register_subconsumer(i_queue, i_consumer, i_subconsumer);
    m := pgque.find_member(i_queue, i_consumer, i_subconsumer);
    if m.sub_id is null then
        raise exception 'cooperative subconsumer not found: %/%/%', i_queue, i_consumer, i_subconsumer;
    end if;
    select * into g from pgque.subscription where sub_id = m.sub_main;
    if m.sub_batch is not null then
        update pgque.subscription set sub_active = now() where sub_id = m.sub_id;
        batch_id := m.sub_batch;
        prev_tick_id := m.sub_last_tick;
        next_tick_id := m.sub_next_tick;
        return;
    end if;
    if i_dead_interval is not null then
        select * into v from pgque.subscription
         where sub_main = g.sub_id and sub_id <> m.sub_id and sub_batch is not null
           and sub_active < now() - i_dead_interval
         order by sub_active, sub_consumer
         limit 1
           for update;
        if found then
            batch_id := nextval('pgque.batch_id_seq');
            update pgque.subscription
               set sub_last_tick = null, sub_next_tick = null, sub_batch = null
             where sub_id = v.sub_id;
            update pgque.subscription
               set sub_last_tick = v.sub_last_tick, sub_next_tick = v.sub_next_tick,
                   sub_batch = batch_id, sub_active = now()
             where sub_id = m.sub_id;
            prev_tick_id := v.sub_last_tick;
            next_tick_id := v.sub_next_tick;
            return;
        end if;
    end if;
    select * into prev from pgque.tick where tick_queue = g.sub_queue and tick_id = g.sub_last_tick;
    nxt := pgque.batch_end(prev, i_min_count, i_min_interval, i_min_lag);
    if nxt.tick_id is null then
        return;
    end if;
    batch_id := nextval('pgque.batch_id_seq');
    prev_tick_id := g.sub_last_tick;
    next_tick_id := nxt.tick_id;
    update pgque.subscription set sub_last_tick = nxt.tick_id, sub_active = now()
     where sub_id = g.sub_id;
    update pgque.subscription
       set sub_last_tick = g.sub_last_tick, sub_next_tick = nxt.tick_id, sub_batch = batch_id,
           sub_active = now()
     where sub_id = m.sub_id;
end;
$$;

-- pgque.next_batch(i_queue text, i_consumer text, i_subconsumer text, i_dead_interval interval)
--   returns bigint
-- The cooperative next_batch_custom with no conditions: the batch id, or null.
create function pgque.next_batch(i_queue text, i_consumer text, i_subconsumer text,
                                 i_dead_interval interval default null)
returns bigint
language sql as $$
    select batch_id from pgque.next_batch_custom(i_queue, i_consumer, i_subconsumer,
                                                  null, null, null, i_dead_interval)
$$;

-- pgque.subscribe_subconsumer(...) and pgque.unsubscribe_subconsumer(...):
-- PgQue's aliases of register_subconsumer and unregister_subconsumer.
create function pgque.subscribe_subconsumer(
    i_queue text, i_consumer text, i_subconsumer text, i_convert_normal boolean default false)
returns integer
language sql as $$ select pgque.register_subconsumer(i_queue, i_consumer, i_subconsumer, i_convert_normal) $$;

create function pgque.unsubscribe_subconsumer(
    i_queue text, i_consumer text, i_subconsumer text, i_batch_handling int default 0)
returns integer
language sql as $$ select pgque.unregister_subconsumer(i_queue, i_consumer, i_subconsumer, i_batch_handling) $$;

-- pgque.receive_coop(i_queue text, i_consumer text, i_subconsumer text, i_max_return int,
--                    i_dead_interval interval) returns setof pgque.message
-- Returns the member's batch (next_batch above) as pgque.message rows, at
-- most i_max_return (default 100) of them; no rows when there is no batch,
-- or when the batch holds no event for the group (it is then finished at
-- once).
-- Guarantee: as receive, per member: ack(batch_id) finishes the member's
-- whole batch (the batch-ownership caveat applies here too). Raises PgQue's
-- 'pgque.receive_coop: max_return must be >= 1, got <n>', and as next_batch.
create function pgque.receive_coop(i_queue text, i_consumer text, i_subconsumer text,
                                   i_max_return int default 100,
                                   i_dead_interval interval default null)
returns setof pgque.message
language plpgsql as $$
begin
    perform pgque.check_max_return('pgque.receive_coop', i_max_return);
    return query select * from pgque.batch_messages(
        pgque.next_batch(i_queue, i_consumer, i_subconsumer, i_dead_interval), i_max_return);
end;
$$;

-- pgque.get_subconsumer_info(i_queue text, i_consumer text) returns table
--   i_queue     queue name
--   i_consumer  a group, or null (default) for every group
-- Returns one row per member: (consumer text, subconsumer text, batch_id
-- bigint, batch_start_tick bigint, batch_end_tick bigint, batch_events int,
-- last_active timestamptz, idle interval). The lab's own view (PgQue shows
-- members through its experimental consumer_stats).
-- Guarantee: reads only. Raises find_queue's 'queue not found: <queue>'.
create function pgque.get_subconsumer_info(i_queue text, i_consumer text default null)
returns table (consumer text, subconsumer text, batch_id bigint, batch_start_tick bigint,
               batch_end_tick bigint, batch_events int, last_active timestamptz,
               idle interval)
language plpgsql stable as $$
#variable_conflict use_column
declare
    q pgque.queue := pgque.find_queue(i_queue);
    r record;
begin
    for r in
        select g.sub_consumer as gname, m.*
          from pgque.subscription m
          join pgque.subscription g on g.sub_id = m.sub_main
         where m.sub_queue = q.queue_id
           and (i_consumer is null or g.sub_consumer = i_consumer)
         order by g.sub_consumer, m.sub_consumer
    loop
        consumer := r.gname;
        subconsumer := substr(r.sub_consumer, length(r.gname) + 2);
        batch_id := r.sub_batch;
        batch_start_tick := r.sub_last_tick;
        batch_end_tick := r.sub_next_tick;
        batch_events := case when r.sub_batch is null then 0
                             else (select count(*)::int from pgque.get_batch_events(r.sub_batch)) end;
        last_active := r.sub_active;
        idle := now() - r.sub_active;
        return next;
    end loop;
end;
$$;
