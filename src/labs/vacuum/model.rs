//! L3 Bloat and VACUUM, the model: strategies, workload rounds, measures, VACUUM, the long
//! transaction, the heap page map, autovacuum settings, the VACUUM FULL demonstration and
//! the claim plans. Every figure comes from SQL run in PGlite (`src/sql/vacuum/*.sql`,
//! shown verbatim in the SQL log); nothing here draws anything.
//!
//! One PGlite session is shared by every lab, so each action that points `jobs` at a
//! strategy's table (`use_strategy.sql`) puts the search path back when it ends
//! (`reset_search_path.sql`), whatever happened.

use crate::db::{Db, DbError, Param};
use queue_lab_core::i18n::Msg;
use serde::Deserialize;
use std::cell::Cell;
use std::future::Future;

/// The lab's SQL, exactly as the files hold it.
pub mod sql {
    pub const SETUP_CHECK: &str = include_str!("../../sql/vacuum/setup_check.sql");
    pub const SETUP_EXTENSIONS: &str = include_str!("../../sql/vacuum/setup_extensions.sql");
    pub const SETUP_TABLES: &str = include_str!("../../sql/vacuum/setup_tables.sql");
    pub const SETUP_HELPERS: &str = include_str!("../../sql/vacuum/setup_helpers.sql");
    pub const TEARDOWN: &str = include_str!("../../sql/vacuum/teardown.sql");
    pub const USE_STRATEGY: &str = include_str!("../../sql/vacuum/use_strategy.sql");
    pub const RESET_SEARCH_PATH: &str = include_str!("../../sql/vacuum/reset_search_path.sql");
    pub const ENQUEUE: &str = include_str!("../../sql/vacuum/enqueue.sql");
    pub const CLAIM_BATCH: &str = include_str!("../../sql/vacuum/claim_batch.sql");
    pub const COMPLETE_DONE: &str = include_str!("../../sql/vacuum/complete_done.sql");
    pub const COMPLETE_DELETE: &str = include_str!("../../sql/vacuum/complete_delete.sql");
    pub const ROTATE_TRUNCATE: &str = include_str!("../../sql/vacuum/rotate_truncate.sql");
    pub const FLUSH_STATS: &str = include_str!("../../sql/vacuum/flush_stats.sql");
    pub const VACUUM: &str = include_str!("../../sql/vacuum/vacuum.sql");
    pub const ANALYZE: &str = include_str!("../../sql/vacuum/analyze.sql");
    pub const MEASURE_TABLE: &str = include_str!("../../sql/vacuum/measure_table.sql");
    pub const MEASURE_INDEXES: &str = include_str!("../../sql/vacuum/measure_indexes.sql");
    pub const CLAIM_ARTICLE: &str = include_str!("../../sql/vacuum/claim_article.sql");
    pub const CLAIM_INDEXED: &str = include_str!("../../sql/vacuum/claim_indexed.sql");
    pub const EXPLAIN_ARTICLE: &str = include_str!("../../sql/vacuum/explain_claim_article.sql");
    pub const EXPLAIN_INDEXED: &str = include_str!("../../sql/vacuum/explain_claim_indexed.sql");
    pub const PLAN_SUMMARY: &str = include_str!("../../sql/vacuum/plan_summary.sql");
    pub const PLAN_NODES: &str = include_str!("../../sql/vacuum/plan_nodes.sql");
    pub const LONG_TX_BEGIN: &str = include_str!("../../sql/vacuum/long_tx_begin.sql");
    pub const LONG_TX_STATUS: &str = include_str!("../../sql/vacuum/long_tx_status.sql");
    pub const LONG_TX_RELEASE: &str = include_str!("../../sql/vacuum/long_tx_release.sql");
    pub const PAGE_MAP: &str = include_str!("../../sql/vacuum/page_map.sql");
    pub const AUTOVACUUM_SETTINGS: &str = include_str!("../../sql/vacuum/autovacuum_settings.sql");
    pub const SET_AUTOVACUUM: &str = include_str!("../../sql/vacuum/set_autovacuum.sql");
    pub const VACUUM_FULL_SETUP: &str = include_str!("../../sql/vacuum/vacuum_full_setup.sql");
    pub const VACUUM_FULL_LOCK: &str = include_str!("../../sql/vacuum/vacuum_full_lock.sql");
    pub const VACUUM_FULL: &str = include_str!("../../sql/vacuum/vacuum_full.sql");
    pub const RELATION_FILE: &str = include_str!("../../sql/vacuum/relation_file.sql");
}

/// The article's figures (§6): after round 1 the claim read 723 pages, 2 after VACUUM.
pub const ARTICLE_PAGES_BEFORE: i64 = 723;
pub const ARTICLE_PAGES_AFTER: i64 = 2;
pub const ARTICLE_MS_BEFORE: f64 = 1.9;
pub const ARTICLE_MS_AFTER: f64 = 0.09;

