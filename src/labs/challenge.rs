//! A lab's challenges: a goal the learner reaches with the lab's buttons (and, in a lab on
//! PostgreSQL, its SQL console), checked after each new state the lab shows.
//!
//! A challenge is declared beside its lab's tour (`labs/<slug>/challenges.rs`), in the tour's
//! format: catalog keys for what the learner reads, `fn() -> Vec<Action>` for what replays.
//! - `start`: the starting state, replayed on a fresh lab (as a share link replays);
//! - `check`, one of two kinds ([`Check`]):
//!   - [`Check::Sql`], in a lab on PostgreSQL: one statement over the lab's tables (its file
//!     in `src/sql/<slug>/challenge/`) that returns one row with one boolean column,
//!     `solved`; it reads only what the learner can read from the console, and it shows in
//!     the SQL log like every other statement;
//!   - [`Check::State`], in a lab without tables (L2's simulator, L5's advisor): a plain
//!     function over what the page shows (the lab's `State`), with its rule in words (a
//!     catalog key) shown where an SQL check shows its statement;
//! - up to [`MAX_HINTS`] hints, revealed one at a time;
//! - `solution`: the actions that solve it, replayed one step at a time on request;
//! - `why`: why it matters, shown once it is solved.
//!
//! Progress (the ids of the challenges solved) stays in the browser (`localStorage`,
//! [`STORE_KEY`]). `?challenge=<id>` (the embedding kit's `challenge` attribute) opens the lab
//! with that challenge started.
//!
//! The panel works for any lab that can host it ([`ChallengeHost`]): replay actions fresh or
//! one more, say when a new state is on screen, and run a check on it. [`LabHarness`] is the
//! host of every lab on PostgreSQL; L2 and L5 have their own (beside their views).
//!
//! Not for: a lab's rules (its model) or its checks' SQL (its `src/sql/` folder).

use super::harness::{LabHarness, LabModel};
use crate::ctx::{use_ctx, Ctx};
use crate::keys;
use crate::runner::{Scope, Work};
use leptos::prelude::*;
use queue_lab_core::i18n::{Key, Msg};
use serde::Deserialize;

/// A challenge has at most this many hints.
pub const MAX_HINTS: usize = 3;

/// Where the solved challenges' ids are kept, as a JSON array.
pub const STORE_KEY: &str = "queue-lab-challenges";

/// How a challenge is checked (see the module's header).
pub enum Check<S: 'static> {
    /// One statement returning one row: `solved boolean`.
    Sql(&'static str),
    /// A rule over the lab's state on screen: `holds`, and the rule in words (`rule`, a
    /// catalog key, shown under "How the lab checks it").
    State { rule: Key, holds: fn(&S) -> bool },
}

impl<S> Check<S> {
    /// The statement of an SQL check.
    pub fn sql(&self) -> Option<&'static str> {
        match self {
            Check::Sql(sql) => Some(sql),
            Check::State { .. } => None,
        }
    }

    /// Whether a state check holds on `state`; `None` for an SQL check (it needs the lab's
    /// database).
    pub fn holds_on(&self, state: &S) -> Option<bool> {
        match self {
            Check::Sql(_) => None,
            Check::State { holds, .. } => Some(holds(state)),
        }
    }
}

/// The challenge of `list` called `id`.
pub fn by_id<A, S>(list: &'static [Challenge<A, S>], id: &str) -> Option<&'static Challenge<A, S>> {
    list.iter().find(|c| c.id == id)
}

/// One challenge of a lab (see the module's header). `S` is what a state check reads (none
/// for a lab on PostgreSQL, whose checks are SQL).
pub struct Challenge<A, S: 'static = ()> {
    /// Unique across the site, prefixed with the lab's slug (`jobs-run-twice`): the link's
    /// `?challenge=` and the key progress is kept under.
    pub id: &'static str,
    /// The goal, in one sentence.
    pub goal: Key,
    pub start: fn() -> Vec<A>,
    pub check: Check<S>,
    pub hints: &'static [Key],
    /// How the solution goes, in words, beside its replay.
    pub solution_text: Key,
    pub solution: fn() -> Vec<A>,
    pub why: Key,
}

