//! The harness a lab with a model type shares (L1, L3, L4): its actions run through the
//! session's runner, the outcome of the last one, busy while its work is queued or running,
//! and its work cancelled when the learner leaves the page.
//!
//! Where a lab's state is (one owner): the runner (`Runner::state`, written by the lab's work
//! with `Runner::set_state`), not the page. It holds the lab's model and, beside it, the
//! snapshot its view last showed ([`Shown`]), so coming back to a lab finds it as it was
//! left, its tables shown at once and then read again. The page's signals are views of
//! that, written only here and only after the runner's copy: `lab` is the runner's model as
//! the last piece of work left it, `snap` the runner's snapshot (while a long action runs,
//! its progress is drawn on `snap` alone, and the run's end writes both), and `last` is the
//! page's own (what the last click on this page did: coming back starts without it). Work
//! writes the runner's state as it goes and the signals once it is done, and a signal of a
//! page that is gone takes no write, so work that outlives its page touches nothing disposed.

use crate::ctx::Ctx;
use crate::db::{Db, DbError};
use crate::labs::LabId;
use crate::runner::{Scope, Work};
use leptos::prelude::*;
use queue_lab_core::i18n::Key;
use queue_lab_core::i18n::Msg;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;

/// Shows part of a lab's state while one of its actions runs: the action passes what to
/// change in the snapshot on screen (see [`LabModel::act_live`]).
pub type Live<'a, S> = &'a dyn Fn(&dyn Fn(&mut S));

/// A lab's model: state plus actions that run SQL.
pub trait LabModel: Clone + 'static {
    type Action: Clone + 'static;
    type Outcome: Clone + 'static;
    type Snapshot: Clone + Default + Send + Sync + 'static;
    const ID: LabId;

    /// Builds the lab's tables afresh and returns its starting state.
    fn setup(db: &Db) -> impl Future<Output = Result<Self, DbError>>;
    fn act(
        &mut self,
        db: &Db,
        action: Self::Action,
    ) -> impl Future<Output = Result<Self::Outcome, DbError>>;
    /// `act` for an action that runs long: it may stop early at a safe point once `cancel`
    /// is set (the lab was left, or Cancel), and may show its progress through `live`.
    /// Labs whose actions are short keep this default.
    fn act_live(
        &mut self,
        db: &Db,
        action: Self::Action,
        _cancel: &Cell<bool>,
        _live: Live<'_, Self::Snapshot>,
    ) -> impl Future<Output = Result<Self::Outcome, DbError>> {
        self.act(db, action)
    }
    /// Everything the view shows, read in as few statements as the lab can.
    fn snapshot(&self, db: &Db) -> impl Future<Output = Result<Self::Snapshot, DbError>>;
    /// Called before each run of actions.
    fn start_run(&mut self) {}
}

/// What every [`LabModel`] impl writes alike: the lab's own `Action` and `Snapshot` types, its
/// id, `setup` forwarding to `Lab::setup`, and (given the method's name) `act` forwarding to
/// the lab's inherent action method. Used inside `impl LabModel for Lab { … }`.
macro_rules! lab_model_common {
    (outcome: $outcome:ty $(, act: $act:ident)?) => {
        type Action = Action;
        type Outcome = $outcome;
        type Snapshot = Snapshot;
        const ID: $crate::labs::LabId = super::ID;

        async fn setup(db: &$crate::db::Db) -> Result<Lab, $crate::db::DbError> {
            Lab::setup(db).await
        }
        $(
            async fn act(
                &mut self,
                db: &$crate::db::Db,
                action: Action,
            ) -> Result<$outcome, $crate::db::DbError> {
                self.$act(db, action).await
            }
        )?
    };
}
pub(crate) use lab_model_common;

/// How an outcome reads: good news, a warning, or plain information.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Info,
    Good,
    Warn,
}

/// What one action did, in words for the learner, and how it reads. Every lab's actions end
/// in one (L3's quiet actions, which show their effect in their own panel, in none).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub msg: Msg,
    pub tone: Tone,
    /// The ids of the rows the action changed, for the view to highlight (L1's jobs).
    pub touched: Vec<i64>,
}

impl Outcome {
    pub fn new(msg: Msg, tone: Tone) -> Outcome {
        Outcome {
            msg,
            tone,
            touched: Vec::new(),
        }
    }

