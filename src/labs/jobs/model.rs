//! L1 Job queue: state and actions, no UI.
//!
//! The queue lives in PGlite (the article's `jobs` table); this module holds only what the
//! database cannot: which worker believes it holds which claim (a worker that dies keeps its
//! claim in memory), whether the LISTEN connection is up, what notifications arrived, and a
//! record of executions so the lab can point at a job that ran twice. Every action is one
//! `Action`, so a lab state is its list of actions: it encodes into a URL and replays.

use crate::clock;
use crate::db::{Db, DbError, Listener, Param};
use queue_lab_core::i18n::Msg;
use serde::Deserialize;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

pub const SCHEMA_SQL: &str = include_str!("../../sql/jobs/schema.sql");
pub const RESET_SQL: &str = include_str!("../../sql/jobs/reset.sql");
pub const ENQUEUE_SQL: &str = include_str!("../../sql/jobs/enqueue.sql");
pub const ORDER_INSERT_SQL: &str = include_str!("../../sql/jobs/order_insert.sql");
pub const ORDER_JOB_INSERT_SQL: &str = include_str!("../../sql/jobs/order_job_insert.sql");
pub const NOTIFY_SQL: &str = include_str!("../../sql/jobs/notify.sql");
pub const CLAIM_SQL: &str = include_str!("../../sql/jobs/claim.sql");
/// The article's claim exactly as published, shown beside ours (see `claim.sql`).
pub const CLAIM_ARTICLE_SQL: &str = include_str!("../../sql/jobs/claim_article.sql");
pub const REAP_SQL: &str = include_str!("../../sql/jobs/reap.sql");
pub const COMPLETE_SQL: &str = include_str!("../../sql/jobs/complete.sql");
pub const FAIL_SQL: &str = include_str!("../../sql/jobs/fail.sql");
pub const HEARTBEAT_SQL: &str = include_str!("../../sql/jobs/heartbeat.sql");
pub const REQUEUE_SQL: &str = include_str!("../../sql/jobs/requeue.sql");
pub const SNAPSHOT_SQL: &str = include_str!("../../sql/jobs/snapshot.sql");
pub const RESCAN_SQL: &str = include_str!("../../sql/jobs/rescan.sql");
/// The lab's own (not the article's): a job with an ordering key.
pub const ENQUEUE_KEYED_SQL: &str = include_str!("../../sql/jobs/enqueue_keyed.sql");
/// The lab's own: the claim that runs the jobs of one key one after the other.
pub const CLAIM_PER_KEY_SQL: &str = include_str!("../../sql/jobs/claim_per_key.sql");
/// The lab's own: how many ready jobs the per-key claim holds back.
pub const HELD_BACK_SQL: &str = include_str!("../../sql/jobs/held_back.sql");
/// Longest ordering key, in characters.
pub const KEY_MAX_CHARS: usize = 20;

/// An ordering key as typed: trimmed, 1 to 20 letters, digits, `-` or `_`.
pub fn parse_key(text: &str) -> Result<String, Msg> {
    let key = text.trim();
    let ok = !key.is_empty()
        && key.chars().count() <= KEY_MAX_CHARS
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(key.to_owned())
    } else {
        Err(Msg::new("jobs.err.key").arg("max", KEY_MAX_CHARS))
    }
}

/// The channel the workers LISTEN on, as in the article (`NOTIFY jobs`).
pub const CHANNEL: &str = "jobs";
/// A safety-net poll runs every this many seconds of lab time (§5: "about 30 s").
pub const POLL_SECONDS: i64 = 30;
/// NOTIFY's payload limit in a default build: it must be shorter than this many bytes.
pub const NOTIFY_LIMIT: usize = 8000;
/// How many jobs the table view shows, newest first (the page stays quick to redraw; the
/// SQL console reads them all).
pub const LIST_LIMIT: i64 = 50;

