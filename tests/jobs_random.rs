//! L1's queue invariants under seeded random action sequences, against real PGlite in
//! headless Chromium, through the lab's own model (the same code the buttons run).
//! Its own test binary: wasm-bindgen-test's time limit is per binary.
//!
//! 500 sequences of 16 steps by default; a longer soak: `QUEUE_LAB_SEQUENCES=2000 cargo test
//! --target wasm32-unknown-unknown --test jobs_random` (read when the test is compiled).
//! A failure names its seed and step; the generator is deterministic, so the seed replays.
//!
//! Every action kind of the article's queue runs, §2's DELETE on completion switched on and
//! off among them (the lab's own per-key actions are checked in tests/jobs.rs), and the test
//! counts what each did (a completion that deleted its row, a requeue that
//! revived a dead job, an order committed ① and its rolled-back twin ②, the LISTEN
//! connection dropped and restored, NOTIFY payloads of 7999 and 8000 bytes, ...). With 200
//! sequences or more it asserts each of those happened often enough, so a generator change
//! that stops producing one of them fails here instead of quietly testing less.
//!
//! The lease invariant: before each claim the test reads the jobs whose lease is live at lab
//! time; the job the claim hands out must not be one of them. And a worker whose claim was
//! taken over changes nothing, also after its job died and was requeued (requeue.sql keeps
//! attempts counting up, so the attempt guard never mistakes a stale claim for the newest).

use queue_lab::db::{Db, Param};
use queue_lab::labs::jobs::model::{self, Action, EnqueueInput, Lab, Outcome, WorkerId};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const STEPS_PER_SEQUENCE: usize = 16;

/// NOTIFY payload sizes around the limit (a payload must be shorter than 8000 bytes).
const NOTIFY_SIZES: [usize; 5] = [7998, 7999, 8000, 8001, 16];

#[derive(Deserialize, Debug)]
struct N {
    n: i64,
}

async fn count(db: &Db, sql: &str, params: &[Param]) -> i64 {
    db.query::<N>(sql, params).await.unwrap().first().unwrap().n
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
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// A job row, read after every step. `claimable` is what claim.sql would take at this lab
/// time (the same condition); it is not part of the row's identity (time moves it).
#[derive(Deserialize, Debug, Clone)]
struct Row {
    id: i64,
    status: String,
    priority: i32,
    run_at: String,
    attempts: i32,
    max_attempts: i32,
    locked_until: Option<String>,
    last_error: Option<String>,
    claimable: bool,
}

impl Row {
    /// The stored columns, without the time-dependent `claimable`.
    fn stored(&self) -> (&str, i32, &str, i32, i32, Option<&str>, Option<&str>) {
        (
            &self.status,
            self.priority,
            &self.run_at,
            self.attempts,
            self.max_attempts,
            self.locked_until.as_deref(),
            self.last_error.as_deref(),
        )
    }
}

const ROWS_SQL: &str = "select id, status, priority, run_at::text as run_at, attempts, \
     max_attempts, locked_until::text as locked_until, last_error, \
     (status = 'ready' and run_at <= now()) \
       or (status = 'running' and locked_until < now() and attempts < max_attempts) \
       as claimable \
     from jobs order by id";

/// Jobs whose lease is live at lab time (now() is the lab's virtual clock). A lease is live
/// through its last instant: claim.sql revives only `locked_until < now()`.
const LIVE_LEASES_SQL: &str =
    "select id as n from jobs where status = 'running' and locked_until >= now()";

async fn rows(db: &Db) -> Vec<Row> {
    db.query::<Row>(ROWS_SQL, &[]).await.unwrap().rows
}

/// What the generated sequences did, counted over the whole run.
#[derive(Default, Debug)]
struct Kinds(BTreeMap<&'static str, u64>);
impl Kinds {
    fn add(&mut self, kind: &'static str) {
        *self.0.entry(kind).or_default() += 1;
    }
    fn get(&self, kind: &str) -> u64 {
        self.0.get(kind).copied().unwrap_or(0)
    }
}

fn arg<'a>(outcome: &'a Outcome, name: &str) -> Option<&'a str> {
    outcome
        .msg
        .args
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
}

fn arg_id(outcome: &Outcome, name: &str) -> i64 {
    arg(outcome, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("outcome without {name}: {outcome:?}"))
}

