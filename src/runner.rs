//! The one owner of the database session.
//!
//! What it is for: every piece of work on the shared PGlite session (a lab's action, its
//! refresh, a long run, a console statement, Reset) goes through `Runner::run`. Work runs
//! one piece at a time, in the order it was asked for, and each piece starts in its lab's
//! own search path and on its lab's own clock, so no statement of one lab meets another
//! lab's tables, lab time or half-done transaction, whatever order the labs were opened in.
//! A lab's work can be cancelled (leaving the lab does it): queued work never starts, running
//! work stops at its next safe point (`Work::check`). While the console holds a transaction
//! open, the labs' work waits, and the status line says why. It is also the one owner of
//! each lab's state (`Runner::state`: its model and what its view last showed), which the
//! lab's page only mirrors (`labs::harness`), so coming back to a lab finds it as it was left.
//! What it is not for: building SQL or a lab's rules (the models), or drawing anything.

use crate::clock;
use crate::db::{Db, DbError, Param, TxState};
use crate::descriptor::LabId;
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;
use serde::Deserialize;
use std::any::{Any, TypeId};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

mod console;
pub use console::{ConsoleRun, ConsoleStep, StepOutcome};

/// A piece of work with its result type erased (`Runner::run_named` keeps the result).
type ErasedWork<'a> =
    Box<dyn FnOnce(Work) -> Pin<Box<dyn Future<Output = Result<(), DbError>> + 'a>> + 'a>;

/// Where a piece of work belongs: it decides the search path and the clock it runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Lab(LabId),
    /// The SQL console, typed on a lab's page (its search path and clock).
    Console(Option<LabId>),
    /// Reset and other repairs of the session itself: no search path of a lab.
    Admin,
}

impl Scope {
    fn lab(self) -> Option<LabId> {
        match self {
            Scope::Lab(id) | Scope::Console(Some(id)) => Some(id),
            _ => None,
        }
    }
}

/// The search path `lab`'s statements run with (its descriptor's; see [`crate::descriptor::Descriptor`]).
pub fn search_path(lab: Option<LabId>) -> String {
    lab.map_or(crate::descriptor::NO_LAB_SEARCH_PATH.to_owned(), |l| {
        l.search_path()
    })
}

/// Rows the console brings to the page at most; the worker cuts the rest.
pub const CONSOLE_ROW_LIMIT: u32 = 500;

/// The piece of work running now, as the status line shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Running {
    pub scope: Scope,
    pub what: Option<Msg>,
    /// The console's statement, when it is the console's piece.
    pub sql: Option<String>,
    /// When it started (`performance.now()` ms).
    pub since: f64,
}

/// What a lab's queued work waits for, as its status line names it.
#[derive(Clone, Debug, PartialEq)]
pub enum Blocker {
    /// The SQL console's statement (its text).
    Console(String),
    /// Another lab's piece of work (its description, if it has one).
    Lab(LabId, Option<Msg>),
    /// Reset database.
    Reset,
    /// The console's open or failed transaction.
    ConsoleTx,
}

/// A lab's wait: what it waits for, and since when (`performance.now()` ms).
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub blocker: Blocker,
    pub since: f64,
}

/// What the page shows of the runner.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    pub running: Option<Running>,
    /// Labs with work queued behind the running piece.
    pub queued: Vec<LabId>,
    /// Each queued lab with when its oldest queued piece was asked for.
    pub queued_since: Vec<(LabId, f64)>,
    /// The console's transaction: labs wait while it is open or failed.
    pub tx: TxState,
    /// What was cancelled in each lab, to say so when the learner comes back.
    pub cancelled: Vec<(LabId, Msg)>,
    /// `lab.now()` is gone (the console dropped it): labs would run on wall-clock time.
    pub clock_missing: bool,
    /// Bumped by Reset: labs built before it set themselves up again.
    pub generation: u64,
    /// The worker stopped: the message, until PostgreSQL restarts.
    pub dead: Option<String>,
    /// The labs whose state was in the stopped PostgreSQL (it is gone with it).
    pub lost: Vec<LabId>,
}

