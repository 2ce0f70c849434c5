//! L4's typed rows: what the engine's functions return, decoded once, and the snapshot
//! the page draws.

use crate::db::DbError;
use crate::keys;
use queue_lab_core::i18n::Msg;
use serde::{Deserialize, Serialize};

/// One event as `pgque.receive` hands it out: PgQue's `pgque.message` (its extra1..4 unread).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct Event {
    pub batch_id: i64,
    pub msg_id: i64,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub payload: Option<String>,
    /// Null on an event's first delivery, as in PgQue.
    pub retry_count: Option<i32>,
    pub created_at: String,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
/// `pgque.queue_report`: PgQue's columns (under the lab's field names where the view has
/// its own), then the lab's.
pub struct QueueInfo {
    pub queue_name: String,
    #[serde(rename = "queue_ntables")]
    pub ntables: i32,
    #[serde(rename = "queue_cur_table")]
    pub cur_table: i32,
    pub cur_table_name: String,
    #[serde(rename = "queue_rotation_period")]
    pub rotation_period: String,
    #[serde(rename = "queue_switch_time")]
    pub switch_time: String,
    #[serde(rename = "queue_ticker_max_count")]
    pub ticker_max_count: i32,
    #[serde(rename = "queue_ticker_max_lag")]
    pub ticker_max_lag: String,
    pub max_retries: i32,
    #[serde(rename = "last_tick_id")]
    pub last_tick: i64,
    pub last_tick_time: Option<String>,
    pub ticks_kept: i32,
    /// Committed events no tick has cut yet (exact; PgQue's `ev_new` is the sequence's
    /// estimate of it).
    pub events_waiting: Option<i64>,
    pub consumers: i32,
    pub retries_pending: i32,
    pub dead_letters: i32,
    pub rotation_ready: Option<bool>,
    pub rotation_note: Option<String>,
    pub rotation_reason: Option<String>,
    pub rotation_args: Option<Vec<String>>,
}

impl QueueInfo {
    /// What the next maint() would do, in the learner's language.
    pub fn rotation_msg(&self) -> Msg {
        reason_msg(
            self.rotation_reason.as_deref(),
            self.rotation_args.as_deref().unwrap_or_default(),
        )
    }
}

