//! The discrete-event engine: workers, statements, transactions and row locks.
//!
//! For: running one [`Params`] to one [`Outcome`], deterministically. Not for: SQL, real
//! connections or timing on a wall clock.
//!
//! The model. Each worker owns one connection. A statement costs one round trip: it reaches
//! the server half a round trip after it is sent, does its work there instantly (unless it
//! blocks on a row lock), and its reply arrives half a round trip later. Round trips are drawn
//! within ±20 % of `latency_us`, each worker from a stream of its own seeded from the seed, so
//! a worker's round trips do not depend on when other workers send; job durations are drawn
//! per job id. Events at the same instant run in worker order (lock waiters are served FIFO
//! regardless), so a run is a pure function of its `Params`.
//!
//! The table holds rows `0..jobs`, all `ready`, and every claim asks for the lowest ready id
//! (`order by id limit 1`). What each strategy sends, per job:
//! - naive: `SELECT` head (autocommit) · gap · `UPDATE … set running` · work · `UPDATE … done`.
//!   The SELECT reads without locking, so every worker whose SELECT lands before the first
//!   UPDATE gets the same row and runs it.
//! - for-update: `BEGIN` · `SELECT … FOR UPDATE` · work · `UPDATE … done` · `COMMIT`. A locked
//!   head makes the SELECT wait in a FIFO queue on that row; when the lock passes to it, the
//!   row is re-checked (PostgreSQL's EvalPlanQual): already done, so the lock is dropped and
//!   the scan goes on to the next row, where it may queue again.
//! - skip-locked-tx: as for-update, but locked rows are skipped, never waited for.
//! - skip-locked-lease: one autocommit `UPDATE … where id = (SELECT … FOR UPDATE SKIP LOCKED)`
//!   marks the row running with a lease; work; autocommit `UPDATE … done`. The row lock lasts
//!   only inside the claim statement.
//! - split-queues: as skip-locked-lease, but worker `w` claims only jobs whose key is in its
//!   group (`key % workers = w`), so each key is worked by one worker, one job at a time.
//! - per-key: as skip-locked-lease, but only a job whose earlier jobs of the same key are all
//!   done may be claimed. A claim that finds nothing while ready jobs remain leaves the worker
//!   idle until a completion makes a job claimable and wakes it (half a round trip later, as
//!   a NOTIFY would); a worker that finds no ready job at all stops.
//!
//! Jobs carry a key (say, a customer id), drawn per job id from the seed by [`job_keys`] on
//! a stream of its own, so adding keys changed nothing in the article's four strategies.
//!
//! Order is measured twice, over completions (a job completes when its `done` is written):
//! - [`Outcome::inversions`]: adjacent pairs in the global completion order whose ids descend.
//! - [`Outcome::key_inversions`]: the same count within each key, summed over keys: for every
//!   key, take the completions of that key's jobs in time order, and count each job that
//!   completes right after a job of the same key with a higher id (enqueued later). 0 means
//!   every key's jobs completed in enqueue order.

use std::collections::{BTreeSet, VecDeque};

use crate::params::{ParamError, Params, Strategy};
use crate::report::{Outcome, Segment, SegmentKind, TxSpan};
use crate::rng::SplitMix64;

const READY: u8 = 0;
const RUNNING: u8 = 1;
const DONE: u8 = 2;
const UNLOCKED: u16 = u16::MAX;
/// No job (end of a key's chain, or no completion yet for a key).
const NO_JOB: u32 = u32::MAX;

/// Runs one simulation. Invalid inputs return the validation error; nothing is simulated.
pub fn simulate(params: &Params) -> Result<Outcome, ParamError> {
    simulate_with_progress(params, &mut |_| {})
}

/// A row lock being taken or given up (recorded only by [`simulate_traced`]).
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LockEvent {
    pub t: u64,
    pub row: u32,
    pub worker: u16,
    pub acquired: bool,
}

