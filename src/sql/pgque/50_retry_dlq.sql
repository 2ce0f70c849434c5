-- Retries and dead letters: event_retry, event_dead, maint_retry_events, dlq_inspect, dlq_replay.

-- pgque.event_retry_raw(i_batch_id bigint, i_event_id bigint, i_retry_at timestamptz,
--                       i_reason text) returns integer
-- Returns 1 when the event was queued for retry, 0 when it already was.
-- Guarantee: PgQ's event_retry: one retry_queue row with the event as the
-- batch has it (same ev_id, ev_retry + 1), owned by the consumer (a
-- cooperative member's group). Raises PQ003 / PQ007 (batch_event).
create function pgque.event_retry_raw(i_batch_id bigint, i_event_id bigint,
                                      i_retry_at timestamptz, i_reason text)
returns integer
language plpgsql as $$
declare
    ev record := pgque.batch_event(i_batch_id, i_event_id);
begin
    insert into pgque.retry_queue (ev_retry_after, ev_queue, ev_id, ev_time, ev_txid, ev_owner,
                                   ev_retry, ev_type, ev_data, ev_extra1, ev_extra2, ev_extra3,
                                   ev_extra4, ev_reason, ev_nacked_at)
    values (i_retry_at, ev.sub_queue, ev.ev_id, ev.ev_time, null, coalesce(ev.sub_main, ev.sub_id),
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

-- pgque.event_dead(i_batch_id bigint, i_event_id bigint, i_reason text) returns integer
-- Returns 1.
-- Guarantee: the event, as the batch has it, is in pgque.dead_letter for
-- the batch's consumer (a member's group), once: a second call for the same
-- queue, consumer and event changes nothing. PgQue's event_dead takes the
-- event's fields as arguments; this one reads them from the batch. Raises
-- PQ003 / PQ007 as event_retry_raw.
create function pgque.event_dead(i_batch_id bigint, i_event_id bigint, i_reason text)
returns integer
language plpgsql as $$
declare
    ev record := pgque.batch_event(i_batch_id, i_event_id);
    v_consumer text;
begin
    select sub_consumer into v_consumer from pgque.subscription
     where sub_id = coalesce(ev.sub_main, ev.sub_id);
    insert into pgque.dead_letter (dl_queue_id, dl_consumer, dl_time, dl_reason, ev_id, ev_time,
                                   ev_txid, ev_retry, ev_type, ev_data, ev_extra1, ev_extra2,
                                   ev_extra3, ev_extra4)
    values (ev.sub_queue, v_consumer, now(), i_reason, ev.ev_id, ev.ev_time,
            ev.ev_txid::text::xid8, ev.ev_retry, ev.ev_type, ev.ev_data, ev.ev_extra1,
            ev.ev_extra2, ev.ev_extra3, ev.ev_extra4)
    on conflict (dl_queue_id, dl_consumer, ev_id) do nothing;
    return 1;
end;
$$;

-- pgque.maint_retry_events() returns integer
-- Returns how many retries were put back into event tables.
-- Guarantee: as PgQ: each retry that is due (ev_retry_after <= now())
-- becomes an event in its queue's current table again, with its own ev_id,
-- addressed to its consumer only, carrying its retry count; its retry_queue
-- row is deleted in the same transaction (so it is sent once). Like any
-- event, it reaches the consumer in a batch after the next tick, and only
-- if the ticker runs in a later transaction. (PgQ moves at most 10 a call
-- and is called until it returns 0; the lab moves all that are due.)
create function pgque.maint_retry_events()
returns integer
language plpgsql as $$
declare
    v_now timestamptz := now();  -- once: the lab's now() reads its clock table
    r pgque.retry_queue;
    n int := 0;
begin
    for r in
        select * from pgque.retry_queue
         where ev_retry_after <= v_now
         order by ev_retry_after, ev_id
    loop
        perform pgque.insert_event_raw(r.ev_queue, r.ev_id, r.ev_time, r.ev_owner, r.ev_retry,
                                       r.ev_type, r.ev_data);
        delete from pgque.retry_queue where ev_owner = r.ev_owner and ev_id = r.ev_id;
        n := n + 1;
    end loop;
    return n;
end;
$$;

-- pgque.dlq_inspect(i_queue text, i_limit int) returns setof pgque.dead_letter
--   i_queue  queue name
--   i_limit  at most this many, newest first (default 100)
-- Guarantee: reads only. Raises PQ001 for an unknown queue.
create function pgque.dlq_inspect(i_queue text, i_limit int default 100)
returns setof pgque.dead_letter
language plpgsql stable as $$
declare
    q pgque.queue := pgque.find_queue(i_queue);
begin
    return query
        select d.* from pgque.dead_letter d
         where d.dl_queue_id = q.queue_id
         order by d.dl_time desc, d.dl_id desc
         limit i_limit;
end;
$$;

-- pgque.dlq_replay(i_dl_id bigint) returns bigint
--   i_dl_id  a dead letter's id (from dlq_inspect)
-- Returns the id of the new event.
-- Guarantee: as PgQue: sends the dead event again as a new event (insert_event:
-- type and payload, a new id, retry count null) to *every* consumer of its
-- queue, not only the one that gave up on it, and deletes the dead letter,
-- in one transaction. Raises PQ008 for an unknown dead letter.
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
        raise exception 'pgque: no dead letter with id %', i_dl_id
            using errcode = 'PQ008';
    end if;
    select queue_name into v_queue from pgque.queue where queue_id = d.dl_queue_id;
    v_id := pgque.insert_event(v_queue, d.ev_type, d.ev_data);
    delete from pgque.dead_letter where dl_id = i_dl_id;
    return v_id;
end;
$$;
