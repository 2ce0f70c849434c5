//! L4's typed rows: what the engine's functions return, decoded once, and the snapshot
//! the page draws.

use queue_lab_core::i18n::Msg;
use serde::Deserialize;

/// One event as `pgq.receive` hands it out.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Event {
    pub batch_id: i64,
    pub msg_id: i64,
    #[serde(rename = "type")]
    pub kind: String,
    pub payload: String,
    pub retry_count: i32,
    pub created_at: String,
    pub txid: serde_json::Value,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct QueueInfo {
    pub queue_name: String,
    pub ntables: i32,
    pub cur_table: i32,
    pub cur_table_name: String,
    pub rotation_period: String,
    pub switch_time: String,
    pub max_retries: i32,
    pub last_tick: i64,
    pub last_tick_time: Option<String>,
    pub ticks_kept: i32,
    pub events_since_tick: Option<i64>,
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

/// The engine's reason (`pgq.rotation_status` / `pgq.maint`: a code and its values) as a
/// message; the engine's own English note stays in the SQL log.
pub fn reason_msg(reason: Option<&str>, args: &[String]) -> Msg {
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
    match reason.unwrap_or_default() {
        "step2_pending" => Msg::new("pgq.reason.step2_pending"),
        "period" => Msg::new("pgq.reason.period").arg("time", arg(0)),
        "step2_now" => Msg::new("pgq.reason.step2_now"),
        "long_tx" => Msg::new("pgq.reason.long_tx").arg("txid", arg(0)),
        "consumer" => Msg::new("pgq.reason.consumer")
            .arg("consumer", arg(0))
            .arg("tick", arg(1)),
        "ready" => Msg::new("pgq.reason.ready").arg("table", arg(0)),
        "locked" => Msg::new("pgq.reason.locked").arg("table", arg(0)),
        _ => Msg::new("pgq.reason.unknown"),
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct ConsumerInfo {
    pub consumer_name: String,
    pub last_tick: i64,
    pub last_tick_time: Option<String>,
    pub lag_ticks: i32,
    pub lag_events: i64,
    pub lag_time: Option<String>,
    pub batch_id: Option<i64>,
    pub batch_end_tick: Option<i64>,
    pub batch_acked_upto: Option<i64>,
    pub last_ack_time: Option<String>,
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

#[derive(Clone, Debug, PartialEq, Deserialize)]
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
            "retry" => Msg::new("pgq.maint.retry")
                .arg("count", arg(0))
                .arg("table", arg(1)),
            "step2" => Msg::new("pgq.maint.step2"),
            "rotate" => Msg::new("pgq.maint.rotate")
                .arg("from", arg(0))
                .arg("to", arg(1))
                .arg("count", arg(2)),
            "ticks" => Msg::new("pgq.maint.ticks").arg("count", arg(0)),
            _ => Msg::new("pgq.maint.wait")
                .arg_msg("reason", reason_msg(self.reason.as_deref(), args)),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct DeadLetter {
    pub dl_id: i64,
    pub consumer: String,
    pub msg_id: i64,
    pub batch_id: i64,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub payload: Option<String>,
    pub retry_count: i32,
    pub reason: Option<String>,
    pub created_at: String,
    pub died_at: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Retry {
    pub rq_id: i64,
    pub consumer: String,
    pub msg_id: i64,
    pub batch_id: i64,
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
    /// Every subconsumer of every group (`pgq.get_subconsumer_info`).
    pub subs: Vec<super::consumers::SubInfo>,
    pub tables: Vec<TableInfo>,
    pub retries: Vec<Retry>,
    pub dead: Vec<DeadLetter>,
    pub inflight_open: bool,
}

#[derive(Deserialize)]
pub(super) struct MsgId {
    pub(super) msg_id: i64,
}
#[derive(Deserialize)]
pub(super) struct Sent {
    pub(super) msg_id: i64,
    pub(super) txid: String,
}
#[derive(Deserialize)]
pub(super) struct Count {
    pub(super) sent: i64,
}
#[derive(Deserialize)]
pub(super) struct TickId {
    pub(super) tick_id: i64,
}
#[derive(Deserialize)]
pub(super) struct TickSnap {
    pub(super) snapshot: String,
}
#[derive(Deserialize)]
pub(super) struct Finished {
    pub(super) finished: i32,
}
#[derive(Deserialize)]
pub(super) struct NackOutcome {
    pub(super) outcome: String,
}
#[derive(Deserialize)]
pub(super) struct Released {
    pub(super) released: i32,
}
#[derive(Deserialize)]
pub(super) struct Gid {
    #[allow(dead_code)]
    pub(super) gid: String,
}