/// The check's one row.
#[derive(Deserialize)]
struct Checked {
    solved: bool,
}

/// Runs a challenge's check on `c`: whether the lab's state now meets its goal.
pub async fn check(c: &impl crate::db::Conn, sql: &str) -> Result<bool, crate::db::DbError> {
    Ok(c.query::<Checked>(sql, &[])
        .await?
        .first()
        .is_some_and(|r| r.solved))
}

/// The ids of the challenges solved in this browser.
pub fn solved_ids() -> Vec<String> {
    window()
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(STORE_KEY).ok().flatten())
        .and_then(|text| serde_json::from_str::<Vec<String>>(&text).ok())
        .unwrap_or_default()
}

/// Keeps `id` among the solved (once); returns the solved ids.
fn remember_solved(id: &str) -> Vec<String> {
    let mut ids = solved_ids();
    if ids.iter().any(|i| i == id) {
        return ids;
    }
    ids.push(id.to_owned());
    if let (Ok(Some(store)), Ok(text)) = (window().local_storage(), serde_json::to_string(&ids)) {
        let _ = store.set_item(STORE_KEY, &text);
    }
    ids
}

/// The challenge the address asks for (`?challenge=<id>`), by its place in `list`; `Err`
/// names an id this lab does not have.
pub fn opening<A, S>(list: &[Challenge<A, S>]) -> Option<Result<usize, Msg>> {
    let raw = crate::ctx::query_param("challenge")?;
    Some(
        list.iter()
            .position(|c| c.id == raw)
            .ok_or_else(|| Msg::new(keys::CHALLENGE_ERR_ID).arg("id", raw)),
    )
}

/// The panel's sentences that depend on how a lab changes (catalog keys): the line under the
/// title, the state of a challenge not solved yet, and of one solved.
pub struct HostTexts {
    pub hint: Key,
    pub open: Key,
    pub solved: Key,
}

/// A lab that hosts the challenges panel.
pub trait ChallengeHost: Copy + Send + Sync + 'static {
    type Action: 'static;
    /// What a state check reads.
    type State: 'static;
    const TEXTS: HostTexts;
    /// Plays `actions`: on a fresh lab when `fresh` (a challenge's start), else after what is
    /// on screen (one step of a solution); `what` names it where the lab says what it replays.
    fn replay(self, actions: Vec<Self::Action>, fresh: bool, what: Option<Msg>);
    /// Reads (tracked) what changes with each new state on screen.
    fn track(self);
    /// Whether a challenge can be started now (`?challenge=` waits for it; tracked).
    fn ready(self, ctx: Ctx) -> bool;
    /// Runs `check` on the state on screen, then `done(solved, what it took)`. A host that has
    /// no settled state yet (a run under way) may skip it: the next state checks again.
    fn run_check(
        self,
        ctx: Ctx,
        check: &'static Check<Self::State>,
        done: impl FnOnce(bool, CheckTime) + 'static,
    );
}

/// What one check took, in ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckTime {
    /// Its own time: for an SQL check, PostgreSQL's time on the statement (the worker's
    /// figure, leaving out any wait behind earlier statements); for a state check, the rule's.
    pub own_ms: f64,
    /// From sending it to reading its answer: also the page's wait to read the worker's
    /// reply, behind the render of the state it checks (a state check waits for nothing).
    pub wait_ms: f64,
}

impl CheckTime {
    /// A check that waited for nothing: both figures are its own time.
    fn unwaited(ms: f64) -> CheckTime {
        CheckTime {
            own_ms: ms,
            wait_ms: ms,
        }
    }
}

impl<M: LabModel> ChallengeHost for LabHarness<M> {
    type Action = M::Action;
    type State = ();
    const TEXTS: HostTexts = HostTexts {
        hint: keys::CHALLENGE_HINT,
        open: keys::CHALLENGE_STATE_OPEN,
        solved: keys::CHALLENGE_STATE_SOLVED,
    };

    fn replay(self, actions: Vec<M::Action>, fresh: bool, what: Option<Msg>) {
        self.run(actions, fresh, what);
    }

