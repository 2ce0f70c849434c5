//! L4's side by side panel: the rotation queue and the SKIP LOCKED queue under the same
//! load, without and with a long transaction, round by round.

use crate::ctx::use_ctx;
use crate::db::DbError;
use crate::keys;
use crate::labs::pgq::model::compare::{self, Report};
use crate::runner::{Scope, Work};
use crate::ui::console::ErrorBox;
use crate::ui::format::{bytes, group};
use crate::ui::i18n::{render, tr};
use crate::ui::table::{col_heads, ScrollTable};
use leptos::prelude::*;
use queue_lab_core::i18n::Key;
use queue_lab_core::i18n::Msg;

fn ms(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0} ms")
    } else {
        format!("{x:.1} ms")
    }
}

/// The run's reading in one or two sentences: how each side's time per call and dead tuples
/// moved from the first round to the last.
fn reading(r: &Report) -> Option<Msg> {
    let (first, last) = (r.rounds.first()?, r.rounds.last()?);
    if last.jobs.claims == 0 {
        return None;
    }
    let pinned = r.settings.is_some_and(|s| s.pinned);
    Some(
        Msg::new(if pinned {
            keys::PGQ_CMP_READING_PINNED
        } else {
            keys::PGQ_CMP_READING
        })
        .arg("claim_first", ms(first.jobs.ms_per_claim()))
        .arg("claim_last", ms(last.jobs.ms_per_claim()))
        .arg("receive_first", ms(first.pgq.ms_per_receive()))
        .arg("receive_last", ms(last.pgq.ms_per_receive()))
        .arg("pages_first", group(first.jobs.claim_pages))
        .arg("pages_last", group(last.jobs.claim_pages))
        .arg("dead_first", group(first.jobs.dead))
        .arg("dead_last", group(last.jobs.dead))
        .arg("pgq_dead", group(last.pgq.dead)),
    )
}

