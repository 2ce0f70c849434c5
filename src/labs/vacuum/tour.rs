//! L3's guided tour: each step runs on fresh tables, at the article's sizes, and says what
//! to look at (`vacuum.tour.N.*` in `assets/i18n/vacuum.tsv`).

use super::model::{strategies, Action, RunConfig, BATCH_DEFAULT, JOBS_DEFAULT};
use crate::labs::guide::TourStep;

/// The article's workload for `rounds` rounds, on all five tables.
pub fn rounds(rounds: u32) -> Action {
    Action::Run(RunConfig {
        jobs: JOBS_DEFAULT,
        rounds,
        batch: BATCH_DEFAULT,
        strategies: strategies(true),
    })
}

pub const TOUR: [TourStep<Action>; 4] = [
    // One round: dead tuples, and a claim that reads every page.
    TourStep {
        title: "vacuum.tour.1.title",
        body: "vacuum.tour.1.body",
        look: &[],
        actions: || vec![rounds(1)],
    },
    // VACUUM: the dead tuples go, the claim reads a handful of pages, the file stays.
    TourStep {
        title: "vacuum.tour.2.title",
        body: "vacuum.tour.2.body",
        look: &[],
        actions: || vec![rounds(1), Action::Vacuum],
    },
    // A pinned horizon: VACUUM removes nothing.
    TourStep {
        title: "vacuum.tour.3.title",
        body: "vacuum.tour.3.body",
        look: &[],
        actions: || vec![Action::LongTx(true), rounds(1), Action::Vacuum],
    },
    // Rotation: TRUNCATE (or DETACH + DROP of the round's partition) after each round, the
    // table never bloats.
    TourStep {
        title: "vacuum.tour.4.title",
        body: "vacuum.tour.4.body",
        look: &[],
        actions: || vec![rounds(3)],
    },
];