    fn track(self) {
        self.snap.track();
    }

    fn ready(self, ctx: Ctx) -> bool {
        ctx.runner().is_some()
    }

    fn run_check(
        self,
        ctx: Ctx,
        rule: &'static Check<()>,
        done: impl FnOnce(bool, CheckTime) + 'static,
    ) {
        let sql = match rule {
            Check::Sql(sql) => *sql,
            Check::State { .. } => return run_state_check(rule, Some(&()), done),
        };
        let Some(runner) = ctx.runner_untracked() else {
            return;
        };
        runner.spawn(Scope::Lab(M::ID), None, async move |w: &Work| {
            let started = crate::db::now_ms();
            let solved = check(w.db(), sql).await?;
            let took = CheckTime {
                own_ms: w.db().log().last_ms(),
                wait_ms: crate::db::now_ms() - started,
            };
            done(solved, took);
            Ok(())
        });
    }
}

/// Runs a state check, timing it (for a host whose checks are plain functions).
pub fn run_state_check<S>(check: &Check<S>, state: Option<&S>, done: impl FnOnce(bool, CheckTime)) {
    let started = crate::db::now_ms();
    let solved = match (check, state) {
        (Check::State { holds, .. }, Some(s)) => holds(s),
        _ => false,
    };
    done(solved, CheckTime::unwaited(crate::db::now_ms() - started));
}

/// The state of a lab's challenges on its page: which one is under way, how far its hints
/// and its solution's replay have gone, and whether its check passes now.
pub struct Challenges<H: ChallengeHost> {
    pub list: &'static [Challenge<H::Action, H::State>],
    host: H,
    pub active: RwSignal<Option<usize>>,
    hints: RwSignal<usize>,
    /// Steps of the solution replayed so far; `None`: the solution is not shown.
    replayed: RwSignal<Option<usize>>,
    /// The active challenge's check, as of the last state it ran on.
    solved_now: RwSignal<bool>,
    /// Ids solved in this browser (mirrors [`STORE_KEY`]).
    solved: RwSignal<Vec<String>>,
    /// What is announced to assistive technology when a challenge is solved.
    announce: RwSignal<Option<Msg>>,
    /// The address asked for a challenge this lab does not have (`?challenge=`).
    refused: RwSignal<Option<Msg>>,
    /// Checks run so far on this page (`data-checks`: a test waits for the next one).
    checks: RwSignal<u64>,
    /// The last check's own time in PostgreSQL, in ms (`data-check-ms`: the benchmark reads
    /// it): what checking after every action costs.
    check_ms: RwSignal<f64>,
    /// The same check from sending it to reading its answer, in ms (`data-check-wait-ms`):
    /// also the page's wait to read the reply, behind the render of the new state.
    check_wait_ms: RwSignal<f64>,
}

impl<H: ChallengeHost> Clone for Challenges<H> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<H: ChallengeHost> Copy for Challenges<H> {}

impl<H: ChallengeHost> Challenges<H> {
    /// The lab's challenges, with the check wired to the host: after each new state on
    /// screen (an action, a console statement, a reset, a run), the active challenge's check
    /// runs.
    pub fn new(ctx: Ctx, host: H, list: &'static [Challenge<H::Action, H::State>]) -> Self {
        let c = Challenges {
            list,
            host,
            active: RwSignal::new(None),
            hints: RwSignal::new(0),
            replayed: RwSignal::new(None),
            solved_now: RwSignal::new(false),
            solved: RwSignal::new(solved_ids()),
            announce: RwSignal::new(None),
            refused: RwSignal::new(None),
            checks: RwSignal::new(0),
            check_ms: RwSignal::new(0.0),
            check_wait_ms: RwSignal::new(0.0),
        };
        Effect::new(move |_| {
            host.track();
            let Some(i) = c.active.get() else {
                return;
            };
            host.run_check(ctx, &c.list[i].check, move |solved, took| {
                let _ = c.check_ms.try_set(took.own_ms);
                let _ = c.check_wait_ms.try_set(took.wait_ms);
                // The learner may have started another challenge meanwhile.
                if c.active.try_get_untracked().flatten() == Some(i) {
                    c.checked(i, solved);
                }
            });
        });
        // `?challenge=<id>`: start it once the lab is ready (after the lab's own first run,
        // which the harness's effect, made before this one, queues first).
        let opened = StoredValue::new(false);
        Effect::new(move |_| {
            if !host.ready(ctx) || opened.get_value() {
                return;
            }
            opened.set_value(true);
            match opening(list) {
                Some(Ok(i)) => c.start(i),
                // Not the harness's outcome: the lab's first run, still under way, clears that.
                Some(Err(m)) => c.refused.set(Some(m)),
                None => {}
            }
        });
        c
    }

