//! L1's controls for how a job's life ends: §2's DELETE-on-complete (a toggle beside the
//! workers, with what it leaves in the table) and §4's dead jobs (a count kept in view, and
//! the alert the trigger sends arriving).

use super::Ui;
use crate::ctx::use_ctx;
use crate::keys;
use crate::labs::jobs::model::{self, Action, Lab, Snapshot};
use crate::ui::format::bytes;
use crate::ui::i18n::render;
use crate::ui::panel::{Panel, SqlShown};
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

/// §2: "completion changes the status or deletes the row", as a switch for the workers.
#[component]
pub fn CompleteMode(ui: Ui) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    let on = move || ui.read(|l| l.delete_on_complete);
    let stats = move || {
        ui.snap.with(|s| s.table.clone()).map(|t| {
            let msg = Msg::new(keys::JOBS_DONE_MODE_STATS)
                .arg("rows", t.rows)
                .arg("dead", t.dead_versions)
                .arg("size", bytes(t.bytes))
                .arg("done", ui.snap.with(|s| s.counts.done));
            view! { <p class="note" id="table-stats">{move || render(ctx.lang.get(), &msg)}</p> }
        })
    };
    view! {
        <Panel heading_id="complete-mode-title" heading=keys::JOBS_DONE_MODE_TITLE id="complete-mode">
            <p class="muted">{ctx.rich(keys::JOBS_DONE_MODE_NOTE)}</p>
            <label class="row">
                <input type="checkbox" id="delete-on-complete" prop:checked=on disabled=disabled
                    on:change=move |ev| ui.act.run(Action::DeleteOnComplete(event_target_checked(&ev)))/>
                {ctx.rich(keys::JOBS_DONE_MODE_TOGGLE)}
            </label>
            {stats}
            <p class="muted">
                {ctx.t(keys::JOBS_DONE_MODE_VACUUM)} " "
                <a href="#/vacuum">{ctx.t(keys::JOBS_DONE_MODE_L3)}</a>
            </p>
            <SqlShown summary=keys::JOBS_DONE_MODE_SQL statements=&[model::COMPLETE_SQL, model::COMPLETE_DELETE_SQL]/>
        </Panel>
    }
}

/// §4's count of dead jobs, small enough to sit beside the last outcome at all times.
#[component]
pub fn DeadCount(snap: RwSignal<Snapshot>) -> impl IntoView {
    let ctx = use_ctx();
    let dead = move || snap.with(|s| s.counts.dead);
    view! {
        <p class="dead-count" id="dead-count" class:bad=move || { dead() > 0 } aria-live="polite">
            {move || render(ctx.lang.get(), &Msg::new(keys::JOBS_DEAD_COUNT).arg("n", dead()))}
        </p>
    }
}

/// §4: the alert on the change to dead, as the trigger sends it and a listener receives it.
#[component]
pub fn DeadAlerts(lab: RwSignal<Option<Lab>, LocalStorage>) -> impl IntoView {
    let ctx = use_ctx();
    let alerts = move || {
        lab.with(|l| {
            l.as_ref()
                .map(|l| l.alerts.iter().rev().take(6).cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        })
    };
    let received = move || lab.with(|l| l.as_ref().map_or(0, |l| l.alerts.len()));
    view! {
        <Panel heading_id="dead-alerts-title" heading=keys::JOBS_DEAD_TITLE id="dead-jobs">
            <p class="muted">{ctx.rich(keys::JOBS_DEAD_EXPLAIN)}</p>
            <h3>{move || render(ctx.lang.get(), &Msg::new(keys::JOBS_DEAD_RECEIVED).arg("n", received()))}</h3>
            {deliveries("dead-alerts", alerts, |alert| view! {
                <li data-job=alert.job.map(|j| j.to_string())>
                    <code>{crate::clock::time_of_day(&alert.at).to_owned()}</code>
                    " " <code translate="no">{format!("NOTIFY {}, '{}'", model::ALERT_CHANNEL, alert.payload)}</code>
                </li>
            }.into_any())}
            <p class="note">{ctx.t(keys::JOBS_DEAD_HOOK)}</p>
            <SqlShown summary=keys::JOBS_DEAD_SQL statements=&[model::DEAD_ALERT_SQL]/>
        </Panel>
    }
}

/// A list of the NOTIFYs a listener received (`items`, each drawn by `item`), or "none yet".
/// Drawn again only when the list changes, not at every action that leaves it as it was.
pub fn deliveries<T: Clone + PartialEq + Send + Sync + 'static>(
    id: &'static str,
    items: impl Fn() -> Vec<T> + Send + Sync + 'static,
    item: fn(T) -> AnyView,
) -> impl IntoView {
    let ctx = use_ctx();
    let items = Memo::new(move |_| items());
    view! {
        <ul class="deliveries" id=id>
            {move || {
                let got = items.get();
                if got.is_empty() {
                    view! { <li class="muted">{ctx.t(keys::JOBS_NONE_YET)}</li> }.into_any()
                } else {
                    got.into_iter().map(item).collect_view().into_any()
                }
            }}
        </ul>
    }
}