impl Status {
    /// What `lab`'s queued work waits for, if it waits behind something that is not its own
    /// work: the console's statement or transaction, another lab's work, Reset.
    pub fn waiting(&self, lab: LabId) -> Option<Waiting> {
        let since = self
            .queued_since
            .iter()
            .find(|(l, _)| *l == lab)
            .map(|(_, at)| *at)?;
        let blocker = match &self.running {
            Some(r) => match r.scope {
                Scope::Lab(l) if l == lab => return None,
                Scope::Lab(l) => Blocker::Lab(l, r.what.clone()),
                Scope::Console(_) => Blocker::Console(r.sql.clone().unwrap_or_default()),
                Scope::Admin if self.tx != TxState::Idle => Blocker::ConsoleTx,
                Scope::Admin => Blocker::Reset,
            },
            None if self.tx != TxState::Idle => Blocker::ConsoleTx,
            None => return None,
        };
        Some(Waiting { blocker, since })
    }
}

/// A piece of work's view of the session: the database and its cancellation.
pub struct Work {
    db: Db,
    cancel: Rc<Cell<bool>>,
}

impl Work {
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Set once the work's lab was left: long runs check it between batches.
    pub fn cancel_flag(&self) -> Rc<Cell<bool>> {
        self.cancel.clone()
    }

    /// A safe point: stops the work here if it was cancelled.
    pub fn check(&self) -> Result<(), DbError> {
        if self.cancel.get() {
            Err(DbError::cancelled())
        } else {
            Ok(())
        }
    }
}

struct Ticket {
    id: u64,
    scope: Scope,
    what: Option<Msg>,
    cancel: Rc<Cell<bool>>,
    /// When it was asked for (`performance.now()` ms).
    since: f64,
}

struct Inner {
    /// Which open database this is (a restart opens another).
    id: usize,
    db: Db,
    queue: RefCell<VecDeque<Ticket>>,
    wakers: RefCell<Vec<Waker>>,
    busy: Cell<bool>,
    next: Cell<u64>,
    tx: Cell<TxState>,
    /// Each lab's current cancellation flag, shared by all its queued and running work.
    cancels: RefCell<HashMap<LabId, Rc<Cell<bool>>>>,
    /// Each lab's lab time, as its last piece of work left it.
    clocks: RefCell<HashMap<LabId, String>>,
    /// The labs whose schema the runner made (or found) since the last Reset.
    schemas: RefCell<HashSet<LabId>>,
    /// The console's psql variables (`\set`, `\gset`), for the session's life.
    vars: RefCell<crate::psql::Vars>,
    /// Each lab's state, by its type (its model, what its view last showed): the one owner
    /// of a lab's state across visits to its page (see [`Runner::state`]).
    states: RefCell<HashMap<(LabId, TypeId), Box<dyn Any>>>,
    dead: RefCell<Option<String>>,
    status: RwSignal<Status>,
    /// The lab whose path and clock the session is in after its last piece of work, its
    /// clock not yet read back: the read waits for the next piece of another scope (merged
    /// with that piece's own set-up), and a next piece of the same lab needs neither.
    open_lab: Cell<Option<LabId>>,
}

/// The owner of one open database. Cheap to clone.
#[derive(Clone)]
pub struct Runner {
    inner: Rc<Inner>,
}

#[derive(Deserialize)]
struct ClockNow {
    clock: Option<String>,
}

const ENTER_SQL: &str =
    "select set_config('search_path', $1, false), set_config('lab.clock', $2, false)";
/// ENTER_SQL for the next scope, reading back first the clock of the lab the session was
/// left in (the subquery runs before the settings change): one round trip instead of two.
/// `$2` NULL keeps the session's clock (the next scope is that same lab's, e.g. its console);
/// `$3` is the clock when the session has none.
const SWITCH_SQL: &str = "select prev.clock, set_config('search_path', $1, false), \
     set_config('lab.clock', coalesce($2, prev.clock, $3), false) \
     from (select current_setting('lab.clock', true) as clock offset 0) as prev";
const LEAVE_SQL: &str = "select current_setting('lab.clock', true) as clock";
const SCHEMA_SQL: &str = include_str!("sql/lab/schema_create.sql");
const CLOCK_CHECK_SQL: &str = "select to_regprocedure('lab.now()') is not null as clock";
const PREPARED_SQL: &str =
    "select format('rollback prepared %L', gid) as sql from pg_prepared_xacts where database = current_database()";

