//! What more than one lab uses: the page's clock, letting the page breathe during a long
//! run, and the article's queue statements with the claim's page count (L3 measures its
//! tables with it; L4's side by side runs the same claim on its jobs table).

use crate::db::{Db, DbError, Param};
use serde::{Deserialize, Serialize};
use std::cell::Cell;

/// The article's queue statements, exactly as the files hold them.
pub mod sql {
    pub const ENQUEUE: &str = include_str!("../sql/vacuum/enqueue.sql");
    pub const CLAIM_BATCH: &str = include_str!("../sql/vacuum/claim_batch.sql");
    pub const COMPLETE_DONE: &str = include_str!("../sql/vacuum/complete_done.sql");
    pub const COMPLETE_DELETE: &str = include_str!("../sql/vacuum/complete_delete.sql");
    pub const VACUUM: &str = include_str!("../sql/vacuum/vacuum.sql");
    pub const FLUSH_STATS: &str = include_str!("../sql/vacuum/flush_stats.sql");
    pub const RESET_SEARCH_PATH: &str = include_str!("../sql/vacuum/reset_search_path.sql");
    pub const EXPLAIN_ARTICLE: &str = include_str!("../sql/vacuum/explain_claim_article.sql");
    pub const PLAN_SUMMARY: &str = include_str!("../sql/vacuum/plan_summary.sql");
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

/// The first row, or an error saying there was none.
pub fn first<T>(rows: crate::db::Rows<T>) -> Result<T, DbError> {
    rows.first()
        .ok_or_else(|| DbError::other("the statement returned no row"))
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
    let tx = db.begin().await?;
    let result = tx.query::<Explained>(sql::EXPLAIN_ARTICLE, &[]).await;
    tx.rollback().await?;
    Ok(first(result?)?.plan)
}

/// Pages and time of the article's one-job claim on whatever `jobs` means now (the
/// search path), its claim rolled back.
pub async fn claim_pages(db: &Db) -> Result<PlanSummary, DbError> {
    let plan = explain_article(db).await?;
    summarize(db, &plan).await
}

pub async fn summarize(db: &Db, plan: &serde_json::Value) -> Result<PlanSummary, DbError> {
    first(
        db.query::<PlanSummary>(sql::PLAN_SUMMARY, &[Param::Text(plan.to_string())])
            .await?,
    )
}