/// Bounds of what a learner may type. The defaults are the article's.
pub const JOBS_MIN: u32 = 100;
pub const JOBS_MAX: u32 = 50_000;
pub const JOBS_DEFAULT: u32 = 20_000;
pub const ROUNDS_MIN: u32 = 1;
pub const ROUNDS_MAX: u32 = 5;
pub const ROUNDS_DEFAULT: u32 = 3;
pub const BATCH_MIN: u32 = 1;
pub const BATCH_MAX: u32 = 5_000;
/// Measured: batches of 2,000 run a round faster than 500 (fewer full scans by the
/// article's claim), with the same row versions.
pub const BATCH_DEFAULT: u32 = 2_000;
/// The page map draws at most this many cells; a bigger table is drawn a few pages a cell.
pub const PAGE_MAP_MAX_CELLS: usize = 1_500;

/// How finished jobs leave the queue. Each strategy has its own copy of the article's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    Keep,
    Delete,
    DeleteVacuum,
    Rotate,
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::Keep,
        Strategy::Delete,
        Strategy::DeleteVacuum,
        Strategy::Rotate,
    ];

    pub fn schema(self) -> &'static str {
        match self {
            Strategy::Keep => "vac_keep",
            Strategy::Delete => "vac_delete",
            Strategy::DeleteVacuum => "vac_delete_vacuum",
            Strategy::Rotate => "vac_rotate",
        }
    }

    /// The table, schema-qualified, as the measuring statements take it.
    pub fn table(self) -> &'static str {
        match self {
            Strategy::Keep => "vac_keep.jobs",
            Strategy::Delete => "vac_delete.jobs",
            Strategy::DeleteVacuum => "vac_delete_vacuum.jobs",
            Strategy::Rotate => "vac_rotate.jobs",
        }
    }

    /// A short id for element ids and test selectors.
    pub fn id(self) -> &'static str {
        match self {
            Strategy::Keep => "keep",
            Strategy::Delete => "delete",
            Strategy::DeleteVacuum => "delete_vacuum",
            Strategy::Rotate => "rotate",
        }
    }

    pub fn parse(id: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.id() == id)
    }

    pub fn name_key(self) -> &'static str {
        match self {
            Strategy::Keep => "vacuum.strategy.keep",
            Strategy::Delete => "vacuum.strategy.delete",
            Strategy::DeleteVacuum => "vacuum.strategy.delete_vacuum",
            Strategy::Rotate => "vacuum.strategy.rotate",
        }
    }

    pub fn help_key(self) -> &'static str {
        match self {
            Strategy::Keep => "vacuum.strategy.keep.help",
            Strategy::Delete => "vacuum.strategy.delete.help",
            Strategy::DeleteVacuum => "vacuum.strategy.delete_vacuum.help",
            Strategy::Rotate => "vacuum.strategy.rotate.help",
        }
    }

    fn complete_sql(self) -> &'static str {
        match self {
            Strategy::Keep | Strategy::Rotate => sql::COMPLETE_DONE,
            Strategy::Delete | Strategy::DeleteVacuum => sql::COMPLETE_DELETE,
        }
    }
}

/// Size and tuple counts of one table (measure_table.sql).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct TableStats {
    pub heap_bytes: i64,
    pub heap_pages: i64,
    pub index_bytes: i64,
    pub total_bytes: i64,
    pub n_live_tup: i64,
    pub n_dead_tup: i64,
    pub n_tup_ins: i64,
    pub n_tup_upd: i64,
    pub n_tup_del: i64,
    pub n_tup_hot_upd: i64,
    pub vacuum_count: i64,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct IndexSize {
    pub index_name: String,
    pub bytes: i64,
    pub pages: i64,
}

/// What EXPLAIN (ANALYZE, BUFFERS) said about one claim (plan_summary.sql).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
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

/// One node of a plan (plan_nodes.sql).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct PlanNode {
    pub depth: i32,
    pub node_type: String,
    pub parent_relationship: Option<String>,
    pub relation: Option<String>,
    pub index_name: Option<String>,
    pub actual_rows: Option<f64>,
    pub loops: Option<f64>,
    pub total_ms: Option<f64>,
    pub shared_hit: Option<i64>,
    pub shared_read: Option<i64>,
    pub detail: Option<String>,
}

/// One 8 KB heap page (page_map.sql).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct PageCell {
    pub page: i32,
    pub live: i32,
    pub dead: i32,
    pub redirect: i32,
    pub unused: i32,
    pub free_bytes: i32,
    pub all_visible: bool,
    pub all_frozen: bool,
}

/// A table's autovacuum settings and thresholds (autovacuum_settings.sql).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct AutovacuumSettings {
    pub vacuum_threshold: i64,
    pub scale_factor: f64,
    pub max_threshold: i64,
    pub threshold_from_table: bool,
    pub scale_factor_from_table: bool,
    pub max_threshold_from_table: bool,
    pub reltuples: f64,
    pub dead_threshold: f64,
    pub n_dead_tup: i64,
    pub would_vacuum_dead: bool,
    pub insert_threshold: f64,
    pub n_ins_since_vacuum: i64,
    pub would_vacuum_insert: bool,
    pub autovacuum_on: bool,
    pub autovacuum_count: i64,
}

/// The long transaction while it is on (long_tx_status.sql).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LongTx {
    pub gid: String,
    pub xid: String,
    pub prepared_at: String,
    pub xid_age: i32,
}