pub const PRIORITY_RANGE: (i32, i32) = (-100, 100);
pub const DELAY_RANGE: (i64, i64) = (0, 86_400);
pub const MAX_ATTEMPTS_RANGE: (i32, i32) = (1, 20);

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

    fn parse(c: char) -> Option<WorkerId> {
        WorkerId::ALL.into_iter().find(|w| w.letter() == c)
    }
}

/// A claim as the worker remembers it: the job and the attempt number it claimed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    pub job: i64,
    pub attempt: i32,
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

/// What a learner typed to enqueue a job, checked before anything runs.
#[derive(Clone, Debug, PartialEq)]
pub struct EnqueueInput {
    pub queue: String,
    pub payload: serde_json::Value,
    pub priority: i32,
    pub delay_seconds: i64,
    pub max_attempts: i32,
}

impl EnqueueInput {
    /// Parses the enqueue form. Each problem names its field; nothing runs on any problem.
    pub fn parse(
        queue: &str,
        payload: &str,
        priority: &str,
        delay: &str,
        max_attempts: &str,
    ) -> Result<EnqueueInput, Vec<(&'static str, Msg)>> {
        let mut problems = Vec::new();
        let queue = queue.trim();
        if queue.is_empty() || queue.chars().count() > 40 {
            problems.push(("queue", Msg::new("jobs.err.queue")));
        }
        let payload = match serde_json::from_str::<serde_json::Value>(payload) {
            Ok(v) => Some(v),
            Err(e) => {
                problems.push(("payload", Msg::new("jobs.err.payload").arg("why", e)));
                None
            }
        };
        let priority = int_in(
            priority,
            PRIORITY_RANGE.0.into(),
            PRIORITY_RANGE.1.into(),
            "priority",
            &mut problems,
        );
        let delay = int_in(delay, DELAY_RANGE.0, DELAY_RANGE.1, "delay", &mut problems);
        let max_attempts = int_in(
            max_attempts,
            MAX_ATTEMPTS_RANGE.0.into(),
            MAX_ATTEMPTS_RANGE.1.into(),
            "max_attempts",
            &mut problems,
        );
        match (payload, priority, delay, max_attempts) {
            (Some(payload), Some(priority), Some(delay_seconds), Some(max_attempts))
                if problems.is_empty() =>
            {
                Ok(EnqueueInput {
                    queue: queue.to_owned(),
                    payload,
                    priority: priority as i32,
                    delay_seconds,
                    max_attempts: max_attempts as i32,
                })
            }
            _ => Err(problems),
        }
    }
}

impl Default for EnqueueInput {
    fn default() -> Self {
        EnqueueInput {
            queue: "default".into(),
            payload: serde_json::json!({"kind": "receipt_email"}),
            priority: 0,
            delay_seconds: 0,
            max_attempts: 5,
        }
    }
}

fn int_in(
    text: &str,
    min: i64,
    max: i64,
    field: &'static str,
    problems: &mut Vec<(&'static str, Msg)>,
) -> Option<i64> {
    match text.trim().parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Some(n),
        Ok(n) => {
            problems.push((
                field,
                Msg::new("jobs.err.range")
                    .arg("min", min)
                    .arg("max", max)
                    .arg("n", n),
            ));
            None
        }
        Err(_) => {
            problems.push((field, Msg::new("jobs.err.number").arg("text", text.trim())));
            None
        }
    }
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
}

pub use crate::labs::session::Tone;

/// What one action did, in words for the learner.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub msg: Msg,
    pub tone: Tone,
    /// Job ids whose rows changed, to highlight.
    pub touched: Vec<i64>,
}

impl Outcome {
    fn new(msg: Msg, tone: Tone) -> Outcome {
        Outcome {
            msg,
            tone,
            touched: Vec::new(),
        }
    }
    fn touching(mut self, id: i64) -> Outcome {
        self.touched.push(id);
        self
    }
}

