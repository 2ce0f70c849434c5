//! L1's challenges, in the tour's format (see [`crate::labs::challenge`]): the texts are
//! `jobs.ch.<name>.*` in `assets/i18n/jobs.tsv`, the checks `src/sql/jobs/challenge/`.

use super::model::Action::{self, *};
use super::model::EnqueueInput;
use super::model::WorkerId::{A, B};
use crate::db::sql_file;
use crate::keys;
use crate::labs::challenge::{Challenge, Check};

sql_file!(RUN_TWICE_SQL, "jobs/challenge/run_twice.sql");
sql_file!(DEAD_SQL, "jobs/challenge/dead.sql");
sql_file!(DUAL_WRITE_SQL, "jobs/challenge/dual_write.sql");
sql_file!(NO_ROWS_LEFT_SQL, "jobs/challenge/no_rows_left.sql");

/// An enqueue with `max_attempts`, the other fields at their defaults.
fn enqueue(max_attempts: i32) -> Action {
    Enqueue(EnqueueInput {
        max_attempts,
        ..EnqueueInput::default()
    })
}

pub const CHALLENGES: [Challenge<Action>; 4] = [
    Challenge {
        id: "jobs-run-twice",
        goal: keys::JOBS_CH_TWICE_GOAL,
        start: || vec![enqueue(5)],
        check: Check::Sql(RUN_TWICE_SQL),
        hints: &[
            keys::JOBS_CH_TWICE_HINT_1,
            keys::JOBS_CH_TWICE_HINT_2,
            keys::JOBS_CH_TWICE_HINT_3,
        ],
        solution_text: keys::JOBS_CH_TWICE_SOLUTION,
        solution: || {
            vec![
                Claim(A),
                Advance(31),
                Claim(B),
                Effect(A),
                Effect(B),
                Complete(A),
                Complete(B),
            ]
        },
        why: keys::JOBS_CH_TWICE_WHY,
    },
    Challenge {
        id: "jobs-dead",
        goal: keys::JOBS_CH_DEAD_GOAL,
        start: Vec::new,
        check: Check::Sql(DEAD_SQL),
        hints: &[
            keys::JOBS_CH_DEAD_HINT_1,
            keys::JOBS_CH_DEAD_HINT_2,
            keys::JOBS_CH_DEAD_HINT_3,
        ],
        solution_text: keys::JOBS_CH_DEAD_SOLUTION,
        solution: || {
            vec![
                enqueue(2),
                Claim(A),
                Fail(A),
                Advance(21),
                Claim(B),
                Fail(B),
            ]
        },
        why: keys::JOBS_CH_DEAD_WHY,
    },
    Challenge {
        id: "jobs-dual-write",
        goal: keys::JOBS_CH_DUAL_GOAL,
        start: Vec::new,
        check: Check::Sql(DUAL_WRITE_SQL),
        hints: &[
            keys::JOBS_CH_DUAL_HINT_1,
            keys::JOBS_CH_DUAL_HINT_2,
            keys::JOBS_CH_DUAL_HINT_3,
        ],
        solution_text: keys::JOBS_CH_DUAL_SOLUTION,
        solution: || vec![DualWriteLost, OrderWithJob],
        why: keys::JOBS_CH_DUAL_WHY,
    },
    Challenge {
        id: "jobs-no-rows-left",
        goal: keys::JOBS_CH_NOROWS_GOAL,
        start: Vec::new,
        check: Check::Sql(NO_ROWS_LEFT_SQL),
        hints: &[
            keys::JOBS_CH_NOROWS_HINT_1,
            keys::JOBS_CH_NOROWS_HINT_2,
            keys::JOBS_CH_NOROWS_HINT_3,
        ],
        solution_text: keys::JOBS_CH_NOROWS_SOLUTION,
        solution: || {
            let mut steps = vec![DeleteOnComplete(true)];
            for _ in 0..3 {
                steps.extend([enqueue(5), Claim(A), Complete(A)]);
            }
            steps
        },
        why: keys::JOBS_CH_NOROWS_WHY,
    },
];