/// A lock the VACUUM FULL demonstration holds (vacuum_full_lock.sql).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LockRow {
    pub relation: String,
    pub mode: String,
    pub granted: bool,
    pub conflicts_with_select: bool,
    pub conflicts_with_insert: bool,
}

/// A table's file (relation_file.sql).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct RelationFile {
    pub filenode: i64,
    pub heap_bytes: i64,
    pub heap_pages: i64,
    pub total_bytes: i64,
}

/// Everything measured about one strategy's table at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    pub stats: TableStats,
    pub indexes: Vec<IndexSize>,
    /// The article's claim, EXPLAIN (ANALYZE, BUFFERS), rolled back.
    pub claim: PlanSummary,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    AfterRound,
    AfterVacuum,
    AfterTruncate,
}

impl Step {
    pub fn key(self) -> &'static str {
        match self {
            Step::AfterRound => "vacuum.step.after_round",
            Step::AfterVacuum => "vacuum.step.after_vacuum",
            Step::AfterTruncate => "vacuum.step.after_truncate",
        }
    }
}

/// One line of the results table.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub strategy: Strategy,
    pub round: u32,
    pub step: Step,
    pub measure: Measure,
    /// Jobs the round ran (0 for a VACUUM or TRUNCATE step).
    pub jobs: u32,
    /// Time the round's jobs took (enqueue, claims, completions), for AfterRound.
    pub round_ms: Option<f64>,
    /// Part of the strategy itself (DELETE + VACUUM's VACUUM, rotation's TRUNCATE), not
    /// the learner's VACUUM button.
    pub auto: bool,
}

/// What the learner asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    pub jobs: u32,
    pub rounds: u32,
    pub batch: u32,
    pub strategies: Vec<Strategy>,
}

fn parse_bounded(text: &str, refused: Msg, min: u32, max: u32) -> Result<u32, Msg> {
    let trimmed = text.trim();
    let cleaned: String = trimmed.chars().filter(|c| *c != ',' && *c != '_').collect();
    match cleaned.parse::<i64>() {
        Ok(n) if (i64::from(min)..=i64::from(max)).contains(&n) => Ok(n as u32),
        _ => Err(refused
            .arg("min", group(i64::from(min)))
            .arg("max", group(i64::from(max)))
            .arg("text", trimmed)),
    }
}

/// Reads the jobs per round alone (the claim-plan viewer uses it too).
pub fn parse_jobs(jobs: &str) -> Result<u32, Msg> {
    parse_bounded(
        jobs,
        Msg::new("vacuum.input.jobs.refused"),
        JOBS_MIN,
        JOBS_MAX,
    )
}

/// Reads the three inputs; out-of-range or non-numbers are refused with the bounds.
pub fn parse_config(
    jobs: &str,
    rounds: &str,
    batch: &str,
    strategies: Vec<Strategy>,
) -> Result<RunConfig, Msg> {
    Ok(RunConfig {
        jobs: parse_bounded(
            jobs,
            Msg::new("vacuum.input.jobs.refused"),
            JOBS_MIN,
            JOBS_MAX,
        )?,
        rounds: parse_bounded(
            rounds,
            Msg::new("vacuum.input.rounds.refused"),
            ROUNDS_MIN,
            ROUNDS_MAX,
        )?,
        batch: parse_bounded(
            batch,
            Msg::new("vacuum.input.batch.refused"),
            BATCH_MIN,
            BATCH_MAX,
        )?,
        strategies,
    })
}

/// 20000 → "20,000".
pub fn group(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// 8192 → "8 KB", 6_553_600 → "6.3 MB".
pub fn bytes(n: i64) -> String {
    let n = n as f64;
    if n >= 1024.0 * 1024.0 {
        format!("{:.1} MB", n / 1024.0 / 1024.0)
    } else if n > 0.0 {
        format!("{:.0} KB", n / 1024.0)
    } else {
        "0".into()
    }
}

/// Sets the lab's tables up once per database. Returns whether the page map's extensions
/// are there (without them only the page map is lost).
pub async fn setup(db: &Db) -> Result<bool, DbError> {
    #[derive(Deserialize)]
    struct Check {
        tables: bool,
        extensions: bool,
    }
    let check = first(db.query::<Check>(sql::SETUP_CHECK, &[]).await?)?;
    let extensions = check.extensions || db.exec(sql::SETUP_EXTENSIONS).await.is_ok();
    if !check.tables {
        db.exec(sql::SETUP_TABLES).await?;
        db.exec(sql::SETUP_HELPERS).await?;
    }
    Ok(extensions)
}

/// Start over: drop the lab's tables and create them afresh.
pub async fn reset(db: &Db) -> Result<bool, DbError> {
    db.exec(sql::TEARDOWN).await?;
    setup(db).await
}

fn first<T>(rows: crate::db::Rows<T>) -> Result<T, DbError> {
    rows.first()
        .ok_or_else(|| DbError::other("the statement returned no row"))
}

/// Runs `body` with `jobs` meaning `schema`'s table, then restores the search path.
async fn with_schema<T>(
    db: &Db,
    schema: &str,
    body: impl Future<Output = Result<T, DbError>>,
) -> Result<T, DbError> {
    let set = db
        .query::<serde_json::Value>(sql::USE_STRATEGY, &[schema.into()])
        .await?;
    if set.rows.is_empty() {
        return Err(DbError::other(&format!("use_strategy refused {schema}")));
    }
    let out = body.await;
    let reset = db
        .query::<serde_json::Value>(sql::RESET_SEARCH_PATH, &[])
        .await;
    let out = out?;
    reset?;
    Ok(out)
}

/// Milliseconds from the page's monotonic clock.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

/// Lets the page breathe between batches, at most every `BREATHE_MS`. Each statement's reply
/// from the worker is already a task of its own, so the page paints between two statements
/// anyway; this only guards against a run of replies that come back too fast to let it.
pub(crate) async fn breathe() {
    const BREATHE_MS: f64 = 40.0;
    thread_local!(static LAST: Cell<f64> = const { Cell::new(0.0) });
    let now = now_ms();
    if now - LAST.with(Cell::get) >= BREATHE_MS {
        gloo_timers::future::TimeoutFuture::new(0).await;
        LAST.with(|l| l.set(now_ms()));
    }
}

/// How one round ended.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundOutcome {
    pub claimed: u64,
    pub batches: u32,
    pub ms: f64,
    pub cancelled: bool,
}