#[component]
pub fn Compare(disabled: Signal<bool>, on_done: Callback<()>) -> impl IntoView {
    let ctx = use_ctx();
    let events = RwSignal::new(group(compare::EVENTS.2));
    let rounds = RwSignal::new(compare::ROUNDS.2.to_string());
    let page = RwSignal::new(compare::PAGE.2.to_string());
    let pinned = RwSignal::new(false);
    let problem = RwSignal::new(None::<Msg>);
    let failed = RwSignal::new_local(None::<DbError>);
    // The last report of each kind: [without, with] the long transaction.
    let reports = RwSignal::new([None::<Report>, None::<Report>]);
    let running = RwSignal::new(false);
    // Which of the two the last run was.
    let last_slot = RwSignal::new(0usize);

    let start = move || {
        if disabled.get_untracked() {
            return;
        }
        let settings = compare::parse_settings(
            &events.get_untracked(),
            &rounds.get_untracked(),
            &page.get_untracked(),
            pinned.get_untracked(),
        );
        let s = match settings {
            Ok(s) => s,
            Err(m) => {
                problem.set(Some(m));
                return;
            }
        };
        problem.set(None);
        failed.set(None);
        let Some(runner) = ctx.runner_untracked() else {
            return;
        };
        let slot = usize::from(s.pinned);
        running.set(true);
        last_slot.set(slot);
        let what = Msg::new(keys::RUNNER_WHAT_COMPARE)
            .arg("events", group(i64::from(s.events)))
            .arg("rounds", s.rounds);
        runner.spawn(
            Scope::Lab(crate::labs::pgq::ID),
            Some(what),
            async move |w: &Work| {
                let progress = move |r: &Report| reports.update(|rs| rs[slot] = Some(r.clone()));
                let out = compare::run(w.db(), s, &w.cancel_flag(), &progress).await;
                // Written, never read: a page that is gone ignores it.
                let page_gone = running.try_set(false).is_some();
                if let Err(e) = out {
                    failed.set(Some(e));
                }
                if page_gone {
                    // Left mid-run: say so when the learner comes back.
                    return w.check();
                }
                on_done.run(());
                Ok(())
            },
        );
    };
    // Stopping the run cancels the lab's work, which the run checks between batches.
    let stop = move |_| {
        if let Some(runner) = ctx.runner_untracked() {
            runner.cancel(crate::labs::pgq::ID);
        }
    };
    let field = move |id: &'static str, label: Key, sig: RwSignal<String>, size: &'static str| {
        view! {
            <span class="inline-field">
                <label for=id>{ctx.t(label)}</label>
                <input id=id data-testid=id type="text" inputmode="numeric" size=size prop:value=sig
                    on:input=move |ev| sig.set(event_target_value(&ev))/>
            </span>
        }
    };

    let latest = move || reports.with(|r| r[last_slot.get()].clone());
    let state = move || {
        if running.get() {
            "running"
        } else if failed.with(Option::is_some) {
            "failed"
        } else if latest().is_some() {
            "done"
        } else {
            "idle"
        }
    };
    view! {
        <section class="panel" aria-labelledby="compare-title" id="pgq-compare-panel">
            <h2 id="compare-title">{ctx.t(keys::PGQ_CMP_TITLE)}</h2>
            <p class="muted">{ctx.rich(keys::PGQ_CMP_EXPLAIN)}</p>
            <form class="row" on:submit=move |ev| { ev.prevent_default(); start(); }>
                {field("pgq-compare-n", keys::PGQ_CMP_EVENTS, events, "7")}
                {field("pgq-compare-rounds", keys::PGQ_CMP_ROUNDS, rounds, "2")}
                {field("pgq-compare-page", keys::PGQ_CMP_PAGE, page, "5")}
                <label>
                    <input type="checkbox" id="pgq-compare-pin" data-testid="pgq-compare-pin" prop:checked=pinned
                        disabled=disabled on:change=move |ev| pinned.set(event_target_checked(&ev))/>
                    " " {ctx.t(keys::PGQ_CMP_PIN)}
                </label>
                <button type="submit" class="primary" id="pgq-compare-run" data-testid="pgq-compare-run" disabled=disabled>
                    {ctx.t(keys::PGQ_CMP_RUN)}
                </button>
                <Show when=move || running.get()>
                    <button type="button" class="small" id="pgq-compare-cancel" on:click=stop>{ctx.t(keys::PGQ_CMP_CANCEL)}</button>
                </Show>
            </form>
            {move || problem.get().map(|m| view! { <p class="field-error" role="alert">{render(ctx.lang.get(), &m)}</p> })}
            <p class="muted">{ctx.t(keys::PGQ_CMP_PAGE_NOTE)} " " {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_CMP_RUN_HELP).arg("max", compare::RUN_PAGES_MAX))}</p>
            {move || failed.get().map(|e| view! { <ErrorBox error=e/> })}
            <div id="pgq-compare" data-testid="pgq-compare" data-state=state
                data-total-ms=move || latest().map(|r| format!("{:.0}", r.total_ms))
                data-pgq-ms=move || latest().map(|r| format!("{:.0}", r.pgq_ms))
                data-jobs-ms=move || latest().map(|r| format!("{:.0}", r.jobs_ms))>
                {move || {
                    reports.get().into_iter().enumerate().filter_map(|(i, r)| r.map(|r| (i, r)))
                        .map(|(i, r)| view! { <ReportTable report=r pinned=i == 1 running=running/> })
                        .collect_view()
                }}
            </div>
            <h3>{ctx.t(keys::PGQ_CMP_REFERENCE_TITLE)}</h3>
            <ScrollTable id="pgq-compare-reference" head=move || view! {
                <th scope="col"></th>
                {col_heads(ctx, &[keys::PGQ_CMP_DEAD_TUPLES, keys::PGQ_CMP_DEQUEUE_RATE])}
            }>
                <tr><th scope="row">"SKIP LOCKED"</th><td class="mono">{ctx.t(keys::PGQ_CMP_REF_SKIP_DEAD)}</td><td class="mono">{ctx.t(keys::PGQ_CMP_REF_SKIP_RATE)}</td></tr>
                <tr><th scope="row">"PgQue"</th><td class="mono">"0"</td><td class="mono">{ctx.t(keys::PGQ_CMP_REF_PGQUE_RATE)}</td></tr>
            </ScrollTable>
            <p class="muted">{ctx.rich(keys::PGQ_CMP_REFERENCE_NOTE)}</p>
        </section>
    }
}

