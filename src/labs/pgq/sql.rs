//! L4's SQL: the engine's files in install order, every statement the lab runs (one file
//! each in `src/sql/pgque/lab/`, shown verbatim in the SQL log) with one function each, its
//! parameters named, the lab's limits, and the engine's SQLSTATEs.

use super::rows::{BatchEvent, ConsumerInfo, Count, CursorInfo, DeadLetter, Event, Finished, Gid};
use super::rows::{Job, JobsRun, SubInfo, TableInfo, TickId, TickSnap};
use super::rows::{MaintRow, MsgId, NackOutcome, Nacked, QueueInfo, Released, Retry, Sent};
use super::rows::{SnapshotRow, Uninstalled};
use crate::db::{sql_file, Conn, Db, DbError, Param};
use crate::keys;
use queue_lab_core::i18n::Key;
use serde::de::DeserializeOwned;

pub mod compare;

/// `[(file, its text)]` for files of `src/sql/pgque/`, named once each.
macro_rules! engine_files {
    ($($file:literal),* $(,)?) => {
        [$(($file, include_str!(concat!("../../sql/pgque/", $file)))),*]
    };
}

/// The engine, installed in this order (each file is one `db.exec`).
pub const ENGINE: [(&str, &str); 12] = engine_files! {
    "00_schema.sql", "10_queue.sql", "20_send.sql", "30_ticker.sql", "40_receive.sql",
    "45_coop.sql", "50_retry_dlq.sql", "55_triggers.sql", "60_info.sql", "70_maint.sql",
    "80_schedule.sql", "90_roles.sql",
};

sql_file!(DROP_SQL, "pgque/lab/drop.sql");
sql_file!(CREATE_QUEUE_SQL, "pgque/lab/create_queue.sql");
sql_file!(SUBSCRIBE_SQL, "pgque/lab/subscribe.sql");
sql_file!(UNSUBSCRIBE_SQL, "pgque/lab/unsubscribe.sql");
sql_file!(SUB_ADD_SQL, "pgque/lab/sub_add.sql");
sql_file!(SUB_REMOVE_SQL, "pgque/lab/sub_remove.sql");
sql_file!(RECEIVE_COOP_SQL, "pgque/lab/receive_coop.sql");
sql_file!(SUBCONSUMER_INFO_SQL, "pgque/lab/subconsumer_info.sql");
sql_file!(SEND_SQL, "pgque/lab/send.sql");
sql_file!(SEND_BURST_SQL, "pgque/lab/send_burst.sql");
sql_file!(FORCE_TICK_SQL, "pgque/lab/force_tick.sql");
sql_file!(TICK_SQL, "pgque/lab/tick.sql");
sql_file!(QUEUE_CONFIG_SQL, "pgque/lab/queue_config.sql");
sql_file!(BATCH_EVENTS_SQL, "pgque/lab/batch_events.sql");
sql_file!(NACK_OUTCOME_SQL, "pgque/lab/nack_outcome.sql");
sql_file!(TICK_SNAPSHOT_SQL, "pgque/lab/tick_snapshot.sql");
sql_file!(RECEIVE_SQL, "pgque/lab/receive.sql");
sql_file!(ACK_SQL, "pgque/lab/ack.sql");
sql_file!(NACK_SQL, "pgque/lab/nack.sql");
sql_file!(MAINT_SQL, "pgque/lab/maint.sql");
sql_file!(ROTATE_STEP2_SQL, "pgque/lab/rotate_step2.sql");
sql_file!(JOBS_SQL, "pgque/lab/jobs.sql");
sql_file!(SCHEDULE_START_SQL, "pgque/lab/schedule_start.sql");
sql_file!(SCHEDULE_STOP_SQL, "pgque/lab/schedule_stop.sql");
sql_file!(RUN_JOBS_SQL, "pgque/lab/run_jobs.sql");
sql_file!(RETRY_EVENTS_SQL, "pgque/lab/retry_events.sql");
sql_file!(DLQ_INSPECT_SQL, "pgque/lab/dlq_inspect.sql");
sql_file!(DLQ_REPLAY_SQL, "pgque/lab/dlq_replay.sql");
sql_file!(DEAD_LETTER_SQL, "pgque/lab/dead_letter.sql");
sql_file!(FLUSH_STATS_SQL, "pgque/lab/flush_stats.sql");
sql_file!(SNAPSHOT_SQL, "pgque/lab/snapshot.sql");
sql_file!(UNINSTALLED_SQL, "pgque/lab/uninstalled.sql");
sql_file!(QUEUE_INFO_SQL, "pgque/lab/queue_info.sql");
sql_file!(CONSUMER_INFO_SQL, "pgque/lab/consumer_info.sql");
sql_file!(TABLE_INFO_SQL, "pgque/lab/table_info.sql");
sql_file!(CURSOR_INFO_SQL, "pgque/lab/cursor_info.sql");
sql_file!(RETRY_LIST_SQL, "pgque/lab/retry_list.sql");
sql_file!(INFLIGHT_FIND_SQL, "pgque/lab/inflight_find.sql");
sql_file!(INFLIGHT_PREPARE_SQL, "pgque/lab/inflight_prepare.sql");
sql_file!(INFLIGHT_ABORT_SQL, "pgque/lab/inflight_abort.sql");
sql_file!(COMMIT_PREPARED_SQL, "pgque/lab/commit_prepared.sql");
sql_file!(ROLLBACK_PREPARED_SQL, "pgque/lab/rollback_prepared.sql");