/// As [`simulate`], also returning every row-lock acquisition and release, in time order.
#[cfg(test)]
pub(crate) fn simulate_traced(params: &Params) -> Result<(Outcome, Vec<LockEvent>), ParamError> {
    params.validate()?;
    let mut sim = Sim::new(params, true);
    sim.run(&mut |_| {});
    let trace = std::mem::take(&mut sim.trace);
    Ok((sim.into_outcome(), trace))
}

mod events;
use events::*;
mod progress;
pub use progress::{simulate_with_progress, Progress, PROGRESS_EVERY};

#[derive(Debug, Clone)]
struct Worker {
    stmt: Stmt,
    /// The second half of the current statement's round trip.
    half_back: u64,
    /// The row the current statement returned.
    found: Option<u32>,
    /// The job this worker has claimed and not yet finished.
    job: Option<u32>,
    /// The row lock this worker's transaction holds (at most one at a time).
    holding: Option<u32>,
    /// FOR UPDATE: where the scan resumes after a re-check found the row already taken.
    scan_from: u32,
    tx_start: Option<u64>,
    seg_kind: SegmentKind,
    seg_start: u64,
    seg_job: Option<u32>,
    /// The row whose lock was handed over to this worker, until it re-checks the row.
    granted_row: Option<u32>,
    wait_since: u64,
    /// This worker's round trips.
    round_trips: RoundTrips,
}

struct Sim<'a> {
    p: &'a Params,
    autocommit: bool,
    now: u64,
    // Hot arrays are boxed slices: their indexing is built into the language, so it stays
    // cheap even in the size-optimised (`opt-level = "z"`) builds the web app uses.
    status: Box<[u8]>,
    lock: Box<[u16]>,
    /// No row below `head` is ready.
    head: u32,
    duration: Box<[u32]>,
    runs: Box<[u16]>,
    workers: Box<[Worker]>,
    events: Agenda,
    /// Workers blocked on row locks, a FIFO queue per row.
    waiters: locks::LockQueues,
    /// When each worker comes up.
    start_draws: SplitMix64,
    /// Every round trip a statement can take (see `round_trips::table`).
    round_trips: [u64; ROUND_TRIPS],
    claims_started: u64,
    executions: u64,
    lock_wait_us: u64,
    lock_waits: u64,
    txs: TxClock,
    last_completed: Option<u32>,
    inversions: u64,
    completions: u64,
    /// Each job's key.
    key: Box<[u32]>,
    /// Per key, the job that completed last (`NO_JOB` before the first).
    key_last: Box<[u32]>,
    key_inversions: u64,
    /// Per-key: each job's next job of the same key (`NO_JOB` for the last); empty otherwise.
    next_same_key: Box<[u32]>,
    /// Per-key: the claimable jobs (ready, every earlier job of their key done).
    claimable: BTreeSet<u32>,
    /// Per-key: ready jobs left.
    ready_left: u32,
    /// Per-key: idle workers, longest-waiting first.
    idle: VecDeque<u16>,
    /// Split queues: each worker's own jobs in id order, and how many it has claimed.
    group_jobs: Vec<Vec<u32>>,
    group_pos: Vec<usize>,
    elapsed: u64,
    timeline: Vec<Segment>,
    transactions: Vec<TxSpan>,
    truncated: bool,
    /// Nothing more can be recorded: the timeline and the spans are full, and `truncated` is
    /// set. From then on segments and spans are not even built.
    recording_over: bool,
    #[cfg(test)]
    tracing: bool,
    /// Whether replies may be handled ahead (see [`Self::send_reply`]); off only in tests.
    #[cfg(test)]
    replies_ahead: bool,
    #[cfg(test)]
    trace: Vec<LockEvent>,
}

