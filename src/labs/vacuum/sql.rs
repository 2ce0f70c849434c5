//! L3's statements: one function per file in `src/sql/vacuum/`, its parameters named and
//! typed, returning the rows of `rows.rs` (the article's own queue statements, which L4's
//! side by side runs too, are in `labs::common::sql`, re-exported here). The text is the
//! file's, exactly (the constants below), shown verbatim in the SQL log.
//!
//! Not for: deciding anything (which table, which strategy, what a figure means): the model.

pub use crate::labs::common::sql::*;

use super::rows::{
    AutovacuumSettings, IndexSize, LongTx, PageCell, PlanNode, RelationFile, SetupCheck, Strategy,
    TableStats,
};
use crate::db::{sql_file, Conn, DbError, Param};
use crate::labs::common::Explained;
use serde::Deserialize;

/// `vacuum/jobs_table.sql` (lab.jobs_table, the one DDL of every L3 table) followed by the
/// script at `$path` that calls it, as one exec: the function is there wherever the script
/// runs, a saved lab from before it included.
macro_rules! with_jobs_table {
    ($path:literal) => {
        concat!(
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/sql/vacuum/jobs_table.sql"
            )),
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/sql/", $path))
        )
    };
}

sql_file!(SETUP_CHECK, "vacuum/setup_check.sql");
sql_file!(SETUP_EXTENSIONS, "vacuum/setup_extensions.sql");
/// The one jobs DDL (jobs_table.sql), then the script that calls it for each strategy's table.
pub const SETUP_TABLES: &str = with_jobs_table!("vacuum/setup_tables.sql");
sql_file!(SETUP_HELPERS, "vacuum/setup_helpers.sql");
sql_file!(TEARDOWN, "vacuum/teardown.sql");
sql_file!(USE_STRATEGY, "vacuum/use_strategy.sql");
sql_file!(ROTATE_TRUNCATE, "vacuum/rotate_truncate.sql");
sql_file!(ENQUEUE_PARTITION, "vacuum/enqueue_partition.sql");
sql_file!(PARTITION_OPEN, "vacuum/partition_open.sql");
sql_file!(PARTITION_DROP, "vacuum/partition_drop.sql");
sql_file!(ANALYZE, "vacuum/analyze.sql");
sql_file!(MEASURE_TABLE, "vacuum/measure_table.sql");
sql_file!(MEASURE_INDEXES, "vacuum/measure_indexes.sql");
// The index-friendly claim, explained.
sql_file!(EXPLAIN_INDEXED, explain "vacuum/claim_indexed.sql");
sql_file!(PLAN_NODES, plan "vacuum/plan_nodes.sql");
sql_file!(LONG_TX_BEGIN, "vacuum/long_tx_begin.sql");
sql_file!(LONG_TX_STATUS, "vacuum/long_tx_status.sql");
sql_file!(LONG_TX_RELEASE, "vacuum/long_tx_release.sql");
sql_file!(PAGE_MAP, "vacuum/page_map.sql");
sql_file!(AUTOVACUUM_SETTINGS, "vacuum/autovacuum_settings.sql");
sql_file!(SET_AUTOVACUUM, "vacuum/set_autovacuum.sql");
/// The one jobs DDL (jobs_table.sql), then the scratch table's script, which calls it.
pub const VACUUM_FULL_SETUP: &str = with_jobs_table!("vacuum/vacuum_full_setup.sql");
sql_file!(VACUUM_FULL_LOCK, "vacuum/vacuum_full_lock.sql");
sql_file!(VACUUM_FULL, "vacuum/vacuum_full.sql");
sql_file!(RELATION_FILE, "vacuum/relation_file.sql");
/// A statement that returns the DDL it ran, if it ran one.
#[derive(Deserialize)]
struct Ran<T> {
    statement: T,
}

/// Whether the lab's tables and the page map's extensions are there (setup_check.sql).
pub async fn setup_check(c: &impl Conn) -> Result<SetupCheck, DbError> {
    c.query::<SetupCheck>(SETUP_CHECK, &[]).await?.one()
}

/// The page map's extensions (a script; fails where they are missing).
pub async fn setup_extensions(c: &impl Conn) -> Result<(), DbError> {
    c.exec(SETUP_EXTENSIONS).await
}

/// The strategies' tables, then their helpers (two scripts, in that order).
pub async fn setup_tables(c: &impl Conn) -> Result<(), DbError> {
    c.exec(SETUP_TABLES).await?;
    c.exec(SETUP_HELPERS).await
}

/// Drops the lab's tables (a script).
pub async fn teardown(c: &impl Conn) -> Result<(), DbError> {
    c.exec(TEARDOWN).await
}

/// Points `jobs` at `schema`'s table; false when use_strategy.sql refuses the schema.
pub async fn use_strategy(c: &impl Conn, schema: &str) -> Result<bool, DbError> {
    let rows = c
        .query::<serde_json::Value>(USE_STRATEGY, &[schema.into()])
        .await?;
    Ok(!rows.rows.is_empty())
}

/// Rotation: TRUNCATE `jobs`.
pub async fn rotate_truncate(c: &impl Conn) -> Result<(), DbError> {
    for_effect(c, ROTATE_TRUNCATE, &[]).await
}

/// ANALYZE `jobs`.
pub async fn analyze(c: &impl Conn) -> Result<(), DbError> {
    for_effect(c, ANALYZE, &[]).await
}

/// A round's jobs on the partitioned table (enqueue_partition.sql).
pub struct EnqueuePartition {
    pub jobs: u32,
    pub round: u32,
}