#[component]
fn ReportTable(report: Report, pinned: bool, running: RwSignal<bool>) -> impl IntoView {
    let ctx = use_ctx();
    let s = report.settings.unwrap_or_default();
    let caption = Msg::new(if pinned {
        keys::PGQ_CMP_CAPTION_PINNED
    } else {
        keys::PGQ_CMP_CAPTION
    })
    .arg("events", group(i64::from(s.events)))
    .arg("rounds", s.rounds)
    .arg("page", s.page);
    let reading = reading(&report);
    let done = report.total_ms > 0.0;
    let released = report.released.clone();
    let cancelled = report.cancelled;
    let chart = report.clone();
    view! {
        <div class="compare-report" data-pinned=pinned.to_string() data-done=done.to_string()>
            <div class="table-wrap" tabindex="0">
                <table class="compare">
                    <caption>{move || render(ctx.lang.get(), &caption)}</caption>
                    <thead>
                        <tr>
                            <th scope="col" rowspan="2">{ctx.t(keys::PGQ_CMP_ROUND)}</th>
                            <th scope="colgroup" colspan="4">{ctx.t(keys::PGQ_CMP_SIDE_PGQ)}</th>
                            <th scope="colgroup" colspan="4">{ctx.t(keys::PGQ_CMP_SIDE_JOBS)}</th>
                        </tr>
                        <tr>
                            {col_heads(ctx, &[keys::PGQ_CMP_DEAD_TUPLES, keys::PGQ_CMP_SIZE, keys::PGQ_CMP_PER_RECEIVE, keys::PGQ_CMP_ROTATION, keys::PGQ_CMP_DEAD_VACUUM, keys::PGQ_CMP_SIZE, keys::PGQ_CMP_PER_CLAIM, keys::PGQ_CMP_CLAIM_PAGES])}
                        </tr>
                    </thead>
                    <tbody>
                        {report.rounds.iter().map(|r| {
                            let p = r.pgq.clone();
                            let j = r.jobs.clone();
                            let jobs_done = j.claims > 0;
                            let rotation = match (p.truncated, p.waiting.clone()) {
                                (Some(n), _) => Msg::new(keys::PGQ_CMP_TRUNCATED).arg("count", group(n)),
                                (None, Some(_)) => Msg::new(keys::PGQ_CMP_HELD),
                                (None, None) => Msg::new(keys::PGQ_CMP_NO_ROTATION),
                            };
                            let why = p.waiting.clone();
                            let why = move || why.as_ref().map(|m| render(ctx.lang.get(), m)).unwrap_or_default();
                            view! {
                                <tr data-round=r.round.to_string()>
                                    <th scope="row" class="mono">{r.round}</th>
                                    <td class="mono" data-field="pgq-dead">{group(p.dead)}</td>
                                    <td class="mono" data-field="pgq-size">{bytes(p.bytes)}</td>
                                    <td class="mono" data-field="pgq-ms">{ms(p.ms_per_receive())}</td>
                                    <td title=why>{move || render(ctx.lang.get(), &rotation)}</td>
                                    {if jobs_done {
                                        view! {
                                            <td class="mono" data-field="jobs-dead" data-value=j.dead.to_string()>{format!("{} → {}", group(j.dead_before_vacuum), group(j.dead))}</td>
                                            <td class="mono" data-field="jobs-size">{bytes(j.bytes)}</td>
                                            <td class="mono" data-field="jobs-ms">{ms(j.ms_per_claim())}</td>
                                            <td class="mono" data-field="jobs-pages" data-value=j.claim_pages.to_string()>{format!("{} ({})", group(j.claim_pages), ms(j.claim_plan_ms))}</td>
                                        }.into_any()
                                    } else {
                                        view! { <td colspan="4" class="muted">{ctx.t(keys::PGQ_CMP_PENDING)}</td> }.into_any()
                                    }}
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <CallChart report=chart/>
            {released.map(|r| view! {
                <p class="note good" data-field="released">{move || render(ctx.lang.get(), &Msg::new(keys::PGQ_CMP_RELEASED)
                    .arg("dead", group(r.jobs_dead)).arg("jobs_size", bytes(r.jobs_bytes))
                    .arg("truncated", group(r.truncated)).arg("pgq_size", bytes(r.pgq_bytes)))}</p>
            })}
            {(done && !cancelled).then(|| reading.map(|m| view! {
                <p class="note" data-field="reading">{move || render(ctx.lang.get(), &m)}</p>
            }))}
            {cancelled.then(|| view! { <p class="note bad">{ctx.t(keys::PGQ_CMP_CANCELLED)}</p> })}
            <p class="muted" data-field="times">{move || {
                if !done && running.get() {
                    tr(ctx.lang.get(), keys::PGQ_CMP_RUNNING)
                } else {
                    render(ctx.lang.get(), &Msg::new(keys::PGQ_CMP_TIMES)
                        .arg("pgq", format!("{:.1} s", report.pgq_ms / 1000.0))
                        .arg("jobs", format!("{:.1} s", report.jobs_ms / 1000.0))
                        .arg("total", format!("{:.1} s", report.total_ms / 1000.0)))
                }
            }}</p>
        </div>
    }
}

/// Time per call, round by round: a claim of the SKIP LOCKED queue beside a receive of the
/// rotation queue (both fetch one page of events).
#[component]
fn CallChart(report: Report) -> impl IntoView {
    let ctx = use_ctx();
    let rounds: Vec<(u32, f64, f64)> = report
        .rounds
        .iter()
        .filter(|r| r.jobs.claims > 0)
        .map(|r| (r.round, r.pgq.ms_per_receive(), r.jobs.ms_per_claim()))
        .collect();
    if rounds.is_empty() {
        return None;
    }
    let top = rounds.iter().map(|r| r.1.max(r.2)).fold(1.0_f64, f64::max);
    let (w, h, pad) = (320.0, 120.0, 18.0);
    let slot = (w - pad) / rounds.len() as f64;
    let bar = (slot / 3.0).min(36.0);
    let y = move |v: f64| (h - pad) * (1.0 - v / top);
    let bars = rounds
        .iter()
        .enumerate()
        .map(|(i, &(round, recv, claim))| {
            let x = pad + slot * i as f64 + (slot - 2.0 * bar) / 2.0;
            view! {
                <rect class="bar-pgq" x=x y=y(recv) width=bar height=(h - pad - y(recv)).max(0.5)/>
                <rect class="bar-jobs" x=x + bar y=y(claim) width=bar height=(h - pad - y(claim)).max(0.5)/>
                <text x=x + bar y=h - 4.0 text-anchor="middle" class="axis">{round}</text>
            }
        })
        .collect_view();
    Some(view! {
        <figure class="compare-chart">
            <svg viewBox=format!("0 0 {w} {h}") width="100%" role="img" aria-label=move || tr(ctx.lang.get(), keys::PGQ_CMP_CHART)>
                <line x1=pad y1=h - pad x2=w y2=h - pad class="axis-line"/>
                <text x="0" y="10" class="axis">{ms(top)}</text>
                {bars}
            </svg>
            <figcaption class="muted">
                <span class="key key-pgq"></span> {ctx.t(keys::PGQ_CMP_PER_RECEIVE)} " · "
                <span class="key key-jobs"></span> {ctx.t(keys::PGQ_CMP_PER_CLAIM)}
            </figcaption>
        </figure>
    })
}