impl<'a> Sim<'a> {
    #[cfg_attr(not(test), allow(unused_variables))]
    fn new(p: &'a Params, tracing: bool) -> Self {
        let n = p.jobs as usize;
        let key = job_keys(p);
        let mut next_same_key = Vec::new();
        let mut claimable = BTreeSet::new();
        if p.strategy == Strategy::PerKey {
            // Walk backwards so each job links to the next one of its key; what is left in
            // `first` is each key's first job, claimable from the start.
            next_same_key = vec![NO_JOB; n];
            let mut first = vec![NO_JOB; p.keys as usize];
            for j in (0..p.jobs).rev() {
                let k = key[j as usize] as usize;
                next_same_key[j as usize] = first[k];
                first[k] = j;
            }
            claimable = first.into_iter().filter(|&j| j != NO_JOB).collect();
        }
        let mut group_jobs = Vec::new();
        if p.strategy == Strategy::SplitQueues {
            group_jobs = vec![Vec::new(); p.workers as usize];
            for (j, &k) in key.iter().enumerate() {
                group_jobs[(k % p.workers) as usize].push(j as u32);
            }
        }
        let workers: Box<[Worker]> = RoundTrips::per_worker(p)
            .map(|round_trips| Worker {
                stmt: Stmt::Begin,
                half_back: 0,
                found: None,
                job: None,
                holding: None,
                scan_from: 0,
                tx_start: None,
                seg_kind: SegmentKind::Claim,
                seg_start: 0,
                seg_job: None,
                granted_row: None,
                wait_since: 0,
                round_trips,
            })
            .collect();
        Sim {
            p,
            autocommit: !p.strategy.holds_transaction_during_job(),
            now: 0,
            status: vec![READY; n].into_boxed_slice(),
            lock: vec![UNLOCKED; n].into_boxed_slice(),
            head: 0,
            duration: draw_durations(p).into_boxed_slice(),
            runs: vec![0; n].into_boxed_slice(),
            workers,
            events: Agenda::new(p.workers as usize),
            waiters: locks::LockQueues::new(n, p.workers as usize),
            start_draws: SplitMix64::new(p.seed ^ 0x6A09_E667_F3BC_C909),
            round_trips: round_trips::table(p),
            claims_started: 0,
            executions: 0,
            lock_wait_us: 0,
            lock_waits: 0,
            txs: TxClock::new(),
            last_completed: None,
            inversions: 0,
            completions: 0,
            key_last: vec![NO_JOB; p.keys as usize].into_boxed_slice(),
            key: key.into_boxed_slice(),
            key_inversions: 0,
            next_same_key: next_same_key.into_boxed_slice(),
            claimable,
            ready_left: p.jobs,
            idle: VecDeque::new(),
            group_pos: vec![0; group_jobs.len()],
            group_jobs,
            elapsed: 0,
            timeline: Vec::new(),
            transactions: Vec::new(),
            truncated: false,
            recording_over: false,
            #[cfg(test)]
            tracing,
            #[cfg(test)]
            replies_ahead: true,
            #[cfg(test)]
            trace: Vec::new(),
        }
    }

    /// Worker `w`'s next event is `next` at `t`, replacing its pending one.
    #[inline(always)]
    fn schedule(&mut self, w: usize, t: u64, next: Next) {
        debug_assert!(
            !matches!(next, Next::Exec | Next::Reply),
            "use schedule_stmt"
        );
        self.events.set(w, t, code(next, Stmt::Begin));
    }

    /// As [`Self::schedule`], for the server side (`Exec`) or the reply (`Reply`) of `stmt`,
    /// the worker's current statement.
    #[inline(always)]
    fn schedule_stmt(&mut self, w: usize, t: u64, next: Next, stmt: Stmt) {
        debug_assert_eq!(stmt, self.workers[w].stmt);
        self.events.set(w, t, code(next, stmt));
    }

    /// Closes the worker's current segment and opens one of `kind`.
    fn segment(&mut self, w: usize, kind: SegmentKind, job: Option<u32>) {
        self.segment_at(w, self.now, kind, job);
    }

