-- Producing: insert_event (PgQ's), send and send_batch (PgQue's), over one internal insert.

-- pgque.insert_event_raw(i_queue_id int, i_ev_id bigint, i_time timestamptz, i_owner int,
--                        i_retry int, i_type text, i_data text,
--                        i_extra1 text, i_extra2 text, i_extra3 text, i_extra4 text) returns bigint
--   i_queue_id  queue id
--   i_ev_id     the event id: null takes the one drawn now; a retry keeps its own
--   i_time      the event's creation time (a retry keeps the original's)
--   i_owner     null for every consumer, or the sub_id of the one consumer
--               a retry is addressed to
--   i_retry     retry count the event carries (null for a new event)
--   i_type, i_data, i_extra1..4  the event's fields
-- Returns the event id.
-- Guarantee: one INSERT into the queue's current event table, inside the
-- caller's transaction, stamped with the caller's txid. It always draws from
-- the event id sequence, also for a retry that keeps its old id (as PgQ's
-- insert_event_raw): the sequence counts inserts, and the ticker's
-- "new events" is that count, so a retry put back counts as an event and
-- the next tick comes at ticker_max_lag, not after the idle period. The txid
-- is taken *before* the current table is read: so any transaction that still
-- writes to a table after a rotation switched away from it has a txid smaller
-- than the rotation's step-2 txid (see 70_maint.sql). Raises PgQ's 'Insert
-- into queue disallowed' when the queue's queue_disable_insert is set, except
-- in a session with session_replication_role = replica.
create function pgque.insert_event_raw(
    i_queue_id int, i_ev_id bigint, i_time timestamptz, i_owner int,
    i_retry int, i_type text, i_data text,
    i_extra1 text default null, i_extra2 text default null,
    i_extra3 text default null, i_extra4 text default null)
returns bigint
language plpgsql as $$
declare
    v_txid xid8 := pg_current_xact_id();
    q pgque.queue;
    v_next bigint;
begin
    select * into q from pgque.queue where queue_id = i_queue_id;
    if q.queue_disable_insert and current_setting('session_replication_role') <> 'replica' then
        raise exception 'Insert into queue disallowed';
    end if;
    v_next := nextval(q.queue_event_seq);
    execute format(
        'insert into %s (ev_id, ev_time, ev_txid, ev_owner, ev_retry, ev_type, ev_data,
                         ev_extra1, ev_extra2, ev_extra3, ev_extra4)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
        pgque.event_table(i_queue_id, q.queue_cur_table))
    using coalesce(i_ev_id, v_next), i_time, v_txid, i_owner, i_retry, i_type, i_data,
          i_extra1, i_extra2, i_extra3, i_extra4;
    return coalesce(i_ev_id, v_next);
end;
$$;

-- pgque.insert_event(i_queue text, i_type text, i_data text,
--                    i_extra1 text, i_extra2 text, i_extra3 text, i_extra4 text) returns bigint
-- pgque.insert_event(i_queue text, i_type text, i_data text) returns bigint
--   i_queue   queue name
--   i_type    event type, free text (e.g. 'order.created')
--   i_data    event payload, free text (JSON by convention)
--   i_extra1..4  PgQ's four extra fields (the 3-argument form leaves them null)
-- Returns the new event id.
-- Guarantee: the event is part of the caller's transaction. If that
-- transaction rolls back, no consumer ever sees the event; if it commits,
-- every consumer registered before the commit's tick receives it once in
-- its sequence of finished batches. Raises PgQue's 'queue not found: <queue>'.
create function pgque.insert_event(i_queue text, i_type text, i_data text,
    i_extra1 text, i_extra2 text, i_extra3 text, i_extra4 text)
returns bigint
language plpgsql as $$
declare
    v_txid xid8 := pg_current_xact_id();  -- before reading the queue: see insert_event_raw
    q pgque.queue := pgque.find_queue(i_queue);
begin
    return pgque.insert_event_raw(q.queue_id, null, now(), null, null, i_type, i_data,
                                  i_extra1, i_extra2, i_extra3, i_extra4);
