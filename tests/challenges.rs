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

/// Each challenge of `list` has a hint and at most MAX_HINTS, a solution, and an id unique in
/// its list that starts with its lab's `prefix`; a lab has at least four.
fn assert_well_formed<A>(list: &[Challenge<A>], prefix: &str) {
    let mut ids = std::collections::HashSet::new();
    for c in list {
        assert!((1..=MAX_HINTS).contains(&c.hints.len()), "{}", c.id);
        assert!(!(c.solution)().is_empty(), "{}", c.id);
        assert!(c.id.starts_with(prefix), "{}", c.id);
        assert!(ids.insert(c.id), "{} twice", c.id);
    }
    assert!(list.len() >= 4, "{prefix}: {} challenges", list.len());
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

#[wasm_bindgen_test]
fn l1_challenges_are_well_formed() {
    assert_well_formed(&JOBS, "jobs-");
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
    assert_well_formed(&PGQ, "pgq-");
}

// L3 (vacuum): bloat and VACUUM.

use queue_lab::labs::vacuum::challenges::{round, CHALLENGES as VACUUM};
use queue_lab::labs::vacuum::model::{
    Action as VacAction, AutovacuumInput, Lab as VacLab, RunConfig, Strategy, BATCH_DEFAULT,
};

#[wasm_bindgen_test]
async fn l3_challenges_are_solved_by_their_solutions_only() {
    each_is_solved_by_its_solution_only::<VacLab>(&VACUUM).await;
}

/// The same many pages with its dead tuples gone (VACUUM truncates the emptied table), or
/// with its jobs kept as live done rows, is not a claim reading pages for nothing.
#[wasm_bindgen_test]
async fn l3_bloat_needs_dead_pages_not_vacuumed_or_live_ones() {
    let c = find(&VACUUM, "vacuum-bloat");
    let vacuumed = vec![round(4_000), VacAction::Vacuum];
    assert!(!solved_after::<VacLab>(c, vacuumed).await);
    let kept = vec![VacAction::Run(RunConfig {
        jobs: 4_000,
        rounds: 1,
        batch: BATCH_DEFAULT,
        strategies: vec![Strategy::Keep],
    })];
    assert!(!solved_after::<VacLab>(c, kept).await);
}

/// A long transaction begun after the rows died holds nothing; dead tuples made by a run
/// after the VACUUM are not ones VACUUM kept; no VACUUM at all is not VACUUM removing nothing.
#[wasm_bindgen_test]
async fn l3_pinned_needs_the_horizon_held_across_a_vacuum() {
    use VacAction::*;
    let c = find(&VACUUM, "vacuum-pinned");
    let late = vec![round(100), LongTx(true), Vacuum];
    assert!(!solved_after::<VacLab>(c, late).await);
    let free_then_run = vec![round(100), Vacuum, round(100)];
    assert!(!solved_after::<VacLab>(c, free_then_run).await);
    let no_vacuum = vec![LongTx(true), round(100)];
    assert!(!solved_after::<VacLab>(c, no_vacuum).await);
}

/// VACUUM again while the transaction still holds the horizon clears nothing; released but
/// never vacuumed again, the dead tuples are still there; a new run after the release leaves
/// dead tuples until the next VACUUM.
#[wasm_bindgen_test]
async fn l3_release_needs_the_transaction_ended_and_a_vacuum_after() {
    use VacAction::*;
    let c = find(&VACUUM, "vacuum-release");
    assert!(!solved_after::<VacLab>(c, vec![Vacuum, Vacuum]).await);
    assert!(!solved_after::<VacLab>(c, vec![LongTx(false), round(100)]).await);
    let ran_after = vec![LongTx(false), Vacuum, round(100)];
    assert!(!solved_after::<VacLab>(c, ran_after).await);
}

fn autovacuum(
    s: Strategy,
    threshold: Option<i32>,
    scale: Option<f64>,
    max: Option<i32>,
) -> VacAction {
    VacAction::Autovacuum(
        s,
        AutovacuumInput {
            threshold,
            scale_factor: scale,
            max_threshold: max,
        },
    )
}

/// The article's 1 % still grows with the table; a low base under the default 20 % grows
/// too; a cap above 1,000, or the right cap on another table, is not the goal.
#[wasm_bindgen_test]
async fn l3_autovacuum_needs_a_threshold_that_does_not_grow_past_1000() {
    use Strategy::{Delete, Keep};
    let c = find(&VACUUM, "vacuum-autovacuum");
    for near in [
        autovacuum(Delete, Some(50), Some(0.01), None),
        autovacuum(Delete, Some(1_000), None, None),
        autovacuum(Delete, Some(2_000), Some(0.0), None),
        autovacuum(Delete, None, None, Some(5_000)),
        autovacuum(Keep, None, None, Some(1_000)),
    ] {
        assert!(
            !solved_after::<VacLab>(c, vec![near.clone()]).await,
            "{near:?}"
        );
    }
    // The other way to the goal: no growing part, a base of 1,000.
    let flat = autovacuum(Delete, Some(1_000), Some(0.0), None);
    assert!(solved_after::<VacLab>(c, vec![flat]).await);
}

#[wasm_bindgen_test]
fn l3_challenges_are_well_formed() {
    assert_well_formed(&VACUUM, "vacuum-");
}
