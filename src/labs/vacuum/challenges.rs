//! L3's challenges, in the tour's format (see [`crate::labs::challenge`]): the texts are
//! `vacuum.ch.<name>.*` in `assets/i18n/vacuum.tsv`, the checks `src/sql/vacuum/challenge/`.
//! Runs are what the run form sends with its defaults (every table), small (a round of at
//! most 2,000 jobs), so that a challenge starts and replays in a few seconds. Each check reads
//! the DELETE on completion table, the one that bloats and that VACUUM cleans.

use super::model::{strategies, Action, AutovacuumInput, RunConfig, Strategy, BATCH_DEFAULT};
use crate::db::sql_file;
use crate::keys;
use crate::labs::challenge::{Challenge, Check};

sql_file!(BLOAT_SQL, "vacuum/challenge/bloat.sql");
sql_file!(PINNED_SQL, "vacuum/challenge/pinned.sql");
sql_file!(RELEASE_SQL, "vacuum/challenge/release.sql");
sql_file!(AUTOVACUUM_SQL, "vacuum/challenge/autovacuum.sql");

/// One round of `jobs` jobs on every table, as the run form sends it with its other fields
/// at their defaults.
pub fn round(jobs: u32) -> Action {
    Action::Run(RunConfig {
        jobs,
        rounds: 1,
        batch: BATCH_DEFAULT,
        strategies: strategies(true),
    })
}

/// The jobs of one round in the bloat challenge: a round fills about 56 pages of DELETE on
/// completion (measured in PGlite: 2 dead versions a job, about 36 jobs a page), two pass 100.
pub const BLOAT_ROUND_JOBS: u32 = 2_000;

/// The smallest run the lab takes: enough dead tuples to see, quick to replay.
pub const SMALL_ROUND_JOBS: u32 = super::model::JOBS_MIN;

/// The autovacuum cap the solution sets (PostgreSQL 18's `autovacuum_vacuum_max_threshold`).
pub const AUTOVACUUM_CAP: i32 = 1_000;

/// The pinned horizon: the long transaction on, a round, VACUUM (it removes nothing).
fn pinned() -> Vec<Action> {
    vec![
        Action::LongTx(true),
        round(SMALL_ROUND_JOBS),
        Action::Vacuum,
    ]
}

pub const CHALLENGES: [Challenge<Action>; 4] = [
    Challenge {
        id: "vacuum-bloat",
        goal: keys::VACUUM_CH_BLOAT_GOAL,
        start: Vec::new,
        check: Check::Sql(BLOAT_SQL),
        hints: &[
            keys::VACUUM_CH_BLOAT_HINT_1,
            keys::VACUUM_CH_BLOAT_HINT_2,
            keys::VACUUM_CH_BLOAT_HINT_3,
        ],
        solution_text: keys::VACUUM_CH_BLOAT_SOLUTION,
        solution: || vec![round(BLOAT_ROUND_JOBS), round(BLOAT_ROUND_JOBS)],
        why: keys::VACUUM_CH_BLOAT_WHY,
    },
    Challenge {
        id: "vacuum-pinned",
        goal: keys::VACUUM_CH_PINNED_GOAL,
        start: Vec::new,
        check: Check::Sql(PINNED_SQL),
        hints: &[
            keys::VACUUM_CH_PINNED_HINT_1,
            keys::VACUUM_CH_PINNED_HINT_2,
            keys::VACUUM_CH_PINNED_HINT_3,
        ],
        solution_text: keys::VACUUM_CH_PINNED_SOLUTION,
        solution: pinned,
        why: keys::VACUUM_CH_PINNED_WHY,
    },
    Challenge {
        id: "vacuum-release",
        goal: keys::VACUUM_CH_RELEASE_GOAL,
        start: pinned,
        check: Check::Sql(RELEASE_SQL),
        hints: &[
            keys::VACUUM_CH_RELEASE_HINT_1,
            keys::VACUUM_CH_RELEASE_HINT_2,
            keys::VACUUM_CH_RELEASE_HINT_3,
        ],
        solution_text: keys::VACUUM_CH_RELEASE_SOLUTION,
        solution: || vec![Action::LongTx(false), Action::Vacuum],
        why: keys::VACUUM_CH_RELEASE_WHY,
    },
    Challenge {
        id: "vacuum-autovacuum",
        goal: keys::VACUUM_CH_AUTOVAC_GOAL,
        // The autovacuum panel shows keep rows: the learner picks the queue's table.
        start: || vec![Action::Select(Strategy::Keep)],
        check: Check::Sql(AUTOVACUUM_SQL),
        hints: &[
            keys::VACUUM_CH_AUTOVAC_HINT_1,
            keys::VACUUM_CH_AUTOVAC_HINT_2,
            keys::VACUUM_CH_AUTOVAC_HINT_3,
        ],
        solution_text: keys::VACUUM_CH_AUTOVAC_SOLUTION,
        solution: || {
            vec![
                Action::Select(Strategy::Delete),
                Action::Autovacuum(
                    Strategy::Delete,
                    AutovacuumInput {
                        threshold: None,
                        scale_factor: None,
                        max_threshold: Some(AUTOVACUUM_CAP),
                    },
                ),
            ]
        },
        why: keys::VACUUM_CH_AUTOVAC_WHY,
    },
];
