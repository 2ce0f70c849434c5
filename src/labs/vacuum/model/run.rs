//! L3's work on the database: setting the tables up, the workload's rounds, measuring,
//! VACUUM, TRUNCATE, partitions opened and dropped, the long transaction, the page map, autovacuum settings, the VACUUM
//! FULL demonstration and the claim plans. Every figure comes from SQL run in PGlite
//! (`src/sql/vacuum/*.sql`, shown verbatim in the SQL log); nothing here draws anything.
//!
//! One PGlite session is shared by every lab, so each action that points `jobs` at a
//! strategy's table (`use_strategy.sql`) puts the search path back when it ends
//! (`reset_search_path.sql`), whatever happened.

use super::{sql, AutovacuumInput, RunConfig, Strategy};
use crate::db::{Db, DbError};
use crate::labs::common::{breathe, explain_article, now_ms, summarize};
use crate::labs::vacuum::rows::*;
use std::cell::Cell;
use std::future::Future;

/// Sets the lab's tables up once per database. Returns whether the page map's extensions
/// are there (without them only the page map is lost).
pub async fn setup(db: &Db) -> Result<bool, DbError> {
    let check = sql::setup_check(db).await?;
    let extensions = check.extensions || sql::setup_extensions(db).await.is_ok();
    if !check.tables {
        sql::setup_tables(db).await?;
    }
    Ok(extensions)
}

/// Start over: drop the lab's tables and create them afresh.
pub async fn reset(db: &Db) -> Result<bool, DbError> {
    sql::teardown(db).await?;
    setup(db).await
}

/// Runs `body` with `jobs` meaning `schema`'s table, then restores the search path.
async fn with_schema<T>(
    db: &Db,
    schema: &str,
    body: impl Future<Output = Result<T, DbError>>,
) -> Result<T, DbError> {
    if !sql::use_strategy(db, schema).await? {
        return Err(DbError::other(&format!("use_strategy refused {schema}")));
    }
    let out = body.await;
    let reset = sql::reset_search_path(db).await;
    let out = out?;
    reset?;
    Ok(out)
}

/// How one round ended.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundOutcome {
    pub claimed: u64,
    pub batches: u32,
    pub ms: f64,
    pub cancelled: bool,
}

/// What a running workload tells, and asks, along the way.
pub struct Hooks<'a> {
    /// Checked between batches: set, the run stops there.
    pub cancel: &'a Cell<bool>,
    /// Where the run is, after each batch.
    pub progress: &'a dyn Fn(Progress),
    /// Each line of the results table, as it is measured.
    pub record: &'a dyn Fn(Record),
    /// The table whose page map is read during its own rounds, between two batches, when
    /// [`MapWatch`] says a read is due, and where each read goes.
    pub map: Option<MapWatch<'a>>,
}

/// The page map read during a round (see [`Hooks::map`]). A read costs about 0.15 ms a
/// page in PGlite (150 ms at 20,000 jobs, up to a second on a table grown by three rounds),
/// so the lab reads only while a learner can see the map, and within a share of the run's
/// time.
pub struct MapWatch<'a> {
    pub strategy: Strategy,
    /// At least this long from the round's start, and between two reads.
    pub every_ms: f64,
    /// The share of the run's time (counted from `started`) that the reads may take: a read
    /// starts only when the reads so far plus the last one's cost fit in it. `None`: no limit.
    pub budget: Option<f64>,
    /// When the run started (`now_ms`), for `budget`.
    pub started: f64,
    /// Whether anyone would see a read now (the map on screen and the tab visible).
    pub watched: &'a dyn Fn() -> bool,
    pub read: &'a dyn Fn(Vec<PageCell>),
    /// The time the reads took so far, and the last read's.
    pub spent: Cell<(f64, f64)>,
}

impl MapWatch<'_> {
    /// Whether a read may start at `now`, `since` being the round's last read (or start).
    fn due(&self, now: f64, since: f64) -> bool {
        let (spent, last) = self.spent.get();
        now - since >= self.every_ms
            && self
                .budget
                .is_none_or(|share| spent + last <= share * (now - self.started))
            && (self.watched)()
    }
}

/// How often the lab reads the selected table's page map during a round, at most.
pub const MAP_EVERY_MS: f64 = 500.0;
/// The share of a run's time the page map's reads during its rounds may take, at most.
pub const MAP_BUDGET: f64 = 0.05;

thread_local! {
    static MAP_ON_SCREEN: Cell<bool> = const { Cell::new(true) };
}

