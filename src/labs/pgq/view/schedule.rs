//! PgQue's schedule on the lab clock: the switch that runs `pgque.start()` / `pgque.stop()`,
//! and PgQue's four jobs, each with its period and its last and next run in lab time.

use super::wiring::Wiring;
use crate::ctx::use_ctx;
use crate::keys;
use crate::labs::pgq::model::Action;
use crate::ui::i18n::render;
use crate::ui::table::{col_heads, ScrollTable};
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

#[component]
pub fn Schedule(w: Wiring) -> impl IntoView {
    let ctx = use_ctx();
    let on = move || w.snap.with(|s| s.jobs.iter().any(|j| j.scheduled));
    let every =
        move |s: i32| move || render(ctx.lang.get(), &Msg::new(keys::PGQ_JOB_EVERY_S).arg("s", s));
    view! {
        <div class="pgq-schedule" id="pgq-schedule">
            <div class="row">
                // The box beside the first line of its label, which wraps beside it.
                <label class="label-top">
                    <input type="checkbox" id="schedule" prop:checked=on disabled=w.disabled
                        on:change=move |ev| w.act.run(Action::Schedule(event_target_checked(&ev)))/>
                    <span>{ctx.t(keys::PGQ_SCHEDULE)}</span>
                </label>
            </div>
            <ScrollTable id="pgq-jobs" class="compact" head=move || col_heads(ctx, &[
                keys::PGQ_JOB_NAME, keys::PGQ_JOB_EVERY, keys::PGQ_JOB_LAST, keys::PGQ_JOB_NEXT, keys::PGQ_JOB_RUNS,
            ])>
                <For each=move || w.snap.with(|s| s.jobs.clone()) key=|j| (j.job_name.clone(), j.runs, j.next_run.clone()) let:j>
                    <tr data-job=j.job_name.clone()>
                        <td><code>{j.job_name.clone()}</code></td>
                        <td>{every(j.every_s)}</td>
                        <td>{j.last_run.clone().unwrap_or_else(|| "—".into())}</td>
                        <td>{match j.next_run.clone() {
                            Some(t) => t.into_any(),
                            None => ctx.t(keys::PGQ_JOB_STOPPED).into_any(),
                        }}</td>
                        <td class="num">{j.runs}</td>
                    </tr>
                </For>
            </ScrollTable>
            <p class="muted">{ctx.t(keys::PGQ_SCHEDULE_NOTE)}</p>
        </div>
    }
}
