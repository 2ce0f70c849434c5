//! The labs' challenges, against real PGlite in headless Chromium, through each lab's own
//! model (the code the buttons run) and its check (the statement the page runs): the
//! starting state is not solved, the solution is, and a path that comes close is not.

use queue_lab::db::Db;
use queue_lab::labs::challenge::{check, Challenge, MAX_HINTS};
use queue_lab::labs::harness::LabModel;
use queue_lab::labs::jobs::challenges::CHALLENGES as JOBS;
use queue_lab::labs::jobs::model::{Action, EnqueueInput, Lab as Jobs, WorkerId};
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
    let sql = c.check.sql().expect("an SQL check");
    let solved = check(&db, sql).await.expect("the check runs");
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

// L4 (pgq): PgQue's rotating queue.

use queue_lab::labs::pgq::challenges::CHALLENGES as PGQ;
use queue_lab::labs::pgq::model::{
    Action as PgqAction, Lab as Pgq, DEAD_SECONDS, ROTATION_SECONDS,
};

fn receive(consumer: &str) -> PgqAction {
    PgqAction::Receive {
        consumer: consumer.into(),
        max: 100,
    }
}

fn ack(consumer: &str) -> PgqAction {
    PgqAction::AckHeld(consumer.into())
}

fn part(sub: &str) -> PgqAction {
    PgqAction::ReceiveCoop {
        consumer: "audit".into(),
        sub: sub.into(),
        max: 100,
    }
}

fn ack_part(sub: &str) -> PgqAction {
    PgqAction::AckCoop {
        consumer: "audit".into(),
        sub: sub.into(),
    }
}

fn kill(sub: &str) -> PgqAction {
    PgqAction::Kill {
        consumer: "audit".into(),
        sub: sub.into(),
    }
}

#[wasm_bindgen_test]
async fn l4_challenges_are_solved_by_their_solutions_only() {
    each_is_solved_by_its_solution_only::<Pgq>(&PGQ).await;
}

/// Rotation held back by both consumers (neither moved), or by none (both acked a batch
/// after step 2), is not one consumer holding it.
#[wasm_bindgen_test]
async fn l4_stall_is_one_consumer_behind_not_both_or_none() {
    let c = find(&PGQ, "pgq-stall");
    let past = PgqAction::Advance(ROTATION_SECONDS + 1);
    assert!(!solved_after::<Pgq>(c, vec![past.clone()]).await);
    let both = vec![
        PgqAction::SendOne,
        PgqAction::Tick,
        receive("billing"),
        ack("billing"),
        receive("email"),
        ack("email"),
        past,
    ];
    assert!(!solved_after::<Pgq>(c, both).await);
}

/// An event whose transaction committed before the tick, or one that never committed, is not
/// late.
#[wasm_bindgen_test]
async fn l4_late_event_needs_a_transaction_open_across_the_tick() {
    use PgqAction::*;
    let c = find(&PGQ, "pgq-late-event");
    let ordinary = vec![SendOne, Tick, receive("billing")];
    assert!(!solved_after::<Pgq>(c, ordinary).await);
    let committed_first = vec![Prepare, CommitPrepared, Tick, receive("billing")];
    assert!(!solved_after::<Pgq>(c, committed_first).await);
    let rolled_back = vec![
        Prepare,
        SendOne,
        Tick,
        receive("billing"),
        ack("billing"),
        RollbackPrepared,
        Tick,
        receive("billing"),
    ];
    assert!(!solved_after::<Pgq>(c, rolled_back).await);
}

/// billing and email sharing an event is not a new consumer's; a consumer subscribed after
/// the event's tick never sees it; an acked batch is not held.
#[wasm_bindgen_test]
async fn l4_fan_out_needs_a_new_consumer_holding_the_same_event() {
    use PgqAction::*;
    let c = find(&PGQ, "pgq-fan-out");
    let old_pair = vec![SendOne, Tick, receive("billing"), receive("email")];
    assert!(!solved_after::<Pgq>(c, old_pair).await);
    let too_late = vec![
        SendOne,
        Tick,
        Subscribe("audit".into()),
        Tick,
        receive("billing"),
        receive("audit"),
    ];
    assert!(!solved_after::<Pgq>(c, too_late).await);
    let acked = vec![
        Subscribe("audit".into()),
        SendOne,
        Tick,
        receive("audit"),
        ack("audit"),
        receive("billing"),
    ];
    assert!(!solved_after::<Pgq>(c, acked).await);
}

/// A member that acks leaves nothing to take over, and a dead member's batch is not taken
/// over before the dead interval.
#[wasm_bindgen_test]
async fn l4_takeover_needs_a_dead_member_and_the_dead_interval() {
    use PgqAction::*;
    let c = find(&PGQ, "pgq-takeover");
    let acked = vec![
        part("w1"),
        part("w2"),
        ack_part("w1"),
        ack_part("w2"),
        Advance(DEAD_SECONDS + 1),
        part("w2"),
    ];
    assert!(!solved_after::<Pgq>(c, acked).await);
    let too_soon = vec![
        part("w1"),
        part("w2"),
        kill("w1"),
        ack_part("w2"),
        part("w2"),
    ];
    assert!(!solved_after::<Pgq>(c, too_soon).await);
}

#[wasm_bindgen_test]
fn l4_challenges_are_well_formed() {
    let mut ids = std::collections::HashSet::new();
    for c in &PGQ {
        assert!((1..=MAX_HINTS).contains(&c.hints.len()), "{}", c.id);
        assert!(!(c.solution)().is_empty(), "{}", c.id);
        assert!(c.id.starts_with("pgq-"), "{}", c.id);
        assert!(ids.insert(c.id), "{} twice", c.id);
    }
    assert!(PGQ.len() >= 4);
}
