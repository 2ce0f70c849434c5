-- Queues and consumers: create_queue, set_queue_config, drop_queue, subscribe /
-- unsubscribe (PgQue's names) = register_consumer / unregister_consumer (PgQ's),
-- and the lookups every other function uses.

-- pgque.find_queue(i_queue text, i_error text) returns pgque.queue
--   i_queue  queue name
--   i_error  the message to raise when there is none, a format() string that
--            may name the queue with %s. PgQue words it differently in
--            different functions ('queue not found: q' in send, 'no such
--            queue' in ticker, 'No such event queue' in drop_queue and
--            set_queue_config, 'Event queue not created yet' in subscribe);
--            each caller passes PgQue's words for that function.
-- Returns the queue row.
-- Guarantee: raises P0001 (a plain RAISE EXCEPTION, as PgQue) when there is
-- no such queue; reads only.
create function pgque.find_queue(i_queue text, i_error text default 'queue not found: %s')
returns pgque.queue
language plpgsql stable as $$
declare
    q pgque.queue;
begin
    select * into q from pgque.queue where queue_name = i_queue;
    if not found then
        raise exception using message = format(i_error, i_queue),
                              hint = 'create it with pgque.create_queue(name)';
    end if;
    return q;
end;
$$;

-- pgque.find_subscription(i_queue text, i_consumer text, i_lock boolean) returns pgque.subscription
--   i_queue, i_consumer  names (a member's name is '<group>.<member>');
--   i_lock  take the row lock (FOR UPDATE)
-- Returns the consumer's subscription row.
-- Guarantee: raises P0001 'Not subscriber to queue: <queue>/<consumer>'
-- (PgQue's next_batch words) for an unknown queue or a consumer that is not
-- registered on it.
create function pgque.find_subscription(i_queue text, i_consumer text, i_lock boolean default false)
returns pgque.subscription
language plpgsql as $$
declare
    s pgque.subscription;
begin
    if i_lock then
        select sb.* into s from pgque.subscription sb join pgque.queue q on q.queue_id = sb.sub_queue
         where q.queue_name = i_queue and sb.sub_consumer = i_consumer
           for update of sb;
    else
        select sb.* into s from pgque.subscription sb join pgque.queue q on q.queue_id = sb.sub_queue
         where q.queue_name = i_queue and sb.sub_consumer = i_consumer;
    end if;
    if not found then
        raise exception using message = format('Not subscriber to queue: %s/%s',
                                               coalesce(i_queue, 'NULL'), coalesce(i_consumer, 'NULL')),
                              hint = 'register it with pgque.subscribe(queue, consumer)';
    end if;
    return s;
end;
$$;

-- pgque.find_batch(i_batch_id bigint, i_error text) returns pgque.subscription
--   i_batch_id  an open batch
--   i_error     the message to raise when no subscription has it open, a
--               format() string that may name the batch with %s: PgQue words
--               it differently in different functions ('batch not found' in
--               get_batch_events, 'event not found' in event_retry, 'batch
--               not found: <id>' in event_dead, 'batch_retry: batch <id> not
--               found'); each caller passes PgQue's words for that function.
-- Returns the subscription whose open batch it is.
-- Guarantee: raises P0001 (a plain RAISE EXCEPTION, as PgQue) when the batch
-- is not open; reads only.
create function pgque.find_batch(i_batch_id bigint, i_error text)
returns pgque.subscription
language plpgsql stable as $$
declare
    s pgque.subscription;
begin
    select * into s from pgque.subscription where sub_batch = i_batch_id;
    if not found then
        raise exception using message = format(i_error, i_batch_id);
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
-- Returns the event id sequence's last_value, as PgQ's seq_getval reads it:
-- 1 on a fresh sequence and still 1 after the first event, then the last id
-- handed out. So the first event after create_queue counts as no new event
-- for the ticker, and a queue whose only tick is create_queue's ticks on the
-- next ticker() call (the idle rule needs two ticks to measure a gap):
-- PgQue's "send one, tick, receive it" works at once. Reads only.
create function pgque.event_seq(i_queue_id int)
returns bigint
language plpgsql stable as $$
declare
    v bigint;
begin
    execute format('select last_value from pgque.%I', 'event_' || i_queue_id || '_id_seq') into v;
    return v;
end;
$$;

-- pgque.create_queue(i_queue text, i_ntables int) returns integer
--   i_queue    queue name, at most 57 bytes (PgQue's limit: the wake-up
--              channel 'pgque_<queue>' must fit PostgreSQL's 63-byte names)
--   i_ntables  how many event tables rotate (2..16; the one-argument form
--              below makes PgQue's fixed 3; this argument is the lab's own)
-- Returns 1 when the queue was created, 0 when it already existed (nothing
-- is changed then).
-- Guarantee: creates the event tables pgque.event_<id>_0 .. _<n-1> (children
-- of pgque.event_<id>, each indexed on (ev_txid, ev_id): batches are read
-- as ranges of that key), the event id sequence, and the first tick, so a
-- consumer registered now starts from here. Settings start at PgQue's
-- defaults (rotation every 2 hours, 5 retries, ticker thresholds 500 events
-- / 3 s / 1 min idle); change them with set_queue_config. Raises PgQue's
-- 'Invalid NULL value' and 'queue name too long: …'; 22023 for a table
-- count out of range (the lab's own argument).
create function pgque.create_queue(i_queue text, i_ntables int)
returns integer
language plpgsql as $$
declare
    v_id int;
    v_parent text;
    v_child text;
begin
    if i_queue is null then
        raise exception 'Invalid NULL value';
    end if;
    if octet_length(i_queue) > 57 then
        raise exception 'queue name too long: % bytes (max 57). pg_notify channel ''pgque_<queue_name>'' must fit in 63 bytes.',
            octet_length(i_queue);
    end if;
    if i_ntables is null or i_ntables not between 2 and 16 then
        raise exception 'pgque: a queue rotates between 2 and 16 tables, not %', i_ntables
            using errcode = '22023';
    end if;
    if exists (select 1 from pgque.queue where queue_name = i_queue) then
        return 0;
    end if;

    v_id := nextval(pg_get_serial_sequence('pgque.queue', 'queue_id'));
    insert into pgque.queue (queue_id, queue_name, queue_ntables, queue_rotation_period,
                             queue_switch_time, queue_switch_step1, queue_switch_step2,
                             queue_data_pfx, queue_event_seq, queue_tick_seq,
                             queue_created_at)
    values (v_id, i_queue, i_ntables, interval '2 hours', now(),
            pg_current_xact_id()::text::bigint, pg_current_xact_id()::text::bigint,
            'pgque.event_' || v_id, 'pgque.event_' || v_id || '_id_seq',
            'pgque.event_' || v_id || '_tick_seq', now());

    v_parent := pgque.event_table(v_id);
    execute format('create sequence pgque.%I', 'event_' || v_id || '_id_seq');
    execute format('create sequence pgque.%I', 'event_' || v_id || '_tick_seq');
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

    perform pgque.ticker(i_queue);
    return 1;
end;
$$;

-- pgque.create_queue(i_queue text) returns integer
-- PgQue's one-argument form: three event tables.
create function pgque.create_queue(i_queue text)
returns integer
language sql as $$ select pgque.create_queue(i_queue, 3) $$;

-- pgque.set_queue_config(i_queue text, i_param text, i_value text) returns integer
--   i_queue  queue name
--   i_param  one of max_retries, rotation_period, ticker_max_count,
--            ticker_max_lag, ticker_idle_period, ticker_paused,
--            external_ticker (PgQue's names, without the queue_ prefix)
--   i_value  the new value as text; null resets it to the default
-- Returns 1.
-- Guarantee: range-checked as PgQue does, with PgQue's messages: 'Invalid
-- NULL value' for a null queue or name, 'No such event queue', 'cannot
-- change parameter "<name>s"' for a name it does not know (PgQue's format
-- string reads "%s", so its message carries a stray s: kept, so that a
-- handler matching the text works on both), 'set_queue_config: <name> must
-- be >= 0 / > 0, got <value>'.
create function pgque.set_queue_config(i_queue text, i_param text, i_value text)
returns integer
language plpgsql as $$
declare
    q pgque.queue;
    v_int int8;
    v_interval interval;
begin
    if i_queue is null or i_param is null then
        raise exception 'Invalid NULL value';
    end if;
    q := pgque.find_queue(i_queue, 'No such event queue');
    if i_param not in ('max_retries', 'rotation_period', 'ticker_max_count', 'ticker_max_lag',
                       'ticker_idle_period', 'ticker_paused', 'external_ticker') then
        raise exception using message = format('cannot change parameter "%ss"', i_param),
                              hint = 'max_retries, rotation_period, ticker_max_count, ticker_max_lag, ticker_idle_period, ticker_paused or external_ticker';
    end if;
    case i_param
    when 'max_retries' then
        v_int := i_value::int8;
        if v_int < 0 then
            raise exception 'set_queue_config: max_retries must be >= 0, got %', v_int;
        end if;
        update pgque.queue set queue_max_retries = v_int where queue_id = q.queue_id;
    when 'ticker_max_count' then
        v_int := coalesce(i_value::int8, 500);
        if v_int <= 0 then
            raise exception 'set_queue_config: ticker_max_count must be > 0, got %', v_int;
        end if;
        update pgque.queue set queue_ticker_max_count = v_int where queue_id = q.queue_id;
    when 'ticker_paused' then
        update pgque.queue set queue_ticker_paused = coalesce(i_value::boolean, false)
         where queue_id = q.queue_id;
    when 'external_ticker' then
        update pgque.queue set queue_external_ticker = coalesce(i_value::boolean, false)
         where queue_id = q.queue_id;
    else
        v_interval := coalesce(i_value::interval,
                               case i_param when 'rotation_period' then interval '2 hours'
                                            when 'ticker_max_lag' then interval '3 seconds'
                                            else interval '1 minute' end);
        if v_interval <= interval '0' then
            raise exception 'set_queue_config: % must be > 0, got %', i_param, v_interval;
        end if;
        if i_param = 'rotation_period' then
            update pgque.queue set queue_rotation_period = v_interval where queue_id = q.queue_id;
        elsif i_param = 'ticker_max_lag' then
            update pgque.queue set queue_ticker_max_lag = v_interval where queue_id = q.queue_id;
        else
            update pgque.queue set queue_ticker_idle_period = v_interval where queue_id = q.queue_id;
        end if;
    end case;
    return 1;
end;
$$;

-- pgque.forget_consumers(variadic i_names text[]) returns void
--   i_names  the consumers just unsubscribed (by unsubscribe, unregister_subconsumer,
--            or drop_queue: every consumer of the queue)
-- Guarantee: as PgQue's unregister_consumer: each of those names with no
-- subscription left on any queue is deleted from pgque.consumer, and its
-- dead letters with it (pgque.dead_letter's on delete cascade). Other names
-- are not read.
create function pgque.forget_consumers(variadic i_names text[])
returns void
language sql as $$
    delete from pgque.consumer c
     where c.co_name = any (i_names)
       and not exists (select 1 from pgque.subscription s where s.sub_consumer = c.co_name)
$$;

-- pgque.drop_queue(i_queue text, i_force boolean) returns integer
--   i_queue  queue name
--   i_force  unsubscribe its consumers first (default false: refuse)
-- Returns 1.
-- Guarantee: removes the queue, its event tables, ticks, retries and dead
-- letters. Raises PgQue's 'No such event queue' and 'cannot drop queue,
-- consumers still attached' (i_force false), and 55P03 (instead of waiting
-- forever in a one-session database) when another transaction, e.g. a
-- prepared one, still holds a lock on one of its event tables.
create function pgque.drop_queue(i_queue text, i_force boolean default false)
returns integer
language plpgsql as $$
declare
    q pgque.queue := pgque.find_queue(i_queue, 'No such event queue');
    v_names text[] := array(select sub_consumer from pgque.subscription where sub_queue = q.queue_id);
begin
    if not i_force and exists (select 1 from pgque.subscription where sub_queue = q.queue_id) then
        raise exception 'cannot drop queue, consumers still attached'
            using hint = 'unsubscribe them first, or call pgque.drop_queue(queue, true)';
    end if;
    for n in 0 .. q.queue_ntables - 1 loop
        execute format('lock table %s in access exclusive mode nowait', pgque.event_table(q.queue_id, n));
    end loop;
    execute format('drop table %s cascade', pgque.event_table(q.queue_id));
    execute format('drop sequence pgque.%I', 'event_' || q.queue_id || '_id_seq');
    execute format('drop sequence pgque.%I', 'event_' || q.queue_id || '_tick_seq');
    delete from pgque.queue where queue_id = q.queue_id;
    perform pgque.forget_consumers(variadic v_names);
    return 1;
end;
$$;

-- pgque.register_consumer_at(i_queue text, i_consumer text, i_tick_pos bigint) returns integer
--   i_queue, i_consumer  names
--   i_tick_pos  the tick to start after; null: the queue's newest tick
-- Returns 1 when registered now, 0 when it already was; then, with a tick
-- given, its cursor moves there and its open batch is dropped (PgQ's
-- reposition).
-- Guarantee: the consumer receives every event committed after its start
-- tick, and none before. Raises PgQue's 'Event queue not created yet' for an
-- unknown queue and 'cannot reposition, tick not found: <tick>'.
create function pgque.register_consumer_at(i_queue text, i_consumer text, i_tick_pos bigint)
returns integer
language plpgsql as $$
declare
    q pgque.queue := pgque.find_queue(i_queue, 'Event queue not created yet');
begin
    if i_tick_pos is not null
       and not exists (select 1 from pgque.tick where tick_queue = q.queue_id and tick_id = i_tick_pos) then
        raise exception 'cannot reposition, tick not found: %', i_tick_pos;
    end if;
    if exists (select 1 from pgque.subscription
                where sub_queue = q.queue_id and sub_consumer = i_consumer) then
        if i_tick_pos is not null then
            update pgque.subscription
               set sub_last_tick = i_tick_pos, sub_batch = null, sub_next_tick = null, sub_active = now()
             where sub_queue = q.queue_id and sub_consumer = i_consumer;
        end if;
        return 0;
    end if;
    insert into pgque.consumer (co_name) values (i_consumer) on conflict (co_name) do nothing;
    insert into pgque.subscription (sub_queue, sub_consumer, sub_last_tick, sub_active,
                                    sub_registered_at)
    values (q.queue_id, i_consumer, coalesce(i_tick_pos, q.queue_last_tick), now(), now());
    return 1;
end;
$$;

-- pgque.register_consumer(i_queue text, i_consumer text) returns integer
-- register_consumer_at from the queue's newest tick: 1 when registered now,
-- 0 when it already was (nothing changes).
create function pgque.register_consumer(i_queue text, i_consumer text)
returns integer
language sql as $$ select pgque.register_consumer_at(i_queue, i_consumer, null) $$;

-- pgque.unregister_consumer(i_queue text, i_consumer text) returns integer
--   i_queue, i_consumer  names (a member's: '<group>.<member>')
-- Returns 1 when it was registered and is now gone, 0 when it was not
-- registered (as PgQue: no error).
-- Guarantee: the consumer's cursor, open batch and pending retries are gone;
-- it no longer holds rotation back. With its last subscription its name
-- leaves pgque.consumer, and its dead letters go with it (as PgQue: read
-- or copy them first, dlq_inspect). A member (named '<group>.<member>') goes alone, and its group
-- becomes a plain consumer again when it was the last. Raises PgQue's
-- 'cannot unregister cooperative main consumer with registered
-- subconsumers' for a group that still has members, and 'cannot unregister
-- active cooperative subconsumer without forced batch handling' for a
-- member holding a batch.
create function pgque.unregister_consumer(i_queue text, i_consumer text)
returns integer
language plpgsql as $$
declare
    s pgque.subscription;
begin
    select sb.* into s from pgque.subscription sb join pgque.queue q on q.queue_id = sb.sub_queue
     where q.queue_name = i_queue and sb.sub_consumer = i_consumer
       for update of sb;
    if not found then
        return 0;
    end if;
    if s.sub_role = 'coop_member' then
        if s.sub_batch is not null then
            raise exception 'cannot unregister active cooperative subconsumer without forced batch handling'
                using hint = 'ack its batch, or pgque.unregister_subconsumer(queue, consumer, subconsumer, 1)';
        end if;
        delete from pgque.subscription where sub_id = s.sub_id;
        update pgque.subscription g set sub_role = 'normal', sub_active = now()
         where g.sub_id = s.sub_main
           and not exists (select 1 from pgque.subscription m where m.sub_main = s.sub_main);
        perform pgque.forget_consumers(s.sub_consumer);
        return 1;
    end if;
    if exists (select 1 from pgque.subscription where sub_main = s.sub_id) then
        raise exception 'cannot unregister cooperative main consumer with registered subconsumers'
            using hint = 'unregister its subconsumers first: pgque.unregister_subconsumer(queue, consumer, subconsumer)';
    end if;
    delete from pgque.subscription where sub_id = s.sub_id;
    perform pgque.forget_consumers(s.sub_consumer);
    return 1;
end;
$$;

-- pgque.subscribe(i_queue text, i_consumer text) returns integer
--   PgQue's name for register_consumer: the same results and errors, and
--   PgQue's refusal of '#' in a name ('consumer name must not contain the
--   reserved character #: <name>'; PgQue keeps '#' for its partition slots).
-- pgque.unsubscribe(i_queue text, i_consumer text) returns integer
--   PgQue's name for unregister_consumer: the same results and errors.
create function pgque.subscribe(i_queue text, i_consumer text)
returns integer
language plpgsql as $$
begin
    if position('#' in i_consumer) > 0 then
        raise exception 'consumer name must not contain the reserved character #: %', i_consumer;
    end if;
    return pgque.register_consumer(i_queue, i_consumer);
end;
$$;

create function pgque.unsubscribe(i_queue text, i_consumer text)
returns integer
language sql as $$ select pgque.unregister_consumer(i_queue, i_consumer) $$;
