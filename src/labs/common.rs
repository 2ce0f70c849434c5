//! What more than one lab uses: the page's clock, letting the page breathe during a long
//! run, and the article's queue statements with the claim's page count (L3 measures its
//! tables with it; L4's side by side runs the same claim on its jobs table).

use crate::db::{Db, DbError};
use serde::{Deserialize, Serialize};
use std::cell::Cell;

/// The article's queue statements, exactly as the files hold them, one function per file
/// (see `labs/jobs/sql.rs` for the shape), on whatever `jobs` means now (the search path).
pub mod sql {
    use super::{Explained, PlanSummary};
    use crate::db::{sql_file, Conn, DbError, Param};
    use serde::Deserialize;

    sql_file!(ENQUEUE, "vacuum/enqueue.sql");
    sql_file!(CLAIM_BATCH, "vacuum/claim_batch.sql");
    sql_file!(COMPLETE_DONE, "vacuum/complete_done.sql");
    sql_file!(COMPLETE_DELETE, "vacuum/complete_delete.sql");
    sql_file!(VACUUM, "vacuum/vacuum.sql");
    sql_file!(FLUSH_STATS, "vacuum/flush_stats.sql");
    sql_file!(RESET_SEARCH_PATH, "vacuum/reset_search_path.sql");
    // The article's claim (L1 shows it beside its own), explained.
    sql_file!(EXPLAIN_ARTICLE, explain "jobs/claim_article.sql");
    sql_file!(PLAN_SUMMARY, plan "vacuum/plan_summary.sql");
    /// Runs a statement whose rows nobody reads.
    pub(crate) async fn for_effect(
        c: &impl Conn,
        sql: &str,
        params: &[Param],
    ) -> Result<(), DbError> {
        c.query::<serde_json::Value>(sql, params).await.map(|_| ())
    }

    /// Enqueues `jobs` jobs with the article's defaults.
    pub async fn enqueue(c: &impl Conn, jobs: u32) -> Result<(), DbError> {
        for_effect(c, ENQUEUE, &[jobs.into()]).await
    }

    /// Claims up to `batch` jobs; their ids.
    pub async fn claim_batch(c: &impl Conn, batch: u32) -> Result<Vec<i64>, DbError> {
        #[derive(Deserialize)]
        struct Claimed {
            id: i64,
        }
        let rows = c.query::<Claimed>(CLAIM_BATCH, &[batch.into()]).await?;
        Ok(rows.rows.iter().map(|r| r.id).collect())
    }

    /// Completes jobs `ids` by setting status = 'done'.
    pub async fn complete_done(c: &impl Conn, ids: &[i64]) -> Result<(), DbError> {
        for_effect(c, COMPLETE_DONE, &[Param::ids(ids)]).await
    }

    /// Completes jobs `ids` by deleting their rows.
    pub async fn complete_delete(c: &impl Conn, ids: &[i64]) -> Result<(), DbError> {
        for_effect(c, COMPLETE_DELETE, &[Param::ids(ids)]).await
    }

    /// Plain VACUUM of `jobs`.
    pub async fn vacuum(c: &impl Conn) -> Result<(), DbError> {
        for_effect(c, VACUUM, &[]).await
    }

    /// Flushes PGlite's statistics, so the counts read next are current.
    pub async fn flush_stats(c: &impl Conn) -> Result<(), DbError> {
        for_effect(c, FLUSH_STATS, &[]).await
    }

    /// Puts the session's search path back (after `jobs` meant another table).
    pub async fn reset_search_path(c: &impl Conn) -> Result<(), DbError> {
        for_effect(c, RESET_SEARCH_PATH, &[]).await
    }

    /// EXPLAIN (ANALYZE, BUFFERS) of the article's claim: its plan (the claim runs).
    pub async fn explain_article(c: &impl Conn) -> Result<serde_json::Value, DbError> {
        Ok(c.query::<Explained>(EXPLAIN_ARTICLE, &[])
            .await?
            .one()?
            .plan)
    }

    /// What a plan says: pages, time, nodes.
    pub async fn plan_summary(
        c: &impl Conn,
        plan: &serde_json::Value,
    ) -> Result<PlanSummary, DbError> {
        let params = [Param::Text(plan.to_string())];
        c.query::<PlanSummary>(PLAN_SUMMARY, &params).await?.one()
    }
}

pub use crate::db::now_ms;

/// Lets the page breathe between batches, at most every `BREATHE_MS`. Each statement's reply
/// from the worker is already a task of its own, so the page paints between two statements
/// anyway; this only guards against a run of replies that come back too fast to let it.
pub async fn breathe() {
    const BREATHE_MS: f64 = 40.0;
    thread_local!(static LAST: Cell<f64> = const { Cell::new(0.0) });
    let now = now_ms();
    if now - LAST.with(Cell::get) >= BREATHE_MS {
        gloo_timers::future::TimeoutFuture::new(0).await;
        LAST.with(|l| l.set(now_ms()));
    }
}

/// What EXPLAIN (ANALYZE, BUFFERS) said about one claim (plan_summary.sql).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct PlanSummary {
    pub pages: i64,
    pub shared_hit: i64,
    pub shared_read: i64,
    pub planning_pages: i64,
    pub execution_ms: f64,
    pub planning_ms: f64,
    pub seq_scan: bool,
    pub sort: bool,
    pub uses_jobs_ready: bool,
    pub scans: String,
}

#[derive(Deserialize)]
pub struct Explained {
    #[serde(rename = "QUERY PLAN")]
    pub plan: serde_json::Value,
}

/// EXPLAIN (ANALYZE, BUFFERS) of the article's claim on the current `jobs`, inside a
/// transaction that is rolled back, so a claim it makes does not stick.
pub async fn explain_article(db: &Db) -> Result<serde_json::Value, DbError> {
    db.rolled_back(async |tx| sql::explain_article(tx).await)
        .await
}

/// Pages and time of the article's one-job claim on whatever `jobs` means now (the
/// search path), its claim rolled back.
pub async fn claim_pages(db: &Db) -> Result<PlanSummary, DbError> {
    let plan = explain_article(db).await?;
    summarize(db, &plan).await
}

pub async fn summarize(db: &Db, plan: &serde_json::Value) -> Result<PlanSummary, DbError> {
    sql::plan_summary(db, plan).await
}
