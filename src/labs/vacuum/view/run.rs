//! The workload: its form, Cancel / VACUUM / Start over, its progress, how it ended, and
//! what the VACUUM button removed.

use super::{strategy_name, Ui};
use crate::keys;
use crate::labs::vacuum::model::{self, Action, Strategy};
use crate::ui::format::group;
use crate::ui::i18n::{render, tr};
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

#[component]
pub(super) fn RunPanel(ui: Ui) -> impl IntoView {
    let ctx = ui.ctx;
    view! {
        <section class="panel" aria-labelledby="vacuum-run-title">
            <h2 id="vacuum-run-title">{ctx.t(keys::VACUUM_SECTION_RUN)}</h2>
            <ul>
                {Strategy::ALL
                    .into_iter()
                    .map(|s| view! {
                        <li>
                            <span aria-hidden="true" class="vacuum-swatch" style:border-top-style=if super::dash(s) == "none" { "solid" } else { "dashed" } style:border-top-color=super::color(s)></span>
                            <strong>{move || strategy_name(ctx.lang.get(), s)}</strong>
                            ": "
                            {move || tr(ctx.lang.get(), crate::labs::vacuum::rows::help_key(s))}
                        </li>
                    })
                    .collect_view()}
            </ul>
            <RunForm ui=ui/>
            <RunButtons ui=ui/>
            <p class="muted">{ctx.t(keys::VACUUM_VACUUM_HELP)}</p>
            <RunStatus ui=ui/>
            {ui.error_in("run")}
            <details>
                <summary>{ctx.t(keys::VACUUM_BATCH_TITLE)}</summary>
                <p>{ctx.t(keys::VACUUM_BATCH_DOES)}</p>
                <p>{ctx.t(keys::VACUUM_BATCH_DOES_NOT)}</p>
                <p>{ctx.rich(keys::VACUUM_CLOCK_NOTE)}</p>
                <p>{ctx.rich(keys::VACUUM_STATS_NOTE)}</p>
                <p>{ctx.t(keys::VACUUM_ROTATE_WHY_TRUNCATE)}</p>
            </details>
            <details id="vacuum-partition-more">
                <summary>{ctx.t(keys::VACUUM_PARTITION_TITLE)}</summary>
                <p>{ctx.t(keys::VACUUM_PARTITION_GIVES)}</p>
                <p>{ctx.rich(keys::VACUUM_PARTITION_COSTS)}</p>
                <p>{ctx.rich(keys::VACUUM_PARTITION_LOCK)}</p>
            </details>
        </section>
    }
}

/// Jobs, rounds, batch size, whether DELETE + VACUUM runs; refused input says its bounds.
#[component]
fn RunForm(ui: Ui) -> impl IntoView {
    let ctx = ui.ctx;
    let rounds = RwSignal::new(model::ROUNDS_DEFAULT.to_string());
    let batch = RwSignal::new(model::BATCH_DEFAULT.to_string());
    let include_dv = RwSignal::new(true);
    let problem = RwSignal::new(None::<Msg>);
    // A replayed link or a tour step: the form shows the settings of its last run.
    Effect::new(move |seen: Option<bool>| {
        let has = ui.harness.lab.with(|l| {
            l.as_ref().and_then(|l| {
                l.history.iter().rev().find_map(|a| match a {
                    Action::Run(c) => Some(c.clone()),
                    _ => None,
                })
            })
        });
        if seen != Some(true) {
            if let Some(c) = &has {
                ui.jobs.set(c.jobs.to_string());
                rounds.set(c.rounds.to_string());
                batch.set(c.batch.to_string());
                include_dv.set(c.strategies.contains(&Strategy::DeleteVacuum));
            }
        }
        seen == Some(true) || has.is_some()
    });
    let start = move || {
        let cfg = model::parse_config(
            &ui.jobs.get_untracked(),
            &rounds.get_untracked(),
            &batch.get_untracked(),
            model::strategies(include_dv.get_untracked()),
        );
        match cfg {
            Err(m) => problem.set(Some(m)),
            Ok(cfg) => {
                problem.set(None);
                let what = Msg::new(keys::RUNNER_WHAT_VACUUM_RUN)
                    .arg("rounds", cfg.rounds)
                    .arg("jobs", group(i64::from(cfg.jobs)));
                ui.act("run", Action::Run(cfg), Some(what));
            }
        }
    };
    let batch_note = move || {
        let b = model::parse_batch(&batch.get()).unwrap_or(model::BATCH_DEFAULT);
        render(
            ctx.lang.get(),
            &Msg::new(keys::VACUUM_BATCH).arg("batch", group(i64::from(b))),
        )
    };
    let run_help = Msg::new(keys::VACUUM_INPUT_RUN_HELP)
        .arg("jobs", group(i64::from(model::RUN_JOBS_MAX)))
        .arg("claims", model::RUN_CLAIMS_MAX);
    view! {
        <form class="row" on:submit=move |ev| { ev.prevent_default(); start(); }>
            <label>
                {ctx.t(keys::VACUUM_INPUT_JOBS)}
                <input id="vacuum-jobs" type="text" inputmode="numeric" size="7" aria-describedby="vacuum-jobs-help"
                    prop:value=ui.jobs on:input=move |ev| ui.jobs.set(event_target_value(&ev))/>
            </label>
            <label>
                {ctx.t(keys::VACUUM_INPUT_ROUNDS)}
                <input id="vacuum-rounds" type="text" inputmode="numeric" size="2" aria-describedby="vacuum-rounds-help"
                    prop:value=rounds on:input=move |ev| rounds.set(event_target_value(&ev))/>
            </label>
            <label>
                {ctx.t(keys::VACUUM_INPUT_BATCH)}
                <input id="vacuum-batch" type="text" inputmode="numeric" size="5" aria-describedby="vacuum-batch-help"
                    prop:value=batch on:input=move |ev| batch.set(event_target_value(&ev))/>
            </label>
            <label>
                <input id="vacuum-include-dv" type="checkbox" prop:checked=include_dv
                    on:change=move |ev| include_dv.set(event_target_checked(&ev))/>
                {ctx.t(keys::VACUUM_INPUT_INCLUDE_DV)}
            </label>
            <button type="submit" class="primary" id="vacuum-run" disabled=move || ui.busy.get()>
                {ctx.t(keys::VACUUM_BUTTON_RUN_ROUNDS)}
            </button>
        </form>
        <p class="muted" id="vacuum-jobs-help">
            <span>{ctx.t(keys::VACUUM_INPUT_JOBS_HELP)}</span> " "
            <span id="vacuum-rounds-help">{ctx.t(keys::VACUUM_INPUT_ROUNDS_HELP)}</span> " "
            <span id="vacuum-batch-help">{ctx.t(keys::VACUUM_INPUT_BATCH_HELP)}</span> " "
            <span id="vacuum-run-help">{move || render(ctx.lang.get(), &run_help)}</span>
        </p>
        <Show when=move || problem.with(Option::is_some)>
            <p class="field-error" role="alert" id="vacuum-input-error">
                {move || problem.get().map(|m| render(ctx.lang.get(), &m)).unwrap_or_default()}
            </p>
        </Show>
        <p class="muted">{batch_note}</p>
    }
}

