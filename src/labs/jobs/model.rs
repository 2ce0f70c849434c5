//! L1 Job queue: state and actions, no UI.
//!
//! The queue lives in PGlite (the article's `jobs` table); this module holds only what the
//! database cannot: which worker believes it holds which claim (a worker that dies keeps its
//! claim in memory), whether the LISTEN connection is up, what notifications arrived, and a
//! record of executions so the lab can point at a job that ran twice. Every action is one
//! `Action`, so a lab state is its list of actions: it encodes into a URL and replays.

use super::sql;
use crate::clock;
use crate::db::{Db, DbError, Listener, Tx};
use crate::keys;
use queue_lab_core::i18n::Msg;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

mod keep;
pub use keep::KEEPER;
mod lessons;
mod lifecycle;
mod notify;

pub mod input;

pub use lessons::{effects, percent, size, Burst, BURST_BYTES, BURST_RANGE};
pub use lifecycle::{Alert, ALERT_CHANNEL};

pub use super::rows::{
    Claim, Counts, Effect, Job, Order, Reconciled, Snapshot, TableStats, Verdict, LIST_LIMIT,
};
pub use super::sql::*;
pub use input::{
    parse_key, EnqueueInput, DELAY_RANGE, KEY_MAX_CHARS, MAX_ATTEMPTS_RANGE, PRIORITY_RANGE,
};

/// The channel the workers LISTEN on, as in the article (`NOTIFY jobs`).
pub const CHANNEL: &str = "jobs";
/// A safety-net poll runs every this many seconds of lab time (§5: "about 30 s").
pub const POLL_SECONDS: i64 = 30;
/// NOTIFY's payload limit in a default build: it must be shorter than this many bytes.
pub const NOTIFY_LIMIT: usize = 8000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WorkerId {
    A,
    B,
    C,
}

impl WorkerId {
    pub const ALL: [WorkerId; 3] = [WorkerId::A, WorkerId::B, WorkerId::C];

