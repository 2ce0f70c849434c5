//! `pgcheck jobs`: L1's must-show scenarios on a real server, with real connections, running
//! L1's own SQL files (`src/sql/jobs/*.sql`) unchanged, on the lab's virtual clock.
//!
//! Connections: workers A and B (each its own session, as two worker processes would be) and
//! a listener C that only LISTENs. Each session has its own lab clock (a session setting,
//! `clock_install.sql`); a step of lab time moves A's and B's together. Every scenario starts
//! from fresh tables (`reset.sql`, `schema.sql`) in `jobs_lab`, the lab's schema for L1.

use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::Type;
use postgres::{Client, GenericClient};

use crate::target::{self, lab_sql, table, CLOCK_RESET, CLOCK_SCHEMA};
use crate::{context, CheckError};

const SCHEMA: &str = lab_sql!("jobs/schema.sql");
const RESET: &str = lab_sql!("jobs/reset.sql");
const ENQUEUE: &str = lab_sql!("jobs/enqueue.sql");
const ENQUEUE_KEYED: &str = lab_sql!("jobs/enqueue_keyed.sql");
const ORDER_INSERT: &str = lab_sql!("jobs/order_insert.sql");
const ORDER_JOB_INSERT: &str = lab_sql!("jobs/order_job_insert.sql");
const NOTIFY: &str = lab_sql!("jobs/notify.sql");
const REAP: &str = lab_sql!("jobs/reap.sql");
const CLAIM: &str = lab_sql!("jobs/claim.sql");
const CLAIM_PER_KEY: &str = lab_sql!("jobs/claim_per_key.sql");
const HELD_BACK: &str = lab_sql!("jobs/held_back.sql");
const COMPLETE: &str = lab_sql!("jobs/complete.sql");
const COMPLETE_DELETE: &str = lab_sql!("jobs/complete_delete.sql");
const FAIL: &str = lab_sql!("jobs/fail.sql");
const HEARTBEAT: &str = lab_sql!("jobs/heartbeat.sql");
const DEAD_ALERT: &str = lab_sql!("jobs/dead_alert.sql");
const BROKER_CHECK: &str = lab_sql!("jobs/broker_check.sql");
const EFFECT_APPLY: &str = lab_sql!("jobs/effect_apply.sql");

/// The channel `notify.sql` sends on.
const CHANNEL: &str = "jobs";
/// The channel `dead_alert.sql`'s trigger sends on.
const ALERT_CHANNEL: &str = "job_dead";
/// L1's schema (the app's runner puts it first on the search path while L1 runs).
/// L1's schema, as its descriptor names it.
pub fn lab_schema() -> &'static str {
    target::lab_schema!("jobs")
}

/// One scenario's outcome.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: &'static str,
    pub passed: bool,
    /// What the server did, in figures.
    pub observed: String,
}

/// Every scenario, in order.
#[derive(Debug, Clone)]
pub struct Report {
    pub scenarios: Vec<Scenario>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.scenarios.iter().all(|s| s.passed)
    }

    pub fn get(&self, name: &str) -> Option<&Scenario> {
        self.scenarios.iter().find(|s| s.name == name)
    }

    pub fn table(&self) -> String {
        let rows: Vec<Vec<String>> = self
            .scenarios
            .iter()
            .map(|s| {
                vec![
                    s.name.to_string(),
                    if s.passed { "ok" } else { "FAILED" }.to_string(),
                    s.observed.clone(),
                ]
            })
            .collect();
        table(
            &[
                "scenario".into(),
                "result".into(),
                "what the server did".into(),
            ],
            &rows,
            3,
        )
    }
}

pub const TRANSACTIONAL: &str = "transactional enqueue, rolled back";
pub const SKIP_LOCKED: &str = "SKIP LOCKED: two connections claim at once";
pub const LEASE: &str = "lease expiry: a worker stops heartbeating";
pub const RETRIES: &str = "retries with backoff, then dead letter and its alert";
pub const NOTIFY_NAME: &str = "LISTEN/NOTIFY on commit, not on rollback";
pub const PER_KEY: &str = "per-key claim holds a key's second job back";
pub const DELETE_ON_COMPLETE: &str = "DELETE on complete: done row gone, failed one kept";
pub const DUAL_WRITE: &str = "dual write with a broker (simulated): a lost job, a ghost job";
pub const IDEMPOTENCY: &str = "idempotency key: a job run twice applies its effect once";

