-- Queues and consumers: create_queue, drop_queue, subscribe / unsubscribe
-- (PgQue's names) = register_consumer / unregister_consumer (PgQ's), and the
-- two lookups every other function uses.

-- pgq.find_queue(i_queue text) returns pgq.queue
--   i_queue  queue name
-- Returns the queue row.
-- Guarantee: raises PQ001 'unknown queue' when there is none; reads only.
create function pgq.find_queue(i_queue text)
returns pgq.queue
language plpgsql stable as $$
declare
    q pgq.queue;
begin
    select * into q from pgq.queue where queue_name = i_queue;
    if not found then
        raise exception 'pgq: unknown queue "%"', i_queue
            using errcode = 'PQ001',
                  hint = 'create it with pgq.create_queue(name)';
    end if;
    return q;
end;
$$;

-- pgq.find_subscription(i_queue text, i_consumer text, i_lock boolean) returns pgq.subscription
--   i_queue, i_consumer  names; i_lock  take the row lock (FOR UPDATE)
-- Returns the consumer's subscription row.
-- Guarantee: raises PQ001 for an unknown queue, PQ002 for a consumer that is
-- not registered on it.
create function pgq.find_subscription(i_queue text, i_consumer text, i_lock boolean default false)
returns pgq.subscription
language plpgsql as $$
declare
    q pgq.queue := pgq.find_queue(i_queue);
    s pgq.subscription;
begin
    if i_lock then
        select * into s from pgq.subscription
         where sub_queue = q.queue_id and sub_consumer = i_consumer
           for update;
    else
        select * into s from pgq.subscription
         where sub_queue = q.queue_id and sub_consumer = i_consumer;
    end if;
    if not found then
        raise exception 'pgq: consumer "%" is not registered on queue "%"', i_consumer, i_queue
            using errcode = 'PQ002',
                  hint = 'register it with pgq.register_consumer(queue, consumer)';
    end if;
    return s;
end;
$$;

-- pgq.event_table(i_queue_id int, i_table int) returns text
--   i_queue_id  queue id; i_table  table number, or null for the parent
-- Returns the qualified, quoted name of an event table, e.g. pgq.event_1_0.
-- Guarantee: pure; does not check that the table exists.
create function pgq.event_table(i_queue_id int, i_table int default null)
returns text
language sql immutable as $$
    select 'pgq.' || quote_ident('event_' || i_queue_id
           || coalesce('_' || i_table::text, ''))
$$;

-- pgq.create_queue(i_queue text, i_ntables int, i_rotation_period interval, i_max_retries int) returns integer
--   i_queue            queue name
--   i_ntables          how many event tables rotate (2..16, default 3)
--   i_rotation_period  the least time a table stays current (default 30 s
--                      of lab time); maint() never rotates sooner
--   i_max_retries      how many times a nacked event is retried before the
--                      next nack sends it to dead letters (default 5)
-- Returns 1 when the queue was created, 0 when it already existed (nothing
-- is changed then).
-- Guarantee: creates the event tables pgq.event_<id>_0 .. _<n-1> (children
-- of pgq.event_<id>, each indexed on (ev_txid, ev_id): batches are read
-- as ranges of that key), the event id sequence, and
-- the first tick, so a consumer registered now starts from here.
create function pgq.create_queue(
    i_queue text,
    i_ntables int default 3,
    i_rotation_period interval default '30 seconds',
    i_max_retries int default 5)
returns integer
language plpgsql as $$
declare
    v_id int;
    v_parent text;
    v_child text;
