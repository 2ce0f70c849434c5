-- Retries and dead letters: maint_retry_events, dlq_inspect, dlq_replay.

-- pgq.maint_retry_events(i_queue text) returns integer
--   i_queue  a queue name, or null (default) for every queue
-- Returns how many retries were sent back into event tables.
-- Guarantee: each retry that is due (rq_retry_after <= now()) and whose
-- batch the consumer has acked becomes a new event in the queue's current
-- table, addressed to that consumer only, carrying its retry count; its
-- retry_queue row is deleted in the same transaction (so it is sent once).
-- Like any event, it reaches the consumer after the next tick.
-- Raises PQ001 for an unknown queue name.
create function pgq.maint_retry_events(i_queue text default null)
returns integer
language plpgsql as $$
declare
    v_queue_id int;
    v_now timestamptz := now();  -- once: the lab's now() reads its clock table
    r pgq.retry_queue;
    n int := 0;
begin
    if i_queue is not null then
        v_queue_id := (pgq.find_queue(i_queue)).queue_id;
    end if;
    for r in
        select rq.*
          from pgq.retry_queue rq
          join pgq.subscription s on s.sub_id = rq.rq_sub
         where rq.rq_retry_after <= v_now
           and s.sub_batch is distinct from rq.rq_batch
           and (v_queue_id is null or rq.rq_queue = v_queue_id)
         order by rq.rq_retry_after, rq.rq_id
    loop
        perform pgq.insert_event(r.rq_queue, r.ev_type, r.ev_data, r.rq_sub, r.ev_retry, r.ev_time);
        delete from pgq.retry_queue where rq_id = r.rq_id;
        n := n + 1;
    end loop;
    return n;
end;
$$;

-- pgq.dlq_inspect(i_queue text, i_limit int) returns table
--   i_queue  queue name
--   i_limit  at most this many, newest first (default 100)
-- Returns (dl_id bigint, consumer text, msg_id bigint, batch_id bigint,
--          type text, payload text, retry_count int, reason text,
--          created_at timestamptz, died_at timestamptz).
-- Guarantee: reads only. Raises PQ001 for an unknown queue.
create function pgq.dlq_inspect(i_queue text, i_limit int default 100)
returns table (dl_id bigint, consumer text, msg_id bigint, batch_id bigint,
               type text, payload text, retry_count int, reason text,
               created_at timestamptz, died_at timestamptz)
language plpgsql stable as $$
#variable_conflict use_column
declare
    q pgq.queue := pgq.find_queue(i_queue);
begin
    return query
        select d.dl_id, d.dl_consumer, d.dl_ev_id, d.dl_batch, d.ev_type, d.ev_data,
               d.ev_retry, d.dl_reason, d.ev_time, d.dl_time
          from pgq.dead_letter d
         where d.dl_queue = q.queue_id
         order by d.dl_id desc
         limit i_limit;
end;
$$;

-- pgq.dlq_replay(i_dl_id bigint) returns bigint
--   i_dl_id  a dead letter's id (from dlq_inspect)
-- Returns the id of the new event.
-- Guarantee: sends the dead event again into the queue's current table,
-- addressed to the consumer that gave up on it (the others already had it),
-- with its retry count reset to 0, and deletes the dead letter, in one
-- transaction. Raises PQ008 for an unknown dead letter, PQ002 if that
-- consumer is no longer registered (the dead letter then stays).
create function pgq.dlq_replay(i_dl_id bigint)
returns bigint
language plpgsql as $$
declare
    d pgq.dead_letter;
    v_sub int;
    v_queue text;
    v_id bigint;
begin
    select * into d from pgq.dead_letter where dl_id = i_dl_id for update;
    if not found then
        raise exception 'pgq: no dead letter with id %', i_dl_id
            using errcode = 'PQ008';
    end if;
    select sub_id into v_sub from pgq.subscription
     where sub_queue = d.dl_queue and sub_consumer = d.dl_consumer;
    if not found then
        select queue_name into v_queue from pgq.queue where queue_id = d.dl_queue;
        raise exception 'pgq: consumer "%" is no longer registered on queue "%"; dead letter % stays',
                        d.dl_consumer, v_queue, i_dl_id
            using errcode = 'PQ002';
    end if;
    v_id := pgq.insert_event(d.dl_queue, d.ev_type, d.ev_data, v_sub, 0, d.ev_time);
    delete from pgq.dead_letter where dl_id = i_dl_id;
    return v_id;
end;
$$;