pub const QUEUE: &str = "orders";
/// The consumers subscribed at set-up.
pub const CONSUMERS: [&str; 2] = ["billing", "email"];
/// Every consumer name the page offers to subscribe (a share link accepts only these).
pub const NAMES: [&str; 4] = ["billing", "email", "audit", "search"];
/// Subconsumer names the page offers, per consumer.
pub const SUBS: [&str; 3] = ["w1", "w2", "w3"];
/// A member's batch whose member was silent longer than this (lab seconds) is taken over
/// (receive_coop's dead_interval).
pub const DEAD_SECONDS: i64 = 30;
pub const EVENT_TYPE: &str = "order.created";
pub const NTABLES: i32 = 3;
pub const ROTATION_SECONDS: i64 = 30;
/// The largest burst one click sends.
pub const MAX_BURST: i64 = 5_000;
/// The most events one receive asks for.
pub const MAX_RECEIVE: i64 = 1_000;
/// The longest nack delay the lab accepts: a day, like the clock's step.
pub const MAX_DELAY: i64 = 86_400;
/// Dead letters the view lists.
pub const DLQ_LIMIT: i64 = 50;

/// The engine's refusals, each with a translated explanation. The engine raises as PgQue
/// does: SQLSTATE P0001 with PgQue's own words, which differ from function to function; so
/// the explanation is chosen by the words (the start of the message), and for the few
/// SQLSTATEs of its own (a bad table count, a locked table) by the SQLSTATE.
pub fn error_key(e: &DbError) -> Option<Key> {
    match e.code.as_deref()? {
        "22023" => return Some(keys::PGQ_ERROR_22023),
        "55P03" => return Some(keys::PGQ_ERROR_55P03),
        // schema pgque does not exist: pgque.uninstall() ran
        "3F000" => return Some(keys::PGQ_ENGINE_GONE),
        "P0001" => {}
        _ => return None,
    }
    const BY_WORDS: [(&str, Key); 13] = [
        ("queue not found", keys::PGQ_ERROR_PQ001),
        ("no such queue", keys::PGQ_ERROR_PQ001),
        ("No such event queue", keys::PGQ_ERROR_PQ001),
        ("Event queue not created yet", keys::PGQ_ERROR_PQ001),
        ("Not subscriber to queue", keys::PGQ_ERROR_PQ002),
        ("batch not found", keys::PGQ_ERROR_PQ003),
        ("msg_id ", keys::PGQ_ERROR_PQ007),
        ("event not found", keys::PGQ_ERROR_PQ007),
        ("dead letter entry not found", keys::PGQ_ERROR_PQ008),
        ("cooperative subconsumer not found", keys::PGQ_ERROR_PQ010),
        ("cannot unregister", keys::PGQ_ERROR_PQ009),
        ("cannot drop queue", keys::PGQ_ERROR_PQ009),
        ("consumer ", keys::PGQ_ERROR_PQ009),
    ];
    BY_WORDS
        .iter()
        .find(|(words, _)| e.message.starts_with(words))
        .map(|(_, key)| *key)
}

