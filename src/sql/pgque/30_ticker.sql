-- The ticker: cuts the event stream into batches by recording snapshots.

-- pgque.tick_due_at(q pgque.queue) returns timestamptz
--   q  a queue row
-- Returns the earliest time at which ticker(queue) makes a tick, if nothing
-- is sent before then: now() or earlier when one is due now.
-- Guarantee: PgQ's rule, the one place it is written: with new events (the
-- event id sequence moved since the last tick), at once when there are at
-- least ticker_max_count of them, else when the last tick is ticker_max_lag
-- old; with none, when the last tick is older than half of ticker_max_lag
-- and than twice the gap before it (idle ticks thin out up to
-- ticker_idle_period); at once when the queue has no tick or a single one
-- (no gap to measure yet: so the first send after create_queue is ticked at
-- once, as in PgQue); force_next_tick makes the first case true by moving
-- the sequence ahead. Reads only. The scheduler
-- (80_schedule.sql) uses it to jump the lab clock from one tick to the next
-- instead of calling ticker() every 100 ms of lab time.
create function pgque.tick_due_at(q pgque.queue)
returns timestamptz
language plpgsql stable as $$
declare
    v_seq bigint := pgque.event_seq(q.queue_id);
    v_last pgque.tick;
    v_gap interval;
begin
    select * into v_last from pgque.tick
     where tick_queue = q.queue_id order by tick_id desc limit 1;
    if not found then
        return '-infinity';
    end if;
    if v_seq > v_last.tick_event_seq then
        if v_seq - v_last.tick_event_seq >= q.queue_ticker_max_count then
            return '-infinity';
        end if;
        return v_last.tick_time + q.queue_ticker_max_lag;
    end if;
    select v_last.tick_time - tick_time into v_gap from pgque.tick
     where tick_queue = q.queue_id and tick_id < v_last.tick_id
     order by tick_id desc limit 1;
    if not found then
        return '-infinity';
    end if;
    return v_last.tick_time + greatest(q.queue_ticker_max_lag / 2,
                                       least(v_gap * 2, q.queue_ticker_idle_period));
end;
$$;

-- pgque.ticker(i_queue text) returns bigint
--   i_queue  queue name
-- Returns the new tick's id (ticks of a queue are numbered 1, 2, 3, ...), or
-- null when no tick is due.
-- Guarantee: a tick is made when PgQ's rule says one is due (tick_due_at).
-- A tick records pg_current_snapshot() and the event id
-- sequence position. A transaction still in flight now (not committed, e.g.
-- a prepared one) is in the snapshot's in-progress list, so its events fall
-- into a batch ending at a later tick, after it commits: none is lost, none
-- is delivered twice. A tick notifies channel 'pgque_<queue>' (PgQue's
-- wake-up for consumers). Raises PgQue's 'no such queue', 'This queue has
-- external tick source.' for a queue ticked from outside, and 'Ticker has
-- been paused for this queue' for a paused queue.
create function pgque.ticker(i_queue text)
returns bigint
language plpgsql as $$
declare
    q pgque.queue;
    v_tick bigint;
begin
    -- the queue row lock orders concurrent tickers of one queue
    select * into q from pgque.queue where queue_name = i_queue for update;
    if not found then
        raise exception 'no such queue';
    end if;
    if q.queue_external_ticker then
        raise exception 'This queue has external tick source.';
    end if;
    if q.queue_ticker_paused then
        raise exception 'Ticker has been paused for this queue';
    end if;

    if now() < pgque.tick_due_at(q) then
        return null;
    end if;

    v_tick := q.queue_last_tick + 1;
    insert into pgque.tick (tick_queue, tick_id, tick_time, tick_snapshot, tick_event_seq)
    values (q.queue_id, v_tick, now(), pg_current_snapshot(), pgque.event_seq(q.queue_id));
    update pgque.queue set queue_last_tick = v_tick
     where queue_id = q.queue_id;
    -- the tick sequence says the newest tick id, as PgQue's nextval leaves it
    perform setval(q.queue_tick_seq, v_tick);
    perform pg_notify('pgque_' || q.queue_name, v_tick::text);
    return v_tick;
end;
$$;

-- pgque.ticker() returns bigint
-- Returns how many queues got a tick.
-- Guarantee: ticker(queue) for every queue that is neither paused nor
-- ticked from outside, in name
-- order (as PgQue); this is what the scheduler's ticker job calls
-- (pgque.ticker_loop, 80_schedule.sql).
create function pgque.ticker()
returns bigint
language plpgsql as $$
declare
    v_name text;
    n bigint := 0;
begin
    for v_name in select queue_name from pgque.queue
                   where not queue_ticker_paused and not queue_external_ticker
                   order by queue_name loop
        if pgque.ticker(v_name) is not null then
            n := n + 1;
        end if;
    end loop;
    return n;