    fn checked(self, i: usize, solved: bool) {
        let _ = self.solved_now.try_set(solved);
        let _ = self.checks.try_update(|n| *n += 1);
        if !solved {
            return;
        }
        let _ = self.solved.try_set(remember_solved(self.list[i].id));
        // Once per start: later checks of a state still solved say nothing new.
        if self.announce.try_get_untracked().flatten().is_none() {
            let _ = self
                .announce
                .try_set(Some(Msg::new(keys::CHALLENGE_SOLVED_SAID).arg("n", i + 1)));
        }
    }

    /// Starts challenge `i`: its starting state on a fresh database, no hint shown.
    pub fn start(self, i: usize) {
        self.active.set(Some(i));
        self.hints.set(0);
        self.replayed.set(None);
        self.solved_now.set(false);
        self.announce.set(None);
        let actions = (self.list[i].start)();
        let what = Msg::new(keys::CHALLENGE_WHAT_START).arg("n", i + 1);
        self.host.replay(actions, true, Some(what));
    }

    /// Replays the next step of the active challenge's solution.
    fn replay_next(self) {
        let (Some(i), Some(done)) = (self.active.get_untracked(), self.replayed.get_untracked())
        else {
            return;
        };
        if let Some(step) = (self.list[i].solution)().into_iter().nth(done) {
            self.replayed.set(Some(done + 1));
            self.host.replay(vec![step], false, None);
        }
    }

    fn is_solved(self, id: &str) -> bool {
        self.solved.with(|s| s.iter().any(|x| x == id))
    }
}

/// The challenges panel: each goal with its Start button and whether it is solved; the one
/// under way shows its state, its hints one at a time, its solution on request, and why it
/// matters once solved. A solved challenge is announced (`role="status"`).
#[component]
pub fn ChallengeList<H: ChallengeHost>(
    challenges: Challenges<H>,
    busy: Signal<bool>,
) -> impl IntoView {
    let ctx = use_ctx();
    let c = challenges;
    let total = c.list.len();
    let count = move || c.list.iter().filter(|ch| c.is_solved(ch.id)).count();
    let progress = move || {
        crate::ui::i18n::render(
            ctx.lang.get(),
            &Msg::new(keys::CHALLENGE_PROGRESS)
                .arg("solved", count())
                .arg("total", total),
        )
    };
    view! {
        <section class="panel challenges" id="challenges" aria-labelledby="challenges-title"
            data-checks=move || c.checks.get().to_string()
            data-check-ms=move || format!("{:.3}", c.check_ms.get())
            data-check-wait-ms=move || format!("{:.3}", c.check_wait_ms.get())>
            <h2 id="challenges-title">{ctx.t(keys::CHALLENGE_TITLE)}</h2>
            <p class="muted"><span id="challenge-progress">{progress}</span>" · "{ctx.t(H::TEXTS.hint)}</p>
            {move || c.refused.get().map(|m| view! {
                <p class="field-error" role="alert" id="challenge-refused">{move || crate::ui::i18n::render(ctx.lang.get(), &m)}</p>
            })}
            <p class="visually-hidden" role="status" id="challenge-announce">{move || {
                c.announce.get().map(|m| crate::ui::i18n::render(ctx.lang.get(), &m))
            }}</p>
            <ol>
                {c.list.iter().enumerate().map(|(i, ch)| {
                    let current = move || c.active.get() == Some(i);
                    let done = move || c.is_solved(ch.id);
                    view! {
                        <li class="challenge" data-challenge=ch.id class:current=current class:solved=done
                            data-solved-now=move || (current() && c.solved_now.get()).to_string()>
                            <div class="row">
                                <span>{ctx.rich(ch.goal)}</span>
                                <Show when=done>
                                    <span class="badge good challenge-done">{ctx.t(keys::CHALLENGE_SOLVED_BADGE)}</span>
                                </Show>
                                <button type="button" class="small challenge-start" disabled=move || busy.get()
                                    on:click=move |_| c.start(i)>
                                    {move || ctx.t(if current() { keys::CHALLENGE_RESTART } else { keys::CHALLENGE_START })()}
                                </button>
                            </div>
                            <Show when=current>
                                <ChallengeBody challenges=c busy i/>
                            </Show>
                        </li>
                    }
                }).collect_view()}
            </ol>
        </section>
    }
}

