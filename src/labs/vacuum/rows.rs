//! L3's records: what SQL returned about the tables (row types as the statements return
//! them), the results table's lines, and what is derived from them without SQL (chart
//! series, when autovacuum would have started, the page map's cells). No UI, no SQL.

use crate::keys;
pub use crate::labs::common::PlanSummary;
use crate::ui::format::group;
use queue_lab_core::i18n::Msg;
use serde::{Deserialize, Serialize};

use queue_lab_core::i18n::Key;
pub use queue_lab_core::vacuum::{Step, Strategy};

/// The names of L3's strategies and measuring steps in the catalog (the types live in
/// `queue_lab_core::vacuum`, shared with pgcheck; their texts are the app's keys).
pub trait Named {
    fn name_key(self) -> Key;
}

impl Named for Strategy {
    fn name_key(self) -> Key {
        match self {
            Strategy::Keep => keys::VACUUM_STRATEGY_KEEP,
            Strategy::Delete => keys::VACUUM_STRATEGY_DELETE,
            Strategy::DeleteVacuum => keys::VACUUM_STRATEGY_DELETE_VACUUM,
            Strategy::Rotate => keys::VACUUM_STRATEGY_ROTATE,
            Strategy::Partition => keys::VACUUM_STRATEGY_PARTITION,
        }
    }
}

impl Named for Step {
    fn name_key(self) -> Key {
        match self {
            Step::AfterRound => keys::VACUUM_STEP_AFTER_ROUND,
            Step::AfterVacuum => keys::VACUUM_STEP_AFTER_VACUUM,
            Step::AfterTruncate => keys::VACUUM_STEP_AFTER_TRUNCATE,
            Step::AfterDrop => keys::VACUUM_STEP_AFTER_DROP,
        }
    }
}

/// What each strategy does, in the run panel.
pub fn help_key(s: Strategy) -> Key {
    match s {
        Strategy::Keep => keys::VACUUM_STRATEGY_KEEP_HELP,
        Strategy::Delete => keys::VACUUM_STRATEGY_DELETE_HELP,
        Strategy::DeleteVacuum => keys::VACUUM_STRATEGY_DELETE_VACUUM_HELP,
        Strategy::Rotate => keys::VACUUM_STRATEGY_ROTATE_HELP,
        Strategy::Partition => keys::VACUUM_STRATEGY_PARTITION_HELP,
    }
}

/// Whether the lab's tables and the page map's extensions are there (setup_check.sql).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SetupCheck {
    pub tables: bool,
    pub extensions: bool,
}

/// Size and tuple counts of one table (measure_table.sql).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
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

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct IndexSize {
    pub index_name: String,
    pub bytes: i64,
    pub pages: i64,
}

/// One node of a plan (plan_nodes.sql).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct LockRow {
    pub relation: String,
    pub mode: String,
    pub granted: bool,
    pub conflicts_with_select: bool,
    pub conflicts_with_insert: bool,
}

/// A table's file (relation_file.sql).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct RelationFile {
    pub filenode: i64,
    pub heap_bytes: i64,
    pub heap_pages: i64,
    pub total_bytes: i64,
}

/// Everything measured about one strategy's table at one moment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measure {
    pub stats: TableStats,
    pub indexes: Vec<IndexSize>,
    /// The article's claim, EXPLAIN (ANALYZE, BUFFERS), rolled back.
    pub claim: PlanSummary,
}

