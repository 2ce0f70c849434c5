-- pgque: a PgQ-style queue in plain PL/pgSQL, written for Queue Lab, with PgQue's API.
--
-- What it is for: showing how a queue can live in PostgreSQL without bloat.
-- Producers INSERT events into the queue's *current* event table; a ticker
-- cuts the stream into batches by recording transaction snapshots; each
-- consumer keeps its own cursor (the last tick it finished) over the same
-- events; maint() rotates the event tables and TRUNCATEs one only when every
-- consumer has passed everything in it. Event tables are never UPDATEd or
-- DELETEd, so consuming leaves no dead tuples in them. (The small bookkeeping
-- tables are updated: subscription on every receive and ack, tick and
-- retry_queue rows are deleted. Those rows are few and do make dead tuples.)
--
-- What it is not: PgQue's code. The function names, arguments, results and
-- their meaning follow PgQue's documented API (send, send_batch, ticker,
-- force_next_tick, subscribe, receive, ack, nack, receive_coop,
-- maint_retry_events, maint, get_queue_info, get_consumer_info,
-- dlq_inspect, dlq_replay) and PgQ's primitives under them (next_batch,
-- get_batch_events, finish_batch, event_retry), so what a learner tries here
-- works the same there; the code is our own. Where it differs from PgQue,
-- the lab's page lists it with the reason (assets/i18n/pgq.tsv,
-- pgq.diff.*).
--
-- Time: every function writes plain now(). Queue Lab shadows it with
-- lab.now() (a virtual clock) through search_path = lab, pg_catalog, public,
-- so nothing here sets search_path, and no column default calls now().
--
-- Errors: as PgQue, a refusal is a plain RAISE EXCEPTION (SQLSTATE P0001,
-- raise_exception) with PgQue's own words for that function, so a PgQue
-- handler (exception when raise_exception, or a match on the message) works
-- here unchanged: 'queue not found: q' (send), 'no such queue' (ticker),
-- 'Not subscriber to queue: q/c' (receive), 'batch not found: 7' (nack),
-- 'dead letter entry not found: 3' (dlq_replay), and so on; each function's
-- header names its own. The lab adds a HINT (what to do) where PgQue has
-- none; a handler does not see it. Arguments only the lab has (a table
-- count) are refused with 22023 (invalid_parameter_value).
-- A function that raises changes nothing: the whole statement is undone.
--
-- Install order: 00_schema, 10_queue, 20_send, 30_ticker, 40_receive,
-- 45_coop, 50_retry_dlq, 55_triggers, 60_info, 70_maint.

create schema pgque;

-- One row per queue: PgQue's columns, in PgQue's order, then the lab's two.
-- Its settings have PgQue's names and defaults; the rotation state is which
-- event table is current, when it became current, and the two transaction
-- ids of the last switch (see 70_maint.sql), as bigint as PgQue keeps them.
create table pgque.queue (
    queue_id                 serial primary key,
    queue_name               text not null unique,
    queue_ntables            int not null check (queue_ntables between 2 and 16),
    queue_cur_table          int not null default 0,
    queue_rotation_period    interval not null,
    -- txid of the transaction that made the current table current
    queue_switch_step1       bigint not null,
    -- a txid taken by a *later* transaction: every transaction that could
    -- still write to an older table has a smaller txid. Null until taken.
    queue_switch_step2       bigint,
    queue_switch_time        timestamptz not null,
    -- PgQ's external ticker (set_queue_config 'external_ticker'): the queue's
    -- ticks come only from ticker(queue, tick_id, time, event_seq)
    queue_external_ticker    boolean not null default false,
    -- PgQ's switch (no set_queue_config parameter: an UPDATE sets it):
    -- insert_event refuses 'Insert into queue disallowed', except in a
    -- session with session_replication_role = replica
    queue_disable_insert     boolean not null default false,
    -- PgQue's pause switch (set_queue_config 'ticker_paused'): ticker() skips
    -- the queue, ticker(queue) refuses it
    queue_ticker_paused      boolean not null default false,
    queue_ticker_max_count   int not null default 500,
    queue_ticker_max_lag     interval not null default '3 seconds',
    queue_ticker_idle_period interval not null default '1 minute',
    -- the event tables' parent and the two sequences, by name, as PgQue
    -- (pgque.event_<id>, pgque.event_<id>_id_seq, pgque.event_<id>_tick_seq)
    queue_data_pfx           text not null,
    queue_event_seq          text not null,
    queue_tick_seq           text not null,
    -- PgQ's hook (functions maint() would call): kept empty by the lab
    queue_extra_maint        text[],
    -- null: the effective default, 5 (as PgQue: coalesce(queue_max_retries, 5))
    queue_max_retries        int check (queue_max_retries >= 0),
    -- the lab's: the newest tick's id (PgQue reads max(tick_id)), and when
    -- the queue was made
    queue_last_tick          bigint not null default 0,
    queue_created_at         timestamptz not null
);