impl Runner {
    pub fn new(db: Db) -> Runner {
        thread_local!(static OPENED: Cell<usize> = const { Cell::new(0) });
        let id = OPENED.with(|n| {
            n.set(n.get() + 1);
            n.get()
        });
        Runner {
            inner: Rc::new(Inner {
                id,
                db,
                queue: RefCell::default(),
                wakers: RefCell::default(),
                busy: Cell::new(false),
                next: Cell::new(1),
                tx: Cell::new(TxState::Idle),
                cancels: RefCell::default(),
                clocks: RefCell::default(),
                vars: RefCell::default(),
                schemas: RefCell::default(),
                states: RefCell::default(),
                dead: RefCell::default(),
                status: RwSignal::new(Status::default()),
                open_lab: Cell::new(None),
            }),
        }
    }

    /// Which open database this runner owns: a restart makes a new runner with a new id.
    pub fn id(&self) -> usize {
        self.inner.id
    }

    /// The database, for what needs no turn: reading the SQL log, the statement in flight.
    pub fn db(&self) -> &Db {
        &self.inner.db
    }

    pub fn status(&self) -> RwSignal<Status> {
        self.inner.status
    }

    /// Whether `lab` has work running or queued (its buttons show busy meanwhile).
    pub fn pending(&self, lab: LabId) -> bool {
        self.inner.status.with(|s| Self::pending_in(s, lab))
    }

    /// [`Self::pending`], read without subscribing.
    pub fn pending_untracked(&self, lab: LabId) -> bool {
        self.inner
            .status
            .with_untracked(|s| Self::pending_in(s, lab))
    }

    fn pending_in(s: &Status, lab: LabId) -> bool {
        s.running
            .as_ref()
            .is_some_and(|r| r.scope == Scope::Lab(lab))
            || s.queued.contains(&lab)
    }

    /// Runs `work` when its turn comes, in `scope`'s search path and clock. Fails with a
    /// cancelled error if its lab is left first, and with the worker's error once it died.
    pub async fn run<T>(
        &self,
        scope: Scope,
        what: Option<Msg>,
        work: impl AsyncFnOnce(&Work) -> Result<T, DbError>,
    ) -> Result<T, DbError> {
        self.run_named(scope, what, None, work).await
    }