    /// As [`Self::segment`], at `now` (not earlier than the worker's current segment start).
    #[inline(always)]
    fn segment_at(&mut self, w: usize, now: u64, kind: SegmentKind, job: Option<u32>) {
        if !self.recording_over {
            self.record_segment(w, now, kind, job);
        }
    }

    #[inline(never)]
    fn record_segment(&mut self, w: usize, now: u64, kind: SegmentKind, job: Option<u32>) {
        let wk = &mut self.workers[w];
        if now > wk.seg_start {
            let seg = Segment {
                worker: w as u16,
                kind: wk.seg_kind,
                start_us: wk.seg_start,
                end_us: now,
                job: wk.seg_job,
            };
            if self.timeline.len() < self.p.timeline_limit as usize {
                self.timeline.push(seg);
            } else {
                self.left_out();
            }
        }
        let wk = &mut self.workers[w];
        wk.seg_kind = kind;
        wk.seg_start = now;
        wk.seg_job = job;
    }

    /// The top of the worker's loop: claim the next job, unless the execution limit is reached.
    #[inline(always)]
    fn start(&mut self, w: usize) {
        self.start_at(w, self.now);
    }

    /// As [`Self::start`], at `at`: now, or later for a reply handled ahead (which only does
    /// this while claims are left).
    #[inline(always)]
    fn start_at(&mut self, w: usize, at: u64) {
        if !self.claims_left() {
            debug_assert_eq!(at, self.now);
            self.stop(w);
            self.stop_idle();
            return;
        }
        self.claims_started += 1;
        self.segment_at(w, at, SegmentKind::Claim, None);
        let first = match self.p.strategy {
            Strategy::Naive => Stmt::NaiveSelect,
            Strategy::ForUpdate | Strategy::SkipLockedTx => Stmt::Begin,
            Strategy::SkipLockedLease | Strategy::SplitQueues | Strategy::PerKey => {
                Stmt::LeaseClaim
            }
        };
        self.issue_at(w, first, at);
    }

    /// Whether the execution limit (if any) lets one more claim start.
    #[inline(always)]
    fn claims_left(&self) -> bool {
        self.p
            .max_executions
            .is_none_or(|limit| self.claims_started < u64::from(limit))
    }

    /// Per-key: every idle worker stops (no job will become claimable for them).
    fn stop_idle(&mut self) {
        while let Some(v) = self.idle.pop_front() {
            self.stop(usize::from(v));
        }
    }

    /// Split queues: the next job of this worker's own group.
    fn next_in_group(&mut self, w: usize) -> Option<u32> {
        let pos = self.group_pos[w];
        let job = self.group_jobs[w].get(pos).copied()?;
        self.group_pos[w] = pos + 1;
        Some(job)
    }

    fn stop(&mut self, w: usize) {
        self.segment(w, SegmentKind::Claim, None);
        self.elapsed = self.elapsed.max(self.now);
    }

    #[inline(always)]
    fn issue(&mut self, w: usize, stmt: Stmt) {
        self.issue_at(w, stmt, self.now);
    }

    /// As [`Self::issue`], at `at`: now, or later for a reply handled ahead, whose statement
    /// never opens a transaction (the one it would open is open already).
    #[inline(always)]
    fn issue_at(&mut self, w: usize, stmt: Stmt, at: u64) {
        let latency = self.p.latency_us;
        let wk = &mut self.workers[w];
        // `latency_us × (a draw in 80..=120) / 100`, the draw skipped at zero latency.
        let rtt = if latency == 0 {
            0
        } else {
            wk.round_trips.next(&self.round_trips)
        };
        let out = rtt / 2;
        let opens = self.autocommit || stmt == Stmt::Begin;
        wk.stmt = stmt;
        wk.half_back = rtt - out;
        if opens && wk.tx_start.is_none() {
            debug_assert_eq!(at, self.now, "a transaction opens only at the current time");
            wk.tx_start = Some(at);
            self.txs.open(at);
        }
        if stmt == Stmt::Begin {
            // BEGIN does nothing on the server that another worker could see.
            self.schedule_stmt(w, at + rtt, Next::Reply, stmt);
        } else {
            self.schedule_stmt(w, at + out, Next::Exec, stmt);
        }
    }