/// One round on one strategy's table: enqueue `jobs`, then claim in batches of `batch`
/// and complete each batch the strategy's way, until no job is left. `cancel` is checked
/// between batches; `progress` gets the jobs done so far.
pub async fn run_round(
    db: &Db,
    strategy: Strategy,
    jobs: u32,
    batch: u32,
    cancel: &Cell<bool>,
    progress: &dyn Fn(u64),
) -> Result<RoundOutcome, DbError> {
    #[derive(Deserialize)]
    struct Claimed {
        id: i64,
    }
    let started = now_ms();
    with_schema(db, strategy.schema(), async {
        db.query::<serde_json::Value>(sql::ENQUEUE, &[jobs.into()])
            .await?;
        let mut claimed = 0u64;
        let mut batches = 0u32;
        let mut cancelled = false;
        loop {
            if cancel.get() {
                cancelled = true;
                break;
            }
            let rows = db
                .query::<Claimed>(sql::CLAIM_BATCH, &[batch.into()])
                .await?;
            if rows.rows.is_empty() {
                break;
            }
            let ids: Vec<i64> = rows.rows.iter().map(|c| c.id).collect();
            db.query::<serde_json::Value>(strategy.complete_sql(), &[Param::ids(&ids)])
                .await?;
            claimed += ids.len() as u64;
            batches += 1;
            progress(claimed);
            breathe().await;
        }
        Ok(RoundOutcome {
            claimed,
            batches,
            ms: now_ms() - started,
            cancelled,
        })
    })
    .await
}

#[derive(Deserialize)]
struct Explained {
    #[serde(rename = "QUERY PLAN")]
    plan: serde_json::Value,
}

/// EXPLAIN (ANALYZE, BUFFERS) of the article's claim on the current `jobs`, inside a
/// transaction that is rolled back, so a claim it makes does not stick.
async fn explain_article(db: &Db) -> Result<serde_json::Value, DbError> {
    let tx = db.begin().await?;
    let result = tx.query::<Explained>(sql::EXPLAIN_ARTICLE, &[]).await;
    tx.rollback().await?;
    Ok(first(result?)?.plan)
}

/// Pages and time of the article's one-job claim on whatever `jobs` means now (the
/// search path), its claim rolled back. L4's side by side reads the same figure.
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

pub async fn plan_nodes(db: &Db, plan: &serde_json::Value) -> Result<Vec<PlanNode>, DbError> {
    Ok(db
        .query::<PlanNode>(sql::PLAN_NODES, &[Param::Text(plan.to_string())])
        .await?
        .rows)
}

/// Statistics flushed, then the table's size and counts (no plan).
pub async fn table_stats(db: &Db, strategy: Strategy) -> Result<TableStats, DbError> {
    db.query::<serde_json::Value>(sql::FLUSH_STATS, &[]).await?;
    first(
        db.query::<TableStats>(sql::MEASURE_TABLE, &[strategy.table().into()])
            .await?,
    )
}

/// The claim's pages and time first (it may prune pages as it reads them), then the
/// statistics, flushed, so every figure describes the same state.
pub async fn measure(db: &Db, strategy: Strategy) -> Result<Measure, DbError> {
    let plan = with_schema(db, strategy.schema(), explain_article(db)).await?;
    let claim = summarize(db, &plan).await?;
    let stats = table_stats(db, strategy).await?;
    let indexes = db
        .query::<IndexSize>(sql::MEASURE_INDEXES, &[strategy.table().into()])
        .await?
        .rows;
    Ok(Measure {
        stats,
        indexes,
        claim,
    })
}

/// Plain VACUUM of one strategy's table, statistics flushed before it (see vacuum.sql).
pub async fn vacuum(db: &Db, strategy: Strategy) -> Result<(), DbError> {
    with_schema(db, strategy.schema(), async {
        db.query::<serde_json::Value>(sql::FLUSH_STATS, &[]).await?;
        db.query::<serde_json::Value>(sql::VACUUM, &[]).await?;
        Ok(())
    })
    .await
}