/// A row of the `jobs` table as the lab shows it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Job {
    pub id: i64,
    pub queue: String,
    pub payload: serde_json::Value,
    pub status: String,
    pub priority: i32,
    pub run_at: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub locked_until: Option<String>,
    pub last_error: Option<String>,
    pub claimable: bool,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Order {
    pub id: i64,
    pub customer: String,
    pub total: String,
    pub created: String,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Counts {
    pub total: i64,
    pub ready: i64,
    pub running: i64,
    pub done: i64,
    pub dead: i64,
}

/// What the tables hold now, read after each action.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    pub now: String,
    pub jobs: Vec<Job>,
    pub orders: Vec<Order>,
    pub counts: Counts,
}

#[derive(Deserialize)]
struct Id {
    id: i64,
}

#[derive(Deserialize)]
struct Count {
    n: i64,
}

#[derive(Deserialize)]
struct Claimed {
    id: i64,
    #[allow(dead_code)]
    payload: serde_json::Value,
    attempts: i32,
    /// Only the per-key claim returns it.
    #[serde(default)]
    key: Option<String>,
}

#[derive(Deserialize)]
struct Failed {
    status: String,
    run_at: String,
}

#[derive(Deserialize)]
struct LockedUntil {
    locked_until: String,
}

#[derive(Deserialize)]
struct Claimable {
    claimable: i64,
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
    /// Lab time (seconds since the start) of the last safety-net poll.
    last_poll: i64,
    elapsed: i64,
    inbox: Rc<RefCell<Vec<String>>>,
    listener: Rc<RefCell<Option<Listener>>>,
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
            last_poll: 0,
            elapsed: 0,
            inbox: Rc::default(),
            listener: Rc::default(),
        }
    }
}