    /// `then` (a message's key and the tone) when `cond` holds, else `otherwise`; the
    /// message's arguments follow through [`Outcome::arg`].
    pub fn either(cond: bool, then: (Key, Tone), otherwise: (Key, Tone)) -> Outcome {
        let (key, tone) = if cond { then } else { otherwise };
        Outcome::new(Msg::new(key), tone)
    }

    /// The same outcome, its message given argument `name`.
    pub fn arg(mut self, name: &'static str, value: impl std::fmt::Display) -> Outcome {
        self.msg = self.msg.arg(name, value);
        self
    }

    /// The same outcome, with row `id` among those it changed.
    pub fn touching(mut self, id: i64) -> Outcome {
        self.touched.push(id);
        self
    }
}

/// How a lab explains its engine's errors, above the error itself (L4: PgQue's SQLSTATEs).
#[derive(Clone, Copy)]
pub struct Explain {
    /// The sentence for an error, where the lab has one.
    pub sentence: fn(&DbError) -> Option<Key>,
    /// Said after it: what the failed action left as it was.
    pub then: Key,
    /// The paragraph's id.
    pub id: &'static str,
}

/// The snapshot a lab's view last showed, as the runner keeps it beside the lab's model.
#[derive(Clone)]
struct Shown<S>(S);

/// What a run shows when it ends (see [`LabHarness::run`]), and the log held till then.
struct End<M: LabModel> {
    last: Option<Last<M::Outcome>>,
    snap: Option<M::Snapshot>,
    lab: Option<Option<M>>,
    hold: Option<crate::db::LogHold>,
}

impl<M: LabModel> Default for End<M> {
    fn default() -> Self {
        End {
            last: None,
            snap: None,
            lab: None,
            hold: None,
        }
    }
}

/// How the last action ended, as the lab shows it.
#[derive(Clone)]
pub enum Last<O> {
    Done(O),
    Failed(DbError),
    Refused(Msg),
}

/// How long a lab's work runs before its buttons show busy (disabled, dimmed). Most actions
/// end within two frames: dimming every button for them flickered, and drew the whole lab
/// once more (style to paint, about 5 ms with 1,000 jobs) while the first reply was due, so
/// the action itself finished later. Longer work (a run, a replay) shows busy from here on.
pub const BUSY_SHOWN_AFTER_MS: u32 = 150;

pub struct LabHarness<M: LabModel> {
    ctx: Ctx,
    pub lab: RwSignal<Option<M>, LocalStorage>,
    pub snap: RwSignal<M::Snapshot>,
    pub last: RwSignal<Option<Last<M::Outcome>>, LocalStorage>,
    /// Work of this lab has been pending for [`BUSY_SHOWN_AFTER_MS`] or more.
    busy_shown: RwSignal<bool>,
}

impl<M: LabModel> Clone for LabHarness<M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M: LabModel> Copy for LabHarness<M> {}