/// Rotation: TRUNCATE the finished round's table.
pub async fn truncate(db: &Db, strategy: Strategy) -> Result<(), DbError> {
    with_schema(db, strategy.schema(), async {
        db.query::<serde_json::Value>(sql::ROTATE_TRUNCATE, &[])
            .await?;
        Ok(())
    })
    .await
}

/// What the VACUUM button did to one table.
#[derive(Clone, Debug, PartialEq)]
pub struct Vacuumed {
    pub strategy: Strategy,
    pub dead_before: i64,
    pub after: Measure,
}

impl Vacuumed {
    pub fn removed(&self) -> i64 {
        (self.dead_before - self.after.stats.n_dead_tup).max(0)
    }
}

/// The VACUUM button on one table: dead tuples counted, VACUUM, everything measured again.
pub async fn vacuum_and_measure(db: &Db, strategy: Strategy) -> Result<Vacuumed, DbError> {
    let dead_before = table_stats(db, strategy).await?.n_dead_tup;
    vacuum(db, strategy).await?;
    let after = measure(db, strategy).await?;
    Ok(Vacuumed {
        strategy,
        dead_before,
        after,
    })
}

/// Where a running workload is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub strategy: Strategy,
    pub round: u32,
    pub done: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    Finished,
    Cancelled,
}

/// The whole workload: for each round, each strategy runs a round and is measured; DELETE +
/// VACUUM then runs VACUUM and rotation TRUNCATE, each measured again. Rounds are numbered
/// from `first_round` (a second run continues the tables). Records arrive through `record`
/// as they are measured.
pub async fn run(
    db: &Db,
    cfg: &RunConfig,
    first_round: u32,
    cancel: &Cell<bool>,
    progress: &dyn Fn(Progress),
    record: &dyn Fn(Record),
) -> Result<RunEnd, DbError> {
    for round in first_round..first_round + cfg.rounds {
        for &strategy in &cfg.strategies {
            if cancel.get() {
                return Ok(RunEnd::Cancelled);
            }
            progress(Progress {
                strategy,
                round,
                done: 0,
            });
            // The SQL log takes this table's round in one go, not a render per statement.
            let _log = db.log().hold();
            let on_done = |done| {
                progress(Progress {
                    strategy,
                    round,
                    done,
                })
            };
            let out = run_round(db, strategy, cfg.jobs, cfg.batch, cancel, &on_done).await?;
            if out.cancelled {
                return Ok(RunEnd::Cancelled);
            }
            record(Record {
                strategy,
                round,
                step: Step::AfterRound,
                measure: measure(db, strategy).await?,
                jobs: cfg.jobs,
                round_ms: Some(out.ms),
                auto: true,
            });
            let cleanup = match strategy {
                Strategy::DeleteVacuum => {
                    vacuum(db, strategy).await?;
                    Some(Step::AfterVacuum)
                }
                Strategy::Rotate => {
                    truncate(db, strategy).await?;
                    Some(Step::AfterTruncate)
                }
                Strategy::Keep | Strategy::Delete => None,
            };
            if let Some(step) = cleanup {
                record(Record {
                    strategy,
                    round,
                    step,
                    measure: measure(db, strategy).await?,
                    jobs: 0,
                    round_ms: None,
                    auto: true,
                });
            }
        }
    }
    Ok(RunEnd::Finished)
}

/// Our figures beside the article's: the first round's claim before and after a VACUUM,
/// from DELETE + VACUUM (which does exactly that) or else DELETE and the VACUUM button.
pub fn article_pair(records: &[Record]) -> Option<(PlanSummary, PlanSummary)> {
    for strategy in [Strategy::DeleteVacuum, Strategy::Delete] {
        let mut mine = records.iter().filter(|r| r.strategy == strategy);
        let Some(before) = mine.find(|r| r.step == Step::AfterRound && r.round == 1) else {
            continue;
        };
        if let Some(after) = mine
            .next()
            .filter(|r| r.step == Step::AfterVacuum && r.round == 1)
        {
            return Some((before.measure.claim.clone(), after.measure.claim.clone()));
        }
    }
    None
}

/// What a chart plots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    HeapPages,
    DeadTuples,
    ClaimPages,
}

impl Metric {
    pub fn of(self, m: &Measure) -> i64 {
        match self {
            Metric::HeapPages => m.stats.heap_pages,
            Metric::DeadTuples => m.stats.n_dead_tup,
            Metric::ClaimPages => m.claim.pages,
        }
    }
}

/// A strategy's value at the end of each round, after its own clean-up (VACUUM for DELETE
/// + VACUUM, TRUNCATE for rotation): (round, value).
pub fn series(records: &[Record], strategy: Strategy, metric: Metric) -> Vec<(u32, i64)> {
    let mut out: Vec<(u32, i64)> = Vec::new();
    for r in records.iter().filter(|r| r.strategy == strategy && r.auto) {
        let v = metric.of(&r.measure);
        match out.last_mut() {
            Some(last) if last.0 == r.round => last.1 = v,
            _ => out.push((r.round, v)),
        }
    }
    out
}

