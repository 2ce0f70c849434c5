//! L1's panels for the lessons the other controls do not reach: §1's dual write with a
//! simulated broker, §4's idempotency key, §5's notification queue usage.

use super::Ui;
use crate::ctx::use_ctx;
use crate::keys;
use crate::labs::jobs::model::{self, Action, Verdict, WorkerId};
use crate::ui::format::{group, ms};
use crate::ui::i18n::render;
use crate::ui::panel::{Panel, SqlShown};
use crate::ui::table::ScrollTable;
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

/// §1: the dual write's two failures, and every order the lab wrote checked by SQL.
#[component]
pub fn DualWrite(ui: Ui) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    let broker = move || ui.read(|l| l.broker.clone());
    let used = move || ui.read(|l| l.dual_write_used);
    let verdict_key = |v: Verdict| match v {
        Verdict::Consistent => keys::JOBS_DUAL_V_CONSISTENT,
        Verdict::Neither => keys::JOBS_DUAL_V_NEITHER,
        Verdict::Lost => keys::JOBS_DUAL_V_LOST,
        Verdict::Ghost => keys::JOBS_DUAL_V_GHOST,
        Verdict::Duplicate => keys::JOBS_DUAL_V_DUPLICATE,
    };
    view! {
        <Panel heading_id="dual-title" heading=keys::JOBS_DUAL_TITLE id="dual-write">
            <p class="note">{ctx.t(keys::JOBS_DUAL_NOTE)}</p>
            <div class="row">
                <button type="button" id="dual-lost" disabled=disabled on:click=move |_| ui.act.run(Action::DualWriteLost)>
                    {ctx.t(keys::JOBS_DUAL_LOST)}
                </button>
                <button type="button" id="dual-ghost" disabled=disabled on:click=move |_| ui.act.run(Action::DualWriteGhost)>
                    {ctx.t(keys::JOBS_DUAL_GHOST)}
                </button>
            </div>
            <h3>{move || render(ctx.lang.get(), &Msg::new(keys::JOBS_DUAL_BROKER).arg("n", broker().len()))}</h3>
            <ul class="deliveries" id="broker">
                {move || broker().into_iter().map(|order| view! {
                    <li translate="no"><code>{format!(r#"{{"kind": "receipt_email", "order_id": {order}}}"#)}</code></li>
                }).collect_view()}
            </ul>
            <Show when=used fallback=move || view! { <p class="muted">{ctx.t(keys::JOBS_DUAL_NONE)}</p> }>
                <h3>{ctx.t(keys::JOBS_DUAL_CHECK)}</h3>
                <ScrollTable id="dual-check" head=move || view! {
                    <th scope="col" translate="no">"order_id"</th>
                    <th scope="col" translate="no">"order_exists"</th>
                    <th scope="col" translate="no">"in_broker"</th>
                    <th scope="col" translate="no">"in_jobs"</th>
                    <th scope="col">{ctx.t(keys::JOBS_DUAL_VERDICT)}</th>
                }>
                    <For each=move || ui.snap.with(|s| s.reconciled.clone()) key=|r| (r.order_id, r.order_exists, r.in_broker, r.in_jobs) let:r>
                        {
                            let v = r.verdict();
                            let bad = matches!(v, Verdict::Lost | Verdict::Ghost | Verdict::Duplicate);
                            view! {
                                <tr data-order=r.order_id.to_string() data-verdict=format!("{v:?}").to_lowercase() class:bad=bad>
                                    <td class="mono">{r.order_id}</td>
                                    <td class="mono">{r.order_exists.to_string()}</td>
                                    <td class="mono">{r.in_broker}</td>
                                    <td class="mono">{r.in_jobs}</td>
                                    <td>{ctx.t(verdict_key(v))}</td>
                                </tr>
                            }
                        }
                    </For>
                </ScrollTable>
            </Show>
            <SqlShown summary=keys::JOBS_DUAL_SQL statements=&[model::BROKER_CHECK_SQL]/>
        </Panel>
    }
}

/// §4: each worker applies its job's effect under the job's idempotency key.
#[component]
pub fn Idempotency(ui: Ui) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    let can = move |w: WorkerId| {
        ui.lab.with(|l| {
            l.as_ref()
                .is_some_and(|l| l.worker(w).alive && l.worker(w).holding.is_some())
        })
    };
    let button = move |w: WorkerId| {
        let letter = w.letter();
        view! {
            <button type="button" class="small" id=format!("effect-{letter}") data-act="effect"
                disabled=move || disabled.get() || !can(w) on:click=move |_| ui.act.run(Action::Effect(w))>
                {move || render(ctx.lang.get(), &Msg::new(keys::JOBS_IDEM_APPLY).arg("w", letter))}
            </button>
        }
    };
    view! {
        <Panel heading_id="idem-title" heading=keys::JOBS_IDEM_TITLE id="idempotency">
            <p class="note">{ctx.rich(keys::JOBS_IDEM_NOTE)}</p>
            <div class="row">{WorkerId::ALL.into_iter().map(button).collect_view()}</div>
            <h3>{ctx.rich(keys::JOBS_IDEM_TABLE)}</h3>
            <Show when=move || ui.snap.with(|s| !s.effects.is_empty()) fallback=move || view! { <p class="muted">{ctx.t(keys::JOBS_IDEM_NONE)}</p> }>
                <ScrollTable id="effects-table" head=move || view! {
                    <th scope="col" translate="no">"idempotency_key"</th>
                    <th scope="col" translate="no">"job_id"</th>
                    <th scope="col" translate="no">"worker"</th>
                    <th scope="col" translate="no">"attempt"</th>
                    <th scope="col" translate="no">"applied_at"</th>
                }>
                    <For each=move || ui.snap.with(|s| s.effects.clone()) key=|e| format!("{e:?}") let:e>
                        <tr data-key=e.idempotency_key.clone()>
                            <td class="mono" translate="no">{e.idempotency_key.clone()}</td>
                            <td class="mono">{e.job_id}</td>
                            <td class="mono">{e.worker.clone()}</td>
                            <td class="mono">{e.attempt}</td>
                            <td class="mono">{crate::clock::time_of_day(&e.applied_at).to_owned()}</td>
                        </tr>
                    </For>
                </ScrollTable>
            </Show>
            <SqlShown summary=keys::JOBS_IDEM_SQL statements=&[model::EFFECT_APPLY_SQL]/>
        </Panel>
    }
}