/// The view says whether the page map is on screen (true until a view says otherwise).
pub fn set_map_on_screen(on: bool) {
    MAP_ON_SCREEN.set(on);
}

/// Whether a learner can see the page map now: on screen, in a tab that is not hidden.
pub fn map_watched() -> bool {
    let hidden = web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden());
    MAP_ON_SCREEN.get() && !hidden
}

/// One round (number `round`) on one strategy's table: enqueue `jobs`, then claim in
/// batches of `batch` and complete each batch the strategy's way, until no job is left. On
/// the partitioned table the round's partition is created first (unless it is there: it is
/// made a round ahead) and the jobs are enqueued with their round. `cancel` is checked
/// between batches; `progress` gets the jobs done so far; `map`, when it watches this
/// table, gets its page map between batches when [`MapWatch`] says a read is due.
#[allow(clippy::too_many_arguments)]
pub async fn run_round(
    db: &Db,
    strategy: Strategy,
    round: u32,
    jobs: u32,
    batch: u32,
    cancel: &Cell<bool>,
    progress: &dyn Fn(u64),
    map: Option<&MapWatch<'_>>,
) -> Result<RoundOutcome, DbError> {
    let map = map.filter(|m| m.strategy == strategy);
    let started = now_ms();
    let mut last_map = started;
    with_schema(db, strategy.schema(), async {
        if strategy.partitioned() {
            partition_open(db, round).await?;
            sql::enqueue_partition(db, sql::EnqueuePartition { jobs, round }).await?;
        } else {
            sql::enqueue(db, jobs).await?;
        }
        let mut claimed = 0u64;
        let mut batches = 0u32;
        let mut cancelled = false;
        loop {
            if cancel.get() {
                cancelled = true;
                break;
            }
            let ids = sql::claim_batch(db, batch).await?;
            if ids.is_empty() {
                break;
            }
            sql::complete(
                db,
                sql::Complete {
                    strategy,
                    ids: &ids,
                },
            )
            .await?;
            claimed += ids.len() as u64;
            batches += 1;
            progress(claimed);
            if let Some(m) = map.filter(|m| m.due(now_ms(), last_map)) {
                let t = now_ms();
                (m.read)(page_map(db, strategy).await?);
                last_map = now_ms();
                let took = last_map - t;
                m.spent.set((m.spent.get().0 + took, took));
            }
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

pub async fn plan_nodes(db: &Db, plan: &serde_json::Value) -> Result<Vec<PlanNode>, DbError> {
    sql::plan_nodes(db, plan).await
}

/// Statistics flushed, then the table's size and counts (no plan).
pub async fn table_stats(db: &Db, strategy: Strategy) -> Result<TableStats, DbError> {
    sql::flush_stats(db).await?;
    sql::measure_table(db, strategy.table()).await
}

/// The claim's pages and time first (it may prune pages as it reads them), then the
/// statistics, flushed, so every figure describes the same state.
pub async fn measure(db: &Db, strategy: Strategy) -> Result<Measure, DbError> {
    let plan = with_schema(db, strategy.schema(), explain_article(db)).await?;
    let claim = summarize(db, &plan).await?;
    let stats = table_stats(db, strategy).await?;
    let indexes = sql::measure_indexes(db, strategy.table()).await?;
    Ok(Measure {
        stats,
        indexes,
        claim,
    })
}

/// Plain VACUUM of one strategy's table, statistics flushed before it (see vacuum.sql).
pub async fn vacuum(db: &Db, strategy: Strategy) -> Result<(), DbError> {
    with_schema(db, strategy.schema(), async {
        sql::flush_stats(db).await?;
        sql::vacuum(db).await
    })
    .await
}

/// Rotation: TRUNCATE the finished round's table.
pub async fn truncate(db: &Db, strategy: Strategy) -> Result<(), DbError> {
    with_schema(db, strategy.schema(), sql::rotate_truncate(db)).await
}

/// The partition of round `round` on vac_partition.jobs, created unless it is there
/// (partition_open.sql). Returns the CREATE TABLE it ran, if it ran one.
pub async fn partition_open(db: &Db, round: u32) -> Result<Option<String>, DbError> {
    sql::partition_open(db, round).await
}

/// Rotation by partitions after round `round`: the next round's partition created first
/// (so new jobs always have one to go to), then the finished one DETACHed and DROPped
/// (partition_drop.sql). Returns the DETACH and DROP it ran, if the partition was there.
pub async fn partition_rotate(db: &Db, round: u32) -> Result<Option<String>, DbError> {
    partition_open(db, round + 1).await?;
    sql::partition_drop(db, round).await
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

/// The whole workload: for each round, each strategy runs a round and is measured; DELETE +
/// VACUUM then runs VACUUM, rotation TRUNCATE, and partitions DETACH + DROP of the round's
/// partition, each measured again. Rounds are numbered
/// from `first_round` (a second run continues the tables). Records arrive through
/// `hooks.record` as they are measured.
pub async fn run(
    db: &Db,
    cfg: &RunConfig,
    first_round: u32,
    hooks: &Hooks<'_>,
) -> Result<RunEnd, DbError> {
    let Hooks {
        cancel,
        progress,
        record,
        ..
    } = *hooks;
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
            let out = run_round(
                db,
                strategy,
                round,
                cfg.jobs,
                cfg.batch,
                cancel,
                &on_done,
                hooks.map.as_ref(),
            )
            .await?;
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
                Strategy::Partition => {
                    partition_rotate(db, round).await?;
                    Some(Step::AfterDrop)
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

/// Long transaction on: a prepared transaction that pins the xmin horizon. If one is on
/// already, it is left as it is.
pub async fn long_tx_begin(db: &Db) -> Result<LongTx, DbError> {
    if let Some(on) = long_tx_status(db).await? {
        return Ok(on);
    }
    sql::long_tx_begin(db).await?;
    long_tx_status(db).await?.ok_or_else(|| {
        DbError::other("the prepared transaction did not appear in pg_prepared_xacts")
    })
}

pub async fn long_tx_status(db: &Db) -> Result<Option<LongTx>, DbError> {
    sql::long_tx_status(db).await
}

/// Long transaction off (if it is on).
pub async fn long_tx_release(db: &Db) -> Result<(), DbError> {
    if long_tx_status(db).await?.is_some() {
        sql::long_tx_release(db).await?;
    }
    Ok(())
}

pub async fn page_map(db: &Db, strategy: Strategy) -> Result<Vec<PageCell>, DbError> {
    sql::page_map(db, strategy.table()).await
}

pub async fn autovacuum_settings(
    db: &Db,
    strategy: Strategy,
) -> Result<AutovacuumSettings, DbError> {
    sql::flush_stats(db).await?;
    sql::autovacuum_settings(db, strategy.table()).await
}

/// Applies per-table settings; returns the ALTER TABLE statement that ran.
pub async fn set_autovacuum(
    db: &Db,
    strategy: Strategy,
    input: AutovacuumInput,
) -> Result<String, DbError> {
    let settings = sql::SetAutovacuum {
        table: strategy.table(),
        threshold: input.threshold,
        scale_factor: input.scale_factor,
        max_threshold: input.max_threshold,
    };
    sql::set_autovacuum(db, settings).await
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
    sql::vacuum_full_setup(db).await?;
    let parts = statements(sql::VACUUM_FULL_LOCK);
    // begin; lock table …; select … from pg_locks …; rollback;
    let (Some(lock), Some(list)) = (parts.get(1), parts.get(2)) else {
        return Err(DbError::other(
            "vacuum_full_lock.sql: expected begin; lock; select; rollback",
        ));
    };
    db.rolled_back(async |tx| {
        tx.exec(lock).await?;
        Ok(tx.query::<LockRow>(list, &[]).await?.rows)
    })
    .await
}

/// VACUUM FULL of the scratch table: its file before and after.
pub async fn vacuum_full(db: &Db) -> Result<(RelationFile, RelationFile), DbError> {
    let scratch = "vac_scratch.jobs";
    let before = sql::relation_file(db, scratch).await?;
    sql::vacuum_full(db).await?;
    let after = sql::relation_file(db, scratch).await?;
    Ok((before, after))
}

fn rate(p: &PlanSummary) -> f64 {
    1000.0 / p.execution_ms.max(0.001)
}

/// The claim-plan viewer on vac_plan.jobs: emptied, `jobs` ready jobs enqueued, ANALYZE,
/// both claims explained (each claims one job).
pub async fn compare_plans(db: &Db, jobs: u32) -> Result<PlanComparison, DbError> {
    with_schema(db, "vac_plan", async {
        sql::rotate_truncate(db).await?;
        sql::enqueue(db, jobs).await?;
        sql::analyze(db).await?;
        let a = sql::explain_article(db).await?;
        let i = sql::explain_indexed(db, "default").await?;
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
    fn ids_go_to_sql_as_one_array_parameter() {
        use crate::db::Param;
        assert_eq!(Param::ids(&[1, 2, 3]), Param::Text("{1,2,3}".into()));
        assert_eq!(Param::ids(&[]), Param::Text("{}".into()));
    }
}