// ---- The statements: one function per file in `src/sql/pgque/lab/`, parameters named. ----
//
// A function takes `&impl Conn` (the database, or a transaction on it) and returns the rows of
// `rows.rs`. Which statement runs, and what its answer means for the learner, is the model's
// business.

/// A statement whose answer the lab does not read (the engine's functions return a value).
async fn run(c: &impl Conn, sql: &str, params: &[Param]) -> Result<(), DbError> {
    c.query::<serde_json::Value>(sql, params).await.map(|_| ())
}

/// Whether the in-flight demo's prepared transaction is open (inflight_find.sql).
pub async fn inflight_open(c: &impl Conn) -> Result<bool, DbError> {
    Ok(!c
        .query::<Gid>(INFLIGHT_FIND_SQL, &[])
        .await?
        .rows
        .is_empty())
}

/// Installs the engine in a fresh `pgque` schema (drop.sql, then the engine's files in order),
/// after rolling back the in-flight demo's prepared transaction: it would hold locks the DROP
/// waits on forever (one session).
pub async fn install(c: &impl Conn) -> Result<(), DbError> {
    if inflight_open(c).await? {
        c.exec(ROLLBACK_PREPARED_SQL).await?;
    }
    c.exec(DROP_SQL).await?;
    for (_, sql) in ENGINE {
        c.exec(sql).await?;
    }
    Ok(())
}

/// A queue as `pgque.create_queue` makes it (create_queue.sql).
pub struct CreateQueue<'a> {
    pub queue: &'a str,
    /// How many event tables it rotates through.
    pub tables: i32,
}

/// `pgque.create_queue` (create_queue.sql).
pub async fn create_queue(c: &impl Conn, p: CreateQueue<'_>) -> Result<(), DbError> {
    run(c, CREATE_QUEUE_SQL, &[p.queue.into(), p.tables.into()]).await
}

/// One setting of a queue (queue_config.sql).
pub struct QueueConfig<'a> {
    pub queue: &'a str,
    pub name: &'a str,
    pub value: &'a str,
}

/// `pgque.set_queue_config(queue, name, value)` (queue_config.sql).
pub async fn set_queue_config(c: &impl Conn, p: QueueConfig<'_>) -> Result<(), DbError> {
    let params = [p.queue.into(), p.name.into(), p.value.into()];
    run(c, QUEUE_CONFIG_SQL, &params).await
}

/// A consumer of a queue, as the subscription statements take it.
#[derive(Clone, Copy)]
pub struct Subscription<'a> {
    pub queue: &'a str,
    pub consumer: &'a str,
}

/// `pgque.subscribe`: 1 when the consumer is new, 0 when it was subscribed (subscribe.sql).
pub async fn subscribe(c: &impl Conn, p: Subscription<'_>) -> Result<i32, DbError> {
    done(c, SUBSCRIBE_SQL, &[p.queue.into(), p.consumer.into()]).await
}

/// `pgque.unsubscribe` (unsubscribe.sql).
pub async fn unsubscribe(c: &impl Conn, p: Subscription<'_>) -> Result<i32, DbError> {
    done(c, UNSUBSCRIBE_SQL, &[p.queue.into(), p.consumer.into()]).await
}

