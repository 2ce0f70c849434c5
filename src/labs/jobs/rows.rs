//! L1's rows: what its statements (`sql.rs`) return, and the tables as the view shows them,
//! read in one statement after each action.

use crate::db::DbError;
use serde::Deserialize;

/// A claim as the worker remembers it: the job and the attempt number it claimed with. The
/// statements that act on a claim (complete, fail, heartbeat, effect) are guarded by both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    pub job: i64,
    pub attempt: i32,
}

/// The job a claim took (claim.sql, claim_per_key.sql).
#[derive(Deserialize)]
pub struct Claimed {
    pub id: i64,
    pub payload: serde_json::Value,
    pub attempts: i32,
    /// Only the per-key claim returns it.
    #[serde(default)]
    pub key: Option<String>,
}

/// A failed attempt's job: dead, or ready again at `run_at` (fail.sql).
#[derive(Deserialize)]
pub struct Failed {
    pub status: String,
    pub run_at: String,
}

/// An effect, and whether this run applied it (effect_apply.sql).
#[derive(Deserialize)]
pub struct Applied {
    pub applied: bool,
    #[serde(flatten)]
    pub effect: Effect,
}

/// §5: the queue's usage around a burst, and its time (notify_burst.sql).
#[derive(Deserialize)]
pub struct BurstRow {
    pub usage_before: f64,
    pub usage_after: f64,
    pub elapsed_ms: f64,
}

/// §5: the queue's usage, and its largest size (notify_queue.sql).
#[derive(Deserialize)]
pub struct QueueRow {
    pub usage: f64,
    pub max_pages: i64,
    pub page_bytes: i64,
}

/// A row of the `jobs` table as the lab shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Deserialize)]
pub struct Job {
    pub id: i64,
    pub queue: String,
    /// The payload's jsonb text (keys in jsonb's order, as psql shows them).
    pub payload: String,
    pub status: String,
    pub priority: i32,
    pub run_at: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub locked_until: Option<String>,
    pub last_error: Option<String>,
    pub claimable: bool,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Order {
    pub id: i64,
    pub customer: String,
    pub total: String,
    pub created: String,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Counts {
    pub total: i64,
    pub ready: i64,
    pub running: i64,
    pub done: i64,
    pub dead: i64,
}

/// What the tables hold now, read after each action.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    pub now: String,
    pub jobs: Vec<Job>,
    pub orders: Vec<Order>,
    pub counts: Counts,
    /// The table's rows, dead versions and size: read only while completing deletes (§2).
    pub table: Option<TableStats>,
    /// §1: every order the lab wrote, checked against the simulated broker (once one ran).
    pub reconciled: Vec<Reconciled>,
    /// §4: the effects applied under their idempotency keys (once one was applied).
    pub effects: Vec<Effect>,
}

/// What is left in the jobs table, dead row versions included (`table_stats.sql`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct TableStats {
    pub rows: i64,
    pub dead_versions: i64,
    pub bytes: i64,
}

/// snapshot.sql's one row; each part is JSON text, decoded by [`SnapshotRow::decode`].
#[derive(Deserialize)]
pub struct SnapshotRow {
    now: String,
    jobs: String,
    orders: String,
    counts: String,
}

impl SnapshotRow {
    pub fn decode(self) -> Result<Snapshot, DbError> {
        fn decode<T: serde::de::DeserializeOwned>(part: &str, json: &str) -> Result<T, DbError> {
            serde_json::from_str(json).map_err(|e| {
                DbError::other(&format!("snapshot.sql returned unreadable {part}: {e}"))
            })
        }
        Ok(Snapshot {
            now: self.now,
            jobs: decode("jobs", &self.jobs)?,
            orders: decode("orders", &self.orders)?,
            counts: decode("counts", &self.counts)?,
            table: None,
            reconciled: Vec::new(),
            effects: Vec::new(),
        })
    }
}

/// How many jobs the table view shows, newest first (the page stays quick to redraw; the
/// SQL console reads them all).
pub const LIST_LIMIT: i64 = 50;

/// One order checked against the broker and the jobs table (`broker_check.sql`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Reconciled {
    pub order_id: i64,
    pub order_exists: bool,
    /// Messages the simulated broker holds for this order.
    pub in_broker: i64,
    /// Receipt jobs for this order in the jobs table.
    pub in_jobs: i64,
}

/// What a reconciled order says about the way its job was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The order, and one job for it.
    Consistent,
    /// Neither the order nor a job: rolled back together.
    Neither,
    /// The order without a job: its receipt is never sent.
    Lost,
    /// A job for an order that does not exist.
    Ghost,
    /// The order with more than one job.
    Duplicate,
}

impl Reconciled {
    pub fn verdict(&self) -> Verdict {
        let jobs = self.in_broker + self.in_jobs;
        match (self.order_exists, jobs) {
            (true, 1) => Verdict::Consistent,
            (true, 0) => Verdict::Lost,
            (true, _) => Verdict::Duplicate,
            (false, 0) => Verdict::Neither,
            (false, _) => Verdict::Ghost,
        }
    }
}

/// A row of the effects table (`effects.sql`, `effect_apply.sql`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Effect {
    pub idempotency_key: String,
    pub job_id: i64,
    pub worker: String,
    pub attempt: i32,
    pub applied_at: String,
}
