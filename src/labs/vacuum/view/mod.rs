//! L3's page. The components read the lab's [`Snapshot`] and send [`Action`]s through the
//! lab's harness; they keep only what the learner is typing.
//!
//! - `run.rs`: the workload form, its progress and the VACUUM button's figures;
//! - `results.rs`: the results table and the charts;
//! - `inspect.rs`: the long transaction, the page map and the autovacuum panel;
//! - `plan.rs`: the claim-plan viewer and the VACUUM FULL demonstration.

mod inspect;
mod plan;
mod results;
mod run;

use super::model::{self, Action, Lab, Said, Snapshot, Strategy};
use super::tour::TOUR;
use crate::ctx::{use_ctx, Ctx};
use crate::keys;
use crate::labs::challenge::Challenges;
use crate::labs::frame::LabFrame;
use crate::labs::guide::Guide;
use crate::labs::harness::{LabHarness, Last};
use crate::labs::vacuum::rows::Named;
use crate::ui::console::ErrorBox;
use crate::ui::format::group;
use crate::ui::i18n::{render, tr};
use leptos::prelude::*;
use queue_lab_core::i18n::{Lang, Msg};

/// Where an action was sent from: its error shows there.
type Panel = &'static str;

/// What the panels share: the harness, its snapshot, and the inputs two panels read.
#[derive(Clone, Copy)]
struct Ui {
    ctx: Ctx,
    harness: LabHarness<Lab>,
    snap: RwSignal<Snapshot>,
    busy: Signal<bool>,
    panel: RwSignal<Panel>,
    /// Jobs per round as typed (the claim-plan viewer uses it too).
    jobs: RwSignal<String>,
    guide: Guide<Lab>,
}

impl Ui {
    /// Sends one action from `panel`.
    fn act(self, panel: Panel, action: Action, what: Option<Msg>) {
        if self.busy.get_untracked() {
            return;
        }
        self.panel.set(panel);
        self.harness.run(vec![action], false, what);
    }

    /// A part of the snapshot, as a memo: a panel redraws only when its part changes.
    fn part<T: Clone + PartialEq + Send + Sync + 'static>(self, f: fn(&Snapshot) -> T) -> Memo<T> {
        let snap = self.snap;
        Memo::new(move |_| snap.with(f))
    }

    /// The last action's error, in the panel it was sent from.
    fn error_in(self, panel: Panel) -> impl Fn() -> Option<AnyView> {
        move || match self.harness.last.get() {
            Some(Last::Failed(e)) if self.panel.get() == panel => {
                Some(view! { <ErrorBox error=e/> }.into_any())
            }
            _ => None,
        }
    }

    /// Start over: fresh tables, no tour step open.
    fn start_over(self) {
        if self.busy.get_untracked() {
            return;
        }
        self.guide.step.set(None);
        self.panel.set("run");
        self.harness.run(vec![], true, None);
    }

    fn msg(self, msg: Msg) -> impl Fn() -> String {
        move || render(self.ctx.lang.get(), &msg)
    }
}

fn strategy_name(lang: Lang, s: Strategy) -> String {
    tr(lang, s.name_key())
}

fn color(s: Strategy) -> &'static str {
    match s {
        Strategy::Keep => "var(--accent)",
        Strategy::Delete => "var(--bad)",
        Strategy::DeleteVacuum => "var(--warn)",
        Strategy::Rotate => "var(--ok)",
        Strategy::Partition => "var(--violet)",
    }
}

fn dash(s: Strategy) -> &'static str {
    match s {
        Strategy::Keep => "none",
        Strategy::Delete => "6 3",
        Strategy::DeleteVacuum => "2 3",
        Strategy::Rotate => "10 3 2 3",
        Strategy::Partition => "1 4",
    }
}

#[component]
pub fn VacuumLab() -> impl IntoView {
    let ctx = use_ctx();
    let guide = Guide::<Lab>::new(&TOUR, crate::labs::vacuum::share::decode);
    let panel = RwSignal::new("run");
    // A fresh set-up; a shared state replayed or a tour step opened if the address asks.
    let harness = LabHarness::<Lab>::new(ctx, move |harness| {
        panel.set("run");
        guide.open(harness)
    });
    let challenges = Challenges::new(ctx, harness, &crate::labs::vacuum::challenges::CHALLENGES);
    let ui = Ui {
        ctx,
        harness,
        snap: harness.snap,
        busy: Signal::derive(move || harness.busy()),
        panel,
        jobs: RwSignal::new(model::JOBS_DEFAULT.to_string()),
        guide,
    };
    let lead = Msg::new(keys::VACUUM_LEAD)
        .arg("jobs", group(i64::from(model::JOBS_DEFAULT)))
        .arg("rounds", model::ROUNDS_DEFAULT)
        .arg("ways", model::Strategy::ALL.len());
    let refused = move || match harness.last.get() {
        Some(Last::Refused(m)) => {
            Some(view! { <p class="field-error" role="alert">{ui.msg(m)}</p> })
        }
        _ => None,
    };
    view! {
        <LabFrame harness=harness guide=guide slug="vacuum" title=keys::VACUUM_TITLE tour_title=keys::VACUUM_TOUR_TITLE
            intro=move || view! {
                <p class="lead">{ui.msg(lead)}</p>
                <p>{ctx.t(keys::VACUUM_MVCC)}</p>
            }
            waiting=move || view! {
                <p class="muted" id="vacuum-waiting">
                    {move || if ctx.runner().is_some() { ctx.t(keys::VACUUM_SETTING_UP)() } else { ctx.t(keys::VACUUM_NO_DB)() }}
                </p>
                {ui.error_in("run")}
            }
            share=|l| crate::labs::vacuum::share::encode(&l.history) challenges=challenges
            console="select n_live_tup, n_dead_tup from pg_stat_user_tables where schemaname like 'vac_%';">
            {refused}
            <run::RunPanel ui=ui/>
            <results::Results ui=ui/>
            <inspect::LongTxPanel ui=ui/>
            <div class="lab-grid">
                <inspect::PageMapPanel ui=ui/>
                <inspect::AutovacuumPanel ui=ui/>
            </div>
            <plan::PlanPanel ui=ui/>
            <plan::FullPanel ui=ui/>
        </LabFrame>
    }
}

/// The last action's outcome when it says something (a run's end).
fn said(last: Option<Last<Said>>) -> Option<Msg> {
    match last {
        Some(Last::Done(o)) => o.map(|o| o.msg),
        _ => None,
    }
}
