//! L1's SQL files held to what the lab teaches, one behaviour per test, on a real server:
//! the backoff at every attempt up to the last, the lease's length, a lease that runs out on
//! the last attempt (dead, with its reason and its alert), a late worker's heartbeat, failure
//! and DELETE that change nothing, priority, and the per-key claim in every state of a key's
//! earlier job (ready, running, waiting out its backoff after a failure, dead).
//!
//! `pgcheck jobs` (sql_labs.rs) runs the lab's scenarios; these pin the cases its scenarios
//! leave open (each was found by a planted fault, tests/mutants/, that passed every suite).
//! Needs `QUEUE_LAB_PG_URL`, like sql_labs.rs; runs in L1's schema `jobs_lab`, taking turns
//! with the other pgcheck runs through their advisory lock.

use std::sync::Mutex;
use std::time::Duration;

use pgcheck::target::{self, CLOCK_ADVANCE, CLOCK_RESET, CLOCK_SCHEMA};
use pgcheck::CheckError;
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::Type;
use postgres::Client;

const SCHEMA: &str = include_str!("../../../src/sql/jobs/schema.sql");
const RESET: &str = include_str!("../../../src/sql/jobs/reset.sql");
const DEAD_ALERT: &str = include_str!("../../../src/sql/jobs/dead_alert.sql");
const ENQUEUE: &str = include_str!("../../../src/sql/jobs/enqueue.sql");
const ENQUEUE_KEYED: &str = include_str!("../../../src/sql/jobs/enqueue_keyed.sql");
const REAP: &str = include_str!("../../../src/sql/jobs/reap.sql");
const CLAIM: &str = include_str!("../../../src/sql/jobs/claim.sql");
const CLAIM_PER_KEY: &str = include_str!("../../../src/sql/jobs/claim_per_key.sql");
const HELD_BACK: &str = include_str!("../../../src/sql/jobs/held_back.sql");
const COMPLETE: &str = include_str!("../../../src/sql/jobs/complete.sql");
const COMPLETE_DELETE: &str = include_str!("../../../src/sql/jobs/complete_delete.sql");
const FAIL: &str = include_str!("../../../src/sql/jobs/fail.sql");
const HEARTBEAT: &str = include_str!("../../../src/sql/jobs/heartbeat.sql");

static TURN: Mutex<()> = Mutex::new(());

fn url() -> String {
    std::env::var("QUEUE_LAB_PG_URL").unwrap_or_else(|_| {
        panic!(
            "QUEUE_LAB_PG_URL is not set: start a server with `scripts/pg-local.sh start` and \
             run again with QUEUE_LAB_PG_URL set to the URL it prints"
        )
    })
}

/// Workers A and B (two sessions on one lab clock) on fresh L1 tables.
struct Lab {
    a: Client,
    b: Client,
}

type Claimed = (i64, i32);

impl Lab {
    fn advance(&mut self, secs: f64) {
        for c in [&mut self.a, &mut self.b] {
            let stmt = c.prepare_typed(CLOCK_ADVANCE, &[Type::FLOAT8]).unwrap();
            c.query(&stmt, &[&secs]).unwrap();
        }
    }

    fn enqueue(c: &mut Client, priority: i32, max_attempts: i32) -> i64 {
        let stmt = c
            .prepare_typed(
                ENQUEUE,
                &[Type::TEXT, Type::TEXT, Type::INT4, Type::FLOAT8, Type::INT4],
            )
            .unwrap();
        c.query_one(
            &stmt,
            &[
                &"default",
                &r#"{"to": "kim@example.com"}"#,
                &priority,
                &0f64,
                &max_attempts,
            ],
        )
        .unwrap()
        .get("id")
    }

