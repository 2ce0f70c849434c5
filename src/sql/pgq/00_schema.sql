-- pgq: a PgQ-style queue in plain PL/pgSQL, written for Queue Lab.
--
-- What it is for: showing how a queue can live in PostgreSQL without bloat.
-- Producers INSERT events into the queue's *current* event table; a ticker
-- cuts the stream into batches by recording transaction snapshots; each
-- consumer keeps its own cursor (the last tick it acked) over the same
-- events; maint() rotates the event tables and TRUNCATEs one only when every
-- consumer has passed everything in it. Event tables are never UPDATEd or
-- DELETEd, so they never hold dead tuples made by consuming.
--
-- What it is not: a drop-in copy of PgQ or PgQue. The function names and
-- their meaning follow PgQue's SQL API (send, ticker, receive, ack, nack,
-- maint, get_queue_info, get_consumer_info, dlq_inspect, dlq_replay) so that
-- what a learner tries here works the same there; the code is our own.
--
-- Time: every function writes plain now(). Queue Lab shadows it with
-- lab.now() (a virtual clock) through search_path = lab, pg_catalog, public,
-- so nothing here sets search_path, and no column default calls now().
--
-- Errors: every refusal raises with a message naming the queue, consumer or
-- batch, and a SQLSTATE of class PQ, so the lab can translate it:
--   PQ001 unknown queue            PQ002 unknown consumer
--   PQ003 unknown batch            PQ004 batch already finished (acked)
--   PQ005 batch of another consumer
--   PQ006 nothing delivered to ack (call receive first)
--   PQ007 event not delivered in that batch
--   PQ008 unknown dead letter
--   PQ009 wrong kind of consumer: a plain call on a cooperative group, or a
--         subconsumer added while the consumer has a plain batch open
--   PQ010 unknown subconsumer
--   PQ011 the subconsumer holds no part of that batch (taken over?)
--   22023 invalid argument (bad limit, delay, table count, retry count)
-- A function that raises changes nothing: the whole statement is undone.
--
-- Install order: 00_schema, 10_queue, 20_send, 30_ticker, 40_receive,
-- 45_coop, 50_retry_dlq, 60_info, 70_maint.

create schema pgq;

-- One row per queue. The queue row also carries the rotation state:
-- which event table is current, when it became current, and the two
-- transaction ids of the last switch (see 70_maint.sql for the rule).
create table pgq.queue (
    queue_id              int generated always as identity primary key,
    queue_name            text not null unique,
    queue_ntables         int not null check (queue_ntables between 2 and 16),
    queue_cur_table       int not null default 0,
    queue_rotation_period interval not null,
    queue_max_retries     int not null check (queue_max_retries >= 0),
    queue_switch_time     timestamptz not null,
    -- txid of the transaction that made the current table current
    queue_switch_step1    xid8 not null,
    -- a txid taken by a *later* transaction: every transaction that could
    -- still write to an older table has a smaller txid. Null until taken.
    queue_switch_step2    xid8,
    queue_last_tick       bigint not null default 0,
    queue_created_at      timestamptz not null
);

-- A tick: a transaction snapshot and the event id sequence position, taken
-- by ticker(). Two ticks bound a batch: the events whose transaction is
-- visible in the later snapshot and not in the earlier one.
create table pgq.tick (
    tick_queue     int not null references pgq.queue on delete cascade,
    tick_id        bigint not null,
    tick_time      timestamptz not null,
    tick_snapshot  pg_snapshot not null,
    tick_event_seq bigint not null,
    primary key (tick_queue, tick_id)
);