/// Cancel (while a run goes on), VACUUM, Start over.
#[component]
fn RunButtons(ui: Ui) -> impl IntoView {
    let ctx = ui.ctx;
    let running = ui.part(|s| s.running.is_some());
    let no_records = ui.part(|s| s.state.records.is_empty());
    let cancel = move || {
        if let Some(runner) = ctx.runner_untracked() {
            runner.cancel(crate::labs::vacuum::ID);
        }
    };
    view! {
        <div class="row">
            <Show when=move || running.get()>
                <button type="button" class="danger" id="vacuum-cancel" on:click=move |_| cancel()>
                    {ctx.t(keys::VACUUM_BUTTON_CANCEL)}
                </button>
            </Show>
            <button type="button" id="vacuum-vacuum" disabled=move || ui.busy.get() || no_records.get()
                on:click=move |_| ui.act("run", Action::Vacuum, None)>
                {ctx.t(keys::VACUUM_BUTTON_VACUUM)}
            </button>
            <button type="button" id="vacuum-reset" disabled=move || ui.busy.get() on:click=move |_| ui.start_over()>
                {ctx.t(keys::VACUUM_BUTTON_RESET)}
            </button>
        </div>
    }
}

/// The run's progress, how it ended, and what VACUUM removed from each table.
#[component]
fn RunStatus(ui: Ui) -> impl IntoView {
    let ctx = ui.ctx;
    let running = ui.part(|s| s.running);
    let removed = ui.part(|s| s.state.removed.clone());
    let progress = move || {
        running.get().map(|r| {
            let text = move || {
                let lang = ctx.lang.get();
                render(
                    lang,
                    &Msg::new(keys::VACUUM_PROGRESS)
                        .arg("strategy", strategy_name(lang, r.at.strategy))
                        .arg("round", r.at.round)
                        .arg("rounds", r.last_round)
                        .arg("done", group(r.at.done as i64))
                        .arg("jobs", group(i64::from(r.jobs))),
                )
            };
            view! {
                <div class="vacuum-progress">
                    <label for="vacuum-progress-bar">{text}</label>
                    <progress id="vacuum-progress-bar" max=r.jobs.to_string() value=r.at.done.to_string()></progress>
                </div>
            }
        })
    };
    let notice = move || {
        super::said(ui.harness.last.get())
            .map(|m| view! { <p class="note" id="vacuum-notice">{ui.msg(m)}</p> })
    };
    let removed_list = move || {
        let done = removed.get();
        (!done.is_empty()).then(|| {
            view! {
                <ul class="note" id="vacuum-removed">
                    {done.into_iter().map(|r| {
                        let text = move || {
                            let lang = ctx.lang.get();
                            render(lang, &Msg::new(keys::VACUUM_VACUUM_REMOVED)
                                .arg("strategy", strategy_name(lang, r.strategy))
                                .arg("removed", group(r.removed))
                                .arg("dead", group(r.dead_before)))
                        };
                        view! { <li>{text}</li> }
                    }).collect_view()}
                </ul>
            }
        })
    };
    view! {
        <div aria-live="polite">
            {progress}
            {notice}
            {removed_list}
        </div>
    }
}