end;
$$;

-- pgque.force_next_tick(i_queue text) returns bigint
-- pgque.force_tick(i_queue text) returns bigint
--   i_queue  queue name
-- Returns the queue's last tick id (not a new one).
-- Guarantee: PgQue's: the next ticker(queue) makes a tick whatever its
-- thresholds, because the event id sequence is moved ahead by
-- ticker_max_count * 2 + 1000 (as if that many events had been sent); it
-- inserts no tick itself (PgQue's idiom: force_next_tick, then ticker, in
-- transactions of their own). So the next event's id is that much higher,
-- and ev_new and pending_events (estimates from the sequence) count the
-- jump; events_waiting and lag_events (the lab's exact counts) do not.
-- force_tick is PgQ's older name for it. Raises PgQue's 'queue not found:
-- <queue>', 'queue <q> is paused (queue_ticker_paused = true)' and the
-- external ticker's refusal.
create function pgque.force_next_tick(i_queue text)
returns bigint
language plpgsql as $$
declare
    q pgque.queue := pgque.find_queue(i_queue);
    v_seq text := q.queue_event_seq;
begin
    if q.queue_ticker_paused then
        raise exception 'queue % is paused (queue_ticker_paused = true)', i_queue;
    end if;
    if q.queue_external_ticker then
        raise exception 'queue % is configured for external ticker; force_tick is meaningless — push ticks via pgque.ticker(queue, tick_id, ts, event_seq)', i_queue;
    end if;
    perform setval(v_seq, nextval(v_seq) + q.queue_ticker_max_count * 2 + 1000);
    return q.queue_last_tick;
end;
$$;

create function pgque.force_tick(i_queue text)
returns bigint
language sql as $$ select pgque.force_next_tick(i_queue) $$;

-- pgque.ticker(i_queue text, i_tick_id bigint, i_orig_timestamp timestamptz, i_event_seq bigint)
--   returns bigint
--   i_queue           a queue configured with external_ticker
--   i_tick_id         the new tick's id: above every tick the queue has
--   i_orig_timestamp  its time, as the source queue recorded it
--   i_event_seq       the event sequence position it stands for: not below
--                     the last tick's
-- Returns i_tick_id.
-- Guarantee: PgQ's external ticker (a replica ticking as its source did):
-- the tick is recorded as given, with the current snapshot, and the event
-- sequence is brought up to i_event_seq. Raises PgQue's 'queue not found:
-- <q>', 'queue <q> is paused (queue_ticker_paused = true)', 'queue <q> is
-- not configured for external ticker (queue_external_ticker = false); use
-- pgque.ticker(queue) instead', 'external ticker tick_id must be strictly
-- greater than current max (<id> <= <max>)' and 'external ticker event_seq
-- must be >= previous tick (<seq> < <last>)'.
create function pgque.ticker(i_queue text, i_tick_id bigint, i_orig_timestamp timestamptz,
                             i_event_seq bigint)
returns bigint
language plpgsql as $$
declare
    q pgque.queue := pgque.find_queue(i_queue);
    v_last pgque.tick;
begin
    if q.queue_ticker_paused then
        raise exception 'queue % is paused (queue_ticker_paused = true)', i_queue;
    end if;
    if not q.queue_external_ticker then
        raise exception 'queue % is not configured for external ticker (queue_external_ticker = false); use pgque.ticker(queue) instead', i_queue;
    end if;
    select * into v_last from pgque.tick where tick_queue = q.queue_id order by tick_id desc limit 1;
    if i_tick_id <= coalesce(v_last.tick_id, 0) then
        raise exception 'external ticker tick_id must be strictly greater than current max (% <= %)',
            i_tick_id, coalesce(v_last.tick_id, 0);
    end if;
    if v_last.tick_event_seq is not null and i_event_seq < v_last.tick_event_seq then
        raise exception 'external ticker event_seq must be >= previous tick (% < %)',
            i_event_seq, v_last.tick_event_seq;
    end if;
    insert into pgque.tick (tick_queue, tick_id, tick_time, tick_snapshot, tick_event_seq)
    values (q.queue_id, i_tick_id, i_orig_timestamp, pg_current_snapshot(), i_event_seq);
    update pgque.queue set queue_last_tick = i_tick_id where queue_id = q.queue_id;
    perform setval(q.queue_tick_seq, i_tick_id);
    if i_event_seq > pgque.event_seq(q.queue_id) then
        perform setval(format('pgque.%I', 'event_' || q.queue_id || '_id_seq')::regclass, i_event_seq);
    end if;
    perform pg_notify('pgque_' || q.queue_name, i_tick_id::text);
    return i_tick_id;
end;
$$;