    /// [`Self::run`], with the statement it runs named for the labs that wait behind it.
    async fn run_named<T>(
        &self,
        scope: Scope,
        what: Option<Msg>,
        sql: Option<String>,
        work: impl AsyncFnOnce(&Work) -> Result<T, DbError>,
    ) -> Result<T, DbError> {
        // Only this wrapper is made once per kind of work; the turn, the set-up and what
        // follows the work are `run_erased`'s, one copy in the .wasm.
        let mut value = None;
        let slot = &mut value;
        let erased: ErasedWork<'_> = Box::new(move |w: Work| {
            Box::pin(async move {
                *slot = Some(work(&w).await?);
                Ok(())
            })
        });
        self.run_erased(scope, what, sql, erased).await?;
        value.ok_or_else(|| DbError::other("the work ended without its result"))
    }

    async fn run_erased(
        &self,
        scope: Scope,
        what: Option<Msg>,
        sql: Option<String>,
        work: ErasedWork<'_>,
    ) -> Result<(), DbError> {
        let cancel = match scope.lab() {
            Some(lab) if matches!(scope, Scope::Lab(_)) => self.cancel_flag(lab),
            _ => Rc::new(Cell::new(false)),
        };
        let id = self.inner.next.get();
        self.inner.next.set(id + 1);
        self.inner.queue.borrow_mut().push_back(Ticket {
            id,
            scope,
            what: what.clone(),
            cancel: cancel.clone(),
            since: crate::db::now_ms(),
        });
        self.publish();
        Turn {
            runner: self.clone(),
            id,
        }
        .await?;
        let _turn = Release(self.clone());
        // What runs now is this lab's: its statements go into its script (src/ui/export.rs).
        self.inner.db.log().enter(scope.lab().map(|l| l.0.slug));
        self.inner.status.update(|s| {
            s.running = Some(Running {
                scope,
                what: what.clone(),
                sql,
                since: crate::db::now_ms(),
            })
        });
        let w = Work {
            db: self.inner.db.clone(),
            cancel,
        };
        let out = async {
            self.enter(scope).await?;
            let out = work(w).await;
            // The clock is read back even after a failed action: lab time may have moved.
            self.leave(scope, !out.as_ref().is_err_and(|e| e.dead))
                .await?;
            out
        }
        .await;
        // A piece that needed no set-up may have met a dead worker only in its lab's own
        // statements, whose errors the lab shows and keeps to itself: ask the connection.
        if !out.as_ref().is_err_and(|e| e.dead) {
            if let Some(message) = self.inner.db.dead() {
                self.inner.open_lab.set(None);
                self.stop(&message);
            }
        }
        if let Err(e) = &out {
            if e.dead {
                self.stop(&e.message);
            }
            if let (true, Some(lab), Some(what)) = (e.cancelled, scope.lab(), what) {
                self.note_cancelled(lab, what);
            }
        }
        out
    }

    /// Runs `work` in its own task; what it does with its outcome is up to it.
    pub fn spawn(
        &self,
        scope: Scope,
        what: Option<Msg>,
        work: impl AsyncFnOnce(&Work) -> Result<(), DbError> + 'static,
    ) {
        let runner = self.clone();
        crate::task::spawn(async move {
            let _ = runner.run(scope, what, work).await;
        });
    }

    /// Cancels `lab`'s queued and running work (leaving its page does this).
    pub fn cancel(&self, lab: LabId) {
        let flag = self.inner.cancels.borrow_mut().remove(&lab);
        if let Some(flag) = flag {
            flag.set(true);
        }
        let dropped: Vec<Msg> = {
            let mut queue = self.inner.queue.borrow_mut();
            let before: Vec<Msg> = queue
                .iter()
                .filter(|t| t.scope == Scope::Lab(lab))
                .filter_map(|t| t.what.clone())
                .collect();
            queue.retain(|t| !t.cancel.get());
            before
        };
        if let Some(what) = dropped.into_iter().next() {
            self.note_cancelled(lab, what);
        }
        self.wake();
    }

    /// Forgets the note that `lab`'s work was cancelled (the learner has read it).
    pub fn dismiss_cancelled(&self, lab: LabId) {
        self.inner
            .status
            .update(|s| s.cancelled.retain(|(l, _)| *l != lab));
    }

    /// `lab`'s state of type `T` (its model, or what its view last showed) as its last piece
    /// of work left it, if it has one since the last Reset. The runner is the one owner of a
    /// lab's state: the page's signals are copies of it, written after it (`labs::harness`),
    /// so coming back to a lab finds it as it was left, and work that outlives its page
    /// changes only this.
    pub fn state<T: Clone + 'static>(&self, lab: LabId) -> Option<T> {
        self.inner
            .states
            .borrow()
            .get(&(lab, TypeId::of::<T>()))
            .and_then(|b| b.downcast_ref::<T>())
            .cloned()
    }

    /// Sets `lab`'s state of type `T` (its work has changed it, or a saved lab was opened).
    pub fn set_state<T: 'static>(&self, lab: LabId, state: T) {
        self.inner
            .states
            .borrow_mut()
            .insert((lab, TypeId::of::<T>()), Box::new(state));
    }

    /// Sets `lab`'s lab time for its next piece of work (a saved lab reopened: the clock
    /// is a session setting, not in the data directory).
    pub fn set_clock(&self, lab: LabId, clock: &str) {
        self.inner.clocks.borrow_mut().insert(lab, clock.to_owned());
    }

    /// Puts the session back as the labs need it, whatever the console did: rolls back an
    /// open transaction and every prepared one, `RESET ALL`, installs the lab clock again,
    /// and forgets every lab's state so each lab sets itself up again.
    pub async fn reset(&self) -> Result<(), DbError> {
        // Every lab that ever queued work has a cancel flag.
        let labs: Vec<LabId> = self.inner.cancels.borrow().keys().copied().collect();
        for lab in labs {
            self.cancel(lab);
        }
        let out = self
            .run(Scope::Admin, None, async |w: &Work| {
                let db = w.db();
                // Outside a transaction ROLLBACK only warns.
                db.exec("rollback").await?;
                #[derive(Deserialize)]
                struct Stmt {
                    sql: String,
                }
                let prepared = db.query::<Stmt>(PREPARED_SQL, &[]).await?;
                for p in prepared.rows {
                    db.exec(&p.sql).await?;
                }
                db.exec("reset all").await?;
                clock::install(db).await
            })
            .await;
        self.inner.tx.set(TxState::Idle);
        self.inner.db.log().forget_scripts();
        self.inner.states.borrow_mut().clear();
        self.inner.clocks.borrow_mut().clear();
        self.inner.schemas.borrow_mut().clear();
        self.inner.status.update(|s| {
            s.tx = TxState::Idle;
            s.clock_missing = false;
            s.cancelled.clear();
            s.generation += 1;
        });
        self.wake();
        out
    }

    /// Stops everything: the worker is gone (or being replaced). Queued and later work fails
    /// with `message`.
    pub fn stop(&self, message: &str) {
        if self.inner.dead.borrow().is_some() {
            return;
        }
        *self.inner.dead.borrow_mut() = Some(message.to_owned());
        self.inner.db.terminate(message);
        // Every lab that set itself up in this PostgreSQL, in the site's order (L1 … L5).
        let mut lost: Vec<LabId> = self.inner.states.borrow().keys().map(|k| k.0).collect();
        lost.sort_by_key(|l| l.tag);
        lost.dedup();
        self.inner.status.update(|s| {
            s.dead = Some(message.to_owned());
            s.lost = lost;
        });
        self.wake();
    }

    fn cancel_flag(&self, lab: LabId) -> Rc<Cell<bool>> {
        self.inner
            .cancels
            .borrow_mut()
            .entry(lab)
            .or_insert_with(|| Rc::new(Cell::new(false)))
            .clone()
    }

    fn note_cancelled(&self, lab: LabId, what: Msg) {
        self.inner.status.update(|s| {
            s.cancelled.retain(|(l, _)| *l != lab);
            s.cancelled.push((lab, what));
        });
    }

    /// Labs whose work never changes the session's search path itself, so a piece that
    /// follows a piece of the same lab finds the session as that piece left it. (L3 and L4
    /// point the path at their strategy's or comparison's schema within a run.)
    fn keeps_path(lab: LabId) -> bool {
        lab.keeps_path
    }

    async fn enter(&self, scope: Scope) -> Result<(), DbError> {
        let open = self.inner.open_lab.take();
        // Inside a failed console transaction every statement but ROLLBACK fails. (A lab's
        // clock is never left unread then: lab work waits while the console holds a
        // transaction, and the console's own piece reads its clock back at once.)
        if self.inner.tx.get() == TxState::Failed {
            return Ok(());
        }
        if let Some(lab) = scope.lab() {
            self.make_schema(lab).await?;
        }
        if let (Scope::Lab(lab), Some(prev)) = (scope, open) {
            if lab == prev && Self::keeps_path(lab) {
                // Same lab, nothing ran in between: its path and clock are still set.
                return Ok(());
            }
        }
        if scope == Scope::Admin {
            // Admin work (Reset) may drop every setting: read the open lab's clock first.
            if let Some(prev) = open {
                self.read_clock(prev).await;
            }
            return Ok(());
        }
        let lab = scope.lab();
        let clock = lab
            .and_then(|l| self.inner.clocks.borrow().get(&l).cloned())
            .unwrap_or_else(|| clock::START.to_owned());
        match open {
            None => self
                .inner
                .db
                .quiet::<serde_json::Value>(
                    ENTER_SQL,
                    &[Param::from(search_path(lab)), Param::from(clock)],
                )
                .await
                .map(|_| ()),
            Some(prev) => {
                // The open lab's own clock is the session's, newer than the one kept.
                let clock = (lab != Some(prev)).then_some(clock);
                let params = [
                    Param::from(search_path(lab)),
                    Param::from(clock),
                    Param::from(clock::START),
                ];
                let now = self.inner.db.quiet::<ClockNow>(SWITCH_SQL, &params).await?;
                self.note_clock(prev, now.first());
                Ok(())
            }
        }
    }

    /// Creates `lab`'s schema (its descriptor's) before its first statement since the last
    /// Reset; quietly, as the session's plumbing. Not inside the console's open transaction
    /// (its rollback would undo it). Without the `lab` schema (the console dropped it) the
    /// lab runs as it can, as it would without `lab.now()`, and Reset brings both back.
    async fn make_schema(&self, lab: LabId) -> Result<(), DbError> {
        let Some(schema) = lab.schema else {
            return Ok(());
        };
        if self.inner.tx.get() != TxState::Idle || self.inner.schemas.borrow().contains(&lab) {
            return Ok(());
        }
        match self
            .inner
            .db
            .quiet::<serde_json::Value>(SCHEMA_SQL, &[Param::from(schema)])
            .await
        {
            Ok(_) => {
                self.inner.schemas.borrow_mut().insert(lab);
                Ok(())
            }
            Err(e) if e.dead => Err(e),
            Err(_) => Ok(()),
        }
    }

    async fn leave(&self, scope: Scope, ok: bool) -> Result<(), DbError> {
        let Some(lab) = scope.lab() else {
            return Ok(());
        };
        if ok && scope == Scope::Lab(lab) && self.inner.tx.get() == TxState::Idle {
            // Read back later, with the next piece's set-up (or not at all).
            self.inner.open_lab.set(Some(lab));
            return Ok(());
        }
        // The console may have changed anything: read its lab's clock now.
        self.read_clock(lab).await;
        Ok(())
    }

    async fn read_clock(&self, lab: LabId) {
        // Inside a failed console transaction nothing can be read: keep the clock as it was.
        let now = self.inner.db.quiet::<ClockNow>(LEAVE_SQL, &[]).await;
        if let Ok(now) = now {
            self.note_clock(lab, now.first());
        }
    }

    fn note_clock(&self, lab: LabId, now: Option<ClockNow>) {
        if let Some(ClockNow { clock: Some(c) }) = now {
            self.inner.clocks.borrow_mut().insert(lab, c);
        }
    }

    /// Whether ticket `id` may start now: nothing runs, and it is the first ticket that may
    /// run (lab work waits while the console's transaction is open).
    fn try_start(&self, id: u64) -> Poll<Result<(), DbError>> {
        if let Some(message) = self.inner.dead.borrow().clone() {
            self.inner.queue.borrow_mut().retain(|t| t.id != id);
            return Poll::Ready(Err(DbError {
                dead: true,
                ..DbError::other(&message)
            }));
        }
        let mut queue = self.inner.queue.borrow_mut();
        let Some(at) = queue.iter().position(|t| t.id == id) else {
            return Poll::Ready(Err(DbError::cancelled()));
        };
        if queue[at].cancel.get() {
            queue.remove(at);
            return Poll::Ready(Err(DbError::cancelled()));
        }
        if self.inner.busy.get() {
            return Poll::Pending;
        }
        let console_holds = self.inner.tx.get() != TxState::Idle;
        let first = queue
            .iter()
            .position(|t| !(console_holds && matches!(t.scope, Scope::Lab(_))));
        if first != Some(at) {
            return Poll::Pending;
        }
        queue.remove(at);
        self.inner.busy.set(true);
        Poll::Ready(Ok(()))
    }

    fn wake(&self) {
        self.publish();
        let wakers = std::mem::take(&mut *self.inner.wakers.borrow_mut());
        for w in wakers {
            w.wake();
        }
    }

    fn publish(&self) {
        let mut queued_since: Vec<(LabId, f64)> = Vec::new();
        let queued: Vec<LabId> = self
            .inner
            .queue
            .borrow()
            .iter()
            .filter_map(|t| match t.scope {
                Scope::Lab(l) => {
                    if !queued_since.iter().any(|(q, _)| *q == l) {
                        queued_since.push((l, t.since));
                    }
                    Some(l)
                }
                _ => None,
            })
            .collect();
        self.inner.status.update(|s| {
            if s.queued != queued {
                s.queued = queued;
            }
            if s.queued_since != queued_since {
                s.queued_since = queued_since;
            }
        });
    }
}

/// Waits for a ticket's turn.
struct Turn {
    runner: Runner,
    id: u64,
}

impl Future for Turn {
    type Output = Result<(), DbError>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let out = self.runner.try_start(self.id);
        if out.is_pending() {
            self.runner
                .inner
                .wakers
                .borrow_mut()
                .push(cx.waker().clone());
        } else {
            self.runner.publish();
        }
        out
    }
}

impl Drop for Turn {
    // A Turn dropped while it waits (its task was dropped) leaves the queue.
    fn drop(&mut self) {
        let mut queue = self.runner.inner.queue.borrow_mut();
        queue.retain(|t| t.id != self.id);
    }
}

/// Ends a turn, even when the work's future is dropped half-way.
struct Release(Runner);

impl Drop for Release {
    fn drop(&mut self) {
        self.0.inner.busy.set(false);
        self.0.inner.status.update(|s| s.running = None);
        self.0.wake();
    }
}

#[cfg(test)]
mod tests;
