//! L1's tables as the view shows them, read in one statement after each action.

use super::sql::{SNAPSHOT_SQL, TABLE_STATS_SQL};
use crate::db::{Db, DbError, Param};
use serde::Deserialize;

/// A row of the `jobs` table as the lab shows it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Job {
    pub id: i64,
    pub queue: String,
    pub payload: serde_json::Value,
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

/// Reads `TableStats`, after flushing PGlite's statistics so `n_dead_tup` is current.
pub async fn table_stats(db: &Db) -> Result<TableStats, DbError> {
    db.query::<serde_json::Value>(crate::labs::common::sql::FLUSH_STATS, &[])
        .await?;
    db.query::<TableStats>(TABLE_STATS_SQL, &[])
        .await?
        .first()
        .ok_or_else(|| DbError::other("table_stats.sql returned no row"))
}

/// Reads the tables for the view, in one statement (snapshot.sql): the newest jobs, and
/// `also` (jobs held or just changed) wherever they are.
pub async fn snapshot(db: &Db, also: &[i64]) -> Result<Snapshot, DbError> {
    /// One row; each part is JSON text, decoded here.
    #[derive(Deserialize)]
    struct Row {
        now: String,
        jobs: String,
        orders: String,
        counts: String,
    }
    fn decode<T: serde::de::DeserializeOwned>(part: &str, json: &str) -> Result<T, DbError> {
        serde_json::from_str(json)
            .map_err(|e| DbError::other(&format!("snapshot.sql returned unreadable {part}: {e}")))
    }
    let row = db
        .query::<Row>(SNAPSHOT_SQL, &[LIST_LIMIT.into(), Param::ids(also)])
        .await?
        .first()
        .ok_or_else(|| DbError::other("snapshot.sql returned no row"))?;
    Ok(Snapshot {
        now: row.now,
        jobs: decode("jobs", &row.jobs)?,
        orders: decode("orders", &row.orders)?,
        counts: decode("counts", &row.counts)?,
        table: None,
        reconciled: Vec::new(),
        effects: Vec::new(),
    })
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