    /// Server side: the current statement's reply leaves for its worker.
    ///
    /// Once recording is over (the timeline and the transaction spans are full), a reply
    /// whose handling touches nothing but its own worker is handled now, as of its arrival
    /// time, instead of as an event of its own: no other event can see the difference, and
    /// its transaction close waits in [`TxClock`] until time reaches it. The worker's next
    /// event is then scheduled straight away (the same time and worker as before, so the
    /// same order; its round trip is the worker's own draw either way). A run's results stay
    /// the same; it needs fewer events (naive: 5 per execution instead of 8; FOR UPDATE and
    /// SKIP LOCKED in a transaction, whose `done` is also sent ahead: 4 instead of 8).
    #[inline(always)]
    fn send_reply(&mut self, w: usize, found: Option<u32>) {
        let wk = &mut self.workers[w];
        wk.found = found;
        let stmt = wk.stmt;
        let t = self.now + wk.half_back;
        let ahead = private_reply(
            stmt,
            found,
            wk.job.is_some(),
            self.p.max_executions.is_none(),
        );
        if ahead && self.recording_over && self.replies_ahead() {
            self.reply(w, stmt, t);
        } else {
            self.schedule_stmt(w, t, Next::Reply, stmt);
        }
    }

    /// Whether replies may be handled and statements sent ahead: always, but for the tests'
    /// engine that handles every reply as an event.
    #[inline(always)]
    fn replies_ahead(&self) -> bool {
        #[cfg(test)]
        return self.replies_ahead;
        #[cfg(not(test))]
        true
    }

    /// A segment or span did not fit in its list.
    #[cold]
    fn left_out(&mut self) {
        self.truncated = true;
        let limit = self.p.timeline_limit as usize;
        self.recording_over = self.timeline.len() >= limit && self.transactions.len() >= limit;
    }

    /// Moves `head` up to the first ready row. Only the claims need it current (the naive
    /// SELECT returns it); elsewhere a `head` left behind only makes a scan start lower,
    /// over rows that are not ready (no row becomes ready again), so it finds the same row.
    fn advance_head(&mut self) {
        let n = self.status.len() as u32;
        while self.head < n && self.status[self.head as usize] != READY {
            self.head += 1;
        }
    }

    /// Server side of the current statement.
    #[inline(always)]
    fn exec(&mut self, w: usize, stmt: Stmt) {
        debug_assert_eq!(stmt, self.workers[w].stmt);
        if matches!(
            stmt,
            Stmt::NaiveSelect | Stmt::SelectForUpdate | Stmt::SelectSkipLocked | Stmt::LeaseClaim
        ) {
            self.advance_head();
        }
        match stmt {
            Stmt::Begin => self.send_reply(w, None),
            Stmt::NaiveSelect => {
                let n = self.status.len() as u32;
                let head = (self.head < n).then_some(self.head);
                self.send_reply(w, head);
            }
            Stmt::MarkRunning => {
                if let Some(job) = self.workers[w].job {
                    self.status[job as usize] = RUNNING;
                }
                self.send_reply(w, None);
            }
            Stmt::SelectForUpdate => {
                self.workers[w].scan_from = self.head;
                self.scan_for_update(w);
            }
            Stmt::SelectSkipLocked => {
                let row = self.first_unlocked_ready(self.head);
                if let Some(r) = row {
                    self.acquire(r, w);
                    self.workers[w].holding = Some(r);
                }
                self.send_reply(w, row);
            }
            Stmt::LeaseClaim => {
                // No lease-style claim holds a lock past its statement, so the rows the
                // remedies pick are never locked.
                let row = match self.p.strategy {
                    Strategy::SplitQueues => self.next_in_group(w),
                    Strategy::PerKey => self.claimable.pop_first(),
                    _ => self.first_unlocked_ready(self.head),
                };
                if let Some(r) = row {
                    // Locked, marked running with its lease, committed: all inside one
                    // statement, so the lock is gone before the reply leaves.
                    self.acquire(r, w);
                    self.status[r as usize] = RUNNING;
                    self.release(r);
                    if self.p.strategy == Strategy::PerKey {
                        self.ready_left -= 1;
                        if self.ready_left == 0 {
                            self.stop_idle();
                        }
                    }
                }
                self.send_reply(w, row);
            }
            Stmt::MarkDone => {
                if let Some(job) = self.workers[w].job {
                    self.status[job as usize] = DONE;
                    if self.autocommit {
                        self.complete(job);
                    }
                }
                self.send_reply(w, None);
            }
            Stmt::Commit => {
                if let Some(row) = self.workers[w].holding.take() {
                    self.release(row);
                }
                if let Some(job) = self.workers[w].job {
                    self.complete(job);
                }
                self.send_reply(w, None);
            }
        }
    }

