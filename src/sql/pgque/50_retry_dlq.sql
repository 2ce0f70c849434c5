-- Retries and dead letters: event_retry, batch_retry, event_dead, maint_retry_events,
-- dlq_inspect, dlq_replay, dlq_replay_all, dlq_purge.

-- pgque.event_retry_raw(i_batch_id bigint, i_event_id bigint, i_retry_at timestamptz,
--                       i_reason text) returns integer
-- Returns 1 when the event was queued for retry, 0 when it already was.
-- Guarantee: PgQ's event_retry: one retry_queue row with the event as the
-- batch has it (same ev_id, ev_retry + 1), owned by the consumer (a
-- cooperative member's group). Raises PgQue's 'event not found' for a batch
-- that is not open or an event not in it.
create function pgque.event_retry_raw(i_batch_id bigint, i_event_id bigint,
                                      i_retry_at timestamptz, i_reason text)
returns integer
language plpgsql as $$
declare
    s pgque.subscription;
    ev record;
begin
    s := pgque.find_batch(i_batch_id, 'event not found');
    select * into ev from pgque.get_batch_events(i_batch_id) b where b.ev_id = i_event_id;
    if not found then
        raise exception 'event not found';
    end if;
    insert into pgque.retry_queue (ev_retry_after, ev_queue, ev_id, ev_time, ev_txid, ev_owner,
                                   ev_retry, ev_type, ev_data, ev_extra1, ev_extra2, ev_extra3,
                                   ev_extra4, ev_reason, ev_nacked_at)
    values (i_retry_at, s.sub_queue, ev.ev_id, ev.ev_time, null, coalesce(s.sub_main, s.sub_id),
            coalesce(ev.ev_retry, 0) + 1, ev.ev_type, ev.ev_data, ev.ev_extra1, ev.ev_extra2,
            ev.ev_extra3, ev.ev_extra4, i_reason, now())
    on conflict (ev_owner, ev_id) do nothing;
    return case when found then 1 else 0 end;
end;
$$;

-- pgque.event_retry(i_batch_id bigint, i_event_id bigint, i_retry_seconds integer) returns integer
-- pgque.event_retry(i_batch_id bigint, i_event_id bigint, i_retry_time timestamptz) returns integer
-- PgQ's two forms: retry after so many seconds, or at a time. As event_retry_raw.
create function pgque.event_retry(i_batch_id bigint, i_event_id bigint, i_retry_seconds integer)
returns integer
language sql as $$
    select pgque.event_retry_raw(i_batch_id, i_event_id, now() + make_interval(secs => i_retry_seconds), null)
$$;

create function pgque.event_retry(i_batch_id bigint, i_event_id bigint, i_retry_time timestamptz)
returns integer
language sql as $$ select pgque.event_retry_raw(i_batch_id, i_event_id, i_retry_time, null) $$;

-- pgque.batch_retry(i_batch_id bigint, i_retry_seconds integer) returns integer
--   i_batch_id       an open batch
--   i_retry_seconds  delay before the events come back
-- Returns how many events were queued for retry (those already queued are
-- not counted again).
-- Guarantee: event_retry for every event of the batch, the whole batch,
-- whatever a receive returned of it. Still ack the batch. Raises PgQue's
-- 'batch_retry: batch <id> not found'.
create function pgque.batch_retry(i_batch_id bigint, i_retry_seconds integer)
returns integer
language plpgsql as $$
declare
    n int := 0;
    ev record;
begin
    perform pgque.find_batch(i_batch_id, 'batch_retry: batch %s not found');
    for ev in select b.ev_id from pgque.get_batch_events(i_batch_id) b loop
        n := n + pgque.event_retry_raw(i_batch_id, ev.ev_id,
                                       now() + make_interval(secs => i_retry_seconds), null);
    end loop;
    return n;
end;
$$;

-- pgque.event_dead(i_batch_id bigint, i_event_id bigint, i_reason text, i_ev_time timestamptz,
--                  i_ev_txid xid8, i_ev_retry int, i_ev_type text, i_ev_data text,
--                  i_ev_extra1 text, i_ev_extra2 text, i_ev_extra3 text, i_ev_extra4 text)
--                  returns integer
-- Returns 1.
-- Guarantee: PgQue's: the event with the fields given is in
-- pgque.dead_letter for the batch's consumer (a member's group), once: a
-- second call for the same queue, consumer and event changes nothing. nack
-- passes the event as the batch has it. Raises PgQue's 'batch not found:
-- <id>' for a batch that is not open.
create function pgque.event_dead(i_batch_id bigint, i_event_id bigint, i_reason text,
    i_ev_time timestamptz, i_ev_txid xid8, i_ev_retry int4, i_ev_type text, i_ev_data text,
    i_ev_extra1 text default null, i_ev_extra2 text default null,
    i_ev_extra3 text default null, i_ev_extra4 text default null)
returns integer
language plpgsql as $$
declare
    s pgque.subscription;
    v_consumer int;
begin
    s := pgque.find_batch(i_batch_id, 'batch not found: %s');
    select c.co_id into v_consumer from pgque.subscription g
      join pgque.consumer c on c.co_name = g.sub_consumer
     where g.sub_id = coalesce(s.sub_main, s.sub_id);
    insert into pgque.dead_letter (dl_queue_id, dl_consumer_id, dl_time, dl_reason, ev_id, ev_time,
                                   ev_txid, ev_retry, ev_type, ev_data, ev_extra1, ev_extra2,
                                   ev_extra3, ev_extra4)
    values (s.sub_queue, v_consumer, now(), i_reason, i_event_id, i_ev_time, i_ev_txid,
            i_ev_retry, i_ev_type, i_ev_data, i_ev_extra1, i_ev_extra2, i_ev_extra3, i_ev_extra4)
    on conflict (dl_queue_id, dl_consumer_id, ev_id) do nothing;
    return 1;