impl<M: LabModel> LabHarness<M> {
    /// Creates the harness of a lab page. `first` runs when the runner holds no state of the lab (a
    /// fresh database, or after Reset): it sets the lab up, and may replay a shared state.
    pub fn new(ctx: Ctx, first: impl Fn(LabHarness<M>) + 'static) -> LabHarness<M> {
        let harness = LabHarness {
            ctx,
            lab: RwSignal::new_local(None),
            snap: RwSignal::new(M::Snapshot::default()),
            last: RwSignal::new_local(None),
            busy_shown: RwSignal::new(false),
        };
        // Busy is shown once work has lasted BUSY_SHOWN_AFTER_MS; it goes when the work does.
        // Each stretch of pending work has its own timer: a timer left from an earlier stretch
        // (a quick enqueue) must not dim the buttons a few ms into the next one (a quick claim).
        let stretch = StoredValue::new_local(0u64);
        Effect::new(move |was_pending: Option<bool>| {
            let pending = ctx.runner().is_some_and(|r| r.pending(M::ID));
            if pending && was_pending == Some(true) {
                return true; // the same stretch: its timer is running
            }
            let this = stretch.try_update_value(|n| {
                *n += 1;
                *n
            });
            if !pending {
                harness.busy_shown.set(false);
                return false;
            }
            let shown = harness.busy_shown;
            crate::task::spawn(async move {
                gloo_timers::future::TimeoutFuture::new(BUSY_SHOWN_AFTER_MS).await;
                // The same stretch still pending, and the page not left.
                let same = this.is_some() && stretch.try_get_value() == this;
                let still = ctx
                    .runner_untracked()
                    .is_some_and(|r| r.pending_untracked(M::ID));
                if same && still {
                    shown.try_set(true);
                }
            });
            true
        });
        // Once Postgres is ready, and again after Reset or a restart: the runner's state, or a
        // fresh set-up.
        Effect::new(move |seen: Option<Option<(usize, u64)>>| {
            let runner = ctx.runner()?;
            let key = (runner.id(), runner.status().with(|s| s.generation));
            if seen.flatten() == Some(key) {
                return Some(key);
            }
            match runner.state::<M>(M::ID) {
                Some(state) => {
                    if let Some(Shown(snap)) = runner.state::<Shown<M::Snapshot>>(M::ID) {
                        harness.snap.set(snap);
                    }
                    harness.lab.set(Some(state));
                    harness.refresh();
                }
                None => {
                    harness.lab.set(None);
                    first(harness);
                }
            }
            Some(key)
        });
        // The SQL console may have changed anything: read the tables again, unless the
        // console holds a transaction open (the read would wait for it, and the lab would
        // look busy; its COMMIT or ROLLBACK brings the read).
        Effect::new(move |prev: Option<u64>| {
            let n = ctx.data_changed.get();
            let console_holds = ctx
                .runner_untracked()
                .is_some_and(|r| r.status().with_untracked(|s| s.tx) != crate::db::TxState::Idle);
            if prev.is_some() && !console_holds {
                harness.refresh();
            }
            n
        });
        // Leaving the page cancels what the lab still has queued or running.
        on_cleanup(move || {
            if let Some(runner) = ctx.runner_untracked() {
                runner.cancel(M::ID);
            }
        });
        harness
    }

    /// Whether the lab's buttons wait: no database, no state yet, or work of this lab pending
    /// for a while ([`BUSY_SHOWN_AFTER_MS`]). A click meanwhile is queued behind the work.
    pub fn busy(self) -> bool {
        match self.ctx.runner() {
            Some(_) => self.busy_shown.get() || self.lab.with(Option::is_none),
            None => true,
        }
    }

    /// Whether work of this lab is pending now (or there is no state yet): the lab's
    /// `aria-busy`, which a test waits on, and where the last action's SQL begins.
    pub fn working(self) -> bool {
        match self.ctx.runner() {
            Some(runner) => runner.pending(M::ID) || self.lab.with(Option::is_none),
            None => true,
        }
    }

    /// Runs `actions` one after another (after a fresh set-up when `reset`), stopping at
    /// the first error, which is shown; the state so far is kept either way. A replay stops
    /// between two actions when the lab is left.
    pub fn run(self, actions: Vec<M::Action>, reset: bool, what: Option<Msg>) {
        let Some(runner) = self.ctx.runner_untracked() else {
            return;
        };
        let owner = runner.clone();
        // What the run shows when it ends is set once the runner has let the lab go (its
        // clock read back, the lab no longer pending), in the same task: the buttons, the
        // tables, the outcome and the log then change in one render, not two.
        let end = Rc::new(RefCell::new(End::<M>::default()));
        let ended = end.clone();
        crate::task::spawn(async move {
            let work = async move |w: &Work| {
                let db = w.db();
                // The log, the lab and the tables change together, once, when the run is
                // done, or when a long action shows how far it is.
                end.borrow_mut().hold = Some(db.log().hold());
                let live = |change: &dyn Fn(&mut M::Snapshot)| {
                    end.borrow_mut().hold.take();
                    self.snap.update(|s| change(s));
                    end.borrow_mut().hold = Some(db.log().hold());
                };
                let failed = |e| end.borrow_mut().last = Some(Last::Failed(e));
                let mut state = if reset {
                    match M::setup(db).await {
                        Ok(l) => Some(l),
                        Err(e) => {
                            failed(e);
                            None
                        }
                    }
                } else {
                    owner.state::<M>(M::ID)
                };
                let mut stopped = Ok(());
                if let Some(l) = state.as_mut() {
                    l.start_run();
                    for a in actions {
                        if let Err(e) = w.check() {
                            stopped = Err(e);
                            break;
                        }
                        match l.act_live(db, a, &w.cancel_flag(), &live).await {
                            Ok(o) => end.borrow_mut().last = Some(Last::Done(o)),
                            Err(e) => {
                                failed(e);
                                break;
                            }
                        }
                    }
                    // A long action (L3's run) that stopped early because its page was left:
                    // the runner notes it, and the lab says so when the learner comes back.
                    // (Its own Cancel button leaves the page in place: the lab says it there.)
                    let page_left = self.snap.try_with_untracked(|_| ()).is_none();
                    if stopped.is_ok() && page_left {
                        stopped = w.check();
                    }
                    owner.set_state(M::ID, l.clone());
                    match l.snapshot(db).await {
                        Ok(s) => {
                            owner.set_state(M::ID, Shown(s.clone()));
                            end.borrow_mut().snap = Some(s);
                        }
                        Err(e) => failed(e),
                    }
                }
                end.borrow_mut().lab = Some(state);
                stopped
            };
            let _ = runner.run(Scope::Lab(M::ID), what, work).await;
            let End {
                last,
                snap,
                lab,
                hold,
            } = ended.take();
            if let Some(l) = last {
                self.last.set(Some(l));
            } else if reset {
                // A Reset with no action after it: the outcome of an action before the reset
                // no longer says anything about the lab.
                self.last.set(None);
            }
            if let Some(s) = snap {
                self.snap.set(s);
            }
            if let Some(l) = lab {
                self.lab.set(l);
            }
            drop(hold);
        });
    }