/// §5: a burst of NOTIFYs while the listening session is busy, and the queue's usage.
#[component]
pub fn NotifyQueue(ui: Ui) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    let count = RwSignal::new("1000".to_string());
    let problem = RwSignal::new(None::<Msg>);
    let (min, max) = model::BURST_RANGE;
    let send = move || match count.get_untracked().trim().parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => {
            problem.set(None);
            ui.act.run(Action::NotifyBurst(n));
        }
        Ok(n) => problem.set(Some(
            Msg::new(keys::JOBS_ERR_RANGE)
                .arg("min", min)
                .arg("max", max)
                .arg("n", n),
        )),
        Err(_) => problem.set(Some(
            Msg::new(keys::JOBS_ERR_NUMBER).arg("text", count.get_untracked()),
        )),
    };
    // A memo: the result is drawn again when a burst changes it, not at every action.
    let burst = Memo::new(move |_| ui.read(|l| l.burst.clone()));
    let burst = move || burst.get();
    view! {
        <Panel heading_id="nq-title" heading=keys::JOBS_NQ_TITLE id="notify-queue">
            <p class="note">{ctx.t(keys::JOBS_NQ_NOTE)}</p>
            <form class="row" on:submit=move |ev| { ev.prevent_default(); send(); }>
                <label for="burst-count">{ctx.t(keys::JOBS_NQ_COUNT)}</label>
                <input id="burst-count" type="text" inputmode="numeric" size="6" prop:value=count on:input=move |ev| count.set(event_target_value(&ev))/>
                <button type="submit" id="burst-send" disabled=disabled>{ctx.t(keys::JOBS_NQ_SEND)}</button>
            </form>
            {move || problem.get().map(|m| view! { <p class="field-error" role="alert" id="err-burst">{render(ctx.lang.get(), &m)}</p> })}
            {move || match burst() {
                None => view! { <p class="muted" id="burst-result">{ctx.t(keys::JOBS_NQ_NONE)}</p> }.into_any(),
                Some(b) => {
                    let measured = Msg::new(keys::JOBS_NQ_MEASURED)
                        .arg("n", group(b.n))
                        .arg("bytes", group(b.bytes as i64))
                        .arg("ms", ms(b.elapsed_ms))
                        .arg("before", model::percent(b.before))
                        .arg("during", model::percent(b.during))
                        .arg("pages", group(b.pages(b.during) - b.pages(b.before)))
                        .arg("idle", model::percent(b.idle));
                    let limit = Msg::new(keys::JOBS_NQ_LIMIT)
                        .arg("pages", group(b.max_pages))
                        .arg("page", group(b.page_bytes))
                        .arg("max", model::size(b.max_pages * b.page_bytes));
                    view! {
                        <p class="note" id="burst-result">{move || render(ctx.lang.get(), &measured)}</p>
                        <p class="muted" id="burst-limit">{move || render(ctx.lang.get(), &limit)}</p>
                    }.into_any()
                }
            }}
            <SqlShown summary=keys::JOBS_NQ_SQL statements=&[model::NOTIFY_BURST_PROC_SQL, model::NOTIFY_BURST_SQL, model::NOTIFY_QUEUE_SQL]/>
        </Panel>
    }
}