/// A consumer and one of its subconsumers, as the cooperative statements take them.
#[derive(Clone, Copy)]
pub struct Member<'a> {
    pub queue: &'a str,
    pub consumer: &'a str,
    pub sub: &'a str,
}

/// `pgque.register_subconsumer`: 1 when the member is new (sub_add.sql).
pub async fn sub_add(c: &impl Conn, m: Member<'_>) -> Result<i32, DbError> {
    done(
        c,
        SUB_ADD_SQL,
        &[m.queue.into(), m.consumer.into(), m.sub.into()],
    )
    .await
}

/// `pgque.unregister_subconsumer` (sub_remove.sql).
pub async fn sub_remove(c: &impl Conn, m: Member<'_>) -> Result<i32, DbError> {
    done(
        c,
        SUB_REMOVE_SQL,
        &[m.queue.into(), m.consumer.into(), m.sub.into()],
    )
    .await
}

#[derive(serde::Deserialize)]
struct Done {
    done: i32,
}

/// The `done` count a subscription statement returns (0 without a row).
async fn done(c: &impl Conn, sql: &str, params: &[Param]) -> Result<i32, DbError> {
    Ok(c.query::<Done>(sql, params)
        .await?
        .first()
        .map_or(0, |d| d.done))
}

/// What `pgque.receive_coop` takes (receive_coop.sql).
pub struct ReceiveCoop<'a> {
    pub member: Member<'a>,
    /// The most events it returns.
    pub max: i64,
    /// A member silent longer than this (seconds) has its batch taken over.
    pub dead_seconds: i64,
}

/// `pgque.receive_coop`: the member's own batch (receive_coop.sql).
pub async fn receive_coop(c: &impl Conn, p: ReceiveCoop<'_>) -> Result<Vec<Event>, DbError> {
    let m = p.member;
    let params = [
        m.queue.into(),
        m.consumer.into(),
        m.sub.into(),
        p.max.into(),
        p.dead_seconds.into(),
    ];
    Ok(c.query::<Event>(RECEIVE_COOP_SQL, &params).await?.rows)
}

/// An event as `pgque.send` takes it (send.sql).
pub struct NewEvent<'a> {
    pub queue: &'a str,
    pub event_type: &'a str,
    pub payload: &'a str,
}

/// `pgque.send`: the event's id and the sending transaction's id.
pub async fn send(c: &impl Conn, p: NewEvent<'_>) -> Result<Sent, DbError> {
    let params = [p.queue.into(), p.event_type.into(), p.payload.into()];
    c.query::<Sent>(SEND_SQL, &params).await?.one()
}

/// Events sent together (send_burst.sql).
pub struct SendBurst<'a> {
    pub queue: &'a str,
    pub event_type: &'a str,
    pub count: i64,
}

/// `count` events of `event_type` sent in one statement; returns how many (send_burst.sql).
pub async fn send_burst(c: &impl Conn, p: SendBurst<'_>) -> Result<i64, DbError> {
    let params = [p.queue.into(), p.event_type.into(), p.count.into()];
    let rows = c.query::<Count>(SEND_BURST_SQL, &params).await?;
    Ok(rows.first().map_or(0, |c| c.sent))
}

/// `pgque.force_next_tick`: the next ticker call ticks, whatever the thresholds
/// (force_tick.sql).
pub async fn force_next_tick(c: &impl Conn, queue: &str) -> Result<(), DbError> {
    run(c, FORCE_TICK_SQL, &[queue.into()]).await
}

/// `pgque.ticker(queue)`: the new tick's id, or `None` when no tick was due (tick.sql).
pub async fn ticker(c: &impl Conn, queue: &str) -> Result<Option<i64>, DbError> {
    let rows = c.query::<TickId>(TICK_SQL, &[queue.into()]).await?;
    Ok(rows.first().and_then(|t| t.tick_id))
}

