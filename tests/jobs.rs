//! L1's must-show behaviours, against real PGlite in headless Chromium, through the lab's
//! own model (the same code the buttons run).

use queue_lab::db::Db;
use queue_lab::labs::jobs::model::{self, Action, EnqueueInput, Lab, Verdict, WorkerId};
use queue_lab::testing::{run, run_all, run_says};
use serde::Deserialize;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use Action::*;
use WorkerId::{A, B, C};

async fn lab() -> (Db, Lab) {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    let lab = Lab::setup(&db).await.expect("jobs lab sets up");
    (db, lab)
}

#[derive(Deserialize, Debug)]
struct N {
    n: i64,
}

async fn count(db: &Db, sql: &str) -> i64 {
    db.query::<N>(sql, &[]).await.unwrap().first().unwrap().n
}

/// How many orders and how many jobs there are.
async fn orders_and_jobs(db: &Db) -> (i64, i64) {
    (
        count(db, "select count(*) as n from orders").await,
        count(db, "select count(*) as n from jobs").await,
    )
}

/// How many jobs have `status`.
async fn jobs_in(db: &Db, status: &str) -> i64 {
    count(
        db,
        &format!("select count(*) as n from jobs where status = '{status}'"),
    )
    .await
}

fn job(priority: i32) -> Action {
    Enqueue(EnqueueInput {
        priority,
        ..EnqueueInput::default()
    })
}

/// Enqueues a job that may be attempted `max_attempts` times.
fn job_with_attempts(max_attempts: i32) -> Action {
    Enqueue(EnqueueInput {
        max_attempts,
        ..EnqueueInput::default()
    })
}

/// A fresh lab in which worker A has claimed the one job `enqueue` made, and that job's id.
async fn claimed_by_a(enqueue: Action) -> (Db, Lab, i64) {
    let (db, mut lab) = lab().await;
    run_all(&mut lab, &db, [enqueue, Claim(A)]).await;
    let id = lab.worker(A).holding.expect("A claimed").job;
    (db, lab, id)
}

/// B's claim finds nothing `secs` seconds on (still within `within`), and the job 2 s later:
/// what B then holds.
async fn claims_only_after(lab: &mut Lab, db: &Db, secs: i64, within: &str) -> model::Claim {
    run_all(lab, db, [Advance(secs), Claim(B)]).await;
    assert_eq!(lab.worker(B).holding, None, "B claimed within {within}");
    run_all(lab, db, [Advance(2), Claim(B)]).await;
    lab.worker(B)
        .holding
        .unwrap_or_else(|| panic!("B claimed nothing at +{} s", secs + 2))
}

/// A fresh lab on `db` that has run every step of the share text `text`.
async fn replay(db: &Db, text: &str) -> Lab {
    let mut replayed = Lab::setup(db).await.unwrap();
    for s in queue_lab::labs::jobs::share::decode(text).unwrap() {
        run(&mut replayed, db, s).await;
    }
    replayed
}

#[wasm_bindgen_test]
async fn rolled_back_order_leaves_no_order_no_job_and_no_notification() {
    let (db, mut lab) = lab().await;
    run(&mut lab, &db, OrderWithJobFails).await;
    assert_eq!(orders_and_jobs(&db).await, (0, 0));
    assert!(
        lab.delivered.is_empty(),
        "a rolled-back NOTIFY arrived: {:?}",
        lab.delivered
    );
    assert!(lab.workers.iter().all(|w| w.woken_by.is_none()));
    db.close().await;
}

#[wasm_bindgen_test]
async fn committed_order_and_job_both_exist_and_wake_the_listening_worker() {
    let (db, mut lab) = lab().await;
    run(&mut lab, &db, OrderWithJob).await;
    assert_eq!(orders_and_jobs(&db).await, (1, 1));
    let job_id = count(&db, "select id as n from jobs").await;
    assert_eq!(lab.delivered.len(), 1);
    assert_eq!(lab.delivered[0].1, job_id.to_string());
    assert_eq!(
        lab.worker(A).woken_by.as_deref(),
        Some(job_id.to_string().as_str())
    );
    db.close().await;
}

