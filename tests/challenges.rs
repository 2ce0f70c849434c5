//! The labs' challenges, against real PGlite in headless Chromium, through each lab's own
//! model (the code the buttons run) and its check (the statement the page runs): the
//! starting state is not solved, the solution is, and a path that comes close is not.

use queue_lab::db::Db;
use queue_lab::labs::challenge::{check, Challenge, MAX_HINTS};
use queue_lab::labs::jobs::challenges::CHALLENGES as JOBS;
use queue_lab::labs::jobs::model::{Action, EnqueueInput, Lab as Jobs, WorkerId};
use queue_lab::labs::session::LabModel;
use queue_lab::testing::run_all;
use std::fmt::Debug;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Whether `c`'s check passes after its starting state and then `then`, on a fresh lab.
async fn solved_after<L: LabModel>(c: &Challenge<L::Action>, then: Vec<L::Action>) -> bool
where
    L::Action: Debug,
{
    let db: Db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    let mut lab = L::setup(&db).await.expect("the lab sets up");
    run_all(&mut lab, &db, (c.start)()).await;
    run_all(&mut lab, &db, then).await;
    let solved = check(&db, c.check).await.expect("the check runs");
    db.close().await;
    solved
}

/// The challenge of `list` with this id.
fn find<A>(list: &'static [Challenge<A>], id: &str) -> &'static Challenge<A> {
    list.iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no challenge {id}"))
}

/// Every challenge: not solved as it starts, solved by its solution, and not solved one step
/// short of it.
async fn each_is_solved_by_its_solution_only<L: LabModel>(list: &'static [Challenge<L::Action>])
where
    L::Action: Debug,
{
    for c in list {
        assert!(
            !solved_after::<L>(c, vec![]).await,
            "{} starts solved",
            c.id
        );
        let mut steps = (c.solution)();
        assert!(
            solved_after::<L>(c, steps.clone()).await,
            "{}: its solution does not solve it",
            c.id
        );
        steps.pop();
        assert!(
            !solved_after::<L>(c, steps).await,
            "{}: solved one step short",
            c.id
        );
    }
}

#[wasm_bindgen_test]
async fn l1_challenges_are_solved_by_their_solutions_only() {
    each_is_solved_by_its_solution_only::<Jobs>(&JOBS).await;
}

use Action::*;
use WorkerId::{A, B};

fn enqueue(max_attempts: i32) -> Action {
    Enqueue(EnqueueInput {
        max_attempts,
        ..EnqueueInput::default()
    })
}

/// A job that ran twice because its first run failed is a retry, not a second run of a live
/// job; one that ran once is not two runs.
#[wasm_bindgen_test]
async fn l1_run_twice_is_not_a_retry_or_a_single_run() {
    let c = find(&JOBS, "jobs-run-twice");
    let retried = vec![
        Claim(A),
        Fail(A),
        Advance(21),
        Claim(B),
        Effect(B),
        Complete(B),
    ];
    assert!(!solved_after::<Jobs>(c, retried).await);
    let once = vec![Claim(A), Effect(A), Complete(A)];
    assert!(!solved_after::<Jobs>(c, once).await);
    // Run twice, but no effect applied: the receipt was never sent.
    let no_effect = vec![Claim(A), Advance(31), Claim(B), Complete(A), Complete(B)];
    assert!(!solved_after::<Jobs>(c, no_effect).await);
}

/// Retried but never dead: a job with attempts left is only waiting.
#[wasm_bindgen_test]
async fn l1_dead_is_not_a_retry() {
    let c = find(&JOBS, "jobs-dead");
    let retried = vec![
        enqueue(3),
        Claim(A),
        Fail(A),
        Advance(21),
        Claim(B),
        Fail(B),
    ];
    assert!(!solved_after::<Jobs>(c, retried).await);
}

/// A lost job alone, or the transactional order alone, or a ghost, is half the goal.
#[wasm_bindgen_test]
async fn l1_dual_write_needs_both_halves() {
    let c = find(&JOBS, "jobs-dual-write");
    for half in [
        vec![DualWriteLost],
        vec![OrderWithJob],
        vec![DualWriteGhost, OrderWithJob],
    ] {
        assert!(!solved_after::<Jobs>(c, half).await);
    }
}

/// Three completions that keep their rows, or rows deleted before three were enqueued, are
/// not the goal.
#[wasm_bindgen_test]
async fn l1_no_rows_left_needs_three_deleted_completions() {
    let c = find(&JOBS, "jobs-no-rows-left");
    let mut kept = vec![];
    for _ in 0..3 {
        kept.extend([enqueue(5), Claim(A), Complete(A)]);
    }
    assert!(!solved_after::<Jobs>(c, kept).await);
    let two = vec![
        DeleteOnComplete(true),
        enqueue(5),
        Claim(A),
        Complete(A),
        enqueue(5),
        Claim(A),
        Complete(A),
    ];
    assert!(!solved_after::<Jobs>(c, two).await);
}

/// Each challenge has a hint and at most MAX_HINTS, a solution, and an id unique on the site
/// that names its lab.
#[wasm_bindgen_test]
fn l1_challenges_are_well_formed() {
    let mut ids = std::collections::HashSet::new();
    for c in &JOBS {
        assert!((1..=MAX_HINTS).contains(&c.hints.len()), "{}", c.id);
        assert!(!(c.solution)().is_empty(), "{}", c.id);
        assert!(c.id.starts_with("jobs-"), "{}", c.id);
        assert!(ids.insert(c.id), "{} twice", c.id);
    }
    assert!(JOBS.len() >= 4);
}