impl Lab {
    /// Creates the article's table (dropping the lab's earlier one) and starts listening.
    pub async fn setup(db: &Db) -> Result<Lab, DbError> {
        db.exec(RESET_SQL).await?;
        db.exec(SCHEMA_SQL).await?;
        clock::reset(db).await?;
        let lab = Lab::default();
        lab.connect(db).await?;
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

    /// Moves arrived notifications into the lab: idle, live workers are woken by them.
    /// Returns how many arrived.
    pub fn take_notifications(&mut self, now: &str) -> usize {
        let arrived: Vec<String> = self.inbox.borrow_mut().drain(..).collect();
        for payload in &arrived {
            self.delivered.push((now.to_owned(), payload.clone()));
            for w in self.workers.iter_mut() {
                if w.alive && w.holding.is_none() {
                    w.woken_by = Some(payload.clone());
                }
            }
        }
        arrived.len()
    }

    /// Runs one action against the database and updates the lab. On a database error the
    /// lab state is unchanged (the error is returned to be shown).
    pub async fn run(&mut self, db: &Db, action: Action) -> Result<Outcome, DbError> {
        let outcome = self.apply(db, &action).await?;
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
                    "jobs.out.per_key_on"
                } else {
                    "jobs.out.per_key_off"
                };
                Ok(Outcome::new(Msg::new(key), Tone::Info))
            }
        }
    }

    /// The lab's own: a job with an ordering key, enqueued and notified in one transaction.
    async fn enqueue_keyed(&mut self, db: &Db, key: &str) -> Result<Outcome, DbError> {
        let key = match parse_key(key) {
            Ok(k) => k,
            Err(m) => return Ok(Outcome::new(m, Tone::Warn)),
        };
        let payload = serde_json::json!({"kind": "sync_customer", "customer": key});
        let id = self
            .enqueue_and_notify(db, ENQUEUE_KEYED_SQL, &[payload.into(), key.clone().into()])
            .await?;
        Ok(Outcome::new(
            Msg::new("jobs.out.enqueued_key")
                .arg("id", id)
                .arg("key", key),
            Tone::Info,
        )
        .touching(id))
    }

    async fn enqueue(&mut self, db: &Db, input: &EnqueueInput) -> Result<Outcome, DbError> {
        let params = [
            input.queue.clone().into(),
            input.payload.clone().into(),
            input.priority.into(),
            Param::Float(input.delay_seconds as f64),
            input.max_attempts.into(),
        ];
        let id = self.enqueue_and_notify(db, ENQUEUE_SQL, &params).await?;
        Ok(Outcome::new(Msg::new("jobs.out.enqueued").arg("id", id), Tone::Info).touching(id))
    }

    /// One transaction: `insert` (an INSERT … RETURNING id) and a NOTIFY carrying the id;
    /// rolled back whole if either fails. Returns the new job's id.
    async fn enqueue_and_notify(
        &mut self,
        db: &Db,
        insert: &str,
        params: &[Param],
    ) -> Result<i64, DbError> {
        let tx = db.begin().await?;
        let inserted = async {
            let id = tx
                .query::<Id>(insert, params)
                .await?
                .first()
                .map(|r| r.id)
                .ok_or_else(|| DbError::other("INSERT returned no id"))?;
            tx.query::<serde_json::Value>(NOTIFY_SQL, &[id.to_string().into()])
                .await?;
            Ok::<_, DbError>(id)
        }
        .await;
        let id = match inserted {
            Ok(id) => {
                tx.commit().await?;
                id
            }
            Err(e) => {
                tx.rollback().await?;
                return Err(e);
            }
        };
        self.after_commit(db, &id.to_string()).await?;
        Ok(id)
    }

    /// Records a NOTIFY this lab sent: delivered if connected, otherwise lost.
    async fn after_commit(&mut self, db: &Db, payload: &str) -> Result<(), DbError> {
        if self.connected {
            // No wait needed: PGlite hands a notification to its listeners while it reads
            // the COMMIT's reply, and the worker posts both in that order, so the listener
            // has filled the inbox by the time commit() returns (tests/db.rs checks this).
            let now = clock::now(db).await?;
            self.take_notifications(&now);
        } else {
            self.lost.push(payload.to_owned());
        }
        Ok(())
    }

    async fn order_with_job(&mut self, db: &Db, fails: bool) -> Result<Outcome, DbError> {
        let tx = db.begin().await?;
        let written = async {
            let order = tx
                .query::<Id>(
                    ORDER_INSERT_SQL,
                    &["kim@example.com".into(), Param::Float(42_000.0)],
                )
                .await?
                .first()
                .map(|r| r.id)
                .ok_or_else(|| DbError::other("INSERT returned no id"))?;
            let job = tx
                .query::<Id>(ORDER_JOB_INSERT_SQL, &[order.into()])
                .await?
                .first()
                .map(|r| r.id)
                .ok_or_else(|| DbError::other("INSERT returned no id"))?;
            tx.query::<serde_json::Value>(NOTIFY_SQL, &[job.to_string().into()])
                .await?;
            Ok::<_, DbError>((order, job))
        }
        .await;
        let (order, job) = match written {
            Ok(ids) => ids,
            Err(e) => {
                tx.rollback().await?;
                return Err(e);
            }
        };
        if fails {
            // The request dies after writing: nothing it wrote, and no NOTIFY, survives.
            tx.rollback().await?;
            let now = clock::now(db).await?;
            let arrived = self.take_notifications(&now);
            let msg = Msg::new("jobs.out.rolled_back")
                .arg("order", order)
                .arg("job", job)
                .arg("n", arrived);
            return Ok(Outcome::new(msg, Tone::Warn));
        }
        tx.commit().await?;
        let before = self.delivered.len();
        self.after_commit(db, &job.to_string()).await?;
        let woke = self.delivered.len() > before;
        let key = if woke {
            "jobs.out.committed_woke"
        } else {
            "jobs.out.committed_lost"
        };
        Ok(Outcome::new(
            Msg::new(key).arg("order", order).arg("job", job),
            Tone::Good,
        )
        .touching(job))
    }

    async fn claim(&mut self, db: &Db, w: WorkerId) -> Result<Outcome, DbError> {
        let worker = self.worker(w);
        if !worker.alive {
            return Ok(Outcome::new(
                Msg::new("jobs.out.worker_dead").arg("w", w.letter()),
                Tone::Warn,
            ));
        }
        if let Some(c) = worker.holding {
            return Ok(Outcome::new(
                Msg::new("jobs.out.busy")
                    .arg("w", w.letter())
                    .arg("job", c.job),
                Tone::Info,
            ));
        }
        // A lease that ran out on the last attempt is a dead letter, not another try.
        db.query::<serde_json::Value>(REAP_SQL, &[]).await?;
        let sql = if self.per_key {
            CLAIM_PER_KEY_SQL
        } else {
            CLAIM_SQL
        };
        let claimed = db.query::<Claimed>(sql, &[]).await?.first();
        let Some(c) = claimed else {
            if self.per_key {
                let held = db
                    .query::<Count>(HELD_BACK_SQL, &[])
                    .await?
                    .first()
                    .map_or(0, |c| c.n);
                if held > 0 {
                    return Ok(Outcome::new(
                        Msg::new("jobs.out.held_back")
                            .arg("w", w.letter())
                            .arg("n", held),
                        Tone::Info,
                    ));
                }
            }
            return Ok(Outcome::new(
                Msg::new("jobs.out.nothing").arg("w", w.letter()),
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
            Msg::new("jobs.out.claimed_again")
                .arg("w", w.letter())
                .arg("job", c.id)
                .arg("attempt", c.attempts)
                .arg("prev", prev)
        } else if let Some(key) = &c.key {
            Msg::new("jobs.out.claimed_key")
                .arg("w", w.letter())
                .arg("job", c.id)
                .arg("attempt", c.attempts)
                .arg("key", key)
        } else {
            Msg::new("jobs.out.claimed")
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
                Msg::new("jobs.out.holds_nothing").arg("w", w.letter()),
                Tone::Info,
            ));
        };
        let was_dead = !self.worker(w).alive;
        let rows = db
            .query::<serde_json::Value>(COMPLETE_SQL, &[c.job.into(), c.attempt.into()])
            .await?
            .affected;
        let worker = self.worker_mut(w);
        worker.holding = None;
        worker.alive = true;
        let (key, tone) = match (rows, was_dead) {
            (0, true) => ("jobs.out.late_complete_0", Tone::Warn),
            (0, false) => ("jobs.out.complete_0", Tone::Warn),
            (_, true) => ("jobs.out.late_complete_1", Tone::Good),
            _ => ("jobs.out.completed", Tone::Good),
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
        let Some(c) = self.worker(w).holding else {
            return Ok(Outcome::new(
                Msg::new("jobs.out.holds_nothing").arg("w", w.letter()),
                Tone::Info,
            ));
        };
        if !self.worker(w).alive {
            return Ok(Outcome::new(
                Msg::new("jobs.out.worker_dead").arg("w", w.letter()),
                Tone::Warn,
            ));
        }
        let error = format!(
            "smtp timeout (worker {}, attempt {})",
            w.letter(),
            c.attempt
        );
        let failed = db
            .query::<Failed>(FAIL_SQL, &[c.job.into(), c.attempt.into(), error.into()])
            .await?
            .first();
        self.worker_mut(w).holding = None;
        let msg = match failed {
            None => Msg::new("jobs.out.complete_0")
                .arg("w", w.letter())
                .arg("job", c.job)
                .arg("attempt", c.attempt)
                .arg("rows", 0),
            Some(f) if f.status == "dead" => Msg::new("jobs.out.dead")
                .arg("job", c.job)
                .arg("attempt", c.attempt),
            Some(f) => Msg::new("jobs.out.retry")
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
            Some(c) => Msg::new("jobs.out.died_holding")
                .arg("w", w.letter())
                .arg("job", c.job),
            None => Msg::new("jobs.out.died").arg("w", w.letter()),
        };
        Outcome::new(msg, Tone::Warn)
    }

    async fn heartbeat(&mut self, db: &Db, w: WorkerId) -> Result<Outcome, DbError> {
        let worker = self.worker(w);
        let Some(c) = worker.holding else {
            return Ok(Outcome::new(
                Msg::new("jobs.out.holds_nothing").arg("w", w.letter()),
                Tone::Info,
            ));
        };
        if !worker.alive {
            return Ok(Outcome::new(
                Msg::new("jobs.out.worker_dead").arg("w", w.letter()),
                Tone::Warn,
            ));
        }
        let extended = db
            .query::<LockedUntil>(HEARTBEAT_SQL, &[c.job.into(), c.attempt.into()])
            .await?
            .first();
        Ok(match extended {
            Some(l) => Outcome::new(
                Msg::new("jobs.out.heartbeat")
                    .arg("job", c.job)
                    .arg("until", clock::time_of_day(&l.locked_until)),
                Tone::Good,
            )
            .touching(c.job),
            None => {
                // The lease was lost meanwhile: the worker learns it no longer holds the job.
                self.worker_mut(w).holding = None;
                Outcome::new(
                    Msg::new("jobs.out.heartbeat_lost")
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
            let found = db
                .query::<Claimable>(RESCAN_SQL, &[])
                .await?
                .first()
                .map_or(0, |c| c.claimable);
            return Ok(Outcome::new(
                Msg::new("jobs.out.poll")
                    .arg("secs", seconds)
                    .arg("n", found),
                Tone::Info,
            ));
        }
        Ok(Outcome::new(
            Msg::new("jobs.out.advanced").arg("secs", seconds),
            Tone::Info,
        ))
    }

    async fn requeue(&mut self, db: &Db, id: i64) -> Result<Outcome, DbError> {
        let rows = db
            .query::<serde_json::Value>(REQUEUE_SQL, &[id.into()])
            .await?
            .affected;
        let key = if rows == 1 {
            "jobs.out.requeued"
        } else {
            "jobs.out.requeue_0"
        };
        Ok(Outcome::new(
            Msg::new(key).arg("job", id),
            if rows == 1 { Tone::Good } else { Tone::Info },
        )
        .touching(id))
    }

    async fn disconnect(&mut self, db: &Db) -> Result<Outcome, DbError> {
        if !self.connected {
            return Ok(Outcome::new(
                Msg::new("jobs.out.already_disconnected"),
                Tone::Info,
            ));
        }
        let listener = self.listener.borrow_mut().take();
        if let Some(l) = listener {
            l.unlisten().await?;
        }
        // Anything that arrived before the drop was delivered; after it, nothing is.
        let now = clock::now(db).await?;
        self.take_notifications(&now);
        self.connected = false;
        Ok(Outcome::new(Msg::new("jobs.out.disconnected"), Tone::Warn))
    }

    async fn reconnect(&mut self, db: &Db) -> Result<Outcome, DbError> {
        if self.connected {
            return Ok(Outcome::new(
                Msg::new("jobs.out.already_connected"),
                Tone::Info,
            ));
        }
        self.connect(db).await?;
        self.connected = true;
        // Notifications sent meanwhile are gone: the worker rescans the table instead.
        let found = db
            .query::<Claimable>(RESCAN_SQL, &[])
            .await?
            .first()
            .map_or(0, |c| c.claimable);
        let lost = self.lost.len();
        Ok(Outcome::new(
            Msg::new("jobs.out.reconnected")
                .arg("lost", lost)
                .arg("n", found),
            Tone::Good,
        ))
    }

    async fn notify_bytes(&mut self, db: &Db, bytes: usize) -> Result<Outcome, DbError> {
        let payload = "x".repeat(bytes);
        let tx = db.begin().await?;
        let sent = tx
            .query::<serde_json::Value>(NOTIFY_SQL, &[payload.clone().into()])
            .await;
        match sent {
            Ok(_) => {
                tx.commit().await?;
                let listening = self.connected;
                self.after_commit(db, &payload).await?;
                Ok(if listening {
                    Outcome::new(Msg::new("jobs.out.notify_ok").arg("n", bytes), Tone::Good)
                } else {
                    Outcome::new(Msg::new("jobs.out.notify_lost").arg("n", bytes), Tone::Warn)
                })
            }
            Err(e) => {
                tx.rollback().await?;
                Err(e)
            }
        }
    }
}

/// Reads the tables for the view, in one statement (snapshot.sql): the newest jobs, and
/// `also` (jobs held or just changed) wherever they are.
pub async fn snapshot(db: &Db, also: &[i64]) -> Result<Snapshot, DbError> {
    /// One row; each part is JSON text, decoded here.
    #[derive(Deserialize)]
    struct Row {
        now: String,
        jobs: String,
        orders: String,
        counts: String,
    }
    fn decode<T: serde::de::DeserializeOwned>(part: &str, json: &str) -> Result<T, DbError> {
        serde_json::from_str(json)
            .map_err(|e| DbError::other(&format!("snapshot.sql returned unreadable {part}: {e}")))
    }
    let row = db
        .query::<Row>(SNAPSHOT_SQL, &[LIST_LIMIT.into(), Param::ids(also)])
        .await?
        .first()
        .ok_or_else(|| DbError::other("snapshot.sql returned no row"))?;
    Ok(Snapshot {
        now: row.now,
        jobs: decode("jobs", &row.jobs)?,
        orders: decode("orders", &row.orders)?,
        counts: decode("counts", &row.counts)?,
    })
}

/// Actions as a compact text for the share URL, e.g. `o.r.c.A.x.A.t31`.
pub fn encode(actions: &[Action]) -> String {
    actions
        .iter()
        .map(|a| match a {
            Action::Enqueue(i) => format!(
                "e{},{},{},{}",
                i.priority,
                i.delay_seconds,
                i.max_attempts,
                encode_text(&serde_json::json!([i.queue, i.payload]).to_string())
            ),
            Action::OrderWithJob => "o".into(),
            Action::OrderWithJobFails => "r".into(),
            Action::Claim(w) => format!("c{}", w.letter()),
            Action::Complete(w) => format!("d{}", w.letter()),
            Action::Fail(w) => format!("f{}", w.letter()),
            Action::Die(w) => format!("x{}", w.letter()),
            Action::Heartbeat(w) => format!("h{}", w.letter()),
            Action::Advance(s) => format!("t{s}"),
            Action::Requeue(id) => format!("q{id}"),
            Action::Disconnect => "u".into(),
            Action::Reconnect => "l".into(),
            Action::NotifyBytes(n) => format!("n{n}"),
            Action::EnqueueKeyed(k) => format!("k{}", encode_text(k)),
            Action::PerKeyClaim(on) => format!("s{}", u8::from(*on)),
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The inverse of `encode`; an unreadable step is refused with its position.
pub fn decode(text: &str) -> Result<Vec<Action>, Msg> {
    let mut actions = Vec::new();
    for (i, step) in text.split('.').filter(|s| !s.is_empty()).enumerate() {
        let bad = || Msg::new("jobs.err.share").arg("n", i + 1).arg("step", step);
        let mut chars = step.chars();
        let kind = chars.next().ok_or_else(bad)?;
        let rest: String = chars.collect();
        let worker = || {
            rest.chars()
                .next()
                .and_then(WorkerId::parse)
                .filter(|_| rest.len() == 1)
                .ok_or_else(bad)
        };
        let action = match kind {
            'o' if rest.is_empty() => Action::OrderWithJob,
            'r' if rest.is_empty() => Action::OrderWithJobFails,
            'u' if rest.is_empty() => Action::Disconnect,
            'l' if rest.is_empty() => Action::Reconnect,
            'c' => Action::Claim(worker()?),
            'd' => Action::Complete(worker()?),
            'f' => Action::Fail(worker()?),
            'x' => Action::Die(worker()?),
            'h' => Action::Heartbeat(worker()?),
            't' => {
                let s: i64 = rest.parse().map_err(|_| bad())?;
                if !(1..=clock::MAX_STEP_SECONDS).contains(&s) {
                    return Err(bad());
                }
                Action::Advance(s)
            }
            'q' => Action::Requeue(rest.parse().map_err(|_| bad())?),
            'k' => Action::EnqueueKeyed(
                decode_text(&rest)
                    .and_then(|k| parse_key(&k).ok())
                    .ok_or_else(bad)?,
            ),
            's' if rest == "1" => Action::PerKeyClaim(true),
            's' if rest == "0" => Action::PerKeyClaim(false),
            'n' => Action::NotifyBytes(
                rest.parse::<usize>()
                    .ok()
                    .filter(|n| *n <= 100_000)
                    .ok_or_else(bad)?,
            ),
            'e' => {
                let mut parts = rest.splitn(4, ',');
                let (Some(p), Some(d), Some(m), Some(t)) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(bad());
                };
                let text = decode_text(t).ok_or_else(bad)?;
                let pair: (String, serde_json::Value) =
                    serde_json::from_str(&text).map_err(|_| bad())?;
                let input = EnqueueInput::parse(&pair.0, &pair.1.to_string(), p, d, m)
                    .map_err(|_| bad())?;
                Action::Enqueue(input)
            }
            _ => return Err(bad()),
        };
        actions.push(action);
    }
    Ok(actions)
}

/// Percent-encoding of everything but letters and digits, so the text survives a URL.
fn encode_text(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("~{b:02X}")
            }
        })
        .collect()
}

fn decode_text(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'~' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl crate::labs::session::LabModel for Lab {
    type Action = Action;
    type Outcome = Outcome;
    type Snapshot = Snapshot;
    const ID: crate::labs::LabId = super::ID;

    async fn setup(db: &Db) -> Result<Lab, DbError> {
        Lab::setup(db).await
    }
    async fn act(&mut self, db: &Db, action: Action) -> Result<Outcome, DbError> {
        self.run(db, action).await
    }
    async fn snapshot(&self, db: &Db) -> Result<Snapshot, DbError> {
        snapshot(db, &self.highlighted()).await
    }
    fn start_run(&mut self) {
        self.touched.clear();
    }
}

impl crate::labs::session::Told for Outcome {
    fn msg(&self) -> &Msg {
        &self.msg
    }
    fn tone(&self) -> Tone {
        self.tone
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enqueue_input_refuses_each_bad_field_with_a_reason() {
        let err = EnqueueInput::parse("default", "{not json", "0", "0", "5").unwrap_err();
        assert_eq!(
            err.iter().map(|(f, m)| (*f, m.key)).collect::<Vec<_>>(),
            [("payload", "jobs.err.payload")]
        );
        let err = EnqueueInput::parse("default", "{}", "-101", "-1", "ten").unwrap_err();
        let fields: Vec<_> = err.iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, ["priority", "delay", "max_attempts"]);
        assert!(EnqueueInput::parse("", "{}", "0", "0", "5").is_err());
        let ok = EnqueueInput::parse(" mail ", r#"{"to":"a@b"}"#, "10", "30", "3").unwrap();
        assert_eq!(
            (
                ok.queue.as_str(),
                ok.priority,
                ok.delay_seconds,
                ok.max_attempts
            ),
            ("mail", 10, 30, 3)
        );
    }

    #[test]
    fn share_text_round_trips_every_action() {
        let actions = vec![
            Action::Enqueue(
                EnqueueInput::parse("q 1", r#"{"a":"é ~.,"}"#, "-3", "5", "2").unwrap(),
            ),
            Action::OrderWithJob,
            Action::OrderWithJobFails,
            Action::Claim(WorkerId::A),
            Action::Complete(WorkerId::B),
            Action::Fail(WorkerId::C),
            Action::Die(WorkerId::A),
            Action::Heartbeat(WorkerId::B),
            Action::Advance(31),
            Action::Requeue(7),
            Action::Disconnect,
            Action::Reconnect,
            Action::NotifyBytes(8000),
        ];
        let text = encode(&actions);
        assert!(
            text.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".,~-".contains(c)),
            "{text}"
        );
        assert_eq!(decode(&text), Ok(actions));
    }

    #[test]
    fn share_text_refuses_garbage_with_the_step_number() {
        assert_eq!(
            decode("o.cZ").map_err(|m| m.args[0].1.clone()),
            Err("2".to_string())
        );
        assert!(decode("t0").is_err());
        assert!(decode("e1,2").is_err());
        assert!(decode("w").is_err());
    }
}