/// A tick of a queue (tick_snapshot.sql).
pub struct TickOf<'a> {
    pub queue: &'a str,
    pub tick: i64,
}

/// The snapshot the tick recorded, as text (tick_snapshot.sql).
pub async fn tick_snapshot(c: &impl Conn, p: TickOf<'_>) -> Result<String, DbError> {
    let params = [p.queue.into(), p.tick.into()];
    let rows = c.query::<TickSnap>(TICK_SNAPSHOT_SQL, &params).await?;
    Ok(rows.first().map(|s| s.snapshot).unwrap_or_default())
}

/// What `pgque.receive` takes (receive.sql).
pub struct Receive<'a> {
    pub queue: &'a str,
    pub consumer: &'a str,
    /// The most events it returns.
    pub max: i64,
}

/// `pgque.receive`: up to `max` events of the consumer's next batch, as `T` (receive.sql).
pub async fn receive<T: DeserializeOwned>(
    c: &impl Conn,
    p: Receive<'_>,
) -> Result<Vec<T>, DbError> {
    let params = [p.queue.into(), p.consumer.into(), p.max.into()];
    Ok(c.query::<T>(RECEIVE_SQL, &params).await?.rows)
}

/// The ids of every event in open batch `batch` (batch_events.sql); an error when the batch
/// is not open.
pub async fn batch_events(c: &impl Conn, batch: i64) -> Result<Vec<i64>, DbError> {
    let rows = c
        .query::<BatchEvent>(BATCH_EVENTS_SQL, &[batch.into()])
        .await?;
    Ok(rows.rows.into_iter().map(|e| e.msg_id).collect())
}

/// `pgque.ack`: 1 when the batch was open and is now finished (ack.sql).
pub async fn ack(c: &impl Conn, batch: i64) -> Result<i32, DbError> {
    let rows = c.query::<Finished>(ACK_SQL, &[batch.into()]).await?;
    Ok(rows.first().map_or(0, |f| f.finished))
}

/// An event handed back as failed (nack.sql).
pub struct Nack<'a> {
    pub batch: i64,
    pub msg: i64,
    /// Seconds until it is retried.
    pub delay: i64,
    pub reason: &'a str,
}

/// `pgque.nack`: the event goes to the retry queue, or to the dead letters once it has used
/// its retries.
pub async fn nack(c: &impl Conn, p: Nack<'_>) -> Result<(), DbError> {
    let params = [
        p.batch.into(),
        p.msg.into(),
        p.delay.into(),
        p.reason.into(),
    ];
    c.query::<Nacked>(NACK_SQL, &params).await.map(|_| ())
}

/// An event a consumer nacked (nack_outcome.sql).
pub struct NackedEvent<'a> {
    pub queue: &'a str,
    pub consumer: &'a str,
    pub msg: i64,
}

/// Where the nacked event went: `retry` or `dead` (nack_outcome.sql).
pub async fn nack_outcome(c: &impl Conn, p: NackedEvent<'_>) -> Result<String, DbError> {
    let params = [p.queue.into(), p.consumer.into(), p.msg.into()];
    let rows = c.query::<NackOutcome>(NACK_OUTCOME_SQL, &params).await?;
    Ok(rows.first().map(|o| o.outcome).unwrap_or_default())
}

/// Rotation step 1 for every queue (PgQue's `maint()`, reported row by row: maint.sql), then
/// step 2 in a transaction of its own (rotate_step2.sql), as PgQue's 10 s job records it
/// soon after a switch: what maintenance did or waits for, one row per step.
pub async fn maint(c: &impl Conn) -> Result<Vec<MaintRow>, DbError> {
    let rows = c.query::<MaintRow>(MAINT_SQL, &[]).await?.rows;
    rotate_step2(c).await?;
    Ok(rows)
}

