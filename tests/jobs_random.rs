//! L1's queue invariants under seeded random action sequences, against real PGlite in
//! headless Chromium, through the lab's own model (the same code the buttons run).
//! Its own test binary: wasm-bindgen-test's time limit is per binary.
//!
//! 200 sequences by default; a longer soak: `QUEUE_LAB_SEQUENCES=2000 cargo test
//! --target wasm32-unknown-unknown --test jobs_random` (read when the test is compiled).

use queue_lab::db::Db;
use queue_lab::labs::jobs::model::{self, Action, EnqueueInput, Lab, WorkerId};
use serde::Deserialize;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[derive(Deserialize, Debug)]
struct N {
    n: i64,
}

async fn count(db: &Db, sql: &str) -> i64 {
    db.query::<N>(sql, &[]).await.unwrap().first().unwrap().n
}

/// A tiny deterministic generator, so a failing seed can be replayed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[derive(Deserialize, Debug)]
struct Row {
    id: i64,
    status: String,
    attempts: i32,
    max_attempts: i32,
    locked_until_passed: Option<bool>,
    last_error: Option<String>,
}

/// Seeded random action sequences, invariants checked after every step.
#[wasm_bindgen_test]
async fn random_sequences_keep_every_queue_invariant() {
    let db = Db::open_for_tests().await.expect("PGlite opens");
    let sequences: u64 = option_env!("QUEUE_LAB_SEQUENCES")
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let steps_per_sequence = 12;
    for seed in 0..sequences {
        let mut rng = Rng(seed);
        let mut lab = Lab::setup(&db).await.unwrap();
        // Jobs done by a worker whose lease had been taken over must never land.
        for step in 0..steps_per_sequence {
            let w = WorkerId::ALL[rng.below(3) as usize];
            let action = match rng.below(10) {
                0 | 1 => Action::Enqueue(EnqueueInput {
                    priority: rng.below(3) as i32,
                    max_attempts: 1 + rng.below(3) as i32,
                    ..EnqueueInput::default()
                }),
                2 | 3 => Action::Claim(w),
                4 => Action::Complete(w),
                5 => Action::Fail(w),
                6 => Action::Die(w),
                7 => Action::Heartbeat(w),
                _ => Action::Advance([1, 10, 20, 29, 31, 45][rng.below(6) as usize]),
            };
            let done_before =
                count(&db, "select count(*) as n from jobs where status = 'done'").await;
            let holder = match &action {
                Action::Complete(w) => lab.worker(*w).holding,
                _ => None,
            };
            lab.run(&db, action.clone())
                .await
                .unwrap_or_else(|e| panic!("seed {seed} step {step} {action:?}: {e}"));
            let rows = db
                .query::<Row>("select id, status, attempts, max_attempts, locked_until < now() as locked_until_passed, last_error from jobs", &[])
                .await
                .unwrap()
                .rows;
            let ctx = || format!("seed {seed} step {step} after {action:?}; rows {rows:?}");
            // No job held by two live leases: only the holder whose attempt matches the row's
            // attempts holds a live lease.
            for r in &rows {
                let live_holders = lab
                    .workers
                    .iter()
                    .filter(|wk| {
                        wk.holding
                            .is_some_and(|c| c.job == r.id && c.attempt == r.attempts)
                            && r.status == "running"
                            && r.locked_until_passed == Some(false)
                    })
                    .count();
                assert!(
                    live_holders <= 1,
                    "two live leases on job {}: {}",
                    r.id,
                    ctx()
                );
                assert!(
                    r.attempts <= r.max_attempts,
                    "attempts beyond max: {}",
                    ctx()
                );
                if r.status == "dead" {
                    assert_eq!(
                        r.attempts,
                        r.max_attempts,
                        "dead before the last attempt: {}",
                        ctx()
                    );
                    assert!(r.last_error.is_some(), "dead without an error: {}", ctx());
                }
                assert!(
                    ["ready", "running", "done", "dead"].contains(&r.status.as_str()),
                    "{}",
                    ctx()
                );
            }
            if let Some(c) = holder {
                let row = rows.iter().find(|r| r.id == c.job).expect("no job is lost");
                let done_after =
                    count(&db, "select count(*) as n from jobs where status = 'done'").await;
                if row.attempts != c.attempt {
                    assert_eq!(
                        done_after,
                        done_before,
                        "a stale worker's completion landed: {}",
                        ctx()
                    );
                }
            }
        }
        // No job is lost: each is done, dead, or claimable once its time comes.
        lab.run(&db, Action::Advance(86_400)).await.unwrap();
        db.exec(model::REAP_SQL).await.unwrap();
        let stuck = count(
            &db,
            "select count(*) as n from jobs where not (status in ('done', 'dead') \
             or (status = 'ready' and run_at <= now()) \
             or (status = 'running' and locked_until < now() and attempts < max_attempts))",
        )
        .await;
        assert_eq!(stuck, 0, "seed {seed}: a job can never be claimed again");
    }
    db.close().await;
}
