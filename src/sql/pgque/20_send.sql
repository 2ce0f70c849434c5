-- Producing: insert_event (PgQ's), send and send_batch (PgQue's), over one internal insert.

-- pgque.insert_event_raw(i_queue_id int, i_ev_id bigint, i_time timestamptz, i_owner int,
--                        i_retry int, i_type text, i_data text) returns bigint
--   i_queue_id  queue id
--   i_ev_id     the event id: null draws a new one; a retry keeps its own
--   i_time      the event's creation time (a retry keeps the original's)
--   i_owner     null for every consumer, or the sub_id of the one consumer
--               a retry is addressed to
--   i_retry     retry count the event carries (null for a new event)
--   i_type, i_data  the event's type and payload
-- Returns the event id.
-- Guarantee: one INSERT into the queue's current event table, inside the
-- caller's transaction, stamped with the caller's txid. The txid is taken
-- *before* the current table is read: so any transaction that still writes
-- to a table after a rotation switched away from it has a txid smaller than
-- the rotation's step-2 txid (see 70_maint.sql).
create function pgque.insert_event_raw(
    i_queue_id int, i_ev_id bigint, i_time timestamptz, i_owner int,
    i_retry int, i_type text, i_data text)
returns bigint
language plpgsql as $$
declare
    v_txid xid8 := pg_current_xact_id();
    v_cur int;
    v_id bigint;
begin
    select queue_cur_table into v_cur from pgque.queue where queue_id = i_queue_id;
    execute format(
        'insert into %s (ev_id, ev_time, ev_txid, ev_owner, ev_retry, ev_type, ev_data)
         values (coalesce($1, nextval(%L)), $2, $3, $4, $5, $6, $7) returning ev_id',
        pgque.event_table(i_queue_id, v_cur), 'pgque.event_' || i_queue_id || '_id_seq')
    into v_id
    using i_ev_id, i_time, v_txid, i_owner, i_retry, i_type, i_data;
    return v_id;
end;
$$;

-- pgque.insert_event(i_queue text, i_type text, i_data text) returns bigint
--   i_queue   queue name
--   i_type    event type, free text (e.g. 'order.created')
--   i_data    event payload, free text (JSON by convention)
-- Returns the new event id.
-- Guarantee: the event is part of the caller's transaction. If that
-- transaction rolls back, no consumer ever sees the event; if it commits,
-- every consumer registered before the commit's tick receives it once in
-- its sequence of finished batches. Raises PQ001 for an unknown queue.
create function pgque.insert_event(i_queue text, i_type text, i_data text)
returns bigint
language plpgsql as $$
declare
    v_txid xid8 := pg_current_xact_id();  -- before reading the queue: see insert_event_raw
    q pgque.queue := pgque.find_queue(i_queue);
begin
    return pgque.insert_event_raw(q.queue_id, null, now(), null, null, i_type, i_data);
end;
$$;

-- pgque.send(i_queue text, i_type text, i_payload text) returns bigint
-- pgque.send(i_queue text, i_payload text) returns bigint
--   i_queue    queue name
--   i_type     event type (the two-argument form sends 'default')
--   i_payload  event payload, stored verbatim
-- Returns the new event id. PgQue's names for insert_event: the same
-- guarantee and errors.
create function pgque.send(i_queue text, i_type text, i_payload text)
returns bigint
language sql as $$ select pgque.insert_event(i_queue, i_type, i_payload) $$;

create function pgque.send(i_queue text, i_payload text)
returns bigint
language sql as $$ select pgque.insert_event(i_queue, 'default', i_payload) $$;

-- pgque.send_batch(i_queue text, i_type text, i_payloads text[]) returns bigint[]
--   i_queue     queue name
--   i_type      event type shared by all
--   i_payloads  one payload per event
-- Returns the new event ids, in payload order ({} for an empty array).
-- Guarantee: as send(), for all of them at once, in one INSERT statement
-- (a burst is one transaction: all or none). Raises 22023 for a null array,
-- PQ001 for an unknown queue.
create function pgque.send_batch(i_queue text, i_type text, i_payloads text[])
returns bigint[]
language plpgsql as $$
declare
    v_txid xid8 := pg_current_xact_id();
    q pgque.queue;
    v_ids bigint[];
begin
    if i_payloads is null then
        raise exception 'pgque: payloads must not be null' using errcode = '22023';
    end if;
    if cardinality(i_payloads) = 0 then
        return '{}';
    end if;
    q := pgque.find_queue(i_queue);
    execute format(
        'with ins as (
             insert into %s (ev_id, ev_time, ev_txid, ev_owner, ev_retry, ev_type, ev_data)
             select nextval(%L), $1, $2, null, null, $3, p.payload
               from unnest($4) with ordinality as p(payload, ord)
              order by p.ord
             returning ev_id)
         select coalesce(array_agg(ev_id order by ev_id), ''{}'') from ins',
        pgque.event_table(q.queue_id, q.queue_cur_table), 'pgque.event_' || q.queue_id || '_id_seq')
    into v_ids
    using now(), v_txid, i_type, i_payloads;
    return v_ids;
end;
$$;

create function pgque.send_batch(i_queue text, i_payloads text[])
returns bigint[]
language sql as $$ select pgque.send_batch(i_queue, 'default', i_payloads) $$;