end;
$$;

-- pgque.maint_retry_events() returns integer
-- Returns how many retries were put back into event tables: at most 10.
-- Guarantee: as PgQ: the 10 retries due soonest (ev_retry_after <= now())
-- each become an event in its queue's current table again, with its own
-- ev_id, addressed to its consumer only, carrying its retry count; its
-- retry_queue row is deleted in the same transaction (so it is sent once).
-- More than 10 due: call it again (PgQ's pgqd loops until it returns 0;
-- PgQue's scheduled job calls it once every 30 s). Like any event, a retry
-- reaches the consumer in a batch after the next tick, taken in a later
-- transaction; it counts as a new event for the ticker (insert_event_raw).
create function pgque.maint_retry_events()
returns integer
language plpgsql as $$
declare
    v_now timestamptz := now();
    r pgque.retry_queue;
    n int := 0;
begin
    for r in
        select * from pgque.retry_queue
         where ev_retry_after <= v_now
         order by ev_retry_after, ev_id
         limit 10
    loop
        perform pgque.insert_event_raw(r.ev_queue, r.ev_id, r.ev_time, r.ev_owner, r.ev_retry,
                                       r.ev_type, r.ev_data, r.ev_extra1, r.ev_extra2,
                                       r.ev_extra3, r.ev_extra4);
        delete from pgque.retry_queue where ev_owner = r.ev_owner and ev_id = r.ev_id;
        n := n + 1;
    end loop;
    return n;
end;
$$;

-- pgque.dlq_inspect(i_queue text, i_limit int) returns setof pgque.dead_letter
--   i_queue  queue name (an unknown one has no dead letters: no rows)
--   i_limit  at most this many, newest first (default 100)
-- Guarantee: reads only.
create function pgque.dlq_inspect(i_queue text, i_limit int default 100)
returns setof pgque.dead_letter
language sql stable as $$
    select d.* from pgque.dead_letter d join pgque.queue q on q.queue_id = d.dl_queue_id
     where q.queue_name = i_queue
     order by d.dl_time desc, d.dl_id desc
     limit i_limit
$$;

-- pgque.dlq_replay(i_dl_id bigint) returns bigint
--   i_dl_id  a dead letter's id (from dlq_inspect)
-- Returns the id of the new event.
-- Guarantee: as PgQue: sends the dead event again as a new event
-- (insert_event: type, payload and extra fields, a new id, retry count null)
-- to *every* consumer of its queue, not only the one that gave up on it, and
-- deletes the dead letter, in one transaction. Raises PgQue's 'dead letter
-- entry not found: <id>'.
create function pgque.dlq_replay(i_dl_id bigint)
returns bigint
language plpgsql as $$
declare
    d pgque.dead_letter;
    v_queue text;
    v_id bigint;
begin
    select * into d from pgque.dead_letter where dl_id = i_dl_id for update;
    if not found then
        raise exception 'dead letter entry not found: %', i_dl_id;
    end if;
    select queue_name into v_queue from pgque.queue where queue_id = d.dl_queue_id;
    v_id := pgque.insert_event(v_queue, d.ev_type, d.ev_data,
                               d.ev_extra1, d.ev_extra2, d.ev_extra3, d.ev_extra4);
    delete from pgque.dead_letter where dl_id = i_dl_id;
    return v_id;
end;
$$;

-- pgque.dlq_replay_all(i_queue text) returns (replayed bigint, failed bigint, first_error text)
--   i_queue  queue name (an unknown one: nothing to replay)
-- Guarantee: dlq_replay for each of the queue's dead letters, each in a
-- subtransaction of its own: one that fails is counted in failed, its error
-- kept in first_error (the first one) and raised as a WARNING, and the rest
-- go on (as PgQue).
create function pgque.dlq_replay_all(i_queue text,
    out replayed bigint, out failed bigint, out first_error text)
language plpgsql as $$
declare
    d record;
begin
    replayed := 0;
    failed := 0;
    for d in
        select dl.dl_id from pgque.dead_letter dl join pgque.queue q on q.queue_id = dl.dl_queue_id
         where q.queue_name = i_queue
         order by dl.dl_id
           for update of dl skip locked
    loop
        begin
            perform pgque.dlq_replay(d.dl_id);
            replayed := replayed + 1;
        exception when others then
            failed := failed + 1;
            first_error := coalesce(first_error, format('dl_id=%s: %s', d.dl_id, sqlerrm));
            raise warning 'dlq_replay_all: failed to replay dl_id=%, error: %', d.dl_id, sqlerrm;
        end;
    end loop;
end;
$$;

-- pgque.dlq_purge(i_queue text, i_older_than interval) returns integer
--   i_queue       queue name (an unknown one: 0)
--   i_older_than  delete dead letters older than this (default 30 days)
-- Returns how many were deleted.
create function pgque.dlq_purge(i_queue text, i_older_than interval default '30 days')
returns integer
language plpgsql as $$
declare
    n int;
begin
    delete from pgque.dead_letter
     where dl_queue_id = (select queue_id from pgque.queue where queue_name = i_queue)
       and dl_time < now() - i_older_than;
    get diagnostics n = row_count;
    return n;
end;
$$;