    fn enqueue_keyed(c: &mut Client, key: &str) -> i64 {
        let stmt = c
            .prepare_typed(ENQUEUE_KEYED, &[Type::TEXT, Type::TEXT])
            .unwrap();
        let payload = format!(r#"{{"customer": "{key}"}}"#);
        c.query_one(&stmt, &[&payload, &key]).unwrap().get("id")
    }

    /// reap.sql, then the claim: the lab's Claim button.
    fn claim(c: &mut Client, sql: &str) -> Option<Claimed> {
        c.execute(REAP, &[]).unwrap();
        c.query_opt(sql, &[])
            .unwrap()
            .map(|r| (r.get("id"), r.get("attempts")))
    }

    fn fail(c: &mut Client, (id, attempt): Claimed, error: &str) -> Option<String> {
        let stmt = c
            .prepare_typed(FAIL, &[Type::INT8, Type::INT4, Type::TEXT])
            .unwrap();
        c.query_opt(&stmt, &[&id, &attempt, &error])
            .unwrap()
            .map(|r| r.get("status"))
    }

    fn job(c: &mut Client, id: i64) -> (String, i32, Option<String>, Option<String>) {
        let r = c
            .query_one(
                "select status, attempts, locked_until::text as locked_until, last_error
                   from jobs where id = $1",
                &[&id],
            )
            .unwrap();
        (
            r.get("status"),
            r.get("attempts"),
            r.get("locked_until"),
            r.get("last_error"),
        )
    }

    fn held_back(c: &mut Client) -> i64 {
        c.query_one(HELD_BACK, &[]).unwrap().get("n")
    }
}

/// Runs `body` on fresh L1 tables in `jobs_lab`, lab time at its start, with a listener on
/// `job_dead` (the dead-letter alert's channel).
fn with_lab(body: impl FnOnce(&mut Lab, &mut Client)) {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let url = url();
    let mut body = Some(body);
    let mut failed = None;
    // A failed assertion is carried out of run_in_schemas as a value, so that it still drops
    // what it made (otherwise the next test would find the schemas in use and refuse).
    target::run_in_schemas(
        &url,
        "jobs",
        &[CLOCK_SCHEMA, pgcheck::jobs::lab_schema()],
        &[],
        || {
            let mut a = target::lab_session(&url, pgcheck::jobs::lab_schema())?;
            let b = target::lab_session(&url, pgcheck::jobs::lab_schema())?;
            let mut listener = target::lab_session(&url, pgcheck::jobs::lab_schema())?;
            a.batch_execute(RESET)
                .and_then(|()| a.batch_execute(SCHEMA))
                .and_then(|()| a.batch_execute(DEAD_ALERT))
                .and_then(|()| listener.batch_execute("listen job_dead"))
                .map_err(|e| CheckError(e.to_string()))?;
            let mut lab = Lab { a, b };
            for c in [&mut lab.a, &mut lab.b] {
                c.query(CLOCK_RESET, &[])
                    .map_err(|e| CheckError(e.to_string()))?;
            }
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                (body.take().unwrap())(&mut lab, &mut listener)
            }));
            failed = run.err();
            lab.a
                .batch_execute(RESET)
                .map_err(|e| CheckError(e.to_string()))
        },
    )
    .expect("the lab's schemas on the server");
    if let Some(p) = failed {
        std::panic::resume_unwind(p);
    }
}

/// Alerts on `job_dead` that reached the listener within `wait`: the dead jobs' ids.
fn alerts(listener: &mut Client, wait: Duration) -> Vec<String> {
    let mut out = Vec::new();
    let mut notifications = listener.notifications();
    let mut it = notifications.timeout_iter(wait);
    while let Some(n) = it.next().unwrap() {
        out.push(n.payload().to_string());
    }
    out
}

#[test]
fn a_failed_job_waits_ten_seconds_times_two_to_the_attempt_at_every_attempt_then_goes_dead() {
    with_lab(|lab, listener| {
        let max = 6;
        let job = Lab::enqueue(&mut lab.a, 0, max);
        for attempt in 1..=max {
            let c = Lab::claim(&mut lab.a, CLAIM);
            assert_eq!(c, Some((job, attempt)), "attempt {attempt} is claimed");
            let status = Lab::fail(&mut lab.a, (job, attempt), "smtp timeout");
            if attempt < max {
                assert_eq!(
                    status.as_deref(),
                    Some("ready"),
                    "attempt {attempt} → ready"
                );
                let backoff = 10.0 * f64::from(1 << attempt);
                lab.advance(backoff - 1.0);
                assert_eq!(
                    Lab::claim(&mut lab.b, CLAIM),
                    None,
                    "after attempt {attempt}, still waiting 1 s before its {backoff} s backoff ends"
                );
                lab.advance(1.0);
            } else {
                assert_eq!(status.as_deref(), Some("dead"), "the last attempt → dead");
            }
        }
        lab.advance(3_600.0);
        assert_eq!(
            Lab::claim(&mut lab.b, CLAIM),
            None,
            "a dead job is not claimed"
        );
        let got = alerts(listener, Duration::from_secs(5));
        assert_eq!(
            got.len(),
            1,
            "one dead-letter alert, on the last failure: {got:?}"
        );
    });
}

#[test]
fn a_lease_without_heartbeat_runs_out_after_thirty_seconds() {
    with_lab(|lab, _| {
        let job = Lab::enqueue(&mut lab.a, 0, 5);
        assert_eq!(Lab::claim(&mut lab.a, CLAIM), Some((job, 1)));
        lab.advance(29.0);
        assert_eq!(
            Lab::claim(&mut lab.b, CLAIM),
            None,
            "at +29 s A's lease still runs"
        );
        lab.advance(2.0);
        assert_eq!(
            Lab::claim(&mut lab.b, CLAIM),
            Some((job, 2)),
            "at +31 s A's 30 s lease has run out: B claims the job again"
        );
    });
}

#[test]
fn a_lease_that_runs_out_on_the_last_attempt_makes_the_job_dead_with_its_reason_and_alert() {
    with_lab(|lab, listener| {
        let job = Lab::enqueue(&mut lab.a, 0, 1);
        assert_eq!(Lab::claim(&mut lab.a, CLAIM), Some((job, 1)));
        lab.advance(31.0);
        assert_eq!(
            Lab::claim(&mut lab.b, CLAIM),
            None,
            "no attempt is left: the job is not claimed again"
        );
        let (status, attempts, locked_until, error) = Lab::job(&mut lab.b, job);
        assert_eq!((status.as_str(), attempts, locked_until), ("dead", 1, None));
        assert_eq!(
            error.as_deref(),
            Some("lease expired on the last attempt"),
            "the dead job says why"
        );
        let got = alerts(listener, Duration::from_secs(5));
        assert_eq!(got.len(), 1, "the change to dead sends its alert: {got:?}");
        assert!(got[0].contains(&format!("\"id\" : {job}")), "{got:?}");
    });
}

