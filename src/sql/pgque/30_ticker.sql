-- The ticker: cuts the event stream into batches by recording snapshots.

-- pgque.ticker(i_queue text) returns bigint
--   i_queue  queue name
-- Returns the new tick's id (ticks of a queue are numbered 1, 2, 3, ...), or
-- null when no tick is due.
-- Guarantee: PgQ's rule decides whether a tick is due: with new events, when
-- there are at least ticker_max_count of them or the last tick is
-- ticker_max_lag old; with none, when the last tick is older than half of
-- ticker_max_lag and than twice the gap before it (idle ticks thin out up to
-- ticker_idle_period); always after force_next_tick. A tick records
-- pg_current_snapshot() and the event id sequence position. A transaction
-- still in flight now (not committed, e.g. a prepared one) is in the
-- snapshot's in-progress list, so its events fall into a batch ending at a
-- later tick, after it commits: none is lost, none is delivered twice. A
-- tick notifies channel 'pgque_<queue>' (PgQue's wake-up for consumers).
-- Also records step 2 of a pending rotation (see 70_maint.sql) when called
-- in a later transaction than the rotation's.
-- Raises PQ001 for an unknown queue.
create function pgque.ticker(i_queue text)
returns bigint
language plpgsql as $$
declare
    q pgque.queue := pgque.find_queue(i_queue);
    v_seq bigint;
    v_last pgque.tick;
    v_gap interval;
    v_lag interval;
    v_tick bigint;
begin
    -- the queue row lock orders concurrent tickers of one queue
    select * into q from pgque.queue where queue_id = q.queue_id for update;

    if q.queue_switch_step2 is null and q.queue_switch_step1 <> pg_current_xact_id() then
        update pgque.queue set queue_switch_step2 = pg_current_xact_id()
         where queue_id = q.queue_id;
    end if;

    v_seq := pgque.event_seq(q.queue_id);
    select * into v_last from pgque.tick
     where tick_queue = q.queue_id order by tick_id desc limit 1;
    if found and not q.queue_force_tick then
        v_lag := now() - v_last.tick_time;
        if v_seq > v_last.tick_event_seq then
            if v_seq - v_last.tick_event_seq < q.queue_ticker_max_count
               and v_lag < q.queue_ticker_max_lag then
                return null;
            end if;
        else
            select v_last.tick_time - tick_time into v_gap from pgque.tick
             where tick_queue = q.queue_id and tick_id < v_last.tick_id
             order by tick_id desc limit 1;
            if found and (v_lag < q.queue_ticker_max_lag / 2
                          or (v_lag < v_gap * 2 and v_lag < q.queue_ticker_idle_period)) then
                return null;
            end if;
        end if;
    end if;

    v_tick := q.queue_last_tick + 1;
    insert into pgque.tick (tick_queue, tick_id, tick_time, tick_snapshot, tick_event_seq)
    values (q.queue_id, v_tick, now(), pg_current_snapshot(), v_seq);
    update pgque.queue set queue_last_tick = v_tick, queue_force_tick = false
     where queue_id = q.queue_id;
    perform pg_notify('pgque_' || q.queue_name, v_tick::text);
    return v_tick;
end;
$$;

-- pgque.ticker() returns bigint
-- Returns how many queues got a tick.
-- Guarantee: ticker(queue) for every queue, in queue id order; this is what
-- a scheduler calls (PgQue's pg_cron job: every second, ten ticks in it; in
-- the lab: the clock's auto-tick).
create function pgque.ticker()
returns bigint
language plpgsql as $$
declare
    v_name text;
    n bigint := 0;
begin
    for v_name in select queue_name from pgque.queue order by queue_id loop
        if pgque.ticker(v_name) is not null then
            n := n + 1;
        end if;
    end loop;
    return n;
end;
$$;

-- pgque.force_next_tick(i_queue text) returns bigint
--   i_queue  queue name
-- Returns the queue's last tick id (not a new one).
-- Guarantee: the next ticker(queue) makes a tick whatever its thresholds;
-- inserts no tick itself (PgQue's idiom: force_next_tick, then ticker, in
-- transactions of their own). PgQue forces it by moving the event id
-- sequence ahead (ticker_max_count * 2 + 1000); the lab sets a flag, so
-- event ids stay small. Raises PQ001 for an unknown queue.
create function pgque.force_next_tick(i_queue text)
returns bigint
language plpgsql as $$
declare
    q pgque.queue := pgque.find_queue(i_queue);
begin
    update pgque.queue set queue_force_tick = true where queue_id = q.queue_id;
    return q.queue_last_tick;
end;
$$;