#[wasm_bindgen_test]
async fn higher_priority_is_claimed_first() {
    let (db, mut lab) = lab().await;
    run_all(&mut lab, &db, [job(0), job(10), Claim(A)]).await;
    let held = lab.worker(A).holding.expect("A holds a job");
    let priority = count(
        &db,
        &format!(
            "select priority::bigint as n from jobs where id = {}",
            held.job
        ),
    )
    .await;
    assert_eq!(priority, 10);
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_failed_job_waits_out_its_backoff_then_goes_dead_after_max_attempts_and_requeue_revives_it(
) {
    let (db, mut lab) = lab().await;
    run_all(&mut lab, &db, [job_with_attempts(2), Claim(A)]).await;
    run(&mut lab, &db, Fail(A)).await; // attempt 1 failed: run_at = now + 10 s × 2^1
    let held = claims_only_after(&mut lab, &db, 19, "its backoff (+19 s of 20 s)").await;
    assert_eq!(held.attempt, 2);
    run(&mut lab, &db, Fail(B)).await; // attempt 2 of 2: dead
    assert_eq!(jobs_in(&db, "dead").await, 1);
    run_all(&mut lab, &db, [Advance(3600), Claim(C)]).await;
    assert_eq!(lab.worker(C).holding, None, "a dead job is never claimed");
    run_all(&mut lab, &db, [Requeue(held.job), Claim(C)]).await;
    assert_eq!(
        lab.worker(C).holding.map(|c| c.job),
        Some(held.job),
        "requeue makes it claimable"
    );
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_dead_workers_job_returns_after_the_lease_and_its_late_completion_updates_0_rows() {
    let (db, mut lab) = lab().await;
    run_all(&mut lab, &db, [job(0), Claim(A)]).await;
    let a = lab.worker(A).holding.expect("A claimed");
    run(&mut lab, &db, Die(A)).await;
    let b = claims_only_after(&mut lab, &db, 29, "the lease (+29 s of 30 s)").await;
    assert_eq!((b.job, b.attempt), (a.job, 2));
    run_says(&mut lab, &db, Complete(A), "jobs.out.late_complete_0").await;
    assert_eq!(jobs_in(&db, "done").await, 0);
    run_says(&mut lab, &db, Complete(B), "jobs.out.completed").await;
    assert_eq!(jobs_in(&db, "done").await, 1);
    // At-least-once: the lab points at the job that ran twice.
    assert_eq!(
        lab.ran_more_than_once(),
        vec![(a.job, vec![(A, 1), (B, 2)])]
    );
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_notify_payload_of_8000_bytes_is_refused_with_postgres_error_and_7999_goes_through() {
    let (db, mut lab) = lab().await;
    let err = lab.run(&db, NotifyBytes(8000)).await.unwrap_err();
    assert_eq!(err.code.as_deref(), Some("22023"), "{err}");
    assert!(err.message.contains("too long"), "{}", err.message);
    run(&mut lab, &db, NotifyBytes(7999)).await;
    assert_eq!(lab.delivered.len(), 1);
    // The failed action is not in the history: replaying the URL must not fail.
    assert_eq!(lab.history, vec![NotifyBytes(7999)]);
    db.close().await;
}

#[wasm_bindgen_test]
async fn notifications_sent_while_disconnected_are_lost_and_reconnect_rescans() {
    let (db, mut lab) = lab().await;
    run_all(&mut lab, &db, [Disconnect, job(0), OrderWithJob]).await;
    assert!(lab.delivered.is_empty());
    assert_eq!(lab.lost.len(), 2);
    // A committed NOTIFY no one listens to is not called delivered.
    run_says(&mut lab, &db, NotifyBytes(10), "jobs.out.notify_lost").await;
    assert!(lab.delivered.is_empty());
    assert_eq!(lab.lost.len(), 3);
    let back = run_says(&mut lab, &db, Reconnect, "jobs.out.reconnected").await;
    assert!(
        back.msg.args.contains(&("n", "2".to_string())),
        "rescan finds both jobs: {:?}",
        back.msg
    );
    run(&mut lab, &db, job(0)).await;
    assert_eq!(lab.delivered.len(), 1, "listening again after reconnect");
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_shared_url_replays_to_the_same_state() {
    let (db, mut lab) = lab().await;
    let steps = vec![
        job(3),
        job(7),
        OrderWithJob,
        Claim(A),
        Die(A),
        Advance(31),
        Claim(B),
        Complete(A),
        Fail(B),
    ];
    for s in steps {
        run(&mut lab, &db, s).await;
    }
    let before = model::snapshot(&db, &[]).await.unwrap();
    let text = queue_lab::labs::jobs::share::encode(&lab.history);
    let replayed = replay(&db, &text).await;
    let after = model::snapshot(&db, &[]).await.unwrap();
    assert_eq!(before.jobs, after.jobs);
    assert_eq!(replayed.ran_more_than_once(), lab.ran_more_than_once());
    db.close().await;
}

/// With more jobs than the table shows, the job a worker holds still appears, however old,
/// and the counts cover every job.
#[wasm_bindgen_test]
async fn the_table_shows_the_newest_jobs_and_the_held_one_however_old() {
    let (db, mut lab) = lab().await;
    db.exec("insert into jobs (payload) select jsonb_build_object('n', g) from generate_series(1, 80) g")
        .await
        .unwrap();
    run(&mut lab, &db, Claim(A)).await;
    let held = lab.held();
    assert_eq!(held, vec![1], "the oldest job is claimed first");
    let plain = model::snapshot(&db, &[]).await.unwrap();
    assert_eq!(plain.jobs.len() as i64, model::LIST_LIMIT);
    assert_eq!(plain.jobs.first().map(|j| j.id), Some(80), "newest first");
    assert!(plain.jobs.iter().all(|j| j.id != 1));
    let snap = model::snapshot(&db, &held).await.unwrap();
    assert_eq!(snap.jobs.len() as i64, model::LIST_LIMIT + 1);
    let last = snap.jobs.last().unwrap();
    assert_eq!((last.id, last.status.as_str()), (1, "running"));
    assert_eq!((snap.counts.total, snap.counts.running), (80, 1));
    db.close().await;
}

/// The lab's own per-key claim: workers A, B and C claiming two jobs of one key get them one
/// after the other (the second only once the first is done), while a job of another key is
/// not held back; the article's claim hands the second job of the key out at once.
#[wasm_bindgen_test]
async fn the_per_key_claim_holds_a_keys_second_job_until_its_first_completes_and_the_plain_claim_does_not(
) {
    let keyed = |k: &str| EnqueueKeyed(k.to_string());
    // Per key: jobs 1 and 2 of customer-42, then job 3 of customer-7.
    let (db, mut lab) = lab().await;
    run(&mut lab, &db, PerKeyClaim(true)).await;
    for k in ["customer-42", "customer-42", "customer-7"] {
        run(&mut lab, &db, keyed(k)).await;
    }
    assert_eq!(
        count(
            &db,
            "select count(*) as n from jobs where key = 'customer-42'"
        )
        .await,
        2
    );
    run(&mut lab, &db, Claim(A)).await;
    assert_eq!(lab.worker(A).holding.map(|c| c.job), Some(1));
    // B skips job 2 (behind job 1, running) and takes customer-7's job 3.
    run_says(&mut lab, &db, Claim(B), "jobs.out.claimed_key").await;
    assert_eq!(lab.worker(B).holding.map(|c| c.job), Some(3));
    // C finds job 2 held back, with the count of held-back jobs.
    let c = run(&mut lab, &db, Claim(C)).await;
    assert_eq!(lab.worker(C).holding, None);
    assert_eq!(c.msg.key, "jobs.out.held_back");
    assert!(c.msg.args.contains(&("n", "1".to_string())), "{:?}", c.msg);
    assert_eq!(
        count(
            &db,
            "select count(*) as n from jobs where id = 2 and status = 'ready'"
        )
        .await,
        1
    );
    // Once job 1 is done, job 2 is C's.
    run_all(&mut lab, &db, [Complete(A), Claim(C)]).await;
    assert_eq!(lab.worker(C).holding.map(|c| c.job), Some(2));
    db.close().await;

    // The article's claim, same jobs: B gets job 2 while job 1 still runs.
    let (db, mut plain) = self::lab().await;
    for k in ["customer-42", "customer-42", "customer-7"] {
        run(&mut plain, &db, keyed(k)).await;
    }
    run_all(&mut plain, &db, [Claim(A), Claim(B)]).await;
    assert_eq!(plain.worker(A).holding.map(|c| c.job), Some(1));
    assert_eq!(
        plain.worker(B).holding.map(|c| c.job),
        Some(2),
        "the plain claim runs two jobs of one key side by side"
    );
    let running = "select count(*) as n from jobs where key = 'customer-42' and status = 'running'";
    assert_eq!(count(&db, running).await, 2);
    db.close().await;
}

/// Per-key actions travel in the share URL and replay to the same state; a bad key is refused.
#[wasm_bindgen_test]
async fn per_key_actions_replay_from_the_share_text_and_a_bad_key_is_refused() {
    let (db, mut lab) = lab().await;
    let steps = vec![
        EnqueueKeyed("k-1".into()),
        EnqueueKeyed("k-1".into()),
        PerKeyClaim(true),
        Claim(A),
        Claim(B),
    ];
    for s in steps {
        run(&mut lab, &db, s).await;
    }
    assert_eq!(lab.worker(B).holding, None, "job 2 waits behind job 1");
    let text = queue_lab::labs::jobs::share::encode(&lab.history);
    assert!(text.contains("s1") && text.contains("kk~2D1"), "{text}");
    let replayed = replay(&db, &text).await;
    assert!(replayed.per_key);
    assert_eq!(replayed.worker(A).holding.map(|c| c.job), Some(1));
    assert_eq!(replayed.worker(B).holding, None);
    assert!(queue_lab::labs::jobs::share::decode("kbad~20key").is_err());
    run_says(
        &mut lab,
        &db,
        EnqueueKeyed("no spaces".into()),
        "jobs.err.key",
    )
    .await;
    db.close().await;
}

/// §2's DELETE-on-complete: a completed job's row is gone (the SQL that ran is a DELETE), a
/// failed one stays for its retry, the dead versions stay until VACUUM, and the option
/// travels in the share text.
#[wasm_bindgen_test]
async fn with_delete_on_complete_a_completed_jobs_row_is_gone_and_a_failed_one_is_not() {
    use queue_lab::labs::harness::LabModel;
    let (db, mut lab) = lab().await;
    run(&mut lab, &db, DeleteOnComplete(true)).await;
    assert!(lab.delete_on_complete);
    run_all(&mut lab, &db, [job(10), job(0), Claim(A), Claim(B)]).await;
    let a = lab.worker(A).holding.expect("A claimed").job;
    let b = lab.worker(B).holding.expect("B claimed").job;
    let logged = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
    let sink = logged.clone();
    db.log()
        .subscribe(move |e| sink.borrow_mut().push(e.sql.clone()));
    let done = run_says(&mut lab, &db, Complete(A), "jobs.out.deleted").await;
    assert!(done.msg.args.contains(&("rows", "1".to_string())));
    assert_eq!(
        count(
            &db,
            &format!("select count(*) as n from jobs where id = {a}")
        )
        .await,
        0,
        "the completed job's row is deleted"
    );
    assert!(
        logged
            .borrow()
            .iter()
            .any(|sql| sql.contains("delete from jobs")),
        "the SQL log shows the DELETE: {:?}",
        logged.borrow()
    );
    run(&mut lab, &db, Fail(B)).await;
    assert_eq!(
        count(
            &db,
            &format!("select count(*) as n from jobs where id = {b} and status = 'ready' and attempts = 1")
        )
        .await,
        1,
        "a failed job keeps its row for the retry"
    );
    let snap = LabModel::snapshot(&lab, &db).await.unwrap();
    assert_eq!((snap.counts.total, snap.counts.done), (1, 0));
    let table = snap.table.expect("table figures while deleting");
    assert_eq!(table.rows, 1);
    assert!(
        table.dead_versions >= 2,
        "the deleted row and the old versions stay until VACUUM: {table:?}"
    );
    // The share text carries the option and replays it.
    let text = queue_lab::labs::jobs::share::encode(&lab.history);
    assert!(text.starts_with("g1;"), "{text}");
    let mut replayed = replay(&db, &text).await;
    assert!(replayed.delete_on_complete);
    assert_eq!(count(&db, "select count(*) as n from jobs").await, 1);
    // Switched off, completing sets status = 'done' again and the row stays.
    run_all(
        &mut replayed,
        &db,
        [DeleteOnComplete(false), Advance(21), Claim(C)],
    )
    .await;
    let c = replayed.worker(C).holding.expect("C claims the retry").job;
    run_says(&mut replayed, &db, Complete(C), "jobs.out.completed").await;
    assert_eq!(
        count(
            &db,
            &format!("select count(*) as n from jobs where id = {c} and status = 'done'")
        )
        .await,
        1
    );
    assert_eq!(
        LabModel::snapshot(&replayed, &db).await.unwrap().table,
        None
    );
    db.close().await;
}

/// §4's alert: the trigger's NOTIFY job_dead arrives exactly once when a job goes dead (on a
/// failed last attempt, and when the last lease runs out), never on a retry, and also while
/// the workers' LISTEN connection is down.
#[wasm_bindgen_test]
async fn the_dead_alert_fires_once_when_a_job_goes_dead_and_not_on_a_retry() {
    let (db, mut lab, id) = claimed_by_a(job_with_attempts(2)).await;
    run_says(&mut lab, &db, Fail(A), "jobs.out.retry").await;
    assert!(lab.alerts.is_empty(), "a retry alerted: {:?}", lab.alerts);
    run_all(&mut lab, &db, [Disconnect, Advance(21), Claim(B)]).await;
    run_says(&mut lab, &db, Fail(B), "jobs.out.dead").await;
    assert_eq!(lab.alerts.len(), 1, "{:?}", lab.alerts);
    assert_eq!(lab.alerts[0].job, Some(id));
    assert!(
        lab.alerts[0].payload.contains("\"attempts\" : 2"),
        "{:?}",
        lab.alerts[0]
    );
    // Nothing more while it stays dead.
    run_all(&mut lab, &db, [Advance(3600), Claim(C)]).await;
    assert_eq!(lab.alerts.len(), 1, "{:?}", lab.alerts);
    assert_eq!(jobs_in(&db, "dead").await, 1);
    // The other way to dead: the last lease runs out and reap.sql makes it dead.
    run_all(&mut lab, &db, [job_with_attempts(1), Claim(A)]).await;
    let second = lab.worker(A).holding.expect("A claimed the second job").job;
    run_all(&mut lab, &db, [Die(A), Advance(31), Claim(B)]).await;
    assert_eq!(lab.alerts.len(), 2, "{:?}", lab.alerts);
    assert_eq!(lab.alerts[1].job, Some(second));
    db.close().await;
}

/// Each step of L1's tour runs from a fresh lab and shows what its text says.
#[wasm_bindgen_test]
async fn each_tour_step_runs_and_shows_what_it_says() {
    use queue_lab::labs::harness::LabModel;
    use queue_lab::labs::jobs::tour::TOUR;
    for (i, step) in TOUR.iter().enumerate() {
        let (db, mut lab) = lab().await;
        let mut outcomes = Vec::new();
        for a in (step.actions)() {
            outcomes.push((a.clone(), lab.run(&db, a).await));
        }
        // Only step 6's last action fails, as its text says: an 8000-byte NOTIFY is refused.
        for (n, (a, r)) in outcomes.iter().enumerate() {
            let refused = i == 5 && n == outcomes.len() - 1;
            match r {
                Err(e) if refused => assert_eq!(e.code.as_deref(), Some("22023"), "{e}"),
                Err(e) => panic!("step {} action {a:?} failed: {e}", i + 1),
                Ok(_) if refused => panic!("step 6: an 8000-byte NOTIFY went through"),
                Ok(_) => {}
            }
        }
        let last = |k: usize| match &outcomes[outcomes.len() - k].1 {
            Ok(o) => o.clone(),
            Err(e) => panic!("{e}"),
        };
        let jobs = count(&db, "select count(*) as n from jobs").await;
        match i {
            0 => {
                assert_eq!(count(&db, "select count(*) as n from orders").await, 1);
                assert_eq!((jobs, lab.delivered.len()), (1, 1));
            }
            1 => {
                assert_eq!(count(&db, "select count(*) as n from orders").await, 0);
                assert_eq!((jobs, lab.delivered.len()), (0, 0));
            }
            2 => {
                let held = lab.worker(A).holding.expect("A holds a job").job;
                let priority = count(
                    &db,
                    &format!("select priority as n from jobs where id = {held}"),
                )
                .await;
                assert_eq!(priority, 10);
            }
            3 => {
                let dead = jobs_in(&db, "dead").await;
                assert_eq!(dead, 1);
                assert_eq!(lab.alerts.len(), 1, "the job_dead alert fired once");
            }
            4 => {
                // A's late completion updates 0 rows, B's 1; the job ran twice.
                assert!(last(2).msg.args.contains(&("rows", "0".to_string())));
                assert!(last(1).msg.args.contains(&("rows", "1".to_string())));
                assert_eq!(lab.executions.values().map(Vec::len).max(), Some(2));
            }
            5 => {
                assert_eq!(
                    lab.lost.len(),
                    2,
                    "both notifications sent while disconnected"
                );
                assert!(lab.connected);
                assert_eq!(jobs, 2);
            }
            6 => {
                // Both completed jobs' rows are gone; their dead versions stay until VACUUM.
                assert_eq!(jobs, 0);
                let snap = LabModel::snapshot(&lab, &db).await.unwrap();
                assert_eq!((snap.counts.total, snap.counts.done), (0, 0));
                let table = snap.table.expect("table figures while deleting");
                assert!(table.dead_versions >= 2, "{table:?}");
            }
            7 => {
                // customer-42's jobs ran one after the other: C got the second only after A
                // completed the first; B ran customer-7's.
                assert_eq!(lab.worker(B).holding.map(|c| c.job), Some(3));
                assert_eq!(lab.worker(C).holding.map(|c| c.job), Some(2));
                assert_eq!(last(3).msg.key, "jobs.out.held_back", "{:?}", last(3).msg);
            }
            8 => {
                // Order 1 lost its job, order 2's job is a ghost, order 3 and its job
                // committed together, order 4 and its job rolled back together.
                let snap = LabModel::snapshot(&lab, &db).await.unwrap();
                let verdicts: Vec<(i64, Verdict)> = snap
                    .reconciled
                    .iter()
                    .map(|r| (r.order_id, r.verdict()))
                    .collect();
                assert_eq!(
                    verdicts,
                    vec![
                        (1, Verdict::Lost),
                        (2, Verdict::Ghost),
                        (3, Verdict::Consistent),
                        (4, Verdict::Neither)
                    ]
                );
            }
            9 => {
                // B's run of the job skipped the effect A had applied: one row, A's.
                assert_eq!(last(2).msg.key, "jobs.out.effect_skipped");
                let snap = LabModel::snapshot(&lab, &db).await.unwrap();
                assert_eq!(snap.effects.len(), 1);
                assert_eq!(
                    (snap.effects[0].worker.as_str(), snap.effects[0].attempt),
                    ("A", 1)
                );
                assert_eq!(lab.executions.values().map(Vec::len).max(), Some(2));
            }
            10 => {
                let b = lab.burst.clone().expect("the burst measured");
                assert_eq!(last(1).msg.key, "jobs.out.burst_held_then_read");
                assert!(b.during > b.before && b.idle < b.during, "{b:?}");
            }
            _ => unreachable!("the tour has eleven steps"),
        }
        db.close().await;
    }
}

/// §1's dual write with the simulated broker: an order committed before a publish that fails
/// has no job anywhere (lost); a job published before its order rolls back is a job for an
/// order that does not exist (ghost). The transactional enqueue, beside them, leaves neither.
/// Each verdict is read by broker_check.sql from the orders and jobs tables.
#[wasm_bindgen_test]
async fn a_dual_write_loses_a_job_or_leaves_a_ghost_and_the_transactional_enqueue_does_neither() {
    use queue_lab::labs::harness::LabModel;
    let (db, mut lab) = lab().await;
    run_says(&mut lab, &db, DualWriteLost, "jobs.out.dual_lost").await;
    assert_eq!(count(&db, "select count(*) as n from orders").await, 1);
    assert_eq!(count(&db, "select count(*) as n from jobs").await, 0);
    assert!(
        lab.broker.is_empty(),
        "the failed publish reached the broker"
    );
    run_says(&mut lab, &db, DualWriteGhost, "jobs.out.dual_ghost").await;
    assert_eq!(lab.broker, vec![2], "the publish outlives the rollback");
    assert_eq!(
        count(&db, "select count(*) as n from orders where id = 2").await,
        0,
        "the rolled-back order is gone"
    );
    run_all(&mut lab, &db, [OrderWithJob, OrderWithJobFails]).await;
    let snap = LabModel::snapshot(&lab, &db).await.unwrap();
    let rows: Vec<(i64, bool, i64, i64)> = snap
        .reconciled
        .iter()
        .map(|r| (r.order_id, r.order_exists, r.in_broker, r.in_jobs))
        .collect();
    assert_eq!(
        rows,
        vec![
            (1, true, 0, 0),
            (2, false, 1, 0),
            (3, true, 0, 1),
            (4, false, 0, 0)
        ]
    );
    // The broker's messages travel in the share text and replay to the same check.
    let text = queue_lab::labs::jobs::share::encode(&lab.history);
    assert!(text.starts_with("b;p;"), "{text}");
    let replayed = replay(&db, &text).await;
    let again = LabModel::snapshot(&replayed, &db).await.unwrap();
    assert_eq!(again.reconciled, snap.reconciled);
    db.close().await;
}

/// §4's idempotency key: a job that runs twice (its worker died, the lease ran out, another
/// worker claimed it) applies its effect once; the second run finds the key and skips.
#[wasm_bindgen_test]
async fn a_job_that_runs_twice_applies_its_effect_once_under_its_idempotency_key() {
    use queue_lab::labs::harness::LabModel;
    let (db, mut lab, id) = claimed_by_a(job(0)).await;
    run_says(&mut lab, &db, Effect(A), "jobs.out.effect_applied").await;
    run_all(&mut lab, &db, [Die(A), Advance(31), Claim(B)]).await;
    assert_eq!(
        lab.worker(B).holding.map(|c| (c.job, c.attempt)),
        Some((id, 2))
    );
    let second = run(&mut lab, &db, Effect(B)).await;
    assert_eq!(
        second.msg.key, "jobs.out.effect_skipped",
        "{:?}",
        second.msg
    );
    assert!(
        second.msg.args.contains(&("by", "A".to_string()))
            && second.msg.args.contains(&("by_attempt", "1".to_string())),
        "{:?}",
        second.msg
    );
    assert_eq!(
        count(
            &db,
            &format!("select count(*) as n from effects where job_id = {id}")
        )
        .await,
        1,
        "the effect is applied once"
    );
    run(&mut lab, &db, Complete(B)).await;
    assert_eq!(lab.ran_more_than_once().len(), 1, "the job did run twice");
    let snap = LabModel::snapshot(&lab, &db).await.unwrap();
    assert_eq!(snap.effects.len(), 1);
    assert_eq!(snap.effects[0].idempotency_key, format!("job-{id}"));
    // A worker holding nothing applies nothing.
    run_says(&mut lab, &db, Effect(C), "jobs.out.holds_nothing").await;
    db.close().await;
}

/// §5: a burst of NOTIFYs committed while the listening session is busy stays in the queue
/// (pg_notification_queue_usage() rises by about one page per NOTIFY of 7,999 bytes), and is
/// read once the session is idle; the limit is read from the server.
#[wasm_bindgen_test]
async fn a_burst_of_notifies_fills_the_queue_while_the_listening_session_is_busy_and_empties_once_idle(
) {
    let (db, mut lab) = lab().await;
    let out = run(&mut lab, &db, NotifyBurst(500)).await;
    assert_eq!(
        out.msg.key, "jobs.out.burst_held_then_read",
        "{:?}",
        out.msg
    );
    let b = lab.burst.clone().expect("measured");
    assert_eq!(b.before, 0.0);
    let pages = b.pages(b.during);
    assert!(
        (498..=502).contains(&pages),
        "{pages} pages for 500 NOTIFYs: {b:?}"
    );
    assert_eq!(b.idle, 0.0, "{b:?}");
    assert_eq!((b.max_pages, b.page_bytes), (1_048_576, 8192));
    assert!(
        lab.delivered.is_empty(),
        "the burst's channel is not the workers'"
    );
    assert_eq!(
        queue_lab::labs::jobs::share::decode(&queue_lab::labs::jobs::share::encode(&lab.history))
            .unwrap(),
        lab.history
    );
    db.close().await;
}