/// One random action. The generator leans towards what makes the queue's hard cases
/// happen within a short sequence: a worker that acts (completes, fails, heartbeats) is
/// mostly one holding a claim, a claim mostly comes from an idle live worker, clock steps
/// often outlast the 30 s lease, and Requeue aims at a dead job when there is one (else at
/// any id, which updates 0 rows).
fn random_action(rng: &mut Rng, lab: &Lab, before: &[Row]) -> Action {
    let holding: Vec<WorkerId> = WorkerId::ALL
        .into_iter()
        .filter(|w| lab.worker(*w).holding.is_some())
        .collect();
    let idle: Vec<WorkerId> = WorkerId::ALL
        .into_iter()
        .filter(|w| lab.worker(*w).alive && lab.worker(*w).holding.is_none())
        .collect();
    let mut worker = |among: &[WorkerId]| {
        if among.is_empty() || rng.below(4) == 0 {
            rng.pick(&WorkerId::ALL)
        } else {
            rng.pick(among)
        }
    };
    let w_holding = worker(&holding);
    let w_idle = worker(&idle);
    match rng.below(100) {
        0..=12 => Action::Enqueue(EnqueueInput {
            priority: rng.below(3) as i32,
            max_attempts: rng.pick(&[1, 1, 2, 3]),
            delay_seconds: rng.pick(&[0, 0, 0, 15]),
            ..EnqueueInput::default()
        }),
        13..=17 => Action::OrderWithJob,
        18..=21 => Action::OrderWithJobFails,
        22..=40 => Action::Claim(w_idle),
        41..=48 => Action::Complete(w_holding),
        49..=54 => Action::Fail(w_holding),
        55..=59 => Action::Die(w_holding),
        60..=63 => Action::Heartbeat(w_holding),
        64..=76 => Action::Advance(rng.pick(&[1, 10, 20, 29, 30, 31, 31, 45, 60])),
        77..=83 => requeue(rng, before),
        84..=87 => Action::Disconnect,
        88..=92 => Action::Reconnect,
        // §2: completing deletes the row from here on, or sets status = 'done' again.
        93..=94 => Action::DeleteOnComplete(!lab.delete_on_complete),
        _ => Action::NotifyBytes(rng.pick(&NOTIFY_SIZES)),
    }
}

fn requeue(rng: &mut Rng, before: &[Row]) -> Action {
    let dead: Vec<i64> = before
        .iter()
        .filter(|r| r.status == "dead")
        .map(|r| r.id)
        .collect();
    if dead.is_empty() {
        Action::Requeue(1 + rng.below(before.len() as u64 + 1) as i64)
    } else {
        Action::Requeue(rng.pick(&dead))
    }
}

/// A step of an episode, decided when the episode starts (Requeue's target when it runs).
enum Plan {
    Do(Action),
    RequeueDead,
}

/// Short scripted episodes for the cases that random steps reach too rarely: a lease that
/// runs out and is taken over while its first worker still believes it holds the job, and
/// a job that dies on its last attempt and is requeued, sometimes with the row deleted by the
/// newer claim's completion under it. Their steps interleave with random
/// ones (each step is the episode's next one two times in three), so the random steps can
/// still get in their way.
fn episode(rng: &mut Rng) -> Vec<Plan> {
    let a = rng.pick(&WorkerId::ALL);
    let b = WorkerId::ALL[(a as usize + 1 + rng.below(2) as usize) % 3];
    let mut plan = Vec::new();
    // One in three under §2's DELETE on completion: B completes the job it took over, which
    // deletes the row, before A's late write (which then matches no row at all).
    let deleting = rng.below(3) == 0;
    if deleting {
        plan.push(Plan::Do(Action::DeleteOnComplete(true)));
    }
    if rng.below(2) == 0 {
        plan.push(Plan::Do(Action::Enqueue(EnqueueInput {
            priority: 2,
            max_attempts: rng.pick(&[1, 2]),
            ..EnqueueInput::default()
        })));
    }
    plan.push(Plan::Do(Action::Claim(a)));
    if rng.below(2) == 0 {
        plan.push(Plan::Do(Action::Die(a)));
    }
    plan.push(Plan::Do(Action::Advance(rng.pick(&[30, 31, 31, 45]))));
    plan.push(Plan::Do(Action::Claim(b)));
    if rng.below(3) == 0 {
        plan.push(Plan::RequeueDead);
        plan.push(Plan::Do(Action::Claim(rng.pick(&WorkerId::ALL))));
    }
    if deleting {
        plan.push(Plan::Do(Action::Complete(b)));
    }
    plan.push(Plan::Do(match rng.below(4) {
        0 => Action::Fail(a),
        1 => Action::Heartbeat(a),
        _ => Action::Complete(a),
    }));
    plan.reverse();
    plan
}