/// When a server's autovacuum would first have started on this strategy's table during the
/// recorded rounds, with dead-tuple threshold `threshold`: (round, about which job).
/// Dead tuples are taken to grow evenly through a round (two per job).
pub fn would_start(records: &[Record], strategy: Strategy, threshold: f64) -> Option<(u32, u32)> {
    let mut dead_before = 0i64;
    for r in records.iter().filter(|r| r.strategy == strategy) {
        let dead = r.measure.stats.n_dead_tup;
        if r.step == Step::AfterRound && r.jobs > 0 && dead as f64 > threshold {
            let per_job = (dead - dead_before).max(1) as f64 / f64::from(r.jobs);
            let job = ((threshold - dead_before as f64) / per_job).floor() + 1.0;
            return Some((r.round, job.clamp(1.0, f64::from(r.jobs)) as u32));
        }
        dead_before = dead;
    }
    None
}

/// Long transaction on: a prepared transaction that pins the xmin horizon. If one is on
/// already, it is left as it is.
pub async fn long_tx_begin(db: &Db) -> Result<LongTx, DbError> {
    if let Some(on) = long_tx_status(db).await? {
        return Ok(on);
    }
    db.exec(sql::LONG_TX_BEGIN).await?;
    long_tx_status(db).await?.ok_or_else(|| {
        DbError::other("the prepared transaction did not appear in pg_prepared_xacts")
    })
}

pub async fn long_tx_status(db: &Db) -> Result<Option<LongTx>, DbError> {
    Ok(db.query::<LongTx>(sql::LONG_TX_STATUS, &[]).await?.first())
}

/// Long transaction off (if it is on).
pub async fn long_tx_release(db: &Db) -> Result<(), DbError> {
    if long_tx_status(db).await?.is_some() {
        db.query::<serde_json::Value>(sql::LONG_TX_RELEASE, &[])
            .await?;
    }
    Ok(())
}

pub async fn page_map(db: &Db, strategy: Strategy) -> Result<Vec<PageCell>, DbError> {
    Ok(db
        .query::<PageCell>(sql::PAGE_MAP, &[strategy.table().into()])
        .await?
        .rows)
}

/// One drawn cell: one page, or `pages` consecutive pages summed when the table is large.
#[derive(Clone, Debug, PartialEq)]
pub struct MapCell {
    pub first_page: i32,
    pub pages: u32,
    pub live: i64,
    pub dead: i64,
    pub unused: i64,
    pub redirect: i64,
    pub free_bytes: i64,
    /// Pages of this cell the visibility map marks all-visible.
    pub all_visible: u32,
}

/// Groups pages so that at most `max_cells` cells are drawn.
pub fn aggregate(pages: &[PageCell], max_cells: usize) -> (Vec<MapCell>, usize) {
    let per = pages.len().div_ceil(max_cells.max(1)).max(1);
    let cells = pages
        .chunks(per)
        .map(|chunk| MapCell {
            first_page: chunk[0].page,
            pages: chunk.len() as u32,
            live: chunk.iter().map(|p| i64::from(p.live)).sum(),
            dead: chunk.iter().map(|p| i64::from(p.dead)).sum(),
            unused: chunk.iter().map(|p| i64::from(p.unused)).sum(),
            redirect: chunk.iter().map(|p| i64::from(p.redirect)).sum(),
            free_bytes: chunk.iter().map(|p| i64::from(p.free_bytes)).sum(),
            all_visible: chunk.iter().filter(|p| p.all_visible).count() as u32,
        })
        .collect();
    (cells, per)
}

pub async fn autovacuum_settings(
    db: &Db,
    strategy: Strategy,
) -> Result<AutovacuumSettings, DbError> {
    db.query::<serde_json::Value>(sql::FLUSH_STATS, &[]).await?;
    first(
        db.query::<AutovacuumSettings>(sql::AUTOVACUUM_SETTINGS, &[strategy.table().into()])
            .await?,
    )
}

/// Per-table settings typed by the learner; an empty field means "the server's value".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutovacuumInput {
    pub threshold: Option<i32>,
    pub scale_factor: Option<f64>,
    pub max_threshold: Option<i32>,
}

pub fn parse_autovacuum(threshold: &str, scale: &str, max: &str) -> Result<AutovacuumInput, Msg> {
    fn int(text: &str, what: &'static str, min: i64, max: i64) -> Result<Option<i32>, Msg> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(None);
        }
        let cleaned: String = t.chars().filter(|c| *c != ',' && *c != '_').collect();
        match cleaned.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n as i32)),
            _ => Err(Msg::new("vacuum.input.out_of_range")
                .arg("what", what)
                .arg("min", group(min))
                .arg("max", group(max))
                .arg("text", t)),
        }
    }
    let scale = scale.trim();
    let scale_factor = if scale.is_empty() {
        None
    } else {
        match scale.parse::<f64>() {
            Ok(f) if (0.0..=100.0).contains(&f) => Some(f),
            _ => {
                return Err(Msg::new("vacuum.input.out_of_range")
                    .arg("what", "autovacuum_vacuum_scale_factor")
                    .arg("min", 0)
                    .arg("max", 100)
                    .arg("text", scale))
            }
        }
    };
    Ok(AutovacuumInput {
        threshold: int(threshold, "autovacuum_vacuum_threshold", 0, 2_147_483_647)?,
        scale_factor,
        max_threshold: int(max, "autovacuum_vacuum_max_threshold", -1, 2_147_483_647)?,
    })
}

