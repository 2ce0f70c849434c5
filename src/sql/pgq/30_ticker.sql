-- The ticker: cuts the event stream into batches by recording snapshots.

-- pgq.ticker(i_queue text) returns bigint
--   i_queue  queue name
-- Returns the new tick's id (ticks of a queue are numbered 1, 2, 3, ...).
-- Guarantee: records pg_current_snapshot() and the event id sequence
-- position. A transaction still in flight now (not committed, e.g. a
-- prepared one) is in the snapshot's in-progress list, so its events fall
-- into a batch ending at a later tick, after it commits: none is lost, none
-- is delivered twice. Always ticks, even with no new events: on the lab's
-- clock a Tick button that did nothing would only confuse; maint() drops
-- ticks no consumer needs. Also records step 2 of a pending rotation
-- (see 70_maint.sql) when called after the rotating transaction.
-- Raises PQ001 for an unknown queue.
create function pgq.ticker(i_queue text)
returns bigint
language plpgsql as $$
declare
    q pgq.queue := pgq.find_queue(i_queue);
    v_tick bigint;
begin
    -- the queue row lock orders concurrent tickers of one queue
    select * into q from pgq.queue where queue_id = q.queue_id for update;

    if q.queue_switch_step2 is null and q.queue_switch_step1 <> pg_current_xact_id() then
        update pgq.queue set queue_switch_step2 = pg_current_xact_id()
         where queue_id = q.queue_id;
    end if;

    v_tick := q.queue_last_tick + 1;
    insert into pgq.tick (tick_queue, tick_id, tick_time, tick_snapshot, tick_event_seq)
    values (q.queue_id, v_tick, now(), pg_current_snapshot(),
            coalesce(pg_sequence_last_value(format('pgq.%I', 'event_' || q.queue_id || '_id_seq')::regclass), 0));
    update pgq.queue set queue_last_tick = v_tick where queue_id = q.queue_id;
    return v_tick;
end;
$$;

-- pgq.ticker() returns integer
-- Returns how many queues were ticked.
-- Guarantee: ticker(queue) for every queue, in queue id order; this is what
-- a scheduler (pg_cron, the lab's clock) calls every second or so.
create function pgq.ticker()
returns integer
language plpgsql as $$
declare
    v_name text;
    n int := 0;
begin
    for v_name in select queue_name from pgq.queue order by queue_id loop
        perform pgq.ticker(v_name);
        n := n + 1;
    end loop;
    return n;
end;
$$;