end;
$$;

create function pgque.insert_event(i_queue text, i_type text, i_data text)
returns bigint
language sql as $$ select pgque.insert_event(i_queue, i_type, i_data, null, null, null, null) $$;

-- pgque.send(queue_name text, type_name text, payload text) returns bigint
-- pgque.send(queue_name text, payload text) returns bigint
-- pgque.send(queue_name text, type_name text, payload jsonb) returns bigint
-- pgque.send(queue_name text, payload jsonb) returns bigint
--   queue_name  queue name
--   type_name   event type (the two-argument forms send 'default')
--   payload     text: stored verbatim; jsonb: stored as its canonical text
--               (jsonb's own output: '{"b":1, "a":2}' is kept as
--               {"a": 2, "b": 1})
-- Returns the new event id. PgQue's names (and argument names, for named
-- calls) for insert_event: the same guarantee and errors. An untyped
-- literal picks the text form, as in PgQue.
create function pgque.send(queue_name text, type_name text, payload text)
returns bigint
language sql as $$ select pgque.insert_event(queue_name, type_name, payload) $$;

create function pgque.send(queue_name text, payload text)
returns bigint
language sql as $$ select pgque.insert_event(queue_name, 'default', payload) $$;

create function pgque.send(queue_name text, type_name text, payload jsonb)
returns bigint
language sql as $$ select pgque.insert_event(queue_name, type_name, payload::text) $$;

create function pgque.send(queue_name text, payload jsonb)
returns bigint
language sql as $$ select pgque.insert_event(queue_name, 'default', payload::text) $$;

-- pgque.insert_event_bulk(queue_name text, ev_type text, ev_data_list text[]) returns bigint[]
--   queue_name    queue name
--   ev_type       event type shared by all
--   ev_data_list  one payload per event (a null element: a null payload)
-- Returns the new event ids, aligned with the payloads' positions.
-- Guarantee: as insert_event, for all of them at once, in one INSERT
-- statement (a burst is one transaction: all or none). Raises PgQue's
-- 'queue not found: <queue>'. What send_batch calls.
create function pgque.insert_event_bulk(queue_name text, ev_type text, ev_data_list text[])
returns bigint[]
language plpgsql as $$
declare
    v_txid xid8 := pg_current_xact_id();
    q pgque.queue := pgque.find_queue(queue_name);
    v_ids bigint[];
begin
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
    using now(), v_txid, ev_type, ev_data_list;
    return v_ids;
end;
$$;

-- pgque.send_batch(queue_name text, type_name text, payloads text[]) returns bigint[]
-- pgque.send_batch(queue_name text, payloads text[]) returns bigint[]
-- pgque.send_batch(queue_name text, type_name text, payloads jsonb[]) returns bigint[]
-- pgque.send_batch(queue_name text, payloads jsonb[]) returns bigint[]
--   payloads  one payload per event; jsonb ones are stored as canonical text
-- Returns the new event ids in payload order; {} for an empty array, without
-- looking the queue up (as PgQue).
-- Guarantee: as insert_event_bulk. Raises PgQue's 'payloads must not be
-- null' for a null array, 'queue not found: <queue>'.
create function pgque.send_batch(queue_name text, type_name text, payloads text[])
returns bigint[]
language plpgsql as $$
begin
    if payloads is null then
        raise exception 'payloads must not be null';
    end if;
    if cardinality(payloads) = 0 then
        return '{}';
    end if;
    return pgque.insert_event_bulk(queue_name, type_name, payloads);
end;
$$;

create function pgque.send_batch(queue_name text, payloads text[])
returns bigint[]
language sql as $$ select pgque.send_batch(queue_name, 'default', payloads) $$;

create function pgque.send_batch(queue_name text, type_name text, payloads jsonb[])
returns bigint[]
language sql as $$ select pgque.send_batch(queue_name, type_name, payloads::text[]) $$;

create function pgque.send_batch(queue_name text, payloads jsonb[])
returns bigint[]
language sql as $$ select pgque.send_batch(queue_name, 'default', payloads::text[]) $$;