    /// Reads the lab's tables again.
    pub fn refresh(self) {
        let Some(runner) = self.ctx.runner_untracked() else {
            return;
        };
        let owner = runner.clone();
        runner.spawn(Scope::Lab(M::ID), None, async move |w: &Work| {
            if let Some(l) = owner.state::<M>(M::ID) {
                match l.snapshot(w.db()).await {
                    Ok(s) => {
                        owner.set_state(M::ID, Shown(s.clone()));
                        self.snap.set(s);
                    }
                    Err(e) => self.last.set(Some(Last::Failed(e))),
                }
            }
            Ok(())
        });
    }
}

/// The last action's outcome, error (with `explain`'s sentence first, where it has one) or
/// refusal.
#[component]
pub fn LastOutcome(
    last: RwSignal<Option<Last<Outcome>>, LocalStorage>,
    #[prop(optional)] explain: Option<Explain>,
) -> impl IntoView {
    use crate::ui::console::ErrorBox;
    use crate::ui::i18n::{render, tr};
    let ctx = crate::ctx::use_ctx();
    // An outcome after an outcome, the usual case at each click, changes the sentence and its
    // tone in the paragraph already on the page, not a paragraph made afresh.
    let done = Memo::new(move |_| last.with(|l| matches!(l, Some(Last::Done(_)))));
    let tone = move || {
        last.with(|l| match l {
            Some(Last::Done(o)) => match o.tone {
                Tone::Good => "note good",
                Tone::Warn => "note bad",
                Tone::Info => "note",
            },
            _ => "note",
        })
    };
    let sentence = move || {
        let lang = ctx.lang.get();
        last.with(|l| match l {
            Some(Last::Done(o)) => render(lang, &o.msg),
            _ => String::new(),
        })
    };
    // An error or a refusal is drawn afresh, as each is new.
    let other = move || match last.get() {
        Some(Last::Failed(e)) => {
            let said = explain.and_then(|x| Some(((x.sentence)(&e)?, x)));
            Some(
                view! {
                    <div id="last-error">
                        {said.map(|(k, x)| view! {
                            <p class="note bad" id=x.id>
                                {move || tr(ctx.lang.get(), k)} " " {move || tr(ctx.lang.get(), x.then)}
                            </p>
                        })}
                        <ErrorBox error=e/>
                    </div>
                }
                .into_any(),
            )
        }
        Some(Last::Refused(m)) => Some(
            view! { <p class="field-error" role="alert">{move || render(ctx.lang.get(), &m)}</p> }
                .into_any(),
        ),
        Some(Last::Done(_)) | None => None,
    };
    view! {
        <Show when=move || done.get()>
            <p class=tone id="last-outcome" role="status">{sentence}</p>
        </Show>
        {other}
    }
}