/// One line of the results table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// The lessons under the results, each only when the records show it, with the figures that
/// show it: DELETE's dead tuples all removed by a VACUUM; dead tuples a VACUUM left behind (a
/// pinned horizon); keep rows' claim still reading every page after VACUUM; rotation's and
/// partitions' clean-up down to no dead tuples without VACUUM; a VACUUM that left the file's
/// size as it was.
pub fn lessons(records: &[Record]) -> Vec<Msg> {
    // Each record with the one before it on the same table.
    let pairs = || {
        records.iter().enumerate().filter_map(|(i, r)| {
            records[..i]
                .iter()
                .rev()
                .find(|p| p.strategy == r.strategy)
                .map(|p| (p, r))
        })
    };
    // Each table's latest VACUUM: what the table shows now, not what an earlier VACUUM did.
    let vacuums = || {
        pairs().filter(|(_, r)| {
            let last = records
                .iter()
                .rev()
                .find(|x| x.strategy == r.strategy && x.step == Step::AfterVacuum);
            r.step == Step::AfterVacuum && last.is_some_and(|l| std::ptr::eq(l, *r))
        })
    };
    let name = |s: Strategy| Msg::new(s.name_key());
    let mut out = Vec::new();
    if let Some((p, r)) = vacuums().find(|(p, r)| {
        matches!(r.strategy, Strategy::Delete | Strategy::DeleteVacuum)
            && p.measure.stats.n_dead_tup > 0
            && r.measure.stats.n_dead_tup == 0
    }) {
        out.push(
            Msg::new(keys::VACUUM_LESSON_DELETE)
                .arg_msg("strategy", name(r.strategy))
                .arg("dead", group(p.measure.stats.n_dead_tup))
                .arg("before", group(p.measure.claim.pages))
                .arg("after", group(r.measure.claim.pages))
                .arg("heap_before", group(p.measure.stats.heap_pages))
                .arg("heap_after", group(r.measure.stats.heap_pages)),
        );
    }
    if let Some((p, r)) = vacuums().find(|(_, r)| r.measure.stats.n_dead_tup > 0) {
        out.push(
            Msg::new(keys::VACUUM_LESSON_HELD)
                .arg_msg("strategy", name(r.strategy))
                .arg("dead_before", group(p.measure.stats.n_dead_tup))
                .arg("dead", group(r.measure.stats.n_dead_tup)),
        );
    }
    if let Some((_, r)) = vacuums().find(|(_, r)| {
        r.strategy == Strategy::Keep
            && r.measure.stats.n_dead_tup == 0
            && r.measure.stats.heap_pages > 0
            && r.measure.claim.pages >= r.measure.stats.heap_pages
    }) {
        out.push(
            Msg::new(keys::VACUUM_LESSON_KEEP)
                .arg("claim", group(r.measure.claim.pages))
                .arg("heap", group(r.measure.stats.heap_pages))
                .arg("live", group(r.measure.stats.n_live_tup)),
        );
    }
    for (strategy, step, key) in [
        (
            Strategy::Rotate,
            Step::AfterTruncate,
            keys::VACUUM_LESSON_ROTATE,
        ),
        (
            Strategy::Partition,
            Step::AfterDrop,
            keys::VACUUM_LESSON_PARTITION,
        ),
    ] {
        if let Some((p, r)) = pairs().find(|(p, r)| {
            r.strategy == strategy
                && r.step == step
                && p.step == Step::AfterRound
                && p.measure.stats.n_dead_tup > 0
                && r.measure.stats.n_dead_tup == 0
        }) {
            out.push(
                Msg::new(key)
                    .arg("round", r.round)
                    .arg("dead", group(p.measure.stats.n_dead_tup))
                    .arg("pages", group(p.measure.stats.heap_pages))
                    .arg("pages_after", group(r.measure.stats.heap_pages))
                    .arg("claim", group(r.measure.claim.pages)),
            );
        }
    }
    if let Some((_, r)) = vacuums().find(|(p, r)| {
        r.measure.stats.heap_pages > 0 && r.measure.stats.heap_pages == p.measure.stats.heap_pages
    }) {
        out.push(
            Msg::new(keys::VACUUM_LESSON_NO_SHRINK)
                .arg_msg("strategy", name(r.strategy))
                .arg("pages", group(r.measure.stats.heap_pages)),
        );
    }
    out
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
/// + VACUUM, TRUNCATE for rotation, DETACH + DROP for partitions): (round, value).
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

/// One side of the claim-plan viewer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanSide {
    pub summary: PlanSummary,
    pub nodes: Vec<PlanNode>,
    /// Claims a second, one claim per statement, from the execution time EXPLAIN reports:
    /// the time inside PostgreSQL, without the trip to and from the worker (which on a
    /// busy machine costs more than the index-friendly claim itself).
    pub jobs_per_s: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanComparison {
    pub jobs: u32,
    pub article: PlanSide,
    pub indexed: PlanSide,
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

    fn sized(mut r: Record, heap_pages: i64, claim_pages: i64) -> Record {
        r.measure.stats.heap_pages = heap_pages;
        r.measure.claim.pages = claim_pages;
        r
    }

    /// Round-one records, one a row: (strategy, step, dead tuples, jobs, autovacuum on,
    /// heap pages, pages the claim read).
    fn round_one(rows: &[(Strategy, Step, i64, u32, bool, i64, i64)]) -> Vec<Record> {
        rows.iter()
            .map(|&(strategy, step, dead, jobs, auto, heap, claim)| {
                sized(rec(strategy, 1, step, dead, jobs, auto), heap, claim)
            })
            .collect()
    }

    fn keys(records: &[Record]) -> Vec<Key> {
        lessons(records).iter().map(|m| m.key).collect()
    }

    /// After a round with the long transaction on, before any VACUUM: only what the run
    /// shows (rotation's and partitions' clean-up); no word about what VACUUM did.
    #[test]
    fn before_any_vacuum_no_lesson_speaks_of_vacuum() {
        use {Step::*, Strategy::*};
        let r = round_one(&[
            (Keep, AfterRound, 4000, 2000, true, 100, 100),
            (Delete, AfterRound, 4000, 2000, true, 100, 100),
            (Rotate, AfterRound, 4000, 2000, true, 100, 100),
            (Rotate, AfterTruncate, 0, 0, true, 0, 0),
            (Partition, AfterRound, 4000, 2000, true, 100, 100),
            (Partition, AfterDrop, 0, 0, true, 0, 1),
        ]);
        assert_eq!(
            keys(&r),
            [keys::VACUUM_LESSON_ROTATE, keys::VACUUM_LESSON_PARTITION]
        );
        assert!(keys(&r[..3]).is_empty());
    }

    /// A VACUUM that removed nothing (the horizon pinned) is said so; DELETE's lesson (all
    /// removed) and keep rows' (no dead tuples left) are not shown.
    #[test]
    fn a_vacuum_that_removed_nothing_shows_the_held_lesson_only() {
        use {Step::*, Strategy::*};
        let r = round_one(&[
            (Keep, AfterRound, 4000, 2000, true, 100, 100),
            (Delete, AfterRound, 4000, 2000, true, 100, 100),
            (Keep, AfterVacuum, 4000, 0, false, 100, 100),
            (Delete, AfterVacuum, 4000, 0, false, 100, 100),
        ]);
        assert_eq!(
            keys(&r),
            [keys::VACUUM_LESSON_HELD, keys::VACUUM_LESSON_NO_SHRINK]
        );
        // Released, VACUUM again: all removed, the DELETE table gave its pages back.
        let mut r = r;
        r.extend(round_one(&[
            (Keep, AfterVacuum, 0, 0, false, 100, 100),
            (Delete, AfterVacuum, 0, 0, false, 0, 1),
        ]));
        assert_eq!(
            keys(&r[4..]).len(),
            0,
            "without the records before them, no pair shows anything"
        );
        // The latest VACUUM speaks: the one that removed nothing is no longer said.
        assert_eq!(
            keys(&r),
            [
                keys::VACUUM_LESSON_DELETE,
                keys::VACUUM_LESSON_KEEP,
                keys::VACUUM_LESSON_NO_SHRINK
            ]
        );
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
    fn series_of_partitions_takes_each_rounds_state_after_detach_and_drop() {
        let r = vec![
            rec(Strategy::Partition, 1, Step::AfterRound, 4000, 2000, true),
            rec(Strategy::Partition, 1, Step::AfterDrop, 0, 0, true),
            rec(Strategy::Rotate, 1, Step::AfterRound, 4000, 2000, true),
            rec(Strategy::Partition, 2, Step::AfterRound, 3900, 2000, true),
            rec(Strategy::Partition, 2, Step::AfterDrop, 0, 0, true),
        ];
        assert_eq!(
            series(&r, Strategy::Partition, Metric::DeadTuples),
            vec![(1, 0), (2, 0)]
        );
        assert_eq!(Step::AfterDrop.name_key(), keys::VACUUM_STEP_AFTER_DROP);
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