/// Runs every scenario in its own schemas (see [`target::run_in_schemas`]).
pub fn run(url: &str) -> Result<Report, CheckError> {
    target::run_in_schemas(url, "jobs", &[CLOCK_SCHEMA, lab_schema()], &[], || {
        let mut lab = Lab::open(url)?;
        let mut scenarios = Vec::new();
        type Step = fn(&mut Lab) -> Result<(bool, String), CheckError>;
        let steps: [(&'static str, Step); 9] = [
            (TRANSACTIONAL, Lab::transactional),
            (SKIP_LOCKED, Lab::skip_locked),
            (LEASE, Lab::lease),
            (RETRIES, Lab::retries),
            (NOTIFY_NAME, Lab::notify),
            (PER_KEY, Lab::per_key),
            (DELETE_ON_COMPLETE, Lab::delete_on_complete),
            (DUAL_WRITE, Lab::dual_write),
            (IDEMPOTENCY, Lab::idempotency),
        ];
        for (name, step) in steps {
            lab.fresh()?;
            let (passed, observed) = step(&mut lab)?;
            scenarios.push(Scenario {
                name,
                passed,
                observed,
            });
        }
        context(lab.a.batch_execute(RESET), "dropping L1's tables")?;
        Ok(Report { scenarios })
    })
}

/// The three sessions.
struct Lab {
    a: Client,
    b: Client,
    listener: Client,
    /// Markers sent so far (each marker notification is unique).
    markers: u32,
}

/// Notifications that reached `listener`, waiting up to `wait` for the first.
fn received(listener: &mut Client, wait: Duration) -> Result<Vec<String>, CheckError> {
    let mut out = Vec::new();
    loop {
        // Everything already sent arrives together; a short wait catches a straggler.
        let w = if out.is_empty() {
            wait
        } else {
            Duration::from_millis(50)
        };
        let next = listener.notifications().timeout_iter(w).next();
        match context(next, "reading notifications")? {
            Some(m) => out.push(m.payload().to_string()),
            None => return Ok(out),
        }
    }
}

/// The job id in a `job_dead` alert's payload (`{"id" : 7, "queue" : …}`).
fn alert_job_id(payload: &str) -> Option<i64> {
    let rest = payload.split_once("\"id\"")?.1.trim_start();
    let digits: String = rest
        .strip_prefix(':')?
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// A claimed job: (id, attempt).
type Claimed = (i64, i32);

impl Lab {
    fn open(url: &str) -> Result<Lab, CheckError> {
        let a = target::lab_session(url, lab_schema())?;
        let b = target::lab_session(url, lab_schema())?;
        let mut listener = target::lab_session(url, lab_schema())?;
        context(
            listener.batch_execute(&format!("listen {CHANNEL}; listen {ALERT_CHANNEL}")),
            "LISTEN",
        )?;
        Ok(Lab {
            a,
            b,
            listener,
            markers: 0,
        })
    }

    /// Fresh tables, lab time back at its start on both workers, no notification pending.
    fn fresh(&mut self) -> Result<(), CheckError> {
        context(self.a.batch_execute(RESET), "reset.sql")?;
        context(self.a.batch_execute(SCHEMA), "schema.sql")?;
        context(self.a.batch_execute(DEAD_ALERT), "dead_alert.sql")?;
        for c in [&mut self.a, &mut self.b] {
            context(c.query(CLOCK_RESET, &[]), "clock_reset.sql")?;
        }
        // Whatever an earlier scenario sent has arrived and is set aside.
        self.markers += 1;
        self.received_before_marker(&format!("fresh-{}", self.markers))?;
        Ok(())
    }

    /// Lab time moves on by `secs` for both workers.
    fn advance(&mut self, secs: f64) -> Result<(), CheckError> {
        for c in [&mut self.a, &mut self.b] {
            target::advance_clock(c, secs)?;
        }
        Ok(())
    }

    /// Notifications that reached the listener, waiting up to `wait` for the first.
    fn received(&mut self, wait: Duration) -> Result<Vec<String>, CheckError> {
        received(&mut self.listener, wait)
    }

    /// Sends `marker` on a committed transaction of A and returns what the listener got up
    /// to and without it. Notifications arrive in commit order, so anything before the
    /// marker was sent earlier: no guess about how long to wait for something that must not
    /// come.
    fn received_before_marker(&mut self, marker: &str) -> Result<Vec<String>, CheckError> {
        let stmt = context(self.a.prepare_typed(NOTIFY, &[Type::TEXT]), "notify.sql")?;
        context(self.a.query(&stmt, &[&marker]), "notify.sql (marker)")?;
        let mut got = Vec::new();
        for _ in 0..100 {
            for p in self.received(Duration::from_millis(100))? {
                if p == marker {
                    return Ok(got);
                }
                got.push(p);
            }
        }
        Err(CheckError(format!(
            "the marker notification {marker:?} never reached the listener"
        )))
    }

    fn enqueue(c: &mut impl GenericClient, max_attempts: i32) -> Result<i64, CheckError> {
        // Typed as the app sends them: the payload is text cast by the statement.
        let stmt = context(
            c.prepare_typed(
                ENQUEUE,
                &[Type::TEXT, Type::TEXT, Type::INT4, Type::FLOAT8, Type::INT4],
            ),
            "enqueue.sql",
        )?;
        let row = context(
            c.query_one(
                &stmt,
                &[
                    &"default",
                    &r#"{"to": "kim@example.com"}"#,
                    &0i32,
                    &0f64,
                    &max_attempts,
                ],
            ),
            "enqueue.sql",
        )?;
        Ok(row.get("id"))
    }

    fn enqueue_keyed(c: &mut Client, key: &str) -> Result<i64, CheckError> {
        let stmt = context(
            c.prepare_typed(ENQUEUE_KEYED, &[Type::TEXT, Type::TEXT]),
            "enqueue_keyed.sql",
        )?;
        let payload = format!(r#"{{"kind": "sync_customer", "customer": "{key}"}}"#);
        let row = context(c.query_one(&stmt, &[&payload, &key]), "enqueue_keyed.sql")?;
        Ok(row.get("id"))
    }

    /// reap.sql, then the claim (claim.sql or claim_per_key.sql), as the lab's Claim button.
    fn claim(c: &mut Client, sql: &str) -> Result<Option<Claimed>, CheckError> {
        context(c.execute(REAP, &[]), "reap.sql")?;
        let row = context(c.query_opt(sql, &[]), "claim")?;
        Ok(row.map(|r| (r.get("id"), r.get("attempts"))))
    }

    fn complete(c: &mut Client, (id, attempt): Claimed) -> Result<u64, CheckError> {
        context(c.execute(COMPLETE, &[&id, &attempt]), "complete.sql")
    }

    fn count(c: &mut Client, sql: &str) -> Result<i64, CheckError> {
        Ok(context(c.query_one(sql, &[]), sql)?.get(0))
    }

    /// §1: an order and its job written in one transaction that rolls back leave neither,
    /// and notify no one; the same committed leaves both.
    fn transactional(&mut self) -> Result<(bool, String), CheckError> {
        let (order, job) = self.order_with_job(false)?;
        let orders = Self::count(&mut self.b, "select count(*) from orders")?;
        let jobs = Self::count(&mut self.b, "select count(*) from jobs")?;
        let leaked = self.received_before_marker("marker-1")?;
        let (order2, job2) = self.order_with_job(true)?;
        let orders2 = Self::count(&mut self.b, "select count(*) from orders")?;
        let jobs2 = Self::count(&mut self.b, "select count(*) from jobs")?;
        let passed = orders == 0 && jobs == 0 && leaked.is_empty() && orders2 == 1 && jobs2 == 1;
        Ok((
            passed,
            format!(
                "wrote order {order} + job {job}, rolled back: {orders} orders, {jobs} jobs, \
                 {} notifications reached the listener; committed (order {order2} + job {job2}): \
                 {orders2} order, {jobs2} job",
                leaked.len()
            ),
        ))
    }

    /// A's order-with-job transaction (order_insert, order_job_insert, notify): committed
    /// or rolled back. Returns (order id, job id).
    fn order_with_job(&mut self, commit: bool) -> Result<(i64, i64), CheckError> {
        let mut tx = context(self.a.transaction(), "BEGIN")?;
        let order = insert_order(&mut tx)?;
        let job: i64 = context(
            tx.query_one(ORDER_JOB_INSERT, &[&order]),
            "order_job_insert.sql",
        )?
        .get("id");
        let n = context(tx.prepare_typed(NOTIFY, &[Type::TEXT]), "notify.sql")?;
        context(tx.query(&n, &[&job.to_string()]), "notify.sql")?;
        if commit {
            context(tx.commit(), "COMMIT")?;
        } else {
            context(tx.rollback(), "ROLLBACK")?;
        }
        Ok((order, job))
    }

    /// §2: A claims inside an open transaction (its row locked, not yet committed); B's claim
    /// at that moment skips the locked row and takes the next job instead of waiting (lock
    /// wait would hit lock_timeout and fail the scenario).
    fn skip_locked(&mut self) -> Result<(bool, String), CheckError> {
        let j1 = Self::enqueue(&mut self.a, 5)?;
        let j2 = Self::enqueue(&mut self.a, 5)?;
        context(
            self.b.batch_execute("set lock_timeout = '3s'"),
            "lock_timeout",
        )?;
        let mut tx = context(self.a.transaction(), "BEGIN")?;
        context(tx.execute(REAP, &[]), "reap.sql")?;
        let a = context(tx.query_opt(CLAIM, &[]), "claim.sql (A)")?
            .map(|r| (r.get::<_, i64>("id"), r.get::<_, i32>("attempts")));
        let b = Self::claim(&mut self.b, CLAIM);
        context(tx.commit(), "COMMIT")?;
        context(
            self.b.batch_execute("set lock_timeout = '20s'"),
            "lock_timeout",
        )?;
        let b = match b {
            Ok(b) => b,
            // Without SKIP LOCKED, B waits for A's row lock until lock_timeout.
            Err(e) => {
                return Ok((
                    false,
                    format!("A took {a:?} in an open transaction; B's claim: {e}"),
                ))
            }
        };
        let running = Self::count(
            &mut self.b,
            "select count(*) from jobs where status = 'running'",
        )?;
        let passed = a.map(|c| c.0) == Some(j1) && b.map(|c| c.0) == Some(j2) && running == 2;
        let show = |c: Option<Claimed>| c.map_or("nothing".to_string(), |c| format!("job {}", c.0));
        Ok((
            passed,
            format!(
                "A (transaction still open) took {}, B at the same moment took {}, \
                 without waiting; {running} jobs running",
                show(a),
                show(b)
            ),
        ))
    }

    /// §3: A claims, heartbeats once, then stops. While its lease runs B gets nothing; once
    /// the lease ran out B gets the job (attempt 2), and A's late completion updates 0 rows.
    fn lease(&mut self) -> Result<(bool, String), CheckError> {
        let job = Self::enqueue(&mut self.a, 5)?;
        let a = Self::claim(&mut self.a, CLAIM)?;
        self.advance(20.0)?;
        let hb = context(
            self.a.query_opt(HEARTBEAT, &[&job, &a.map_or(0, |c| c.1)]),
            "heartbeat.sql",
        )?
        .map(|r| r.get::<_, String>("locked_until"));
        self.advance(11.0)?;
        let b_early = Self::claim(&mut self.b, CLAIM)?;
        self.advance(20.0)?;
        let b_late = Self::claim(&mut self.b, CLAIM)?;
        let a_late = match a {
            Some(c) => Self::complete(&mut self.a, c)?,
            None => 0,
        };
        let b_done = match b_late {
            Some(c) => Self::complete(&mut self.b, c)?,
            None => 0,
        };
        let passed = a == Some((job, 1))
            && hb.is_some()
            && b_early.is_none()
            && b_late == Some((job, 2))
            && a_late == 0
            && b_done == 1;
        Ok((
            passed,
            format!(
                "A claimed job {job} (attempt 1), heartbeat at +20 s (lease to {}); at +31 s B \
                 got {}; at +51 s (no heartbeat for 31 s) B got {}; A's late complete: {a_late} \
                 rows, B's: {b_done}",
                hb.as_deref().map_or("-", |t| t.get(11..19).unwrap_or(t)),
                b_early.map_or("nothing".into(), |c| format!("job {} ", c.0)),
                b_late.map_or("nothing".into(), |c| format!("job {} attempt {}", c.0, c.1)),
            ),
        ))
    }

    /// §4: a job with max_attempts 3 fails three times: retried after 20 s and 40 s (not
    /// before), then dead, and no longer claimed.
    fn retries(&mut self) -> Result<(bool, String), CheckError> {
        let job = Self::enqueue(&mut self.a, 3)?;
        let fail = context(
            self.a
                .prepare_typed(FAIL, &[Type::INT8, Type::INT4, Type::TEXT]),
            "fail.sql",
        )?;
        let mut passed = true;
        let mut steps = Vec::new();
        for attempt in 1..=3 {
            let Some(c) = Self::claim(&mut self.a, CLAIM)? else {
                passed = false;
                steps.push(format!("attempt {attempt}: nothing to claim"));
                break;
            };
            passed &= c == (job, attempt);
            let error = format!("smtp timeout (worker A, attempt {attempt})");
            let row = context(self.a.query_opt(&fail, &[&c.0, &c.1, &error]), "fail.sql")?;
            let status: String = row.map_or("-".into(), |r| r.get("status"));
            // §4's alert: the trigger's NOTIFY job_dead, with the last failure only. Its
            // payload is a JSON object (the marker and notify.sql's payloads are not).
            let alerts: Vec<String> = self
                .received_before_marker(&format!("retries-{attempt}"))?
                .into_iter()
                .filter(|p| p.starts_with('{'))
                .collect();
            let alerted_job = alerts.first().and_then(|a| alert_job_id(a));
            passed &= if attempt < 3 {
                alerts.is_empty()
            } else {
                alerts.len() == 1 && alerted_job == Some(job)
            };
            if attempt < 3 {
                let backoff = 10.0 * f64::from(1 << attempt);
                // One second before the backoff ends: still not claimable; then it is.
                self.advance(backoff - 1.0)?;
                let early = Self::claim(&mut self.b, CLAIM)?;
                self.advance(1.0)?;
                passed &= status == "ready" && early.is_none();
                steps.push(format!(
                    "attempt {attempt} failed → {status}, not claimable before +{backoff:.0} s ({})",
                    if early.is_none() { "held" } else { "CLAIMED EARLY" }
                ));
            } else {
                passed &= status == "dead";
                steps.push(format!(
                    "attempt {attempt} failed → {status}, {} alert(s) on {ALERT_CHANNEL} (job {})",
                    alerts.len(),
                    alerted_job.map_or("-".into(), |j| j.to_string())
                ));
            }
        }
        self.advance(3_600.0)?;
        let after = Self::claim(&mut self.b, CLAIM)?;
        passed &= after.is_none();
        steps.push(format!(
            "an hour later: {}",
            after.map_or("not claimed".into(), |c| format!("CLAIMED job {}", c.0))
        ));
        Ok((passed, steps.join("; ")))
    }

    /// §2's other completion: A deletes the job it completes (complete_delete.sql), B's job
    /// fails and keeps its row for the retry.
    fn delete_on_complete(&mut self) -> Result<(bool, String), CheckError> {
        let first = Self::enqueue(&mut self.a, 5)?;
        let second = Self::enqueue(&mut self.a, 5)?;
        let a = Self::claim(&mut self.a, CLAIM)?;
        let b = Self::claim(&mut self.b, CLAIM)?;
        let (Some(a), Some(b)) = (a, b) else {
            return Ok((false, "A and B did not both claim a job".into()));
        };
        let deleted = context(
            self.a.execute(COMPLETE_DELETE, &[&a.0, &a.1]),
            "complete_delete.sql",
        )?;
        let fail = context(
            self.b
                .prepare_typed(FAIL, &[Type::INT8, Type::INT4, Type::TEXT]),
            "fail.sql",
        )?;
        let error = "smtp timeout (worker B, attempt 1)".to_string();
        context(self.b.query_opt(&fail, &[&b.0, &b.1, &error]), "fail.sql")?;
        let left = |c: &mut Client, id: i64| {
            Self::count(c, &format!("select count(*) from jobs where id = {id}"))
        };
        let a_left = left(&mut self.b, a.0)?;
        let b_ready = Self::count(
            &mut self.a,
            &format!(
                "select count(*) from jobs where id = {} and status = 'ready'",
                b.0
            ),
        )?;
        let passed = (a.0, b.0) == (first, second) && deleted == 1 && a_left == 0 && b_ready == 1;
        Ok((
            passed,
            format!(
                "A completes job {} → DELETE {deleted} row, {a_left} left; B fails job {} → {b_ready} ready row kept",
                a.0, b.0
            ),
        ))
    }

    /// LISTEN/NOTIFY: an enqueue-and-notify transaction that commits reaches the listening
    /// connection with the job's id; one that rolls back reaches no one.
    fn notify(&mut self) -> Result<(bool, String), CheckError> {
        let n = context(self.a.prepare_typed(NOTIFY, &[Type::TEXT]), "notify.sql")?;
        let mut tx = context(self.a.transaction(), "BEGIN")?;
        let job = Self::enqueue(&mut tx, 5);
        let job = match job {
            Ok(j) => j,
            Err(e) => {
                let _ = tx.rollback();
                return Err(e);
            }
        };
        context(tx.query(&n, &[&job.to_string()]), "notify.sql")?;
        // Before the commit, nothing has arrived.
        let early = received(&mut self.listener, Duration::from_millis(100))?;
        context(tx.commit(), "COMMIT")?;
        let got = self.received(Duration::from_secs(5))?;
        let mut tx = context(self.a.transaction(), "BEGIN")?;
        let rolled = Self::enqueue(&mut tx, 5)?;
        context(tx.query(&n, &[&rolled.to_string()]), "notify.sql")?;
        context(tx.rollback(), "ROLLBACK")?;
        let leaked = self.received_before_marker("marker-2")?;
        let passed = early.is_empty() && got == vec![job.to_string()] && leaked.is_empty();
        Ok((
            passed,
            format!(
                "before COMMIT the listener had {} notifications; after it {:?} (job {job}); \
                 rolled-back job {rolled}: {} notifications",
                early.len(),
                got,
                leaked.len()
            ),
        ))
    }

    /// The lab's own per-key claim: two jobs of customer-42 and one of customer-7. A takes
    /// 42's first; B skips 42's second (held back) and takes 7's; a third claim finds only
    /// the held-back one; once A completes, 42's second is B's. The article's claim on the
    /// same jobs hands 42's second out while the first runs.
    fn per_key(&mut self) -> Result<(bool, String), CheckError> {
        let k1 = Self::enqueue_keyed(&mut self.a, "customer-42")?;
        let k2 = Self::enqueue_keyed(&mut self.a, "customer-42")?;
        let other = Self::enqueue_keyed(&mut self.a, "customer-7")?;
        let a = Self::claim(&mut self.a, CLAIM_PER_KEY)?;
        let b = Self::claim(&mut self.b, CLAIM_PER_KEY)?;
        let third = Self::claim(&mut self.b, CLAIM_PER_KEY)?;
        let held = Self::count(&mut self.b, HELD_BACK)?;
        let done = match a {
            Some(c) => Self::complete(&mut self.a, c)?,
            None => 0,
        };
        let after = Self::claim(&mut self.b, CLAIM_PER_KEY)?;
        // The article's claim (claim.sql), same three jobs afresh.
        self.fresh()?;
        let p1 = Self::enqueue_keyed(&mut self.a, "customer-42")?;
        let p2 = Self::enqueue_keyed(&mut self.a, "customer-42")?;
        let plain_a = Self::claim(&mut self.a, CLAIM)?;
        let plain_b = Self::claim(&mut self.b, CLAIM)?;
        let id = |c: Option<Claimed>| c.map(|c| c.0);
        let passed = id(a) == Some(k1)
            && id(b) == Some(other)
            && third.is_none()
            && held == 1
            && done == 1
            && id(after) == Some(k2)
            && id(plain_a) == Some(p1)
            && id(plain_b) == Some(p2);
        let show = |c: Option<Claimed>| c.map_or("nothing".to_string(), |c| format!("job {}", c.0));
        Ok((
            passed,
            format!(
                "customer-42: jobs {k1}, {k2}; customer-7: job {other}. A took {}, B took {}, \
                 a third claim got {} ({held} held back); after A completed, B took {}. \
                 claim.sql instead: A {}, B {} at once",
                show(a),
                show(b),
                show(third),
                show(after),
                show(plain_a),
                show(plain_b)
            ),
        ))
    }

    /// §1's dual write, as the lab runs it: the broker is simulated (a list here, outside
    /// every transaction, as PGlite has no broker); the orders are the server's. An order
    /// committed before a failed publish has no job anywhere; a job published before its
    /// order rolled back has no order. The transactional enqueue, committed and rolled back,
    /// leaves neither. broker_check.sql reads each order against the broker and jobs.
    fn dual_write(&mut self) -> Result<(bool, String), CheckError> {
        let mut broker: Vec<i64> = Vec::new();
        let mut written = Vec::new();
        for publish_first in [false, true] {
            let mut tx = context(self.a.transaction(), "BEGIN")?;
            let order = insert_order(&mut tx)?;
            if publish_first {
                broker.push(order);
                context(tx.rollback(), "ROLLBACK")?;
            } else {
                context(tx.commit(), "COMMIT")?;
            }
            written.push(order);
        }
        let (committed, _) = self.order_with_job(true)?;
        let (rolled_back, _) = self.order_with_job(false)?;
        written.extend([committed, rolled_back]);
        let check = context(
            self.b
                .prepare_typed(BROKER_CHECK, &[Type::INT8_ARRAY, Type::INT8_ARRAY]),
            "broker_check.sql",
        )?;
        let rows: Vec<(i64, bool, i64, i64)> = context(
            self.b.query(&check, &[&broker, &written]),
            "broker_check.sql",
        )?
        .iter()
        .map(|r| {
            (
                r.get("order_id"),
                r.get("order_exists"),
                r.get("in_broker"),
                r.get("in_jobs"),
            )
        })
        .collect();
        let expected = vec![
            (written[0], true, 0, 0),
            (written[1], false, 1, 0),
            (committed, true, 0, 1),
            (rolled_back, false, 0, 0),
        ];
        let show: Vec<String> = rows
            .iter()
            .map(|(o, e, b, j)| format!("order {o}: exists {e}, broker {b}, jobs {j}"))
            .collect();
        Ok((
            rows == expected,
            format!(
                "commit then failed publish, publish then rollback, transactional commit, \
                 transactional rollback → {}",
                show.join("; ")
            ),
        ))
    }

    /// §4's idempotency key: A claims and applies the job's effect, then stops; past the
    /// lease B claims the same job (attempt 2) and applies it again: the key is taken, so
    /// nothing is inserted and the row says A applied it.
    fn idempotency(&mut self) -> Result<(bool, String), CheckError> {
        let job = Self::enqueue(&mut self.a, 5)?;
        let apply = |c: &mut Client, (id, attempt): Claimed, w: &str| {
            let stmt = context(
                c.prepare_typed(EFFECT_APPLY, &[Type::INT8, Type::TEXT, Type::INT4]),
                "effect_apply.sql",
            )?;
            let row = context(c.query_one(&stmt, &[&id, &w, &attempt]), "effect_apply.sql")?;
            Ok::<_, CheckError>((
                row.get::<_, bool>("applied"),
                row.get::<_, String>("worker"),
                row.get::<_, i32>("attempt"),
            ))
        };
        let Some(a) = Self::claim(&mut self.a, CLAIM)? else {
            return Ok((false, "A claimed nothing".into()));
        };
        let first = apply(&mut self.a, a, "A")?;
        self.advance(31.0)?;
        let Some(b) = Self::claim(&mut self.b, CLAIM)? else {
            return Ok((false, "B claimed nothing past the lease".into()));
        };
        let second = apply(&mut self.b, b, "B")?;
        let rows = Self::count(
            &mut self.b,
            &format!("select count(*) from effects where job_id = {job}"),
        )?;
        let passed = a == (job, 1)
            && b == (job, 2)
            && first == (true, "A".into(), 1)
            && second == (false, "A".into(), 1)
            && rows == 1;
        Ok((
            passed,
            format!(
                "job {job}: A (attempt {}) applied = {}; past the lease B (attempt {}) applied = {}, \
                 the key's row says worker {} attempt {}; {rows} row in effects",
                a.1, first.0, b.1, second.0, second.1, second.2
            ),
        ))
    }
}

/// order_insert.sql in `tx`, with the lab's order (kim@example.com, 42,000): the order's id.
fn insert_order(tx: &mut postgres::Transaction<'_>) -> Result<i64, CheckError> {
    let ins = context(
        tx.prepare_typed(ORDER_INSERT, &[Type::TEXT, Type::FLOAT8]),
        "order_insert.sql",
    )?;
    let row = context(
        tx.query_one(&ins, &[&"kim@example.com", &42_000.0f64]),
        "order_insert.sql",
    )?;
    Ok(row.get("id"))
}
