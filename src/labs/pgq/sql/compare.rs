//! The side by side's own statements (one file each in `src/sql/pgque/compare/`), one
//! function each, its parameters named. The engine's statements are the lab's (`super`),
//! the SKIP LOCKED queue's are L3's (`labs::common::sql`).

use super::super::rows::MaintRow;
use crate::db::{sql_file, Conn, DbError};
use serde::Deserialize;

sql_file!(SETUP_SQL, "pgque/compare/setup.sql");
sql_file!(PIN_SQL, "pgque/compare/pin.sql");
sql_file!(UNPIN_SQL, "pgque/compare/unpin.sql");
sql_file!(PIN_FIND_SQL, "pgque/compare/pin_find.sql");
sql_file!(MAINT_SQL, "pgque/compare/maint.sql");
sql_file!(EVENT_STATS_SQL, "pgque/compare/event_stats.sql");
sql_file!(JOBS_STATS_SQL, "pgque/compare/jobs_stats.sql");
sql_file!(
    /// The article's table (L1's file), created in `pgq_compare`.
    JOBS_TABLE_SQL,
    "jobs/schema.sql"
);

/// A fresh `compare` queue and schema `pgq_compare` first on the search path (setup.sql).
pub async fn setup(c: &impl Conn) -> Result<(), DbError> {
    c.exec(SETUP_SQL).await
}

/// The article's `jobs` table, in `pgq_compare` (L1's schema.sql).
pub async fn jobs_table(c: &impl Conn) -> Result<(), DbError> {
    c.exec(JOBS_TABLE_SQL).await
}

/// The long transaction: a prepared transaction that holds the xmin horizon (pin.sql).
pub async fn pin(c: &impl Conn) -> Result<(), DbError> {
    c.exec(PIN_SQL).await
}

/// Ends the long transaction (unpin.sql).
pub async fn unpin(c: &impl Conn) -> Result<(), DbError> {
    c.exec(UNPIN_SQL).await
}

/// Whether the long transaction is open (pin_find.sql).
pub async fn pinned(c: &impl Conn) -> Result<bool, DbError> {
    #[derive(Deserialize)]
    struct Gid {
        #[allow(dead_code)]
        gid: String,
    }
    Ok(!c.query::<Gid>(PIN_FIND_SQL, &[]).await?.rows.is_empty())
}

/// `pgque.maint_report(queue)`: rotation step 1 for that queue only, step by step (maint.sql).
pub async fn maint(c: &impl Conn, queue: &str) -> Result<Vec<MaintRow>, DbError> {
    Ok(c.query::<MaintRow>(MAINT_SQL, &[queue.into()]).await?.rows)
}

/// A side's table or tables after a round: dead tuples, bytes with indexes, events stored
/// (the SKIP LOCKED side stores none: its rows are deleted on completion).
#[derive(Debug, Default, Deserialize)]
pub struct Stats {
    pub dead: i64,
    pub bytes: i64,
    #[serde(default)]
    pub events: i64,
}

async fn stats(c: &impl Conn, sql: &str, params: &[crate::db::Param]) -> Result<Stats, DbError> {
    c.query::<Stats>(sql, params)
        .await?
        .first()
        .ok_or_else(|| DbError::other("no statistics row"))
}

/// The queue's event tables, as last flushed (event_stats.sql).
pub async fn event_stats(c: &impl Conn, queue: &str) -> Result<Stats, DbError> {
    stats(c, EVENT_STATS_SQL, &[queue.into()]).await
}

/// `pgq_compare.jobs`, as last flushed (jobs_stats.sql).
pub async fn jobs_stats(c: &impl Conn) -> Result<Stats, DbError> {
    stats(c, JOBS_STATS_SQL, &[]).await
}