    pub fn letter(self) -> char {
        match self {
            WorkerId::A => 'A',
            WorkerId::B => 'B',
            WorkerId::C => 'C',
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    pub(super) fn parse(c: char) -> Option<WorkerId> {
        WorkerId::ALL.into_iter().find(|w| w.letter() == c)
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Worker {
    pub alive: bool,
    /// What the worker believes it holds. A dead worker keeps it: when it wakes up late it
    /// acts on it, and the attempts guard makes that a no-op if the job moved on.
    pub holding: Option<Claim>,
    /// The payload of the last notification that woke this worker while it was idle.
    pub woken_by: Option<String>,
}

/// Everything a learner can do in this lab.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Enqueue(EnqueueInput),
    /// ① INSERT order, INSERT job, NOTIFY, COMMIT.
    OrderWithJob,
    /// ② The same, failing after the NOTIFY: ROLLBACK.
    OrderWithJobFails,
    Claim(WorkerId),
    Complete(WorkerId),
    Fail(WorkerId),
    Die(WorkerId),
    Heartbeat(WorkerId),
    Advance(i64),
    Requeue(i64),
    Disconnect,
    Reconnect,
    /// A NOTIFY with a payload of this many bytes (the limit is under 8000).
    NotifyBytes(usize),
    /// The lab's own: enqueue a job with this ordering key (checked by [`parse_key`]).
    EnqueueKeyed(String),
    /// The lab's own: from now on, workers claim with the per-key claim (true) or the
    /// article's claim (false).
    PerKeyClaim(bool),
    /// §2: from now on, completing a job deletes its row (true) or sets status = 'done'.
    DeleteOnComplete(bool),
    /// §1's dual write: the order commits, then the publish to the (simulated) broker fails.
    DualWriteLost,
    /// §1's dual write: the job is published to the (simulated) broker, then the order's
    /// transaction rolls back.
    DualWriteGhost,
    /// §4: the worker applies its job's effect under the job's idempotency key.
    Effect(WorkerId),
    /// §5: this many NOTIFYs while the listening session is busy (see [`BURST_RANGE`]).
    NotifyBurst(u32),
}

pub use crate::labs::harness::{Outcome, Tone};

/// Reads the tables for the view, in one statement (snapshot.sql): the newest jobs, and
/// `also` (jobs held or just changed) wherever they are.
pub async fn snapshot(db: &Db, also: &[i64]) -> Result<Snapshot, DbError> {
    let limit = LIST_LIMIT;
    sql::snapshot(db, sql::SnapshotOf { limit, also })
        .await?
        .decode()
}

/// Reads `TableStats`, after flushing PGlite's statistics so `n_dead_tup` is current.
pub async fn table_stats(db: &Db) -> Result<TableStats, DbError> {
    crate::labs::common::sql::flush_stats(db).await?;
    sql::table_stats(db).await
}

/// The lab's state beside the database.
#[derive(Clone)]
pub struct Lab {
    pub workers: [Worker; 3],
    /// Whether the LISTEN connection is up.
    pub connected: bool,
    /// Notifications delivered, oldest first: (lab time, payload).
    pub delivered: Vec<(String, String)>,
    /// Notifications sent while disconnected: lost for good (§5).
    pub lost: Vec<String>,
    /// Each job's executions: (worker, attempt). A job with two is the at-least-once case.
    pub executions: BTreeMap<i64, Vec<(WorkerId, i32)>>,
    /// Every action taken since the lab was reset, for the share URL.
    pub history: Vec<Action>,
    /// Jobs whose rows the last run of actions changed (the table highlights them).
    pub touched: Vec<i64>,
    /// Whether workers claim with the per-key claim (the lab's own) instead of the article's.
    pub per_key: bool,
    /// Whether completing a job deletes its row (§2) instead of setting status = 'done'.
    pub delete_on_complete: bool,
    /// Alerts that arrived on `ALERT_CHANNEL` (§4), oldest first.
    pub alerts: Vec<Alert>,
    /// §1: the simulated broker's messages, one order id each, oldest first. Outside every
    /// transaction, as a real broker is.
    pub broker: Vec<i64>,
    /// Every order id the lab's actions inserted, committed or rolled back.
    pub orders_written: Vec<i64>,
    /// Whether a dual write ran (the view then shows every order checked by SQL).
    pub dual_write_used: bool,
    /// Whether a worker applied an effect (the view then shows the effects table).
    pub effects_used: bool,
    /// §5: what the last burst of NOTIFYs measured.
    pub burst: Option<Burst>,
    /// Lab time (seconds since the start) of the last safety-net poll.
    last_poll: i64,
    elapsed: i64,
    inbox: Rc<RefCell<Vec<String>>>,
    listener: Rc<RefCell<Option<Listener>>>,
    alert_inbox: Rc<RefCell<Vec<String>>>,
    alert_listener: Rc<RefCell<Option<Listener>>>,
}

impl Default for Lab {
    fn default() -> Self {
        Lab {
            workers: [
                Worker {
                    alive: true,
                    ..Worker::default()
                },
                Worker {
                    alive: true,
                    ..Worker::default()
                },
                Worker {
                    alive: true,
                    ..Worker::default()
                },
            ],
            connected: false,
            delivered: Vec::new(),
            lost: Vec::new(),
            executions: BTreeMap::new(),
            history: Vec::new(),
            touched: Vec::new(),
            per_key: false,
            delete_on_complete: false,
            alerts: Vec::new(),
            broker: Vec::new(),
            orders_written: Vec::new(),
            dual_write_used: false,
            effects_used: false,
            burst: None,
            last_poll: 0,
            elapsed: 0,
            inbox: Rc::default(),
            listener: Rc::default(),
            alert_inbox: Rc::default(),
            alert_listener: Rc::default(),
        }
    }
}

impl Lab {
    /// Creates the article's table (dropping the lab's earlier one) and starts listening.
    pub async fn setup(db: &Db) -> Result<Lab, DbError> {
        sql::install(db).await?;
        clock::reset(db).await?;
        let lab = Lab::default();
        lab.connect(db).await?;
        lab.listen_for_alerts(db).await?;
        Ok(Lab {
            connected: true,
            ..lab
        })
    }

    async fn connect(&self, db: &Db) -> Result<(), DbError> {
        let inbox = self.inbox.clone();
        let listener = db
            .listen(CHANNEL, move |payload| inbox.borrow_mut().push(payload))
            .await?;
        *self.listener.borrow_mut() = Some(listener);
        Ok(())
    }

    pub fn worker(&self, w: WorkerId) -> &Worker {
        &self.workers[w.index()]
    }

    fn worker_mut(&mut self, w: WorkerId) -> &mut Worker {
        &mut self.workers[w.index()]
    }

    /// The jobs the workers believe they hold (a dead worker's too).
    pub fn held(&self) -> Vec<i64> {
        self.workers
            .iter()
            .filter_map(|w| w.holding.map(|c| c.job))
            .collect()
    }

    /// Jobs that more than one claim ran: where at-least-once shows.
    pub fn ran_more_than_once(&self) -> Vec<(i64, Vec<(WorkerId, i32)>)> {
        self.executions
            .iter()
            .filter(|(_, runs)| runs.len() > 1)
            .map(|(id, runs)| (*id, runs.clone()))
            .collect()
    }

    /// Runs one action against the database and updates the lab. On a database error the
    /// lab state is unchanged (the error is returned to be shown).
    pub async fn run(&mut self, db: &Db, action: Action) -> Result<Outcome, DbError> {
        let outcome = self.apply(db, &action).await?;
        self.take_alerts(db).await?;
        self.history.push(action);
        self.touched.extend(outcome.touched.iter().copied());
        Ok(outcome)
    }

    /// The jobs the table shows whatever their age: held by a worker, or just changed.
    pub fn highlighted(&self) -> Vec<i64> {
        let mut ids = self.held();
        ids.extend(self.touched.iter().copied());
        ids
    }

    async fn apply(&mut self, db: &Db, action: &Action) -> Result<Outcome, DbError> {
        match action {
            Action::Enqueue(input) => self.enqueue(db, input).await,
            Action::OrderWithJob => self.order_with_job(db, false).await,
            Action::OrderWithJobFails => self.order_with_job(db, true).await,
            Action::Claim(w) => self.claim(db, *w).await,
            Action::Complete(w) => self.complete(db, *w).await,
            Action::Fail(w) => self.fail(db, *w).await,
            Action::Die(w) => Ok(self.die(*w)),
            Action::Heartbeat(w) => self.heartbeat(db, *w).await,
            Action::Advance(s) => self.advance(db, *s).await,
            Action::Requeue(id) => self.requeue(db, *id).await,
            Action::Disconnect => self.disconnect(db).await,
            Action::Reconnect => self.reconnect(db).await,
            Action::NotifyBytes(n) => self.notify_bytes(db, *n).await,
            Action::EnqueueKeyed(key) => self.enqueue_keyed(db, key).await,
            Action::PerKeyClaim(on) => {
                self.per_key = *on;
                let key = if *on {
                    keys::JOBS_OUT_PER_KEY_ON
                } else {
                    keys::JOBS_OUT_PER_KEY_OFF
                };
                Ok(Outcome::new(Msg::new(key), Tone::Info))
            }
            Action::DeleteOnComplete(on) => Ok(self.set_delete_on_complete(*on)),
            Action::DualWriteLost => self.dual_write(db, false).await,
            Action::DualWriteGhost => self.dual_write(db, true).await,
            Action::Effect(w) => self.effect(db, *w).await,
            Action::NotifyBurst(n) => self.notify_burst(db, *n).await,
        }
    }

    /// The lab's own: a job with an ordering key, enqueued and notified in one transaction.
    async fn enqueue_keyed(&mut self, db: &Db, key: &str) -> Result<Outcome, DbError> {
        let key = match parse_key(key) {
            Ok(k) => k,
            Err(m) => return Ok(Outcome::new(m, Tone::Warn)),
        };
        let payload = &serde_json::json!({"kind": "sync_customer", "customer": key});
        let job = sql::EnqueueKeyed { payload, key: &key };
        let id = self
            .enqueue_and_notify(db, async |tx| sql::enqueue_keyed(tx, job).await)
            .await?;
        Ok(Outcome::new(
            Msg::new(keys::JOBS_OUT_ENQUEUED_KEY)
                .arg("id", id)
                .arg("key", key),
            Tone::Info,
        )
        .touching(id))
    }

    async fn enqueue(&mut self, db: &Db, input: &EnqueueInput) -> Result<Outcome, DbError> {
        let job = sql::Enqueue {
            queue: &input.queue,
            payload: &input.payload,
            priority: input.priority,
            delay_seconds: input.delay_seconds,
            max_attempts: input.max_attempts,
        };
        let id = self
            .enqueue_and_notify(db, async |tx| sql::enqueue(tx, job).await)
            .await?;
        Ok(Outcome::new(Msg::new(keys::JOBS_OUT_ENQUEUED).arg("id", id), Tone::Info).touching(id))
    }

    /// One transaction: `insert` (returning the new job's id) and a NOTIFY carrying the id;
    /// rolled back whole if either fails. Returns the new job's id.
    async fn enqueue_and_notify(
        &mut self,
        db: &Db,
        insert: impl AsyncFnOnce(&Tx) -> Result<i64, DbError>,
    ) -> Result<i64, DbError> {
        let id = db
            .transaction(async |tx| {
                let id = insert(tx).await?;
                sql::notify(tx, &id.to_string()).await?;
                Ok(id)
            })
            .await?;
        self.after_commit(db, &id.to_string()).await?;
        Ok(id)
    }

    async fn claim(&mut self, db: &Db, w: WorkerId) -> Result<Outcome, DbError> {
        let worker = self.worker(w);
        if !worker.alive {
            return Ok(Outcome::new(
                Msg::new(keys::JOBS_OUT_WORKER_DEAD).arg("w", w.letter()),
                Tone::Warn,
            ));
        }
        if let Some(c) = worker.holding {
            return Ok(Outcome::new(
                Msg::new(keys::JOBS_OUT_BUSY)
                    .arg("w", w.letter())
                    .arg("job", c.job),
                Tone::Info,
            ));
        }
        // A lease that ran out on the last attempt is a dead letter, not another try. Sent
        // with the claim, in one round trip: the worker runs it first.
        let per_key = self.per_key;
        let claim = async {
            if per_key {
                sql::claim_per_key(db).await
            } else {
                sql::claim(db).await
            }
        };
        let (reaped, claimed) = crate::db::pipelined(sql::reap(db), claim).await;
        reaped?;
        let Some(c) = claimed? else {
            if self.per_key {
                let held = sql::held_back(db).await?;
                if held > 0 {
                    return Ok(Outcome::new(
                        Msg::new(keys::JOBS_OUT_HELD_BACK)
                            .arg("w", w.letter())
                            .arg("n", held),
                        Tone::Info,
                    ));
                }
            }
            return Ok(Outcome::new(
                Msg::new(keys::JOBS_OUT_NOTHING).arg("w", w.letter()),
                Tone::Info,
            ));
        };
        let runs = self.executions.entry(c.id).or_default();
        let earlier: Vec<char> = runs
            .iter()
            .filter(|(_, a)| *a < c.attempts)
            .map(|(x, _)| x.letter())
            .collect();
        runs.push((w, c.attempts));
        let worker = self.worker_mut(w);
        worker.holding = Some(Claim {
            job: c.id,
            attempt: c.attempts,
        });
        worker.woken_by = None;
        let msg = if let Some(prev) = earlier.last() {
            Msg::new(keys::JOBS_OUT_CLAIMED_AGAIN)
                .arg("w", w.letter())
                .arg("job", c.id)
                .arg("attempt", c.attempts)
                .arg("prev", prev)
        } else if let Some(key) = &c.key {
            Msg::new(keys::JOBS_OUT_CLAIMED_KEY)
                .arg("w", w.letter())
                .arg("job", c.id)
                .arg("attempt", c.attempts)
                .arg("key", key)
        } else {
            Msg::new(keys::JOBS_OUT_CLAIMED)
                .arg("w", w.letter())
                .arg("job", c.id)
                .arg("attempt", c.attempts)
        };
        let tone = if earlier.is_empty() {
            Tone::Good
        } else {
            Tone::Warn
        };
        Ok(Outcome::new(msg, tone).touching(c.id))
    }

    /// Completion by a live worker, or the late completion of a dead one that wakes up.
    async fn complete(&mut self, db: &Db, w: WorkerId) -> Result<Outcome, DbError> {
        let Some(c) = self.worker(w).holding else {
            return Ok(Outcome::new(
                Msg::new(keys::JOBS_OUT_HOLDS_NOTHING).arg("w", w.letter()),
                Tone::Info,
            ));
        };
        let was_dead = !self.worker(w).alive;
        let rows = if self.delete_on_complete {
            sql::complete_delete(db, c).await?
        } else {
            sql::complete(db, c).await?
        };
        let worker = self.worker_mut(w);
        worker.holding = None;
        worker.alive = true;
        let (key, tone) = match (rows, was_dead, self.delete_on_complete) {
            (0, true, _) => (keys::JOBS_OUT_LATE_COMPLETE_0, Tone::Warn),
            (0, false, false) => (keys::JOBS_OUT_COMPLETE_0, Tone::Warn),
            (0, false, true) => (keys::JOBS_OUT_DELETE_0, Tone::Warn),
            (_, true, false) => (keys::JOBS_OUT_LATE_COMPLETE_1, Tone::Good),
            (_, true, true) => (keys::JOBS_OUT_LATE_DELETED_1, Tone::Good),
            (_, false, false) => (keys::JOBS_OUT_COMPLETED, Tone::Good),
            (_, false, true) => (keys::JOBS_OUT_DELETED, Tone::Good),
        };
        Ok(Outcome::new(
            Msg::new(key)
                .arg("w", w.letter())
                .arg("job", c.job)
                .arg("attempt", c.attempt)
                .arg("rows", rows),
            tone,
        )
        .touching(c.job))
    }

    async fn fail(&mut self, db: &Db, w: WorkerId) -> Result<Outcome, DbError> {
        let c = match self.live_claim(w) {
            Ok(c) => c,
            Err(said) => return Ok(said),
        };
        let error = format!(
            "smtp timeout (worker {}, attempt {})",
            w.letter(),
            c.attempt
        );
        let failed = sql::fail(
            db,
            sql::Fail {
                claim: c,
                error: &error,
            },
        )
        .await?;
        self.worker_mut(w).holding = None;
        let msg = match failed {
            None => Msg::new(keys::JOBS_OUT_COMPLETE_0)
                .arg("w", w.letter())
                .arg("job", c.job)
                .arg("attempt", c.attempt)
                .arg("rows", 0),
            Some(f) if f.status == "dead" => Msg::new(keys::JOBS_OUT_DEAD)
                .arg("job", c.job)
                .arg("attempt", c.attempt),
            Some(f) => Msg::new(keys::JOBS_OUT_RETRY)
                .arg("job", c.job)
                .arg("attempt", c.attempt)
                .arg("secs", 10i64 << c.attempt.clamp(0, 30))
                .arg("at", clock::time_of_day(&f.run_at)),
        };
        Ok(Outcome::new(msg, Tone::Warn).touching(c.job))
    }

    fn die(&mut self, w: WorkerId) -> Outcome {
        let worker = self.worker_mut(w);
        worker.alive = false;
        worker.woken_by = None;
        let msg = match worker.holding {
            Some(c) => Msg::new(keys::JOBS_OUT_DIED_HOLDING)
                .arg("w", w.letter())
                .arg("job", c.job),
            None => Msg::new(keys::JOBS_OUT_DIED).arg("w", w.letter()),
        };
        Outcome::new(msg, Tone::Warn)
    }

    /// The claim worker `w` holds while alive, or what the lab says instead: that it holds
    /// nothing, or that it is dead.
    fn live_claim(&self, w: WorkerId) -> Result<Claim, Outcome> {
        let worker = self.worker(w);
        let Some(c) = worker.holding else {
            return Err(Outcome::new(
                Msg::new(keys::JOBS_OUT_HOLDS_NOTHING).arg("w", w.letter()),
                Tone::Info,
            ));
        };
        if !worker.alive {
            return Err(Outcome::new(
                Msg::new(keys::JOBS_OUT_WORKER_DEAD).arg("w", w.letter()),
                Tone::Warn,
            ));
        }
        Ok(c)
    }

    async fn heartbeat(&mut self, db: &Db, w: WorkerId) -> Result<Outcome, DbError> {
        let c = match self.live_claim(w) {
            Ok(c) => c,
            Err(said) => return Ok(said),
        };
        let extended = sql::heartbeat(db, c).await?;
        Ok(match extended {
            Some(until) => Outcome::new(
                Msg::new(keys::JOBS_OUT_HEARTBEAT)
                    .arg("job", c.job)
                    .arg("until", clock::time_of_day(&until)),
                Tone::Good,
            )
            .touching(c.job),
            None => {
                // The lease was lost meanwhile: the worker learns it no longer holds the job.
                self.worker_mut(w).holding = None;
                Outcome::new(
                    Msg::new(keys::JOBS_OUT_HEARTBEAT_LOST)
                        .arg("w", w.letter())
                        .arg("job", c.job),
                    Tone::Warn,
                )
            }
        })
    }

    async fn advance(&mut self, db: &Db, seconds: i64) -> Result<Outcome, DbError> {
        clock::advance(db, seconds).await?;
        self.elapsed += seconds;
        // Idle workers poll every POLL_SECONDS of lab time, as a safety net under NOTIFY.
        if self.elapsed - self.last_poll >= POLL_SECONDS {
            self.last_poll = self.elapsed - (self.elapsed % POLL_SECONDS);
            let found = sql::rescan(db).await?;
            return Ok(Outcome::new(
                Msg::new(keys::JOBS_OUT_POLL)
                    .arg("secs", seconds)
                    .arg("n", found),
                Tone::Info,
            ));
        }
        Ok(Outcome::new(
            Msg::new(keys::JOBS_OUT_ADVANCED).arg("secs", seconds),
            Tone::Info,
        ))
    }

    async fn requeue(&mut self, db: &Db, id: i64) -> Result<Outcome, DbError> {
        let rows = sql::requeue(db, id).await?;
        Ok(Outcome::either(
            rows == 1,
            (keys::JOBS_OUT_REQUEUED, Tone::Good),
            (keys::JOBS_OUT_REQUEUE_0, Tone::Info),
        )
        .arg("job", id)
        .touching(id))
    }
}

impl crate::labs::harness::LabModel for Lab {
    crate::labs::harness::lab_model_common!(outcome: Outcome, act: run);

    async fn snapshot(&self, db: &Db) -> Result<Snapshot, DbError> {
        let mut snap = snapshot(db, &self.highlighted()).await?;
        // What deleting leaves behind, read only while the lab deletes (two more statements).
        if self.delete_on_complete {
            snap.table = Some(table_stats(db).await?);
        }
        // The lessons' own tables, read only once the learner tried them.
        if self.dual_write_used {
            snap.reconciled = self.reconcile(db).await?;
        }
        if self.effects_used {
            snap.effects = effects(db).await?;
        }
        Ok(snap)
    }
    fn start_run(&mut self) {
        self.touched.clear();
    }
}
