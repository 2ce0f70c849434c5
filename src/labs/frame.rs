//! The page frame every lab on PostgreSQL repeats (L1, L3, L4): its title and introduction,
//! the note of a cut share link, "waiting for Postgres" until the lab is set up, then the
//! tour and the lab's own panels, Reset and the share link, and below them the session's
//! SQL log and console.

use super::challenge::{ChallengeList, Challenges};
use super::guide::{share_url, Guide, ReplayCut, ShareLink, Tour};
use super::harness::{LabHarness, LabModel};
use crate::ctx::use_ctx;
use crate::ui::clock_panel::ClockBar;
use crate::ui::console::SqlConsole;
use crate::ui::sql_log::SqlLog;
use leptos::prelude::*;
use queue_lab_core::i18n::Key;

/// A lab's page around its panels (`children`, shown once the lab is set up).
///
/// - `slug`: the lab's route and its section's class and id (`<slug>-lab`);
/// - `title`, `tour_title`: catalog keys; `intro`: what stands under the title;
/// - `waiting`: shown until Postgres is ready and the lab set up;
/// - `share`: the lab's state as share-link text (its codec);
/// - `reset`: the Reset button's catalog key, for a lab that has one (`#<slug>-reset`);
/// - `console`: the SQL console's placeholder;
/// - `challenges`: the lab's challenges, shown under the tour, for a lab that has them.
#[component]
pub fn LabFrame<M: LabModel>(
    harness: LabHarness<M>,
    guide: Guide<M>,
    slug: &'static str,
    title: Key,
    tour_title: Key,
    #[prop(into)] intro: ViewFnOnce,
    #[prop(into)] waiting: ViewFn,
    share: fn(&M) -> String,
    #[prop(optional)] reset: Option<Key>,
    console: &'static str,
    #[prop(optional)] challenges: Option<Challenges<LabHarness<M>>>,
    children: ChildrenFn,
) -> impl IntoView {
    let ctx = use_ctx();
    let lab = harness.lab;
    let ready = move || lab.with(Option::is_some) && ctx.runner().is_some();
    let busy = Signal::derive(move || harness.busy());
    let url = Signal::derive(move || {
        lab.with(|l| {
            l.as_ref()
                .map(|l| share_url(slug, &share(l)))
                .unwrap_or_default()
        })
    });
    let reset = move || {
        reset.map(|key| view! {
            <button type="button" class="small" id=format!("{slug}-reset") disabled=busy on:click=move |_| {
                guide.step.set(None);
                harness.run(vec![], true, None);
            }>{ctx.t(key)}</button>
        })
    };
    let children = StoredValue::new(children);
    view! {
        <section class=format!("lab {slug}-lab") id=format!("{slug}-lab") aria-busy=move || harness.working().to_string()>
            <h1>{ctx.t(title)}</h1>
            {intro.run()}
            // Shown from the moment a replay starts, before the lab's first state is in.
            <ReplayCut cut=guide.cut/>
            <Show when=ready fallback=waiting>
                <Tour guide=guide harness=harness title=tour_title busy=busy/>
                {challenges.map(|c| view! { <ChallengeList challenges=c busy/> })}
                {children.with_value(|c| c())}
                <div class="panel row">
                    {reset}
                    <ShareLink url=url/>
                </div>
            </Show>
            <SqlLog entries=ctx.log/>
            <SqlConsole placeholder=console/>
        </section>
    }
}

/// The two columns of a lab that keeps its effects in view (L1, L4; one column on a narrow
/// screen): on the left a panel that stays at the top with the lab clock and `status` (the
/// last outcome and what else the lab keeps in sight), then the controls (`children`); on
/// the right `watch`, kept in view beside them.
#[component]
pub fn SplitColumns(
    now: Signal<String>,
    on_advance: Callback<i64>,
    busy: Signal<bool>,
    #[prop(into)] status: ViewFnOnce,
    #[prop(into)] watch: ViewFnOnce,
    children: Children,
) -> impl IntoView {
    view! {
        <div class="lab-split">
            <div class="lab-controls">
                <div class="panel sticky-clock">
                    <ClockBar now=now on_advance=on_advance busy=busy/>
                    {status.run()}
                </div>
                {children()}
            </div>
            <div class="lab-watch">{watch.run()}</div>
        </div>
    }
}