#[test]
fn a_worker_whose_lease_ran_out_can_neither_heartbeat_fail_nor_delete_the_job_claimed_since() {
    with_lab(|lab, _| {
        let job = Lab::enqueue(&mut lab.a, 0, 5);
        let a = Lab::claim(&mut lab.a, CLAIM).expect("A claims");
        lab.advance(31.0);
        let b = Lab::claim(&mut lab.b, CLAIM).expect("B claims the job again");
        assert_eq!((a, b), ((job, 1), (job, 2)));
        let lease = Lab::job(&mut lab.b, job).2;

        let hb = lab.a.query_opt(HEARTBEAT, &[&job, &a.1]).unwrap();
        assert!(hb.is_none(), "A's late heartbeat extends nothing");
        lab.advance(5.0);
        let hb = lab.a.query_opt(HEARTBEAT, &[&job, &a.1]).unwrap();
        assert!(hb.is_none());
        assert_eq!(Lab::job(&mut lab.b, job).2, lease, "B's lease is untouched");

        assert_eq!(
            Lab::fail(&mut lab.a, a, "late failure"),
            None,
            "A's late failure: 0 rows"
        );
        let deleted = lab.a.execute(COMPLETE_DELETE, &[&job, &a.1]).unwrap();
        assert_eq!(deleted, 0, "A's late DELETE-complete: 0 rows");
        let done = lab.a.execute(COMPLETE, &[&job, &a.1]).unwrap();
        assert_eq!(done, 0, "A's late complete: 0 rows");
        let (status, attempts, _, error) = Lab::job(&mut lab.b, job);
        assert_eq!((status.as_str(), attempts, error), ("running", 2, None));

        assert_eq!(
            lab.b.execute(COMPLETE, &[&job, &b.1]).unwrap(),
            1,
            "B completes"
        );
    });
}

#[test]
fn the_claim_takes_the_higher_priority_job_first() {
    with_lab(|lab, _| {
        let low = Lab::enqueue(&mut lab.a, 0, 5);
        let high = Lab::enqueue(&mut lab.a, 5, 5);
        assert_eq!(Lab::claim(&mut lab.a, CLAIM).map(|c| c.0), Some(high));
        assert_eq!(Lab::claim(&mut lab.a, CLAIM).map(|c| c.0), Some(low));
    });
}

#[test]
fn per_key_a_keys_second_job_waits_while_the_first_is_ready_running_or_in_backoff_not_once_dead() {
    with_lab(|lab, _| {
        let first = Lab::enqueue_keyed(&mut lab.a, "customer-42");
        let second = Lab::enqueue_keyed(&mut lab.a, "customer-42");
        // The first job sorts after the second (lower priority) and has two attempts.
        lab.a
            .execute(
                "update jobs set priority = -1, max_attempts = 2 where id = $1",
                &[&first],
            )
            .unwrap();

        // Ready: the second is held back behind it, so the claim takes the first.
        assert_eq!(
            Lab::held_back(&mut lab.b),
            1,
            "ready: the second is held back"
        );
        let a = Lab::claim(&mut lab.a, CLAIM_PER_KEY);
        assert_eq!(a, Some((first, 1)), "ready: the key's first job goes first");

        // Running.
        assert_eq!(
            Lab::held_back(&mut lab.b),
            1,
            "running: the second is held back"
        );
        assert_eq!(
            Lab::claim(&mut lab.b, CLAIM_PER_KEY),
            None,
            "running: nothing to claim"
        );

        // Waiting out its backoff after a failure (ready, run_at 20 s ahead).
        assert_eq!(
            Lab::fail(&mut lab.a, (first, 1), "timeout").as_deref(),
            Some("ready")
        );
        assert_eq!(
            Lab::held_back(&mut lab.b),
            1,
            "backoff: the second is held back"
        );
        assert_eq!(
            Lab::claim(&mut lab.b, CLAIM_PER_KEY),
            None,
            "backoff: the key's second job waits for the first's retry"
        );
        lab.advance(20.0);
        assert_eq!(Lab::claim(&mut lab.b, CLAIM_PER_KEY), Some((first, 2)));

        // Dead: the last attempt failed; the key's second job is free to run.
        assert_eq!(
            Lab::fail(&mut lab.b, (first, 2), "timeout").as_deref(),
            Some("dead")
        );
        assert_eq!(Lab::held_back(&mut lab.b), 0, "dead: nothing is held back");
        assert_eq!(
            Lab::claim(&mut lab.a, CLAIM_PER_KEY),
            Some((second, 1)),
            "dead: the key's second job is claimed"
        );
    });
}
