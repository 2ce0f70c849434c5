-- Producing: send and send_batch, over one internal insert.

-- pgq.insert_event(i_queue_id int, i_type text, i_data text, i_owner int, i_retry int, i_time timestamptz) returns bigint
--   i_queue_id  queue id
--   i_type, i_data  the event's type and payload
--   i_owner     null for every consumer, or the sub_id of the one consumer
--               a retry or replay is addressed to
--   i_retry     retry count the event carries (0 for a new event)
--   i_time      the event's creation time (a retry keeps the original's)
-- Returns the new event id.
-- Guarantee: one INSERT into the queue's current event table, inside the
-- caller's transaction, stamped with the caller's txid. The txid is taken
-- *before* the current table is read: so any transaction that still writes
-- to a table after a rotation switched away from it has a txid smaller than
-- the rotation's step-2 txid (see 70_maint.sql).
create function pgq.insert_event(
    i_queue_id int, i_type text, i_data text,
    i_owner int, i_retry int, i_time timestamptz)
returns bigint
language plpgsql as $$
declare
    v_txid xid8 := pg_current_xact_id();
    v_cur int;
    v_id bigint;
begin
    select queue_cur_table into v_cur from pgq.queue where queue_id = i_queue_id;
    execute format(
        'insert into %s (ev_id, ev_time, ev_txid, ev_owner, ev_retry, ev_type, ev_data)
         values (nextval(%L), $1, $2, $3, $4, $5, $6) returning ev_id',
        pgq.event_table(i_queue_id, v_cur), 'pgq.event_' || i_queue_id || '_id_seq')
    into v_id
    using i_time, v_txid, i_owner, i_retry, i_type, i_data;
    return v_id;
end;
$$;

-- pgq.send(i_queue text, i_type text, i_payload text) returns bigint
--   i_queue    queue name
--   i_type     event type, free text (e.g. 'order.created')
--   i_payload  event payload, free text (JSON by convention)
-- Returns the new event id.
-- Guarantee: the event is part of the caller's transaction. If that
-- transaction rolls back, no consumer ever sees the event; if it commits,
-- every consumer registered before the commit's tick receives it exactly
-- once in its sequence of acked batches. Raises PQ001 for an unknown queue.
create function pgq.send(i_queue text, i_type text, i_payload text)
returns bigint
language plpgsql as $$
declare
    v_txid xid8 := pg_current_xact_id();  -- before reading the queue: see insert_event
    q pgq.queue := pgq.find_queue(i_queue);
begin
    return pgq.insert_event(q.queue_id, i_type, i_payload, null, 0, now());
end;
$$;

-- pgq.send_batch(i_queue text, i_type text, i_payloads text[]) returns bigint[]
--   i_queue     queue name
--   i_type      event type shared by all
--   i_payloads  one payload per event
-- Returns the new event ids, in payload order.
-- Guarantee: as send(), for all of them at once, in one INSERT statement
-- (a burst is one transaction: all or none).
create function pgq.send_batch(i_queue text, i_type text, i_payloads text[])
returns bigint[]
language plpgsql as $$
declare
    v_txid xid8 := pg_current_xact_id();
    q pgq.queue := pgq.find_queue(i_queue);
    v_ids bigint[];
begin
    execute format(
        'with ins as (
             insert into %s (ev_id, ev_time, ev_txid, ev_owner, ev_retry, ev_type, ev_data)
             select nextval(%L), $1, $2, null, 0, $3, p.payload
               from unnest($4) with ordinality as p(payload, ord)
              order by p.ord
             returning ev_id)
         select coalesce(array_agg(ev_id order by ev_id), ''{}'') from ins',
        pgq.event_table(q.queue_id, q.queue_cur_table), 'pgq.event_' || q.queue_id || '_id_seq')
    into v_ids
    using now(), v_txid, i_type, i_payloads;
    return v_ids;
end;
$$;