pub async fn enqueue_partition(c: &impl Conn, p: EnqueuePartition) -> Result<(), DbError> {
    for_effect(c, ENQUEUE_PARTITION, &[p.jobs.into(), p.round.into()]).await
}

/// The completion `strategy` uses: status = 'done' (complete_done.sql) or DELETE
/// (complete_delete.sql).
pub fn complete_sql(strategy: Strategy) -> &'static str {
    if strategy.deletes_on_complete() {
        COMPLETE_DELETE
    } else {
        COMPLETE_DONE
    }
}

/// A claimed batch completed `strategy`'s way.
pub struct Complete<'a> {
    pub strategy: Strategy,
    pub ids: &'a [i64],
}

pub async fn complete(c: &impl Conn, p: Complete<'_>) -> Result<(), DbError> {
    for_effect(c, complete_sql(p.strategy), &[Param::ids(p.ids)]).await
}

/// Size and tuple counts of `table` (schema-qualified).
pub async fn measure_table(c: &impl Conn, table: &str) -> Result<TableStats, DbError> {
    c.query::<TableStats>(MEASURE_TABLE, &[table.into()])
        .await?
        .one()
}

/// The sizes of `table`'s indexes.
pub async fn measure_indexes(c: &impl Conn, table: &str) -> Result<Vec<IndexSize>, DbError> {
    Ok(c.query::<IndexSize>(MEASURE_INDEXES, &[table.into()])
        .await?
        .rows)
}

/// EXPLAIN (ANALYZE, BUFFERS) of the index-friendly claim on queue `queue`: its plan.
pub async fn explain_indexed(c: &impl Conn, queue: &str) -> Result<serde_json::Value, DbError> {
    let rows = c
        .query::<Explained>(EXPLAIN_INDEXED, &[queue.into()])
        .await?;
    Ok(rows.one()?.plan)
}

/// A plan's nodes, one row each.
pub async fn plan_nodes(c: &impl Conn, plan: &serde_json::Value) -> Result<Vec<PlanNode>, DbError> {
    let params = [Param::Text(plan.to_string())];
    Ok(c.query::<PlanNode>(PLAN_NODES, &params).await?.rows)
}

/// Round `round`'s partition, created unless it is there: the CREATE TABLE, if it ran one.
pub async fn partition_open(c: &impl Conn, round: u32) -> Result<Option<String>, DbError> {
    let rows = c.query::<Ran<_>>(PARTITION_OPEN, &[round.into()]).await?;
    Ok(rows.one()?.statement)
}

/// Round `round`'s partition DETACHed and DROPped: what ran, if it was there.
pub async fn partition_drop(c: &impl Conn, round: u32) -> Result<Option<String>, DbError> {
    let rows = c.query::<Ran<_>>(PARTITION_DROP, &[round.into()]).await?;
    Ok(rows.one()?.statement)
}

/// Prepares the long transaction that pins the xmin horizon (a script).
pub async fn long_tx_begin(c: &impl Conn) -> Result<(), DbError> {
    c.exec(LONG_TX_BEGIN).await
}

/// The long transaction, if it is on.
pub async fn long_tx_status(c: &impl Conn) -> Result<Option<LongTx>, DbError> {
    Ok(c.query::<LongTx>(LONG_TX_STATUS, &[]).await?.first())
}

/// Ends the long transaction.
pub async fn long_tx_release(c: &impl Conn) -> Result<(), DbError> {
    for_effect(c, LONG_TX_RELEASE, &[]).await
}

/// `table`'s heap pages, one row each.
pub async fn page_map(c: &impl Conn, table: &str) -> Result<Vec<PageCell>, DbError> {
    Ok(c.query::<PageCell>(PAGE_MAP, &[table.into()]).await?.rows)
}

/// `table`'s autovacuum settings and thresholds.
pub async fn autovacuum_settings(
    c: &impl Conn,
    table: &str,
) -> Result<AutovacuumSettings, DbError> {
    let rows = c
        .query::<AutovacuumSettings>(AUTOVACUUM_SETTINGS, &[table.into()])
        .await?;
    rows.one()
}

/// Per-table autovacuum settings (set_autovacuum.sql); `None` puts a setting back to the
/// server's.
pub struct SetAutovacuum<'a> {
    pub table: &'a str,
    pub threshold: Option<i32>,
    pub scale_factor: Option<f64>,
    pub max_threshold: Option<i32>,
}

/// Applies them; returns the ALTER TABLE that ran.
pub async fn set_autovacuum(c: &impl Conn, p: SetAutovacuum<'_>) -> Result<String, DbError> {
    let params = [
        p.table.into(),
        p.threshold.into(),
        p.scale_factor.into(),
        p.max_threshold.into(),
    ];
    let rows = c.query::<Ran<_>>(SET_AUTOVACUUM, &params).await?;
    Ok(rows.one()?.statement)
}

/// A fresh scratch table for the VACUUM FULL demonstration (a script).
pub async fn vacuum_full_setup(c: &impl Conn) -> Result<(), DbError> {
    c.exec(VACUUM_FULL_SETUP).await
}

/// VACUUM FULL of the scratch table.
pub async fn vacuum_full(c: &impl Conn) -> Result<(), DbError> {
    for_effect(c, VACUUM_FULL, &[]).await
}

/// `relation`'s file (schema-qualified).
pub async fn relation_file(c: &impl Conn, relation: &str) -> Result<RelationFile, DbError> {
    c.query::<RelationFile>(RELATION_FILE, &[relation.into()])
        .await?
        .one()
}
