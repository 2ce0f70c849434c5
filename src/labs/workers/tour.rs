//! L2's guided tour: each step sets the simulator's inputs, runs them, and points at the
//! figures to look at (cells of the results or ordering table, marked on screen). The texts
//! are `workers.tour.N.*` in `assets/i18n/workers.tsv`; their numbers reach them as
//! placeholders filled from the step's own inputs, never typed.
//!
//! `?step=N` (the embedding kit's `step` attribute) opens the lab at step N when the address
//! carries no inputs of its own (a share link's inputs win).

use super::model::{Inputs, Pick};
use crate::keys;
use crate::labs::guide::TourStep;
use queue_lab_core::i18n::Msg;
use queue_sim::Strategy::{self, *};

/// A table the tour can point into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// The strategies chosen (`#w-results`): one column per strategy.
    Results,
    /// SKIP LOCKED and the two ordering remedies (`#w-ordering`): one row per strategy.
    Ordering,
}

/// A figure to look at: the cells of `metric` (the cells' `data-metric`) in `table`, for
/// the strategies listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    pub table: Table,
    pub metric: &'static str,
    pub strategies: &'static [Strategy],
}

/// The cells of `metric` in the results table for `strategies`.
const fn results(metric: &'static str, strategies: &'static [Strategy]) -> Look {
    Look {
        table: Table::Results,
        metric,
        strategies,
    }
}

/// The cells of `metric` in the ordering table for `strategies`.
const fn ordering(metric: &'static str, strategies: &'static [Strategy]) -> Look {
    Look {
        table: Table::Ordering,
        metric,
        strategies,
    }
}

impl Look {
    pub fn marks(&self, table: Table, metric: &str, strategy: Strategy) -> bool {
        self.table == table && self.metric == metric && self.strategies.contains(&strategy)
    }
}

/// One step, a tour step like every lab's: its title and what to look at (catalog keys),
/// its one action (the inputs it sets and runs), and the cells it marks.
pub type Step = TourStep<Inputs, Look>;

impl Step {
    /// The inputs the step sets and runs.
    pub fn inputs(&self) -> Inputs {
        (self.actions)().pop().unwrap_or_default()
    }

    /// What to look at, its numbers taken from the step's inputs.
    pub fn body_msg(&self) -> Msg {
        let i = self.inputs();
        Msg::new(self.body)
            .arg("workers", i.workers)
            .arg("jobs", i.jobs)
            .arg("keys", i.keys)
    }
}

/// All four strategies side by side, on the defaults but for `workers` and `keys` (the
/// challenges start from it too).
pub(super) fn all_four(workers: u32, keys: u32) -> Inputs {
    Inputs {
        pick: Pick::All,
        workers: workers.to_string(),
        keys: keys.to_string(),
        ..Inputs::default()
    }
}

const ALL: &[Strategy] = &Strategy::ALL;
const ORDERING: &[Strategy] = &Strategy::ORDERING;

pub const TOUR: [Step; 6] = [
    // One worker: the baseline every other step is compared with.
    Step {
        title: keys::WORKERS_TOUR_1_TITLE,
        body: keys::WORKERS_TOUR_1_BODY,
        actions: || vec![all_four(1, 8)],
        look: &[results("throughput", ALL), results("inversions", ALL)],
    },
    // Several workers, the naive claim: jobs run twice.
    Step {
        title: keys::WORKERS_TOUR_2_TITLE,
        body: keys::WORKERS_TOUR_2_BODY,
        actions: || vec![all_four(4, 8)],
        look: &[results("dups", ALL), results("executions", &[Naive])],
    },
    // FOR UPDATE: everyone queues on the head row.
    Step {
        title: keys::WORKERS_TOUR_3_TITLE,
        body: keys::WORKERS_TOUR_3_BODY,
        actions: || vec![all_four(8, 8)],
        look: &[
            results("lock-waits", &[ForUpdate]),
            results("throughput", &[ForUpdate, SkipLockedTx]),
        ],
    },
    // A transaction held for the job against a lease.
    Step {
        title: keys::WORKERS_TOUR_4_TITLE,
        body: keys::WORKERS_TOUR_4_BODY,
        actions: || vec![all_four(16, 8)],
        look: &[
            results("mean-tx", &[SkipLockedTx, SkipLockedLease]),
            results("longest-tx", &[SkipLockedTx, SkipLockedLease]),
        ],
    },
    // Many workers: more throughput, and the order is lost, within a key too.
    Step {
        title: keys::WORKERS_TOUR_5_TITLE,
        body: keys::WORKERS_TOUR_5_BODY,
        actions: || vec![all_four(32, 8)],
        look: &[
            results("throughput", &[SkipLockedLease]),
            results("inversions", &[SkipLockedLease]),
            ordering("key-inversions", ORDERING),
        ],
    },
    // One key: the remedies keep order by running one job at a time.
    Step {
        title: keys::WORKERS_TOUR_6_TITLE,
        body: keys::WORKERS_TOUR_6_BODY,
        actions: || vec![all_four(16, 1)],
        look: &[
            ordering("key-inversions", ORDERING),
            ordering("throughput", ORDERING),
        ],
    },
];

#[cfg(test)]
mod tests;
