//! L3's guided tour: each step runs on fresh tables, at the article's sizes, and says what
//! to look at (`vacuum.tour.N.*` in `assets/i18n/vacuum.tsv`).

use super::model::{strategies, Action, RunConfig, BATCH_DEFAULT, JOBS_DEFAULT};
use crate::keys;
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
    TourStep::new(keys::VACUUM_TOUR_1_TITLE, keys::VACUUM_TOUR_1_BODY, || {
        vec![rounds(1)]
    }),
    // VACUUM: the dead tuples go, the claim reads a handful of pages, the file stays.
    TourStep::new(keys::VACUUM_TOUR_2_TITLE, keys::VACUUM_TOUR_2_BODY, || {
        vec![rounds(1), Action::Vacuum]
    }),
    // A pinned horizon: VACUUM removes nothing.
    TourStep::new(keys::VACUUM_TOUR_3_TITLE, keys::VACUUM_TOUR_3_BODY, || {
        vec![Action::LongTx(true), rounds(1), Action::Vacuum]
    }),
    // Rotation: TRUNCATE (or DETACH + DROP of the round's partition) after each round, the
    // table never bloats.
    TourStep::new(keys::VACUUM_TOUR_4_TITLE, keys::VACUUM_TOUR_4_BODY, || {
        vec![rounds(3)]
    }),
];