/// The next action: the running episode's next step, a new episode's first, or a random one.
fn generate(rng: &mut Rng, pending: &mut Vec<Plan>, lab: &Lab, before: &[Row]) -> Action {
    if pending.is_empty() && rng.below(100) < 8 {
        *pending = episode(rng);
    }
    if !pending.is_empty() && rng.below(3) != 0 {
        return match pending.pop().unwrap() {
            Plan::Do(action) => action,
            Plan::RequeueDead => requeue(rng, before),
        };
    }
    random_action(rng, lab, before)
}

/// Seeded random action sequences, invariants checked after every step.
#[wasm_bindgen_test]
async fn random_sequences_keep_every_queue_invariant() {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    let sequences: u64 = option_env!("QUEUE_LAB_SEQUENCES")
        .and_then(|n| n.parse().ok())
        .unwrap_or(500);
    let started = js_sys::Date::now();
    let mut kinds = Kinds::default();
    for seed in 0..sequences {
        let mut rng = Rng(seed);
        let mut lab = Lab::setup(&db).await.unwrap();
        let mut before = rows(&db).await;
        let mut orders = 0;
        let mut pending = Vec::new();
        // Claims as the test sees them: each gets a serial; the job's newest claim is the
        // only one whose worker may still change the row.
        let mut serial = 0u64;
        let mut newest_claim: BTreeMap<i64, u64> = BTreeMap::new();
        let mut claim_of: [Option<u64>; 3] = [None; 3];
        // Jobs requeued since a worker's claim: see `requeued_under`.
        let mut requeued_since: BTreeMap<i64, u64> = BTreeMap::new();
        for step in 0..STEPS_PER_SEQUENCE {
            let action = generate(&mut rng, &mut pending, &lab, &before);
            let ctx = |rows: &[Row]| format!("seed {seed} step {step} {action:?}; rows {rows:?}");
            let live_before: BTreeSet<i64> = match action {
                Action::Claim(_) => db
                    .query::<N>(LIVE_LEASES_SQL, &[])
                    .await
                    .unwrap()
                    .rows
                    .into_iter()
                    .map(|r| r.n)
                    .collect(),
                _ => BTreeSet::new(),
            };
            let workers_before = lab.workers.clone();
            let (connected, delivered, lost, history) = (
                lab.connected,
                lab.delivered.len(),
                lab.lost.len(),
                lab.history.len(),
            );
            let result = lab.run(&db, action.clone()).await;
            let after = rows(&db).await;
            let ctx = || ctx(&after);

            // NOTIFY payloads: shorter than 8000 bytes goes through, 8000 and more is refused
            // with Postgres's error and leaves the lab and the tables as they were.
            let outcome = match (&action, result) {
                (Action::NotifyBytes(n), Err(e)) if *n >= model::NOTIFY_LIMIT => {
                    assert_eq!(e.code.as_deref(), Some("22023"), "{e}: {}", ctx());
                    assert!(e.message.contains("too long"), "{e}: {}", ctx());
                    assert_eq!(lab.history.len(), history, "{}", ctx());
                    assert_eq!(lab.workers, workers_before, "{}", ctx());
                    assert_eq!(
                        (lab.connected, lab.delivered.len(), lab.lost.len()),
                        (connected, delivered, lost),
                        "a refused NOTIFY changed the lab: {}",
                        ctx()
                    );
                    assert_eq!(after.len(), before.len(), "{}", ctx());
                    for (b, a) in before.iter().zip(&after) {
                        assert_eq!(b.stored(), a.stored(), "{}", ctx());
                    }
                    kinds.add(if *n == 8000 {
                        "notify 8000 refused"
                    } else {
                        "notify > 8000 refused"
                    });
                    None
                }
                (Action::NotifyBytes(n), Ok(_)) if *n >= model::NOTIFY_LIMIT => {
                    panic!("a {n}-byte NOTIFY went through: {}", ctx())
                }
                (_, Err(e)) => panic!("{e}: {}", ctx()),
                (_, Ok(o)) => Some(o),
            };
            assert_eq!(
                lab.history.len(),
                history + usize::from(outcome.is_some()),
                "{}",
                ctx()
            );

            // No job is lost, and a job's id keeps meaning the same job. Only a completion
            // under §2's DELETE-on-complete removes a row: the job its worker held.
            let gone: Vec<i64> = before
                .iter()
                .map(|r| r.id)
                .filter(|id| !after.iter().any(|a| a.id == *id))
                .collect();
            if let Some(id) = gone.first() {
                let completer = match action {
                    Action::Complete(w) => workers_before[w as usize].holding.map(|c| c.job),
                    _ => None,
                };
                assert!(
                    gone.len() == 1 && lab.delete_on_complete && completer == Some(*id),
                    "a job vanished: {gone:?}: {}",
                    ctx()
                );
            }
            let kept: Vec<i64> = before
                .iter()
                .map(|r| r.id)
                .filter(|id| !gone.contains(id))
                .collect();
            let ids_after: Vec<i64> = after.iter().map(|r| r.id).collect();
            assert_eq!(&ids_after[..kept.len()], &kept[..], "{}", ctx());
            let row_before = |id: i64| before.iter().find(|r| r.id == id);
            let row_after = |id: i64| after.iter().find(|r| r.id == id);
            for r in &after {
                assert!(
                    ["ready", "running", "done", "dead"].contains(&r.status.as_str()),
                    "{}",
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
                assert_eq!(
                    r.status == "running",
                    r.locked_until.is_some(),
                    "a lease without a running job, or the reverse: {}",
                    ctx()
                );
                if let Some(b) = row_before(r.id) {
                    if b.status == "done" {
                        assert_eq!(b.stored(), r.stored(), "done is final: {}", ctx());
                    }
                    if r.status == "dead" && b.status != "dead" {
                        // Only a failure or the reap before a claim ends a job.
                        assert!(
                            matches!(action, Action::Fail(_) | Action::Claim(_)),
                            "{}",
                            ctx()
                        );
                    }
                }
            }

            // Notifications: a NOTIFY that commits reaches the listener exactly once while it
            // is connected and is lost while it is not; nothing else delivers anything.
            let notified = match (&action, &outcome) {
                (Action::Enqueue(_), Some(o)) => Some(arg_id(o, "id").to_string()),
                (Action::OrderWithJob, Some(o)) => Some(arg_id(o, "job").to_string()),
                (Action::NotifyBytes(n), Some(_)) => Some("x".repeat(*n)),
                _ => None,
            };
            match notified {
                Some(payload) if connected => {
                    assert_eq!(lab.delivered.len(), delivered + 1, "{}", ctx());
                    assert_eq!(lab.delivered.last().unwrap().1, payload, "{}", ctx());
                    assert_eq!(lab.lost.len(), lost, "{}", ctx());
                }
                Some(payload) => {
                    assert_eq!(lab.delivered.len(), delivered, "{}", ctx());
                    assert_eq!(lab.lost.last(), Some(&payload), "{}", ctx());
                    assert_eq!(lab.lost.len(), lost + 1, "{}", ctx());
                    kinds.add("notify lost while disconnected");
                }
                None => assert_eq!(
                    (lab.delivered.len(), lab.lost.len()),
                    (delivered, lost),
                    "a notification from nowhere: {}",
                    ctx()
                ),
            }

            let Some(outcome) = outcome else {
                before = after;
                continue;
            };
            match &action {
                Action::Enqueue(input) => {
                    assert_eq!(after.len(), before.len() + 1, "{}", ctx());
                    let r = after.last().unwrap();
                    assert_eq!(
                        (r.id, r.status.as_str(), r.attempts, r.max_attempts),
                        (arg_id(&outcome, "id"), "ready", 0, input.max_attempts),
                        "{}",
                        ctx()
                    );
                    kinds.add("enqueue");
                }
                Action::OrderWithJob => {
                    // ① The order and its job commit together.
                    orders += 1;
                    let (order, job) = (arg_id(&outcome, "order"), arg_id(&outcome, "job"));
                    assert_eq!(after.len(), before.len() + 1, "{}", ctx());
                    assert_eq!(after.last().unwrap().id, job, "{}", ctx());
                    let both = count(
                        &db,
                        "select count(*) as n from orders o join jobs j \
                         on j.payload->>'order_id' = o.id::text where o.id = $1 and j.id = $2",
                        &[order.into(), job.into()],
                    )
                    .await;
                    assert_eq!(both, 1, "① order {order} with job {job}: {}", ctx());
                    kinds.add("order + job committed (1)");
                }
                Action::OrderWithJobFails => {
                    // ② Rolled back: neither the order nor the job it wrote exists.
                    let (order, job) = (arg_id(&outcome, "order"), arg_id(&outcome, "job"));
                    assert_eq!(after.len(), before.len(), "{}", ctx());
                    assert!(row_after(job).is_none(), "② left job {job}: {}", ctx());
                    let left = count(
                        &db,
                        "select count(*) as n from orders where id = $1",
                        &[order.into()],
                    )
                    .await;
                    assert_eq!(left, 0, "② left order {order}: {}", ctx());
                    assert_eq!(arg(&outcome, "n"), Some("0"), "{}", ctx());
                    kinds.add("order + job rolled back (2)");
                }
                Action::Claim(w) => {
                    let had = workers_before[*w as usize].clone();
                    let now_holds = lab.worker(*w).holding;
                    if !had.alive || had.holding.is_some() {
                        assert_eq!(now_holds, had.holding, "{}", ctx());
                        kinds.add("claim refused (dead or busy worker)");
                    } else if let Some(c) = now_holds {
                        // The lease invariant: no claim takes a job whose lease was live.
                        assert!(
                            !live_before.contains(&c.job),
                            "claimed job {} under a live lease (live: {live_before:?}): {}",
                            c.job,
                            ctx()
                        );
                        assert_eq!(outcome.touched, vec![c.job], "{}", ctx());
                        let b = row_before(c.job).expect("claimed an existing job");
                        assert!(b.claimable, "claimed an unclaimable job: {}", ctx());
                        let top = before
                            .iter()
                            .filter(|r| r.claimable)
                            .map(|r| r.priority)
                            .max();
                        assert_eq!(Some(b.priority), top, "priority order: {}", ctx());
                        let a = row_after(c.job).unwrap();
                        assert_eq!(
                            (a.status.as_str(), a.attempts),
                            ("running", b.attempts + 1),
                            "{}",
                            ctx()
                        );
                        assert_eq!(c.attempt, a.attempts, "{}", ctx());
                        serial += 1;
                        newest_claim.insert(c.job, serial);
                        claim_of[*w as usize] = Some(serial);
                        kinds.add(if b.status == "running" {
                            "claim took over an expired lease"
                        } else {
                            "claim took a ready job"
                        });
                    } else {
                        let claimable = before.iter().filter(|r| r.claimable).count();
                        assert_eq!(claimable, 0, "work left unclaimed: {}", ctx());
                        kinds.add("claim found nothing");
                    }
                    if after
                        .iter()
                        .any(|r| r.status == "dead" && row_before(r.id).unwrap().status != "dead")
                    {
                        kinds.add("reap made a dead job");
                    }
                }
                Action::Complete(w) | Action::Fail(w) | Action::Heartbeat(w) => {
                    let had = workers_before[*w as usize].clone();
                    // A newer claim of the held job completed it under DELETE-on-complete:
                    // the row is gone and this worker's write matches nothing.
                    let row_gone = had.holding.filter(|c| row_before(c.job).is_none());
                    if let Some(c) = row_gone {
                        assert!(row_after(c.job).is_none(), "{}", ctx());
                        if matches!(action, Action::Complete(_)) {
                            assert_eq!(arg(&outcome, "rows"), Some("0"), "{}", ctx());
                        }
                        kinds.add("stale write to a deleted row: 0 rows");
                    }
                    if let Some(c) = had.holding.filter(|_| row_gone.is_none()) {
                        let b = row_before(c.job).expect("a held job exists");
                        let a = row_after(c.job);
                        let refused =
                            matches!(action, Action::Fail(_) | Action::Heartbeat(_)) && !had.alive;
                        let guard_passes = b.status == "running" && b.attempts == c.attempt;
                        let newest = claim_of[*w as usize] == newest_claim.get(&c.job).copied();
                        let requeued_under = requeued_since
                            .get(&c.job)
                            .is_some_and(|at| Some(*at) > claim_of[*w as usize]);
                        if refused {
                            kinds.add("fail/heartbeat refused (dead worker)");
                        } else if !newest {
                            if requeued_under {
                                // The case that once slipped through: the job died on its
                                // last attempt while this worker held it, was requeued, and
                                // claimed again. requeue.sql keeps attempts counting up, so
                                // the new claim's attempt differs and the guard holds.
                                kinds.add("stale write after requeue: 0 rows");
                            }
                            assert!(!guard_passes, "{}", ctx());
                            kinds.add(match (&action, had.alive) {
                                (Action::Complete(_), false) => {
                                    "late completion after takeover: 0 rows"
                                }
                                (Action::Complete(_), true) => {
                                    "stale completion after takeover: 0 rows"
                                }
                                _ => "stale fail/heartbeat after takeover: 0 rows",
                            });
                        }
                        if refused || !guard_passes {
                            // A worker whose lease was taken over (or whose job moved on)
                            // changes nothing: its UPDATE matched 0 rows.
                            let a = a.expect("a stale write deletes nothing");
                            assert_eq!(b.stored(), a.stored(), "a stale write landed: {}", ctx());
                            if matches!(action, Action::Complete(_)) {
                                assert_eq!(arg(&outcome, "rows"), Some("0"), "{}", ctx());
                            }
                        } else {
                            let expect = match action {
                                Action::Complete(_) => "done",
                                Action::Heartbeat(_) => "running",
                                _ if b.attempts >= b.max_attempts => "dead",
                                _ => "ready",
                            };
                            if matches!(action, Action::Complete(_)) && lab.delete_on_complete {
                                assert!(a.is_none(), "DELETE left the row: {}", ctx());
                                kinds.add("completion deleted the row");
                            } else {
                                let a = a.expect("the job's row stays");
                                assert_eq!(a.status, expect, "{}", ctx());
                            }
                            if matches!(action, Action::Complete(_)) {
                                assert_eq!(arg(&outcome, "rows"), Some("1"), "{}", ctx());
                            }
                        }
                        if matches!(action, Action::Fail(_))
                            && a.is_some_and(|a| a.status == "dead")
                            && !refused
                        {
                            kinds.add("fail made a dead job");
                        }
                    }
                    kinds.add(match action {
                        Action::Complete(_) => "complete",
                        Action::Fail(_) => "fail",
                        _ => "heartbeat",
                    });
                }
                Action::Die(_) => kinds.add("die"),
                Action::Advance(_) => kinds.add("advance"),
                Action::Requeue(id) => {
                    let was_dead = row_before(*id).is_some_and(|r| r.status == "dead");
                    assert_eq!(
                        outcome.msg.key == "jobs.out.requeued",
                        was_dead,
                        "{}",
                        ctx()
                    );
                    if was_dead {
                        let (b, a) = (row_before(*id).unwrap(), row_after(*id).unwrap());
                        // A fresh budget of attempts; the count itself never goes back.
                        assert_eq!(
                            (a.status.as_str(), a.attempts, a.max_attempts),
                            ("ready", b.attempts, b.attempts + b.max_attempts),
                            "{}",
                            ctx()
                        );
                        serial += 1;
                        requeued_since.insert(*id, serial);
                        kinds.add("requeue of a dead job");
                    } else {
                        for (b, a) in before.iter().zip(&after) {
                            assert_eq!(b.stored(), a.stored(), "{}", ctx());
                        }
                        kinds.add("requeue of a job not dead: 0 rows");
                    }
                }
                Action::Disconnect => {
                    assert!(!lab.connected, "{}", ctx());
                    if connected {
                        kinds.add("disconnect (LISTEN dropped)");
                    }
                }
                Action::Reconnect => {
                    assert!(lab.connected, "{}", ctx());
                    if !connected {
                        let claimable = after.iter().filter(|r| r.claimable).count();
                        assert_eq!(
                            arg(&outcome, "n"),
                            Some(claimable.to_string().as_str()),
                            "the rescan counts what is claimable: {}",
                            ctx()
                        );
                        kinds.add("reconnect (LISTEN restored)");
                    }
                }
                Action::NotifyBytes(n) => kinds.add(if *n == 7999 {
                    "notify 7999 accepted"
                } else {
                    "notify < 7999 accepted"
                }),
                Action::DeleteOnComplete(on) => {
                    assert_eq!(lab.delete_on_complete, *on, "{}", ctx());
                    for (b, a) in before.iter().zip(&after) {
                        assert_eq!(
                            b.stored(),
                            a.stored(),
                            "the switch changed a row: {}",
                            ctx()
                        );
                    }
                    kinds.add("DELETE on completion switched");
                }
                // The lab's own per-key actions and the lessons' (dual write, idempotency
                // key, NOTIFY burst) are not generated here; tests/jobs.rs checks them.
                Action::EnqueueKeyed(_)
                | Action::PerKeyClaim(_)
                | Action::DualWriteLost
                | Action::DualWriteGhost
                | Action::Effect(_)
                | Action::NotifyBurst(_) => {
                    unreachable!("the generator makes no per-key or lesson action")
                }
            }
            assert_eq!(
                count(&db, "select count(*) as n from orders", &[]).await,
                orders,
                "only a committed ① leaves an order: {}",
                ctx()
            );
            for (i, wk) in lab.workers.iter().enumerate() {
                if wk.holding.is_none() {
                    claim_of[i] = None;
                }
            }
            before = after;
        }
        // No job is lost: each is done, dead, or claimable once its time comes.
        lab.run(&db, Action::Advance(86_400)).await.unwrap();
        db.exec(model::REAP_SQL).await.unwrap();
        let stuck = count(
            &db,
            "select count(*) as n from jobs where not (status in ('done', 'dead') \
             or (status = 'ready' and run_at <= now()) \
             or (status = 'running' and locked_until < now() and attempts < max_attempts))",
            &[],
        )
        .await;
        assert_eq!(stuck, 0, "seed {seed}: a job can never be claimed again");
    }
    let seconds = (js_sys::Date::now() - started) / 1000.0;
    console_log!(
        "{sequences} sequences × {STEPS_PER_SEQUENCE} steps in {seconds:.1} s; kinds: {:#?}",
        kinds.0
    );
    // Each kind must have run, in proportion to the number of sequences (the minimums are
    // about a third of what the default 500 produce, and at least 1), so that a generator
    // change that drops one fails here. Fewer than 200 sequences are too few to ask that of.
    if sequences >= 200 {
        let per_1000 = [
            ("enqueue", 650),
            ("order + job committed (1)", 190),
            ("order + job rolled back (2)", 170),
            ("claim took a ready job", 470),
            ("claim took over an expired lease", 50),
            ("claim found nothing", 600),
            ("reap made a dead job", 40),
            ("fail made a dead job", 20),
            ("requeue of a dead job", 20),
            ("requeue of a job not dead: 0 rows", 330),
            ("late completion after takeover: 0 rows", 8),
            ("stale completion after takeover: 0 rows", 10),
            ("stale fail/heartbeat after takeover: 0 rows", 10),
            ("disconnect (LISTEN dropped)", 120),
            ("reconnect (LISTEN restored)", 35),
            ("notify lost while disconnected", 160),
            ("notify 7999 accepted", 60),
            ("notify 8000 refused", 60),
            ("notify > 8000 refused", 65),
            ("complete", 430),
            ("fail", 280),
            ("die", 340),
            ("heartbeat", 210),
            ("advance", 730),
            ("DELETE on completion switched", 180),
            ("stale write to a deleted row: 0 rows", 10),
            ("completion deleted the row", 40),
        ];
        let short: Vec<String> = per_1000
            .iter()
            .map(|(kind, min)| (kind, kinds.get(kind), (min * sequences / 1000).max(1)))
            .filter(|(_, ran, min)| ran < min)
            .map(|(kind, ran, min)| format!("{kind}: {ran} < {min}"))
            .collect();
        assert!(short.is_empty(), "kinds that ran too rarely: {short:?}");
    }
    db.close().await;
}