-- A consumer's registration on a queue, its cursor and its open batch.
create table pgq.subscription (
    sub_id            int generated always as identity primary key,
    sub_queue         int not null references pgq.queue on delete cascade,
    sub_consumer      text not null,
    -- the cursor: the tick of the last acked batch
    sub_last_tick     bigint not null,
    -- the open batch (null when none) and the tick it ends at
    sub_batch         bigint,
    sub_next_tick     bigint,
    -- a batch is handed out in (ev_txid, ev_id) order, page by page: events
    -- up to this key were acked (null: none yet)
    sub_pos_txid      xid8,
    sub_pos_id        bigint,
    -- the key of the last event handed out by the latest receive, and
    -- whether the batch has more after it
    sub_page_txid     xid8,
    sub_page_id       bigint,
    sub_page_more     boolean not null default false,
    -- the most recently finished batch, to name a second ack precisely
    sub_last_batch    bigint,
    sub_registered_at timestamptz not null,
    sub_last_ack      timestamptz,
    unique (sub_queue, sub_consumer)
);

create sequence pgq.batch_id_seq;

-- Cooperative consumers (45_coop.sql): a consumer with subconsumers is a
-- group. The subconsumers share the group's subscription row, so its one
-- cursor; each holds at most one part of the group's open batch at a time.
create table pgq.subconsumer (
    sc_id            int generated always as identity primary key,
    sc_sub           int not null references pgq.subscription on delete cascade,
    sc_name          text not null,
    sc_registered_at timestamptz not null,
    -- the last receive or ack it made
    sc_last_seen     timestamptz not null,
    unique (sc_sub, sc_name)
);

-- A part of a group's open batch: the events from (first key) to (last key)
-- in (ev_txid, ev_id) order. Parts of one batch never overlap; together
-- they cover it once every event was cut into one. Deleted with the batch
-- when the group's cursor moves on.
create table pgq.coop_part (
    part_sub        int not null references pgq.subscription on delete cascade,
    part_batch      bigint not null,
    part_no         int not null,
    -- the holder; null when its subconsumer was removed (any may take it)
    part_sc         int references pgq.subconsumer on delete set null,
    part_first_txid xid8 not null,
    part_first_id   bigint not null,
    part_last_txid  xid8 not null,
    part_last_id    bigint not null,
    part_events     int not null,
    -- when it was last handed out, and how many times
    part_given_at   timestamptz not null,
    part_deliveries int not null default 1,
    part_acked_at   timestamptz,
    primary key (part_sub, part_batch, part_no)
);

-- Events a consumer nacked, waiting for their retry time. maint_retry_events()
-- moves a due one back into the queue's current event table, addressed to
-- that consumer only, once the batch it was nacked in has been acked.
create table pgq.retry_queue (
    rq_id          bigint generated always as identity primary key,
    rq_queue       int not null references pgq.queue on delete cascade,
    rq_sub         int not null references pgq.subscription on delete cascade,
    rq_batch       bigint not null,
    rq_ev_id       bigint not null,
    rq_retry_after timestamptz not null,
    rq_reason      text,
    rq_nacked_at   timestamptz not null,
    ev_time        timestamptz not null,
    ev_retry       int not null,  -- the retry count the re-sent event will carry
    ev_type        text,
    ev_data        text,
    unique (rq_sub, rq_batch, rq_ev_id)
);

-- Events a consumer gave up on: nacked once more after max_retries retries.
create table pgq.dead_letter (
    dl_id        bigint generated always as identity primary key,
    dl_queue     int not null references pgq.queue on delete cascade,
    dl_consumer  text not null,
    dl_batch     bigint not null,
    dl_ev_id     bigint not null,
    dl_reason    text,
    dl_time      timestamptz not null,
    ev_time      timestamptz not null,
    ev_txid      xid8 not null,
    ev_retry     int not null,
    ev_type      text,
    ev_data      text,
    unique (dl_queue, dl_consumer, dl_batch, dl_ev_id)
);

-- Event tables are made per queue by create_queue():
--   pgq.event_<queue_id>          parent, always empty; reading it reads all
--   pgq.event_<queue_id>_<n>      n = 0 .. ntables-1, inherit the parent,
--                                 each indexed on (ev_txid, ev_id)
--   pgq.event_<queue_id>_id_seq   event ids
-- Columns: ev_id bigint, ev_time timestamptz, ev_txid xid8 (the producer's
-- transaction), ev_owner int (null: every consumer; else the sub_id a retry
-- is addressed to), ev_retry int, ev_type text, ev_data text.