/// The challenge under way: its state, hints, solution and, once solved, why it matters.
#[component]
fn ChallengeBody<H: ChallengeHost>(
    challenges: Challenges<H>,
    busy: Signal<bool>,
    i: usize,
) -> impl IntoView {
    let ctx = use_ctx();
    let c = challenges;
    let ch = &c.list[i];
    let steps = (ch.solution)().len();
    let hints = ch.hints;
    let state = move || {
        let (key, class) = if c.solved_now.get() {
            (H::TEXTS.solved, "challenge-state good")
        } else {
            (H::TEXTS.open, "challenge-state")
        };
        view! { <p class=class>{ctx.t(key)}</p> }
    };
    let replay = move || {
        c.replayed.get().map(|done| {
            let next = Msg::new(keys::CHALLENGE_REPLAY_NEXT)
                .arg("n", done + 1)
                .arg("total", steps);
            view! {
                <p class="note challenge-solution">{ctx.rich(ch.solution_text)}</p>
                <button type="button" class="small challenge-replay"
                    disabled=move || { busy.get() || c.replayed.get().unwrap_or(0) >= steps }
                    on:click=move |_| c.replay_next()>
                    {move || if done >= steps {
                        ctx.t(keys::CHALLENGE_REPLAY_DONE)()
                    } else {
                        crate::ui::i18n::render(ctx.lang.get(), &next)
                    }}
                </button>
            }
        })
    };
    view! {
        <div class="challenge-body">
            {state}
            <ol class="challenge-hints">
                {move || hints.iter().take(c.hints.get()).map(|h| view! {
                    <li class="note challenge-hint">{ctx.rich(*h)}</li>
                }).collect_view()}
            </ol>
            <div class="row">
                <Show when=move || { c.hints.get() < hints.len() }>
                    <button type="button" class="small challenge-more-hint" on:click=move |_| c.hints.update(|n| *n += 1)>
                        {move || crate::ui::i18n::render(ctx.lang.get(), &Msg::new(keys::CHALLENGE_HINT_BUTTON)
                            .arg("n", c.hints.get() + 1).arg("total", hints.len()))}
                    </button>
                </Show>
                <Show when=move || c.replayed.get().is_none()>
                    <button type="button" class="small challenge-show-solution" on:click=move |_| c.replayed.set(Some(0))>
                        {ctx.t(keys::CHALLENGE_SHOW_SOLUTION)}
                    </button>
                </Show>
            </div>
            {replay}
            <Show when=move || c.solved_now.get()>
                <p class="note challenge-why"><strong>{ctx.t(keys::CHALLENGE_WHY)}</strong>" "{ctx.rich(ch.why)}</p>
            </Show>
            {match &ch.check {
                Check::Sql(sql) => view! {
                    <details class="challenge-check">
                        <summary>{ctx.t(keys::CHALLENGE_HOW_CHECKED)}</summary>
                        <pre><code>{*sql}</code></pre>
                    </details>
                }.into_any(),
                Check::State { rule, .. } => view! {
                    <details class="challenge-check">
                        <summary>{ctx.t(keys::CHALLENGE_HOW_CHECKED_STATE)}</summary>
                        <p class="challenge-rule">{ctx.rich(*rule)}</p>
                    </details>
                }.into_any(),
            }}
        </div>
    }
}
