//! The dead-tuple model: the dead row versions a workload makes and what autovacuum clears
//! under the default and the tuned settings. The model and its limits are described in the
//! [`advisor`](super) module doc.

use super::inputs::Workload;
use super::messages::Msg;
use crate::keys;

/// Dead row versions one job leaves on the success path: the claim and the completion.
pub const DEAD_VERSIONS_PER_JOB: f64 = 2.0;
/// Assumed row versions per 8 KB heap page (about 200 bytes a row).
pub const ROWS_PER_HEAP_PAGE: f64 = 40.0;
/// Assumed b-tree entries per 8 KB leaf page of the queue's indexes.
pub const INDEX_ENTRIES_PER_LEAF_PAGE: f64 = 300.0;
/// `vacuum_cost_page_hit`, `vacuum_cost_page_miss` (PostgreSQL 14+), `vacuum_cost_page_dirty`.
pub const COST_PAGE_HIT: f64 = 1.0;
pub const COST_PAGE_MISS: f64 = 2.0;
pub const COST_PAGE_DIRTY: f64 = 20.0;
/// Dead versions waiting for a pass above which autovacuum counts as falling behind: the
/// article's lab round of 20,000 made the claim read 723 pages instead of 2 (§6).
pub const BLOAT_WARNING_DEAD: f64 = 20_000.0;
/// `autovacuum_vacuum_max_threshold`, new in PostgreSQL 18: the trigger never exceeds it.
pub const MAX_THRESHOLD_PG18: f64 = 100_000_000.0;

/// The autovacuum settings the model reads. See the [`advisor`](super) module doc for the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VacuumSettings {
    /// `autovacuum_vacuum_threshold`, rows.
    pub threshold: f64,
    /// `autovacuum_vacuum_scale_factor`, fraction of live rows.
    pub scale_factor: f64,
    /// `autovacuum_vacuum_max_threshold` (PostgreSQL 18), rows: a cap on the trigger.
    pub max_threshold: f64,
    /// `autovacuum_vacuum_cost_limit` (-1 means `vacuum_cost_limit`, 200).
    pub cost_limit: f64,
    /// `autovacuum_vacuum_cost_delay`, milliseconds.
    pub cost_delay_ms: f64,
    /// `autovacuum_naptime`, seconds. Server-wide: it cannot be set per table.
    pub naptime_s: f64,
}

impl VacuumSettings {
    /// PostgreSQL 18's defaults (the cost delay since 12, the max threshold new in 18).
    pub const DEFAULT: VacuumSettings = VacuumSettings {
        threshold: 50.0,
        scale_factor: 0.2,
        max_threshold: MAX_THRESHOLD_PG18,
        cost_limit: 200.0,
        cost_delay_ms: 2.0,
        naptime_s: 60.0,
    };

    /// What we suggest for a queue table: §6's per-table scale factor of 0.01, a tenfold
    /// cost limit (`alter table jobs set (autovacuum_vacuum_scale_factor = 0.01,
    /// autovacuum_vacuum_cost_limit = 2000)`), and a 15 s naptime server-wide.
    pub const TUNED: VacuumSettings = VacuumSettings {
        threshold: 50.0,
        scale_factor: 0.01,
        max_threshold: MAX_THRESHOLD_PG18,
        cost_limit: 2_000.0,
        cost_delay_ms: 2.0,
        naptime_s: 15.0,
    };

    /// Cost units autovacuum may spend per second: one cost limit per delay.
    pub fn cost_budget_per_s(&self) -> f64 {
        self.cost_limit / (self.cost_delay_ms / 1_000.0)
    }

    /// The model's ceiling on dead versions removed per second (horizon permitting).
    /// Rounded to two significant figures: the model is not more precise than that.
    pub fn clear_ceiling_per_s(&self) -> f64 {
        round_to_two_figures(self.cost_budget_per_s() / cost_per_dead_version())
    }

    /// Dead versions that start a pass, for a table of `live_rows`: PostgreSQL 18's
    /// `min(threshold + scale_factor × live rows, max_threshold)`.
    pub fn trigger_dead(&self, live_rows: f64) -> f64 {
        (self.threshold + self.scale_factor * live_rows).min(self.max_threshold)
    }
}

fn round_to_two_figures(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(x.log10().floor() as i32 - 1);
    (x / scale).round() * scale
}

/// Cost units to remove one dead version: its share of a heap page (missed, dirtied, then
/// hit again in the second pass) and of a dirtied index leaf.
pub fn cost_per_dead_version() -> f64 {
    (COST_PAGE_MISS + COST_PAGE_DIRTY + COST_PAGE_HIT) / ROWS_PER_HEAP_PAGE
        + (COST_PAGE_HIT + COST_PAGE_DIRTY) / INDEX_ENTRIES_PER_LEAF_PAGE
}