/// PgQue's four jobs on the lab clock, in PgQue's order (jobs.sql).
pub async fn jobs(c: &impl Conn) -> Result<Vec<Job>, DbError> {
    Ok(c.query::<Job>(JOBS_SQL, &[]).await?.rows)
}

/// `pgque.start()` or `pgque.stop()`: the four jobs scheduled on the lab clock, or not.
pub async fn schedule(c: &impl Conn, on: bool) -> Result<(), DbError> {
    let sql = if on {
        SCHEDULE_START_SQL
    } else {
        SCHEDULE_STOP_SQL
    };
    run(c, sql, &[]).await
}

/// Moves the lab clock `seconds` on, running every scheduled job that falls due on the way,
/// each in a transaction of its own (`call pgque.run_jobs`: run_jobs.sql); what they did.
pub async fn run_jobs(c: &impl Conn, seconds: i64) -> Result<JobsRun, DbError> {
    let rows = c.query::<JobsRun>(RUN_JOBS_SQL, &[seconds.into()]).await?;
    rows.rows
        .into_iter()
        .next()
        .ok_or_else(|| DbError::other("call pgque.run_jobs returned no row"))
}

/// `pgque.maint_rotate_tables_step2()`, on its own (rotate_step2.sql).
pub async fn rotate_step2(c: &impl Conn) -> Result<(), DbError> {
    run(c, ROTATE_STEP2_SQL, &[]).await
}

/// `pgque.maint_retry_events()`: retries whose time has come go back into the queue; returns
/// how many (retry_events.sql).
pub async fn retry_events(c: &impl Conn) -> Result<i32, DbError> {
    let rows = c.query::<Released>(RETRY_EVENTS_SQL, &[]).await?;
    Ok(rows.first().map_or(0, |r| r.released))
}

/// The newest dead letters of a queue (dlq_inspect.sql).
pub struct DlqInspect<'a> {
    pub queue: &'a str,
    pub limit: i64,
}

/// The newest `limit` dead letters of the queue (dlq_inspect.sql).
pub async fn dlq_inspect(c: &impl Conn, p: DlqInspect<'_>) -> Result<Vec<DeadLetter>, DbError> {
    let params = [p.queue.into(), p.limit.into()];
    Ok(c.query::<DeadLetter>(DLQ_INSPECT_SQL, &params).await?.rows)
}

/// Dead letter `dl_id`, if it is there (dead_letter.sql).
pub async fn dead_letter(c: &impl Conn, dl_id: i64) -> Result<Option<DeadLetter>, DbError> {
    Ok(c.query::<DeadLetter>(DEAD_LETTER_SQL, &[dl_id.into()])
        .await?
        .first())
}

/// `pgque.dlq_replay`: dead letter `dl_id` sent again; returns the new event's id
/// (dlq_replay.sql).
pub async fn dlq_replay(c: &impl Conn, dl_id: i64) -> Result<i64, DbError> {
    let rows = c.query::<MsgId>(DLQ_REPLAY_SQL, &[dl_id.into()]).await?;
    Ok(rows.first().map_or(0, |m| m.msg_id))
}

/// `pg_stat_force_next_flush()`: the next statistics read sees this session's counts
/// (flush_stats.sql).
pub async fn flush_stats(c: &impl Conn) -> Result<(), DbError> {
    run(c, FLUSH_STATS_SQL, &[]).await
}

/// What snapshot.sql reads: the lab's queue and how many of its newest dead letters.
pub struct SnapshotOf<'a> {
    pub queue: &'a str,
    pub dead_letters: i64,
}

/// Everything the page draws, in one row (snapshot.sql; decoded by `SnapshotRow::decode`).
/// Fails to plan without schema pgque: see [`uninstalled`].
pub async fn snapshot(c: &impl Conn, p: SnapshotOf<'_>) -> Result<SnapshotRow, DbError> {
    let params = [p.queue.into(), p.dead_letters.into()];
    c.query::<SnapshotRow>(SNAPSHOT_SQL, &params).await?.one()
}

