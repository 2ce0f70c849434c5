-- PgQue's three roles and their grants (PgQue's roles.sql and the grants beside its API).
--
--   pgque_reader  consumes: receive, ack, nack, subscribe, unsubscribe, the
--                 PgQ consumer primitives, the cooperative API, the info and
--                 dead-letter reads; select on every pgque table
--   pgque_writer  produces: send, send_batch, insert_event, dlq_replay,
--                 dlq_replay_all. Not a member of pgque_reader: a producer
--                 cannot ack another consumer's batch.
--   pgque_admin   a member of both, and everything else in the schema
-- Roles belong to the whole server, not to one database: they are made only
-- when missing, and dropping the schema leaves them (as PgQue's uninstall).
-- The lab runs as PGlite's superuser, so the grants decide nothing in the
-- tab; they are here so that `set role pgque_writer` behaves as on a server.

do $$
begin
    if not exists (select 1 from pg_roles where rolname = 'pgque_reader') then
        create role pgque_reader nologin;
    end if;
    if not exists (select 1 from pg_roles where rolname = 'pgque_writer') then
        create role pgque_writer nologin;
    end if;
    if not exists (select 1 from pg_roles where rolname = 'pgque_admin') then
        create role pgque_admin nologin;
    end if;
end $$;

grant pgque_reader to pgque_admin;
grant pgque_writer to pgque_admin;

revoke all on all functions in schema pgque from public;
grant usage on schema pgque to pgque_reader, pgque_writer, pgque_admin;
grant select on all tables in schema pgque to pgque_reader;
grant all on all tables in schema pgque to pgque_admin;
grant all on all sequences in schema pgque to pgque_admin;
grant execute on all functions in schema pgque to pgque_admin;

-- consumers
grant execute on function
    pgque.receive(text, text, int), pgque.ack(bigint),
    pgque.nack(bigint, pgque.message, interval, text),
    pgque.subscribe(text, text), pgque.unsubscribe(text, text),
    pgque.register_consumer(text, text), pgque.register_consumer_at(text, text, bigint),
    pgque.unregister_consumer(text, text), pgque.next_batch(text, text),
    pgque.next_batch_info(text, text),
    pgque.next_batch_custom(text, text, interval, int4, interval),
    pgque.get_batch_events(bigint), pgque.finish_batch(bigint),
    pgque.event_retry(bigint, bigint, integer), pgque.event_retry(bigint, bigint, timestamptz),
    pgque.register_subconsumer(text, text, text, boolean),
    pgque.unregister_subconsumer(text, text, text, int),
    pgque.touch_subconsumer(text, text, text),
    pgque.next_batch(text, text, text, interval),
    pgque.receive_coop(text, text, text, int, interval),
    pgque.get_queue_info(), pgque.get_queue_info(text),
    pgque.get_consumer_info(), pgque.get_consumer_info(text), pgque.get_consumer_info(text, text),
    pgque.queue_report(text), pgque.consumer_report(text, text),
    pgque.get_batch_info(bigint), pgque.version(), pgque.dlq_inspect(text, int)
  to pgque_reader;

-- producers
grant execute on function
    pgque.send(text, text), pgque.send(text, text, text),
    pgque.send(text, jsonb), pgque.send(text, text, jsonb),
    pgque.send_batch(text, text[]), pgque.send_batch(text, text, text[]),
    pgque.send_batch(text, jsonb[]), pgque.send_batch(text, text, jsonb[]),
    pgque.insert_event(text, text, text),
    pgque.insert_event(text, text, text, text, text, text, text),
    pgque.dlq_replay(bigint), pgque.dlq_replay_all(text)
  to pgque_writer;

-- the CDC triggers' body (55_triggers.sql): a trigger runs as the role that
-- writes the table, so a producer writing a table under jsontriga or
-- sqltriga needs it, as under PgQue's it needs insert_event. _urlencode
-- stays pgque_admin's, as PgQue's: under logutriga a producer is refused.
grant execute on function
    pgque._cdc_event(text, text[], oid, text, text, text, anyelement, anyelement),
    pgque._cdc_render(text, text, text[], oid[], text[], boolean[])
  to pgque_writer;

-- internal: callers use send_batch
revoke execute on function pgque.insert_event_bulk(text, text, text[]) from pgque_admin;
-- the owner's alone (it drops the schema)
revoke execute on function pgque.uninstall() from pgque_admin;

-- As PgQue's, every function runs with its owner's rights (SECURITY DEFINER): a role
-- granted send needs no rights on pgque.queue or on the internal functions send calls.
-- PgQue also pins search_path = pgque, pg_catalog on each; the lab does not, because
-- its clock shadows now() through the session's search_path (lab.now(), see
-- 00_schema.sql). Procedures (run_jobs, ticker_loop) commit between steps, which a
-- SECURITY DEFINER procedure may not: they stay the caller's. So do the CDC trigger
-- functions and their helpers (55_triggers.sql), as PgQue's triggers: they run as the
-- role that writes the table, and insert_event, which they call, takes over from there.
do $$
declare
    f regprocedure;
begin
    for f in select p.oid::regprocedure from pg_proc p
              where p.pronamespace = 'pgque'::regnamespace and p.prokind = 'f'
                and p.proname not in ('jsontriga', 'logutriga', 'sqltriga',
                                      '_cdc_event', '_cdc_render', '_urlencode')
    loop
        execute format('alter function %s security definer', f);
    end loop;
end $$;
