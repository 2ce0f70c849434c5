-- Queues and consumers: create_queue, set_queue_config, drop_queue, subscribe /
-- unsubscribe (PgQue's names) = register_consumer / unregister_consumer (PgQ's),
-- and the lookups every other function uses.

-- pgque.find_queue(i_queue text) returns pgque.queue
--   i_queue  queue name
-- Returns the queue row.
-- Guarantee: raises PQ001 'unknown queue' when there is none; reads only.
create function pgque.find_queue(i_queue text)
returns pgque.queue
language plpgsql stable as $$
declare
    q pgque.queue;
begin
    select * into q from pgque.queue where queue_name = i_queue;
    if not found then
        raise exception 'pgque: unknown queue "%"', i_queue
            using errcode = 'PQ001',
                  hint = 'create it with pgque.create_queue(name)';
    end if;
    return q;
end;
$$;

-- pgque.find_subscription(i_queue text, i_consumer text, i_lock boolean) returns pgque.subscription
--   i_queue, i_consumer  names (a member's name is '<group>.<member>');
--   i_lock  take the row lock (FOR UPDATE)
-- Returns the consumer's subscription row.
-- Guarantee: raises PQ001 for an unknown queue, PQ002 for a consumer that is
-- not registered on it.
create function pgque.find_subscription(i_queue text, i_consumer text, i_lock boolean default false)
returns pgque.subscription
language plpgsql as $$
declare
    q pgque.queue := pgque.find_queue(i_queue);
    s pgque.subscription;
begin
    if i_lock then
        select * into s from pgque.subscription
         where sub_queue = q.queue_id and sub_consumer = i_consumer
           for update;
    else
        select * into s from pgque.subscription
         where sub_queue = q.queue_id and sub_consumer = i_consumer;
    end if;
    if not found then
        raise exception 'pgque: consumer "%" is not registered on queue "%"', i_consumer, i_queue
            using errcode = 'PQ002',
                  hint = 'register it with pgque.subscribe(queue, consumer)';
    end if;
    return s;
end;
$$;

-- pgque.event_table(i_queue_id int, i_table int) returns text
--   i_queue_id  queue id; i_table  table number, or null for the parent
-- Returns the qualified, quoted name of an event table, e.g. pgque.event_1_0.
-- Guarantee: pure; does not check that the table exists.
create function pgque.event_table(i_queue_id int, i_table int default null)
returns text
language sql immutable as $$
    select 'pgque.' || quote_ident('event_' || i_queue_id
           || coalesce('_' || i_table::text, ''))
$$;

-- pgque.event_seq(i_queue_id int) returns bigint
-- Returns the last event id handed out (0 before the first): PgQ's
-- queue_event_seq position. Reads only.
create function pgque.event_seq(i_queue_id int)
returns bigint
language sql stable as $$
    select coalesce(pg_sequence_last_value(
               format('pgque.%I', 'event_' || i_queue_id || '_id_seq')::regclass), 0)
$$;

-- pgque.create_queue(i_queue text, i_ntables int) returns integer
--   i_queue    queue name
--   i_ntables  how many event tables rotate (2..16, default 3: PgQue's
--              fixed number; the argument is the lab's own)
-- Returns 1 when the queue was created, 0 when it already existed (nothing
-- is changed then).
-- Guarantee: creates the event tables pgque.event_<id>_0 .. _<n-1> (children
-- of pgque.event_<id>, each indexed on (ev_txid, ev_id): batches are read
-- as ranges of that key), the event id sequence, and the first tick, so a
-- consumer registered now starts from here. Settings start at PgQue's
-- defaults (rotation every 2 hours, 5 retries, ticker thresholds 500 events
-- / 3 s / 1 min idle); change them with set_queue_config.
create function pgque.create_queue(i_queue text, i_ntables int default 3)
returns integer
language plpgsql as $$
declare
    v_id int;
    v_parent text;
    v_child text;
begin
    if i_queue is null or i_queue = '' then
        raise exception 'pgque: a queue needs a name' using errcode = '22023';
    end if;
    if i_ntables is null or i_ntables not between 2 and 16 then
        raise exception 'pgque: a queue rotates between 2 and 16 tables, not %', i_ntables
            using errcode = '22023';
    end if;
    if exists (select 1 from pgque.queue where queue_name = i_queue) then
        return 0;
    end if;

    insert into pgque.queue (queue_name, queue_ntables, queue_rotation_period,
                             queue_switch_time, queue_switch_step1, queue_switch_step2,
                             queue_created_at)
    values (i_queue, i_ntables, interval '2 hours', now(),
            pg_current_xact_id(), pg_current_xact_id(), now())
    returning queue_id into v_id;

    v_parent := pgque.event_table(v_id);
    execute format('create sequence pgque.%I', 'event_' || v_id || '_id_seq');
    execute format('create table %s (
        ev_id     bigint not null,
        ev_time   timestamptz not null,
        ev_txid   xid8 not null,
        ev_owner  int,
        ev_retry  int,
        ev_type   text,
        ev_data   text,
        ev_extra1 text,
        ev_extra2 text,
        ev_extra3 text,
        ev_extra4 text)', v_parent);
    for n in 0 .. i_ntables - 1 loop
        v_child := pgque.event_table(v_id, n);
        execute format('create table %s () inherits (%s)', v_child, v_parent);
        execute format('create index on %s (ev_txid, ev_id)', v_child);
    end loop;

    perform pgque.force_next_tick(i_queue);
    perform pgque.ticker(i_queue);
    return 1;
end;
$$;

-- pgque.set_queue_config(i_queue text, i_param text, i_value text) returns integer
--   i_queue  queue name
--   i_param  one of max_retries, rotation_period, ticker_max_count,
--            ticker_max_lag, ticker_idle_period (PgQue's names, without the
--            queue_ prefix)
--   i_value  the new value as text; null resets it to the default
-- Returns 1.
-- Guarantee: range-checked as PgQue does (max_retries >= 0; counts and
-- intervals positive); raises 22023 for an unknown parameter or a value out
-- of range, PQ001 for an unknown queue.
create function pgque.set_queue_config(i_queue text, i_param text, i_value text)
returns integer
language plpgsql as $$
declare
    q pgque.queue := pgque.find_queue(i_queue);
    v_int int;
    v_interval interval;
begin
    case i_param
    when 'max_retries' then
        v_int := i_value::int;
        if v_int < 0 then
            raise exception 'pgque: max_retries must be zero or more, not %', v_int using errcode = '22023';
        end if;
        update pgque.queue set queue_max_retries = v_int where queue_id = q.queue_id;
    when 'ticker_max_count' then
        v_int := coalesce(i_value::int, 500);
        if v_int < 1 then
            raise exception 'pgque: ticker_max_count must be positive, not %', v_int using errcode = '22023';
        end if;
        update pgque.queue set queue_ticker_max_count = v_int where queue_id = q.queue_id;
    when 'rotation_period', 'ticker_max_lag', 'ticker_idle_period' then
        v_interval := coalesce(i_value::interval,
                               case i_param when 'rotation_period' then interval '2 hours'
                                            when 'ticker_max_lag' then interval '3 seconds'
                                            else interval '1 minute' end);
        if v_interval <= interval '0' then
            raise exception 'pgque: % must be positive, not %', i_param, v_interval using errcode = '22023';
        end if;
        if i_param = 'rotation_period' then
            update pgque.queue set queue_rotation_period = v_interval where queue_id = q.queue_id;
        elsif i_param = 'ticker_max_lag' then
            update pgque.queue set queue_ticker_max_lag = v_interval where queue_id = q.queue_id;
        else
            update pgque.queue set queue_ticker_idle_period = v_interval where queue_id = q.queue_id;
        end if;
    else
        raise exception 'pgque: unknown queue setting "%"', i_param
            using errcode = '22023',
                  hint = 'max_retries, rotation_period, ticker_max_count, ticker_max_lag or ticker_idle_period';
    end case;
    return 1;
end;
$$;

-- pgque.drop_queue(i_queue text, i_force boolean) returns integer
--   i_queue  queue name
--   i_force  unsubscribe its consumers first (default false: refuse)
-- Returns 1.
-- Guarantee: removes the queue, its event tables, ticks, retries and dead
-- letters. Raises PQ001 for an unknown queue, PQ009 while consumers are
-- subscribed and i_force is false, and 55P03 (instead of waiting forever in
-- a one-session database) when another transaction, e.g. a prepared one,
-- still holds a lock on one of its event tables.
create function pgque.drop_queue(i_queue text, i_force boolean default false)
returns integer
language plpgsql as $$
declare
    q pgque.queue := pgque.find_queue(i_queue);
begin
    if not i_force and exists (select 1 from pgque.subscription where sub_queue = q.queue_id) then
        raise exception 'pgque: queue "%" still has consumers', i_queue
            using errcode = 'PQ009',
                  hint = 'unsubscribe them first, or call pgque.drop_queue(queue, true)';
    end if;
    for n in 0 .. q.queue_ntables - 1 loop
        execute format('lock table %s in access exclusive mode nowait', pgque.event_table(q.queue_id, n));
    end loop;
    execute format('drop table %s cascade', pgque.event_table(q.queue_id));
    execute format('drop sequence pgque.%I', 'event_' || q.queue_id || '_id_seq');
    delete from pgque.queue where queue_id = q.queue_id;
    return 1;
end;
$$;

-- pgque.register_consumer(i_queue text, i_consumer text) returns integer
--   i_queue, i_consumer  names
-- Returns 1 when registered now, 0 when it already was (nothing changes).
-- Guarantee: the new consumer's cursor is the queue's latest tick: it
-- receives every event committed after that tick, and none before.
-- Raises PQ001 for an unknown queue, 22023 for an empty name or one with a
-- dot (reserved for cooperative members, '<group>.<member>').
create function pgque.register_consumer(i_queue text, i_consumer text)
returns integer
language plpgsql as $$
declare
    q pgque.queue := pgque.find_queue(i_queue);
begin
    if i_consumer is null or i_consumer = '' or position('.' in i_consumer) > 0 then
        raise exception 'pgque: a consumer needs a name without a dot, not "%"', i_consumer
            using errcode = '22023';
    end if;
    if exists (select 1 from pgque.subscription
                where sub_queue = q.queue_id and sub_consumer = i_consumer) then
        return 0;
    end if;
    insert into pgque.subscription (sub_queue, sub_consumer, sub_last_tick, sub_active,
                                    sub_registered_at)
    values (q.queue_id, i_consumer, q.queue_last_tick, now(), now());
    return 1;
end;
$$;

-- pgque.unregister_consumer(i_queue text, i_consumer text) returns integer
--   i_queue, i_consumer  names
-- Returns 1.
-- Guarantee: the consumer's cursor, open batch and pending retries are gone
-- (its dead letters stay, for inspection); it no longer holds rotation
-- back. Raises PQ001 / PQ002 for an unknown queue / consumer, PQ009 for a
-- cooperative group that still has members (unregister them first, as
-- PgQue requires).
create function pgque.unregister_consumer(i_queue text, i_consumer text)
returns integer
language plpgsql as $$
declare
    s pgque.subscription := pgque.find_subscription(i_queue, i_consumer, true);
begin
    if s.sub_role = 'coop_member' or exists (select 1 from pgque.subscription where sub_main = s.sub_id) then
        raise exception 'pgque: consumer "%" is a cooperative group with members (or one of them)', i_consumer
            using errcode = 'PQ009',
                  hint = 'unregister its subconsumers first: pgque.unregister_subconsumer(queue, consumer, subconsumer)';
    end if;
    delete from pgque.subscription where sub_id = s.sub_id;
    return 1;
end;
$$;

-- pgque.subscribe(i_queue text, i_consumer text) returns integer
-- pgque.unsubscribe(i_queue text, i_consumer text) returns integer
-- PgQue's names for register_consumer / unregister_consumer: the same
-- functions, the same results and errors.
create function pgque.subscribe(i_queue text, i_consumer text)
returns integer
language sql as $$ select pgque.register_consumer(i_queue, i_consumer) $$;

create function pgque.unsubscribe(i_queue text, i_consumer text)
returns integer
language sql as $$ select pgque.unregister_consumer(i_queue, i_consumer) $$;