/// Whether schema pgque is gone, with lab time and the in-flight flag (uninstalled.sql).
pub async fn uninstalled(c: &impl Conn) -> Result<Uninstalled, DbError> {
    c.query::<Uninstalled>(UNINSTALLED_SQL, &[]).await?.one()
}

/// The queue's row of `pgque.queue_report` (queue_info.sql).
pub async fn queue_info(c: &impl Conn, queue: &str) -> Result<Option<QueueInfo>, DbError> {
    Ok(c.query::<QueueInfo>(QUEUE_INFO_SQL, &[queue.into()])
        .await?
        .first())
}

/// The rows `sql` returns for `queue`, its one parameter.
async fn of_queue<T: DeserializeOwned>(
    c: &impl Conn,
    sql: &'static str,
    queue: &str,
) -> Result<Vec<T>, DbError> {
    Ok(c.query::<T>(sql, &[queue.into()]).await?.rows)
}

/// Every consumer of the queue, as `pgque.consumer_report` reports it (consumer_info.sql).
pub async fn consumer_info(c: &impl Conn, queue: &str) -> Result<Vec<ConsumerInfo>, DbError> {
    of_queue(c, CONSUMER_INFO_SQL, queue).await
}

/// Every subconsumer of every group (subconsumer_info.sql).
pub async fn subconsumer_info(c: &impl Conn, queue: &str) -> Result<Vec<SubInfo>, DbError> {
    of_queue(c, SUBCONSUMER_INFO_SQL, queue).await
}

/// The queue's event tables (table_info.sql).
pub async fn table_info(c: &impl Conn, queue: &str) -> Result<Vec<TableInfo>, DbError> {
    of_queue(c, TABLE_INFO_SQL, queue).await
}

/// Each consumer's cursor among the event tables (cursor_info.sql).
pub async fn cursor_info(c: &impl Conn, queue: &str) -> Result<Vec<CursorInfo>, DbError> {
    of_queue(c, CURSOR_INFO_SQL, queue).await
}

/// Events waiting in the retry queue (retry_list.sql).
pub async fn retry_list(c: &impl Conn, queue: &str) -> Result<Vec<Retry>, DbError> {
    of_queue(c, RETRY_LIST_SQL, queue).await
}

/// Ends the in-flight demo's prepared transaction: COMMIT PREPARED or ROLLBACK PREPARED
/// (commit_prepared.sql, rollback_prepared.sql).
pub async fn finish_prepared(c: &impl Conn, commit: bool) -> Result<(), DbError> {
    c.exec(if commit {
        COMMIT_PREPARED_SQL
    } else {
        ROLLBACK_PREPARED_SQL
    })
    .await
}

/// The in-flight demo (inflight_prepare.sql), one script in one call: begin, send, PREPARE
/// TRANSACTION, then read back (outside the transaction) the event id the send drew and the
/// prepared transaction's id. As separate calls, a statement another task sent between
/// `begin` and `prepare transaction` would run inside this transaction on PGlite's one
/// session. `None` when the transaction did not appear in `pg_prepared_xacts`.
///
/// A send that failed inside the script's BEGIN leaves that transaction open (aborted):
/// it is rolled back (inflight_abort.sql) before the error is returned. A failed PREPARE
/// (e.g. max_prepared_transactions = 0) already ended it; the rollback then only warns.
pub async fn inflight_prepare(db: &Db) -> Result<Option<(i64, String)>, DbError> {
    let row = match db.query_table(INFLIGHT_PREPARE_SQL).await {
        Ok(rows) => rows.first(),
        Err(e) => {
            let _ = db.exec(INFLIGHT_ABORT_SQL).await;
            return Err(e);
        }
    };
    Ok(match row.as_deref() {
        Some([id, txid]) => id.as_i64().zip(txid.as_str().map(str::to_owned)),
        _ => None,
    })
}