begin
    if i_queue is null or i_queue = '' then
        raise exception 'pgq: a queue needs a name' using errcode = '22023';
    end if;
    if i_ntables is null or i_ntables not between 2 and 16 then
        raise exception 'pgq: a queue rotates between 2 and 16 tables, not %', i_ntables
            using errcode = '22023';
    end if;
    if i_rotation_period is null or i_rotation_period < interval '0' then
        raise exception 'pgq: rotation period must be zero or more, not %', i_rotation_period
            using errcode = '22023';
    end if;
    if i_max_retries is null or i_max_retries < 0 then
        raise exception 'pgq: max retries must be zero or more, not %', i_max_retries
            using errcode = '22023';
    end if;
    if exists (select 1 from pgq.queue where queue_name = i_queue) then
        return 0;
    end if;

    insert into pgq.queue (queue_name, queue_ntables, queue_rotation_period,
                           queue_max_retries, queue_switch_time,
                           queue_switch_step1, queue_switch_step2, queue_created_at)
    values (i_queue, i_ntables, i_rotation_period, i_max_retries, now(),
            pg_current_xact_id(), pg_current_xact_id(), now())
    returning queue_id into v_id;

    v_parent := pgq.event_table(v_id);
    execute format('create sequence pgq.%I', 'event_' || v_id || '_id_seq');
    execute format('create table %s (
        ev_id    bigint not null,
        ev_time  timestamptz not null,
        ev_txid  xid8 not null,
        ev_owner int,
        ev_retry int not null,
        ev_type  text,
        ev_data  text)', v_parent);
    for n in 0 .. i_ntables - 1 loop
        v_child := pgq.event_table(v_id, n);
        execute format('create table %s () inherits (%s)', v_child, v_parent);
        execute format('create index on %s (ev_txid, ev_id)', v_child);
    end loop;

    perform pgq.ticker(i_queue);
    return 1;
end;
$$;

-- pgq.drop_queue(i_queue text) returns integer
--   i_queue  queue name
-- Returns 1.
-- Guarantee: removes the queue, its event tables, ticks, consumers, retries
-- and dead letters. Raises PQ001 for an unknown queue, and 55P03 (instead of
-- waiting forever in a one-session database) when another transaction, e.g.
-- a prepared one, still holds a lock on one of its event tables.
create function pgq.drop_queue(i_queue text)
returns integer
language plpgsql as $$
declare
    q pgq.queue := pgq.find_queue(i_queue);
begin
    for n in 0 .. q.queue_ntables - 1 loop
        execute format('lock table %s in access exclusive mode nowait', pgq.event_table(q.queue_id, n));
    end loop;
    execute format('drop table %s cascade', pgq.event_table(q.queue_id));
    execute format('drop sequence pgq.%I', 'event_' || q.queue_id || '_id_seq');
    delete from pgq.queue where queue_id = q.queue_id;
    return 1;
end;
$$;

-- pgq.register_consumer(i_queue text, i_consumer text) returns integer
--   i_queue, i_consumer  names
-- Returns 1 when registered now, 0 when it already was (nothing changes).
-- Guarantee: the new consumer's cursor is the queue's latest tick: it
-- receives every event committed after that tick, and none before.
-- Raises PQ001 for an unknown queue.
create function pgq.register_consumer(i_queue text, i_consumer text)
returns integer
language plpgsql as $$
declare
    q pgq.queue := pgq.find_queue(i_queue);
begin
    if i_consumer is null or i_consumer = '' then
        raise exception 'pgq: a consumer needs a name' using errcode = '22023';
    end if;
    if exists (select 1 from pgq.subscription
                where sub_queue = q.queue_id and sub_consumer = i_consumer) then
        return 0;
    end if;
    insert into pgq.subscription (sub_queue, sub_consumer, sub_last_tick, sub_registered_at)
    values (q.queue_id, i_consumer, q.queue_last_tick, now());
    return 1;
end;
$$;

-- pgq.unregister_consumer(i_queue text, i_consumer text) returns integer
--   i_queue, i_consumer  names
-- Returns 1.
-- Guarantee: the consumer's cursor, open batch and pending retries are gone
-- (its dead letters stay, for inspection), and with a group its
-- subconsumers and their parts; it no longer holds rotation back.
-- Raises PQ001 / PQ002 for an unknown queue / consumer.
create function pgq.unregister_consumer(i_queue text, i_consumer text)
returns integer
language plpgsql as $$
declare
    s pgq.subscription := pgq.find_subscription(i_queue, i_consumer, true);
begin
    delete from pgq.subscription where sub_id = s.sub_id;
    return 1;
end;
$$;

-- pgq.subscribe(i_queue text, i_consumer text) returns integer
-- pgq.unsubscribe(i_queue text, i_consumer text) returns integer
-- PgQue's names for register_consumer / unregister_consumer: the same
-- functions, the same results and errors.
create function pgq.subscribe(i_queue text, i_consumer text)
returns integer
language sql as $$ select pgq.register_consumer(i_queue, i_consumer) $$;

create function pgq.unsubscribe(i_queue text, i_consumer text)
returns integer
language sql as $$ select pgq.unregister_consumer(i_queue, i_consumer) $$;
