//! A lab's guided tour and share link, for the labs whose state is the list of actions done
//! on a fresh database (L1, L3, L4); L2's tour is made of the same [`TourStep`]s and shown
//! by the same [`TourList`].
//!
//! - A tour step says what to look at and runs its actions on a fresh database.
//! - The share link carries the actions done so far (`#/<lab>?s=…`, the lab's own codec)
//!   and replays them, at most [`REPLAY_LIMIT`]; the lab says when it cut a link.
//! - `?step=N` (the embedding kit's `step` attribute) opens the lab at tour step N.
//!
//! A link is built from [`crate::ctx::share_base`], so one copied inside an embed opens the
//! full lab.

use super::harness::{LabHarness, LabModel};
use crate::ctx::{use_ctx, Ctx};
use crate::keys;
use crate::ui::i18n::{render, rich};
use leptos::prelude::*;
use queue_lab_core::i18n::{Key, Msg};

/// One step of a tour: its title, what to look at (catalog keys), the actions it runs, and
/// the figures on the page it marks (`L`: L2 marks cells of its tables; the other labs mark
/// none, `look: &[]`).
pub struct TourStep<A, L: 'static = ()> {
    pub title: Key,
    pub body: Key,
    pub actions: fn() -> Vec<A>,
    pub look: &'static [L],
}

impl<A> TourStep<A> {
    /// A step that marks no figure on the page (every lab's but L2's).
    pub const fn new(title: Key, body: Key, actions: fn() -> Vec<A>) -> TourStep<A> {
        TourStep {
            title,
            body,
            actions,
            look: &[],
        }
    }
}

/// A share link replays at most this many steps; the rest are dropped, and the lab says so.
pub const REPLAY_LIMIT: usize = 500;

/// The share text in the hash route: `#/<lab>?s=…`.
fn shared_steps() -> Option<String> {
    let hash = window().location().hash().ok()?;
    let query = hash.split_once('?')?.1;
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix("s="))
        .map(str::to_owned)
}

/// The address of this lab with `encoded` actions.
pub fn share_url(route: &str, encoded: &str) -> String {
    format!("{}#/{route}?s={encoded}", crate::ctx::share_base())
}

/// The tour step the page was opened at (`?step=N`), 0-based; `Err` names a step the tour
/// does not have. `steps`: how many the tour has (L2's tour, which is no [`Guide`], reads
/// it too).
pub(crate) fn opening_step(steps: usize) -> Option<Result<usize, Msg>> {
    let raw = crate::ctx::query_param("step")?;
    Some(match raw.trim().parse::<usize>() {
        Ok(n) if (1..=steps).contains(&n) => Ok(n - 1),
        _ => Err(Msg::new(keys::GUIDE_ERR_STEP)
            .arg("step", raw)
            .arg("max", steps)),
    })
}

/// A lab's guide: its tour, its codec, and the signals its view shows.
pub struct Guide<M: LabModel> {
    pub tour: &'static [TourStep<M::Action>],
    pub decode: fn(&str) -> Result<Vec<M::Action>, Msg>,
    /// The tour step shown open (the last one run).
    pub step: RwSignal<Option<usize>>,
    /// Set when a share link had more than [`REPLAY_LIMIT`] steps, or the address asked for
    /// something the lab cannot open (a share text it cannot read, a step its tour lacks).
    pub cut: RwSignal<Option<Msg>>,
}

impl<M: LabModel> Clone for Guide<M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M: LabModel> Copy for Guide<M> {}

impl<M: LabModel> Guide<M> {
    pub fn new(
        tour: &'static [TourStep<M::Action>],
        decode: fn(&str) -> Result<Vec<M::Action>, Msg>,
    ) -> Guide<M> {
        Guide {
            tour,
            decode,
            step: RwSignal::new(None),
            cut: RwSignal::new(None),
        }
    }

    /// The lab's guide and its harness: set up on a fresh database, then [`Guide::open`] (a
    /// shared state replayed, or the tour opened at a step, if the address asks for one).
    pub fn start(
        ctx: Ctx,
        tour: &'static [TourStep<M::Action>],
        decode: fn(&str) -> Result<Vec<M::Action>, Msg>,
    ) -> (Guide<M>, LabHarness<M>) {
        let guide = Guide::new(tour, decode);
        let harness = LabHarness::new(ctx, move |harness| guide.open(harness));
        (guide, harness)
    }