/// What autovacuum does against the workload under one set of settings.
#[derive(Clone, Debug, PartialEq)]
pub struct VacuumEstimate {
    pub settings: VacuumSettings,
    /// The I/O-budget ceiling, dead versions per second, ignoring the horizon.
    pub clear_ceiling_per_s: f64,
    /// Dead versions per second it actually removes: the rate made, up to the ceiling;
    /// 0 while a long transaction pins the horizon.
    pub clears_per_s: f64,
    /// Dead versions that start a pass (`min(threshold + scale_factor × live rows,
    /// max_threshold)`).
    pub trigger_dead: f64,
    /// Dead versions the workload makes between two looks (dead per second × naptime).
    pub per_look: f64,
    /// Dead versions the table can carry before a pass starts (trigger + one naptime).
    pub dead_before_pass: f64,
    /// Keeps up: its I/O budget removes what the workload makes, and no more than
    /// [`BLOAT_WARNING_DEAD`] dead versions wait for a pass. Says nothing of the horizon: a
    /// long transaction is a signal of its own.
    pub keeps_up: bool,
}

/// The dead versions the workload makes, beside what autovacuum clears.
#[derive(Clone, Debug, PartialEq)]
pub struct DeadTuples {
    /// [`DEAD_VERSIONS_PER_JOB`].
    pub dead_per_job: f64,
    /// Dead versions per second at the sustained rate.
    pub per_s: f64,
    /// Dead versions per second at the peak rate.
    pub per_s_at_peak: f64,
    /// Live rows in the queue table, by Little's law (see the [`advisor`](super) module doc).
    pub live_rows: f64,
    /// A long transaction pins the xmin horizon: nothing that died after it is removable.
    pub horizon_pinned: bool,
    pub default: VacuumEstimate,
    pub tuned: VacuumEstimate,
}

impl DeadTuples {
    pub(super) fn new(w: &Workload) -> DeadTuples {
        let per_s = w.sustained_jobs_per_s * DEAD_VERSIONS_PER_JOB;
        let live_rows = w.sustained_jobs_per_s * (w.job_duration_s + w.latency_target_ms / 1_000.0);
        let horizon_pinned = w.long_transactions && per_s > 0.0;
        let estimate = |settings: VacuumSettings| {
            let ceiling = settings.clear_ceiling_per_s();
            let trigger = settings.trigger_dead(live_rows);
            let per_look = per_s * settings.naptime_s;
            let dead_before_pass = trigger + per_look;
            VacuumEstimate {
                settings,
                clear_ceiling_per_s: ceiling,
                clears_per_s: if horizon_pinned {
                    0.0
                } else {
                    per_s.min(ceiling)
                },
                trigger_dead: trigger,
                per_look,
                dead_before_pass,
                keeps_up: per_s <= ceiling && dead_before_pass <= BLOAT_WARNING_DEAD,
            }
        };
        DeadTuples {
            dead_per_job: DEAD_VERSIONS_PER_JOB,
            per_s,
            per_s_at_peak: w.peak_jobs_per_s * DEAD_VERSIONS_PER_JOB,
            live_rows,
            horizon_pinned,
            default: estimate(VacuumSettings::DEFAULT),
            tuned: estimate(VacuumSettings::TUNED),
        }
    }

    /// The lines a view shows, in order: per job, made, default, tuned (or pinned).
    pub fn summary(&self) -> Vec<Msg> {
        let mut lines = vec![
            Msg::new(keys::LEAVE_DEAD_PER_JOB).num("dead_per_job", self.dead_per_job),
            Msg::new(keys::LEAVE_DEAD_CREATED)
                .num("dead_per_s", self.per_s)
                .num("dead_per_s_peak", self.per_s_at_peak),
        ];
        if self.horizon_pinned {
            lines
                .push(Msg::new(keys::LEAVE_DEAD_PINNED).num("dead_per_hour", self.per_s * 3_600.0));
        }
        for (key, estimate) in [
            (keys::LEAVE_DEAD_DEFAULT, &self.default),
            (keys::LEAVE_DEAD_TUNED, &self.tuned),
        ] {
            lines.push(
                Msg::new(key)
                    .num("live_rows", self.live_rows)
                    .num("trigger", estimate.trigger_dead)
                    .num("dead_per_s", self.per_s)
                    .num("per_look", estimate.per_look)
                    .num("dead_before_pass", estimate.dead_before_pass)
                    .num("clears_per_s", estimate.clears_per_s)
                    .num("ceiling_per_s", estimate.clear_ceiling_per_s)
                    .num("naptime_s", estimate.settings.naptime_s),
            );
        }
        lines.push(Msg::new(keys::LEAVE_DEAD_LAB_REFERENCE));
        lines.push(
            Msg::new(keys::LEAVE_DEAD_MODEL)
                .num("rows_per_page", ROWS_PER_HEAP_PAGE)
                .num("entries_per_leaf", INDEX_ENTRIES_PER_LEAF_PAGE),
        );
        lines
    }
}