    /// Client side: the reply of the current statement arrives at `now`: the current time,
    /// or later for a reply handled ahead (see [`Self::send_reply`]), which takes only the
    /// branches that touch nothing but its own worker.
    #[inline(always)]
    fn reply(&mut self, w: usize, stmt: Stmt, now: u64) {
        debug_assert_eq!(stmt, self.workers[w].stmt);
        debug_assert!(
            now == self.now
                || private_reply(
                    stmt,
                    self.workers[w].found,
                    self.workers[w].job.is_some(),
                    self.p.max_executions.is_none()
                )
        );
        let closes = self.autocommit || stmt == Stmt::Commit;
        if closes {
            if let Some(start) = self.workers[w].tx_start.take() {
                // The reply to the last statement of a job starts the next claim at once, and
                // the claim's first statement opens a transaction: one closes as another
                // opens, and the count of open transactions does not change.
                let reopens = match stmt {
                    Stmt::MarkDone => self.claims_left(),
                    Stmt::Commit => self.workers[w].job.is_some() && self.claims_left(),
                    _ => false,
                };
                if reopens {
                    self.txs.hand_on(start, now);
                    // Open already, so the claim's first statement opens nothing.
                    self.workers[w].tx_start = Some(now);
                } else {
                    self.txs.close(start, now, self.now);
                }
                if !self.recording_over {
                    if self.transactions.len() < self.p.timeline_limit as usize {
                        self.transactions.push(TxSpan {
                            worker: w as u16,
                            start_us: start,
                            end_us: now,
                        });
                    } else {
                        self.left_out();
                    }
                }
            }
        }
        let found = self.workers[w].found;
        match stmt {
            Stmt::Begin => {
                let select = if self.p.strategy == Strategy::ForUpdate {
                    Stmt::SelectForUpdate
                } else {
                    Stmt::SelectSkipLocked
                };
                self.issue(w, select);
            }
            Stmt::NaiveSelect => match found {
                Some(row) => {
                    self.workers[w].job = Some(row);
                    let t = now + self.p.gap_us;
                    self.schedule(w, t, Next::GapEnd);
                }
                None => self.stop(w),
            },
            Stmt::MarkRunning => self.work(w, now),
            Stmt::SelectForUpdate | Stmt::SelectSkipLocked => match found {
                Some(row) => {
                    self.workers[w].job = Some(row);
                    self.work(w, now);
                }
                None => self.issue(w, Stmt::Commit),
            },
            Stmt::LeaseClaim => match found {
                Some(row) => {
                    self.workers[w].job = Some(row);
                    self.work(w, now);
                }
                None if self.p.strategy == Strategy::PerKey && self.ready_left > 0 => {
                    // Nothing claimable yet: this claim started no execution.
                    self.claims_started -= 1;
                    if self.claimable.is_empty() {
                        self.segment(w, SegmentKind::Idle, None);
                        self.idle.push_back(w as u16);
                    } else {
                        // A job became claimable while the reply was on its way.
                        self.start(w);
                    }
                }
                None => {
                    if self.p.strategy == Strategy::SplitQueues {
                        // An empty group's claim started no execution either.
                        self.claims_started -= 1;
                    }
                    self.stop(w);
                }
            },
            Stmt::MarkDone => {
                if self.autocommit {
                    self.workers[w].job = None;
                    self.start_at(w, now);
                } else {
                    self.issue_at(w, Stmt::Commit, now);
                }
            }
            Stmt::Commit => {
                if self.workers[w].job.take().is_some() {
                    self.start_at(w, now);
                } else {
                    debug_assert_eq!(now, self.now);
                    self.stop(w);
                }
            }
        }
    }