/// Applies per-table settings; returns the ALTER TABLE statement that ran.
pub async fn set_autovacuum(
    db: &Db,
    strategy: Strategy,
    input: AutovacuumInput,
) -> Result<String, DbError> {
    #[derive(Deserialize)]
    struct Stmt {
        statement: String,
    }
    let rows = db
        .query::<Stmt>(
            sql::SET_AUTOVACUUM,
            &[
                strategy.table().into(),
                input.threshold.into(),
                input.scale_factor.into(),
                input.max_threshold.into(),
            ],
        )
        .await?;
    Ok(first(rows)?.statement)
}

/// The statements of a script, comments dropped, split at `;`.
pub fn statements(script: &str) -> Vec<String> {
    let text: String = script
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n");
    text.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The VACUUM FULL lock, shown on the scratch table: a fresh scratch table, then
/// vacuum_full_lock.sql run statement by statement in one transaction that is rolled back.
pub async fn vacuum_full_lock(db: &Db) -> Result<Vec<LockRow>, DbError> {
    db.exec(sql::VACUUM_FULL_SETUP).await?;
    let parts = statements(sql::VACUUM_FULL_LOCK);
    // begin; lock table …; select … from pg_locks …; rollback;
    let (Some(lock), Some(list)) = (parts.get(1), parts.get(2)) else {
        return Err(DbError::other(
            "vacuum_full_lock.sql: expected begin; lock; select; rollback",
        ));
    };
    let tx = db.begin().await?;
    let rows = async {
        tx.exec(lock).await?;
        tx.query::<LockRow>(list, &[]).await
    }
    .await;
    tx.rollback().await?;
    Ok(rows?.rows)
}

/// VACUUM FULL of the scratch table: its file before and after.
pub async fn vacuum_full(db: &Db) -> Result<(RelationFile, RelationFile), DbError> {
    let scratch = "vac_scratch.jobs";
    let before = first(
        db.query::<RelationFile>(sql::RELATION_FILE, &[scratch.into()])
            .await?,
    )?;
    db.query::<serde_json::Value>(sql::VACUUM_FULL, &[]).await?;
    let after = first(
        db.query::<RelationFile>(sql::RELATION_FILE, &[scratch.into()])
            .await?,
    )?;
    Ok((before, after))
}

/// One side of the claim-plan viewer.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanSide {
    pub summary: PlanSummary,
    pub nodes: Vec<PlanNode>,
    /// Claims a second, one claim per statement, from the execution time EXPLAIN reports:
    /// the time inside PostgreSQL, without the trip to and from the worker (which on a
    /// busy machine costs more than the index-friendly claim itself).
    pub jobs_per_s: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlanComparison {
    pub jobs: u32,
    pub article: PlanSide,
    pub indexed: PlanSide,
}

fn rate(p: &PlanSummary) -> f64 {
    1000.0 / p.execution_ms.max(0.001)
}

/// The claim-plan viewer on vac_plan.jobs: emptied, `jobs` ready jobs enqueued, ANALYZE,
/// both claims explained (each claims one job).
pub async fn compare_plans(db: &Db, jobs: u32) -> Result<PlanComparison, DbError> {
    with_schema(db, "vac_plan", async {
        db.query::<serde_json::Value>(sql::ROTATE_TRUNCATE, &[])
            .await?;
        db.query::<serde_json::Value>(sql::ENQUEUE, &[jobs.into()])
            .await?;
        db.query::<serde_json::Value>(sql::ANALYZE, &[]).await?;
        let a = first(db.query::<Explained>(sql::EXPLAIN_ARTICLE, &[]).await?)?.plan;
        let i = first(
            db.query::<Explained>(sql::EXPLAIN_INDEXED, &["default".into()])
                .await?,
        )?
        .plan;
        let article = summarize(db, &a).await?;
        let indexed = summarize(db, &i).await?;
        Ok(PlanComparison {
            jobs,
            article: PlanSide {
                jobs_per_s: rate(&article),
                summary: article,
                nodes: plan_nodes(db, &a).await?,
            },
            indexed: PlanSide {
                jobs_per_s: rate(&indexed),
                summary: indexed,
                nodes: plan_nodes(db, &i).await?,
            },
        })
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(strategy: Strategy, round: u32, step: Step, dead: i64, jobs: u32, auto: bool) -> Record {
        Record {
            strategy,
            round,
            step,
            measure: Measure {
                stats: TableStats {
                    n_dead_tup: dead,
                    ..TableStats::default()
                },
                indexes: vec![],
                claim: PlanSummary::default(),
            },
            jobs,
            round_ms: None,
            auto,
        }
    }

    #[test]
    fn inputs_out_of_range_are_refused_with_their_bounds() {
        let ok = parse_config("20,000", "3", "500", vec![Strategy::Keep]).unwrap();
        assert_eq!((ok.jobs, ok.rounds, ok.batch), (20_000, 3, 500));
        let e = parse_config("50001", "3", "500", vec![]).unwrap_err();
        assert_eq!(e.key, "vacuum.input.jobs.refused");
        assert!(e.args.contains(&("max", "50,000".into())));
        assert!(parse_config("99", "3", "500", vec![]).is_err());
        assert!(parse_config("ten", "3", "500", vec![]).is_err());
        assert!(parse_config("1000", "0", "500", vec![]).is_err());
        assert!(parse_config("1000", "6", "500", vec![]).is_err());
        assert!(parse_config("1000", "3", "0", vec![]).is_err());
        assert!(parse_config("1000", "3", "5001", vec![]).is_err());
    }

    #[test]
    fn autovacuum_inputs_empty_means_server_value_and_bounds_are_checked() {
        let all_empty = parse_autovacuum("", " ", "").unwrap();
        assert_eq!(
            all_empty,
            AutovacuumInput {
                threshold: None,
                scale_factor: None,
                max_threshold: None
            }
        );
        let set = parse_autovacuum("100", "0.01", "-1").unwrap();
        assert_eq!(
            set,
            AutovacuumInput {
                threshold: Some(100),
                scale_factor: Some(0.01),
                max_threshold: Some(-1)
            }
        );
        assert!(parse_autovacuum("-1", "", "").is_err());
        assert!(parse_autovacuum("", "101", "").is_err());
        assert!(parse_autovacuum("", "NaN", "").is_err());
        assert!(parse_autovacuum("", "", "-2").is_err());
        assert!(parse_autovacuum("99999999999", "", "").is_err());
    }

    #[test]
    fn numbers_are_grouped_and_sized() {
        assert_eq!(group(20_000), "20,000");
        assert_eq!(group(723), "723");
        assert_eq!(group(-1_234_567), "-1,234,567");
        assert_eq!(bytes(8192), "8 KB");
        assert_eq!(bytes(0), "0");
        assert_eq!(Param::ids(&[1, 2, 3]), Param::Text("{1,2,3}".into()));
        assert_eq!(Param::ids(&[]), Param::Text("{}".into()));
    }

    #[test]
    fn autovacuum_would_start_in_the_round_that_crosses_the_threshold() {
        let r = vec![
            rec(Strategy::Delete, 1, Step::AfterRound, 4000, 2000, true),
            rec(Strategy::Delete, 2, Step::AfterRound, 8000, 2000, true),
        ];
        // 50 dead: the 26th job of round 1 (2 dead per job).
        assert_eq!(would_start(&r, Strategy::Delete, 50.0), Some((1, 26)));
        // 5,000: 1,000 into round 2.
        assert_eq!(would_start(&r, Strategy::Delete, 5000.0), Some((2, 501)));
        assert_eq!(would_start(&r, Strategy::Delete, 9000.0), None);
        assert_eq!(would_start(&r, Strategy::Keep, 50.0), None);
    }

    #[test]
    fn series_takes_each_rounds_state_after_the_strategys_own_clean_up() {
        let r = vec![
            rec(Strategy::Rotate, 1, Step::AfterRound, 4000, 2000, true),
            rec(Strategy::Rotate, 1, Step::AfterTruncate, 0, 0, true),
            rec(Strategy::Rotate, 2, Step::AfterRound, 4000, 2000, true),
            rec(Strategy::Rotate, 2, Step::AfterTruncate, 0, 0, true),
            rec(Strategy::Rotate, 2, Step::AfterVacuum, 7, 0, false),
        ];
        assert_eq!(
            series(&r, Strategy::Rotate, Metric::DeadTuples),
            vec![(1, 0), (2, 0)]
        );
    }

    #[test]
    fn page_map_aggregates_large_tables_into_at_most_max_cells() {
        let pages: Vec<PageCell> = (0..2401)
            .map(|page| PageCell {
                page,
                live: 1,
                dead: 2,
                redirect: 0,
                unused: 0,
                free_bytes: 10,
                all_visible: page % 2 == 0,
                all_frozen: false,
            })
            .collect();
        let (cells, per) = aggregate(&pages, 1500);
        assert_eq!(per, 2);
        assert!(cells.len() <= 1500);
        assert_eq!(cells.iter().map(|c| c.pages).sum::<u32>(), 2401);
        assert_eq!(cells.iter().map(|c| c.dead).sum::<i64>(), 4802);
        let (small, per) = aggregate(&pages[..10], 1500);
        assert_eq!((small.len(), per), (10, 1));
    }

    #[test]
    fn the_vacuum_full_lock_script_splits_into_its_four_statements() {
        let parts = statements(sql::VACUUM_FULL_LOCK);
        assert_eq!(parts.len(), 4, "{parts:?}");
        assert_eq!(parts[0], "begin");
        assert!(parts[1].starts_with("lock table vac_scratch.jobs in access exclusive mode"));
        assert!(parts[2].starts_with("select"));
        assert_eq!(parts[3], "rollback");
    }

    #[test]
    fn article_pair_reads_round_one_before_and_after_vacuum() {
        let mut r = vec![
            rec(
                Strategy::DeleteVacuum,
                1,
                Step::AfterRound,
                4000,
                2000,
                true,
            ),
            rec(Strategy::DeleteVacuum, 1, Step::AfterVacuum, 0, 0, true),
        ];
        r[0].measure.claim.pages = 543;
        r[1].measure.claim.pages = 2;
        let (before, after) = article_pair(&r).unwrap();
        assert_eq!((before.pages, after.pages), (543, 2));
        assert!(article_pair(&r[..1]).is_none());
    }
}