-- A tick: a transaction snapshot and the event id sequence position, taken
-- by ticker(). Two consecutive ticks bound a batch: the events whose
-- transaction is visible in the later snapshot and not in the earlier one.
create table pgque.tick (
    tick_queue     int not null references pgque.queue on delete cascade,
    tick_id        bigint not null,
    tick_time      timestamptz not null,
    tick_snapshot  pg_snapshot not null,
    tick_event_seq bigint not null,
    primary key (tick_queue, tick_id)
);

-- Consumer names, as PgQue's pgque.consumer: one row per name that has a
-- subscription on some queue (a cooperative member's name is
-- '<group>.<member>'), made by the first subscription and deleted with the
-- last (pgque.forget_consumers). pgque.dead_letter refers to it by co_id.
-- PgQue's pgque.subscription refers to it by id too (sub_consumer int4);
-- the lab's keeps the name (sub_consumer text), which its queries read.
create table pgque.consumer (
    co_id   serial primary key,
    co_name text not null unique
);

-- A consumer's registration on a queue: its cursor and its open batch.
-- Cooperative consumers (45_coop.sql): the group's row (sub_role
-- 'coop_main') keeps the group's cursor; each member has a row of its own
-- (sub_role 'coop_member', sub_consumer '<group>.<member>', sub_main the
-- group's sub_id) holding the batch it works on.
create table pgque.subscription (
    sub_id            int generated always as identity primary key,
    sub_queue         int not null references pgque.queue on delete cascade,
    sub_consumer      text not null,
    sub_role          text not null default 'normal'
                      check (sub_role in ('normal', 'coop_main', 'coop_member')),
    sub_main          int references pgque.subscription on delete cascade,
    -- the cursor: the tick the last finished batch ended at (a member: the
    -- start tick of the batch it holds, null when it holds none)
    sub_last_tick     bigint,
    -- the open batch (null when none) and the tick it ends at
    sub_batch         bigint,
    sub_next_tick     bigint,
    -- the last receive, ack or heartbeat (PgQ's sub_active)
    sub_active        timestamptz not null,
    sub_registered_at timestamptz not null,
    unique (sub_queue, sub_consumer)
);

create sequence pgque.batch_id_seq;

-- What receive() returns, and what nack() takes: PgQue's pgque.message.
-- retry_count is null on an event's first delivery.
create type pgque.message as (
    msg_id      bigint,
    batch_id    bigint,
    type        text,
    payload     text,
    retry_count int4,
    created_at  timestamptz,
    extra1      text,
    extra2      text,
    extra3      text,
    extra4      text
);

-- Events a consumer nacked, waiting for their retry time (PgQ's
-- retry_queue). maint_retry_events() puts a due one back into the queue's
-- current event table with the same ev_id, addressed to that consumer only
-- (ev_owner), its retry count one higher.
create table pgque.retry_queue (
    ev_retry_after timestamptz not null,
    ev_queue       int not null references pgque.queue on delete cascade,
    ev_id          bigint not null,
    ev_time        timestamptz not null,
    ev_txid        xid8,
    ev_owner       int not null references pgque.subscription on delete cascade,
    ev_retry       int,
    ev_type        text,
    ev_data        text,
    ev_extra1      text,
    ev_extra2      text,
    ev_extra3      text,
    ev_extra4      text,
    -- the lab's own: why, and when (nack's reason; PgQ keeps no reason)
    ev_reason      text,
    ev_nacked_at   timestamptz not null,
    primary key (ev_owner, ev_id)
);

-- Events a consumer gave up on: nacked once more after max_retries
-- retries (PgQue's dead letter queue; PgQ has none). One row per queue,
-- consumer and event, however often it is nacked. As PgQue's: the consumer
-- is an id into pgque.consumer, and its rows go with it (on delete
-- cascade): unregistering a consumer's last subscription drops its dead
-- letters, and so does dropping the queue.
create table pgque.dead_letter (
    dl_id          bigint generated always as identity primary key,
    dl_queue_id    int not null references pgque.queue on delete cascade,
    dl_consumer_id int not null references pgque.consumer on delete cascade,
    dl_time        timestamptz not null,
    dl_reason      text,
    ev_id          bigint not null,
    ev_time        timestamptz not null,
    ev_txid        xid8,
    ev_retry       int,
    ev_type        text,
    ev_data        text,
    ev_extra1      text,
    ev_extra2      text,
    ev_extra3      text,
    ev_extra4      text,
    unique (dl_queue_id, dl_consumer_id, ev_id)
);

-- Event tables are made per queue by create_queue():
--   pgque.event_<queue_id>          parent, always empty; reading it reads all
--   pgque.event_<queue_id>_<n>      n = 0 .. ntables-1, inherit the parent,
--                                   each indexed on (ev_txid, ev_id)
--   pgque.event_<queue_id>_id_seq   event ids
-- Columns (PgQ's): ev_id bigint, ev_time timestamptz, ev_txid xid8 (the
-- producer's transaction), ev_owner int (null: every consumer; else the
-- sub_id a retry is addressed to), ev_retry int (null on a first delivery),
-- ev_type text, ev_data text, ev_extra1..4 text.