    /// The worker starts its job at `now` (the current time, or a reply's arrival ahead).
    #[inline(always)]
    fn work(&mut self, w: usize, now: u64) {
        let Some(job) = self.workers[w].job else {
            return;
        };
        self.executions += 1;
        let runs = &mut self.runs[job as usize];
        *runs = runs.saturating_add(1);
        self.segment_at(w, now, SegmentKind::Work, Some(job));
        let t = now + u64::from(self.duration[job as usize]);
        if self.recording_over && !self.autocommit && self.replies_ahead() {
            // The job's end would only record a segment, which is no longer kept, and send
            // `done` inside the open transaction: it is sent ahead, as of the end. (An
            // autocommit `done` opens a transaction, which must reach the tracker in time
            // order: that one stays an event.)
            self.issue_at(w, Stmt::MarkDone, t);
        } else {
            self.schedule(w, t, Next::WorkEnd);
        }
    }

    #[inline(always)]
    fn complete(&mut self, job: u32) {
        self.completions += 1;
        // Counted without branches: whether a completion is out of order is as good as random.
        let descends = self.last_completed.is_some_and(|last| job < last);
        self.inversions += u64::from(descends);
        self.last_completed = Some(job);
        let k = self.key[job as usize] as usize;
        let last = self.key_last[k];
        self.key_inversions += u64::from((last != NO_JOB) & (job < last));
        self.key_last[k] = job;
        if self.p.strategy == Strategy::PerKey {
            let next = self.next_same_key[job as usize];
            if next != NO_JOB {
                self.claimable.insert(next);
                if let Some(v) = self.idle.pop_front() {
                    let t = self.now + self.p.latency_us / 2;
                    self.schedule(usize::from(v), t, Next::Start);
                }
            }
        }
    }

    fn into_outcome(self) -> Outcome {
        let distinct_jobs = self.runs.iter().filter(|&&r| r > 0).count() as u32;
        let jobs_run_more_than_once = self.runs.iter().filter(|&&r| r > 1).count() as u32;
        let jobs_done = self.status.iter().filter(|&&s| s == DONE).count() as u32;
        let secs = self.elapsed as f64 / 1e6;
        let per_s = |n: f64| if secs > 0.0 { n / secs } else { 0.0 };
        Outcome {
            params: self.p.clone(),
            executions: self.executions,
            distinct_jobs,
            jobs_run_more_than_once,
            jobs_done,
            lock_wait_us: self.lock_wait_us,
            lock_waits: self.lock_waits,
            elapsed_us: self.elapsed,
            jobs_per_s: per_s(f64::from(distinct_jobs)),
            executions_per_s: per_s(self.executions as f64),
            tx: self.txs.finish(self.elapsed),
            inversions: self.inversions,
            key_inversions: self.key_inversions,
            completions: self.completions,
            timeline: self.timeline,
            transactions: self.transactions,
            timeline_truncated: self.truncated,
        }
    }
}

mod agenda;
mod draws;
mod event_loop;
mod locks;
mod round_trips;
mod tx_clock;
use agenda::Agenda;
use draws::draw_durations;
pub use draws::job_keys;
use round_trips::{RoundTrips, ROUND_TRIPS};
use tx_clock::TxClock;

#[cfg(test)]
mod tests;