    /// The lab's first run: replay a shared state, or open at a tour step, as the address
    /// asks; else a fresh lab. An address it cannot read is refused with a reason. Reset and
    /// Restart take the share text and the step out of the address first
    /// ([`crate::ctx::forget_opening_state`]), so they give a fresh lab; an embed stopped for
    /// another writes its state there, so that starting again replays it.
    pub fn open(self, harness: LabHarness<M>) {
        // A link the lab cannot read is said in the note above the lab, not as the harness's
        // outcome: the fresh lab's first run, which follows, clears that when it ends.
        let refuse = |m: Msg| {
            self.cut.set(Some(m));
            harness.run(vec![], true, None);
        };
        match shared_steps().map(|s| (self.decode)(&s)) {
            Some(Ok(mut steps)) => {
                let total = steps.len();
                if total > REPLAY_LIMIT {
                    steps.truncate(REPLAY_LIMIT);
                    self.cut.set(Some(
                        Msg::new(keys::GUIDE_REPLAY_CUT)
                            .arg("limit", REPLAY_LIMIT)
                            .arg("total", total),
                    ));
                }
                let what = Msg::new(keys::RUNNER_WHAT_REPLAY).arg("n", steps.len());
                harness.run(steps, true, Some(what));
            }
            Some(Err(m)) => refuse(m),
            None => match opening_step(self.tour.len()) {
                Some(Ok(i)) => self.run_step(harness, i),
                Some(Err(m)) => refuse(m),
                None => harness.run(vec![], true, None),
            },
        }
    }

    /// Runs tour step `i` on a fresh database and shows what to look at.
    pub fn run_step(self, harness: LabHarness<M>, i: usize) {
        self.step.set(Some(i));
        let actions = (self.tour[i].actions)();
        let what = (actions.len() > 1)
            .then(|| Msg::new(keys::RUNNER_WHAT_ACTIONS).arg("n", actions.len()));
        harness.run(actions, true, what);
    }
}

/// The note a cut share link leaves, shown from the moment the replay starts.
#[component]
pub fn ReplayCut(cut: RwSignal<Option<Msg>>) -> impl IntoView {
    let ctx = use_ctx();
    move || {
        cut.get().map(|m| {
            view! { <p class="note" role="status" id="replay-cut">{move || render(ctx.lang.get(), &m)}</p> }
        })
    }
}

/// The tour: each step's title and a button that runs it; the step run last shows what to
/// look at. `title`: the tour's heading (catalog key).
#[component]
pub fn Tour<M: LabModel>(
    guide: Guide<M>,
    harness: LabHarness<M>,
    title: Key,
    busy: Signal<bool>,
) -> impl IntoView {
    let steps = guide
        .tour
        .iter()
        .map(|s| (s.title, Msg::new(s.body)))
        .collect();
    view! {
        <TourList steps title hint=keys::GUIDE_TOUR_HINT step=guide.step busy
            run_step=move |i| guide.run_step(harness, i)/>
    }
}

/// A tour's markup, the same in every lab (`.tour`, `.tour-run[data-step]`,
/// `li.current .tour-body`), so the tests and the style treat them alike: each step's
/// title and a button that runs it; the step run last (`step`) says what to look at.
/// `steps`: each step's title key and what to look at; `children`: a note above the list.
#[component]
pub fn TourList(
    steps: Vec<(Key, Msg)>,
    title: Key,
    hint: Key,
    step: RwSignal<Option<usize>>,
    busy: Signal<bool>,
    run_step: impl Fn(usize) + Copy + Send + Sync + 'static,
    #[prop(optional)] id: Option<&'static str>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <section class="panel tour" id=id aria-labelledby="tour-title">
            <h2 id="tour-title">{ctx.t(title)}</h2>
            <p class="muted">{ctx.t(hint)}</p>
            {children.map(|c| c())}
            <ol>
                {steps
                    .into_iter()
                    .enumerate()
                    .map(|(i, (title, body))| {
                        let current = move || step.get() == Some(i);
                        view! {
                            <li class:current=current>
                                <div class="row">
                                    <span>{ctx.t(title)}</span>
                                    <button type="button" class="small tour-run" data-step=i.to_string()
                                        disabled=move || busy.get()
                                        on:click=move |_| run_step(i)>
                                        {ctx.t(keys::GUIDE_TOUR_RUN)}
                                    </button>
                                </div>
                                <Show when=current>
                                    <p class="note tour-body">{
                                        let body = body.clone();
                                        move || rich(&render(ctx.lang.get(), &body))
                                    }</p>
                                </Show>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
}

/// The share link of the state on screen: `url` is the link, built by the lab.
#[component]
pub fn ShareLink(url: Signal<String>) -> impl IntoView {
    let ctx = use_ctx();
    let copied = RwSignal::new(false);
    // In an embed, "Open the full lab" opens this link.
    if let Some(crate::ui::embed::FullLab(full)) = use_context() {
        Effect::new(move |_| full.set(Some(url.get())));
        on_cleanup(move || {
            let _ = full.try_set(None);
        });
    }
    view! {
        <label for="share-url">{ctx.t(keys::GUIDE_SHARE)}</label>
        <input id="share-url" type="text" readonly prop:value=url size="40"/>
        <button type="button" class="small" on:click=move |_| {
            let _ = window().navigator().clipboard().write_text(&url.get_untracked());
            copied.set(true);
        }>{move || if copied.get() { ctx.t(keys::GUIDE_COPIED)() } else { ctx.t(keys::GUIDE_COPY)() }}</button>
    }
}