/// The engine's reason (`pgque.rotation_status` / `pgque.maint`: a code and its values) as a
/// message; the engine's own English note stays in the SQL log.
pub fn reason_msg(reason: Option<&str>, args: &[String]) -> Msg {
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
    match reason.unwrap_or_default() {
        "step2_pending" => Msg::new(keys::PGQ_REASON_STEP2_PENDING),
        "period" => Msg::new(keys::PGQ_REASON_PERIOD).arg("time", arg(0)),
        "step2_now" => Msg::new(keys::PGQ_REASON_STEP2_NOW),
        "long_tx" => Msg::new(keys::PGQ_REASON_LONG_TX).arg("txid", arg(0)),
        "consumer" => Msg::new(keys::PGQ_REASON_CONSUMER)
            .arg("consumer", arg(0))
            .arg("tick", arg(1)),
        "ready" => Msg::new(keys::PGQ_REASON_READY).arg("table", arg(0)),
        "locked" => Msg::new(keys::PGQ_REASON_LOCKED).arg("table", arg(0)),
        _ => Msg::new(keys::PGQ_REASON_UNKNOWN),
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
/// `pgque.consumer_report`: PgQue's columns (get_consumer_info's), then the lab's.
pub struct ConsumerInfo {
    pub consumer_name: String,
    pub last_tick: i64,
    pub last_tick_time: Option<String>,
    pub lag_ticks: i32,
    pub lag_events: i64,
    #[serde(rename = "lag")]
    pub lag_time: Option<String>,
    #[serde(rename = "current_batch")]
    pub batch_id: Option<i64>,
    #[serde(rename = "next_tick")]
    pub batch_end_tick: Option<i64>,
    /// Time since its last receive or ack (PgQue's `last_seen`).
    pub last_seen: Option<String>,
    pub retries_pending: i32,
    pub dead_letters: i32,
    pub holds_rotation: bool,
    /// Subconsumers sharing this cursor (0: a plain consumer).
    #[serde(default)]
    pub subconsumers: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct TableInfo {
    pub table_no: i32,
    pub table_name: String,
    pub is_current: bool,
    pub is_next: bool,
    pub events: i64,
    pub dead_tuples: i64,
    pub tup_upd: i64,
    pub tup_del: i64,
    pub size_bytes: i64,
    pub min_msg_id: Option<i64>,
    pub max_msg_id: Option<i64>,
}

/// `pgque.get_cursor_info`: where a consumer's cursor stands among the event tables.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct CursorInfo {
    pub consumer_name: String,
    pub last_tick: i64,
    /// Committed events for it that its cursor tick does not see (ticked or not yet).
    pub unread: i64,
    /// The smallest of its unread ev_ids in `table_no`.
    pub next_msg_id: Option<i64>,
    /// The oldest table (in rotation order) holding one of those events; None: caught up.
    pub table_no: Option<i32>,
    pub table_name: Option<String>,
    /// Every table holding its unread events, oldest first.
    #[serde(default)]
    pub tables: Vec<i32>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct MaintRow {
    pub queue_name: Option<String>,
    pub action: String,
    pub detail: Option<String>,
    pub reason: Option<String>,
    pub args: Option<Vec<String>>,
}

impl MaintRow {
    /// maint()'s answer in the learner's words, from its reason code and values (its English
    /// detail is what the SQL log shows).
    pub fn msg(&self) -> Msg {
        let args = self.args.as_deref().unwrap_or_default();
        let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
        match self.action.as_str() {
            "step2" => Msg::new(keys::PGQ_MAINT_STEP2),
            "rotate" => Msg::new(keys::PGQ_MAINT_ROTATE)
                .arg("from", arg(0))
                .arg("to", arg(1))
                .arg("count", arg(2)),
            "ticks" => Msg::new(keys::PGQ_MAINT_TICKS).arg("count", arg(0)),
            _ => Msg::new(keys::PGQ_MAINT_WAIT)
                .arg_msg("reason", reason_msg(self.reason.as_deref(), args)),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
/// A row of `pgque.dead_letter`, as `pgque.dlq_inspect` returns it.
pub struct DeadLetter {
    pub dl_id: i64,
    #[serde(rename = "dl_consumer")]
    pub consumer: String,
    #[serde(rename = "ev_id")]
    pub msg_id: i64,
    #[serde(rename = "ev_type")]
    pub kind: Option<String>,
    #[serde(rename = "ev_data")]
    pub payload: Option<String>,
    #[serde(rename = "ev_retry")]
    pub retry_count: Option<i32>,
    #[serde(rename = "dl_reason")]
    pub reason: Option<String>,
    #[serde(rename = "ev_time")]
    pub created_at: String,
    #[serde(rename = "dl_time")]
    pub died_at: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Retry {
    pub consumer: String,
    pub msg_id: i64,
    pub retry_count: i32,
    pub retry_after: String,
    pub reason: Option<String>,
    pub due: bool,
}

/// What the tables hold now, read after each action.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    pub now: String,
    pub queue: Option<QueueInfo>,
    pub consumers: Vec<ConsumerInfo>,
    /// Every subconsumer of every group (`pgque.get_subconsumer_info`).
    pub subs: Vec<SubInfo>,
    pub tables: Vec<TableInfo>,
    /// Each consumer's cursor among the tables (`pgque.get_cursor_info`).
    pub cursors: Vec<CursorInfo>,
    pub retries: Vec<Retry>,
    pub dead: Vec<DeadLetter>,
    pub inflight_open: bool,
    /// PgQue's four jobs on the lab clock (`pgque.start()` schedules them).
    pub jobs: Vec<Job>,
    /// Schema pgque is gone (`pgque.uninstall()`): nothing else was read.
    pub uninstalled: bool,
}

/// snapshot.sql's one row: each part is JSON text (null: the queue is gone), decoded by
/// [`SnapshotRow::decode`].
#[derive(Deserialize)]
pub struct SnapshotRow {
    now: String,
    inflight_open: bool,
    jobs: String,
    queue: Option<String>,
    consumers: Option<String>,
    subs: Option<String>,
    tables: Option<String>,
    cursors: Option<String>,
    retries: Option<String>,
    dead: Option<String>,
}

impl SnapshotRow {
    pub fn decode(self) -> Result<Snapshot, DbError> {
        fn part<T: serde::de::DeserializeOwned>(name: &str, json: &str) -> Result<T, DbError> {
            serde_json::from_str(json).map_err(|e| {
                DbError::other(&format!("snapshot.sql returned unreadable {name}: {e}"))
            })
        }
        fn list<T: serde::de::DeserializeOwned>(
            name: &str,
            json: Option<String>,
        ) -> Result<Vec<T>, DbError> {
            json.map_or(Ok(Vec::new()), |j| part(name, &j))
        }
        Ok(Snapshot {
            now: self.now,
            queue: self.queue.map(|q| part("queue", &q)).transpose()?,
            consumers: list("consumers", self.consumers)?,
            subs: list("subs", self.subs)?,
            tables: list("tables", self.tables)?,
            cursors: list("cursors", self.cursors)?,
            retries: list("retries", self.retries)?,
            dead: list("dead", self.dead)?,
            inflight_open: self.inflight_open,
            jobs: part("jobs", &self.jobs)?,
            uninstalled: false,
        })
    }
}

/// uninstalled.sql's row: whether schema pgque is gone, and what the page reads without it.
#[derive(Deserialize)]
pub struct Uninstalled {
    pub uninstalled: bool,
    pub now: String,
    pub inflight_open: bool,
}

/// A statement's row of one column, read only inside the lab: `Name { column: Type }`,
/// each a struct that deserializes that column.
macro_rules! one_column {
    ($($(#[$m:meta])* $name:ident { $col:ident: $ty:ty }),* $(,)?) => {$(
        $(#[$m])*
        #[derive(Deserialize)]
        pub(super) struct $name {
            pub(super) $col: $ty,
        }
    )*};
}

one_column! {
    MsgId { msg_id: i64 },
    Count { sent: i64 },
    /// `tick_id` is null when `pgque.ticker(queue)` found no tick due.
    TickId { tick_id: Option<i64> },
    BatchEvent { msg_id: i64 },
    TickSnap { snapshot: String },
    Finished { finished: i32 },
    #[allow(dead_code)]
    Nacked { nacked: i32 },
    NackOutcome { outcome: String },
    Released { released: i32 },
    #[allow(dead_code)]
    Gid { gid: String },
}

/// What `pgque.send` returns: the event's id and the sending transaction's id.
#[derive(Deserialize)]
pub struct Sent {
    pub msg_id: i64,
    pub txid: String,
}

/// One member of a cooperative group, as `pgque.get_subconsumer_info` reports it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct SubInfo {
    #[serde(rename = "consumer")]
    pub consumer_name: String,
    #[serde(rename = "subconsumer")]
    pub subconsumer_name: String,
    pub batch_id: Option<i64>,
    pub batch_start_tick: Option<i64>,
    pub batch_end_tick: Option<i64>,
    pub batch_events: i32,
    pub idle: Option<String>,
}

/// One of PgQue's four scheduled jobs on the lab clock (jobs.sql).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Job {
    pub job_name: String,
    /// Its period, in seconds.
    pub every_s: i32,
    pub scheduled: bool,
    /// Lab time of day of its last and next run (`HH:MM:SS.mmm`); next is null while stopped.
    pub last_run: Option<String>,
    pub next_run: Option<String>,
    pub runs: i64,
    /// The sum of what its runs returned (ticker: ticks made; retry job: events put back).
    pub total: i64,
}

/// What a clock move's `call pgque.run_jobs` did (run_jobs.sql).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct JobsRun {
    pub ticks: i64,
    pub retries: i64,
    pub maint_runs: i64,
    pub step2_runs: i64,
    /// Whether PgQue's jobs are scheduled (`pgque.start()`).
    pub scheduled: bool,
    /// Lab time after the move.
    pub now_text: String,
}
