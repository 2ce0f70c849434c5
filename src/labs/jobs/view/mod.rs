//! L1's page: producers, workers A/B/C, LISTEN/NOTIFY, the jobs and orders tables, a
//! guided tour of the article's scenarios, the SQL log and console.

mod lessons;
mod lifecycle;
mod states;

use super::model::{self, Action, EnqueueInput, Lab, Snapshot, WorkerId};
use super::tour::TOUR;
use crate::ctx::use_ctx;
use crate::keys;
use crate::labs::challenge::Challenges;
use crate::labs::frame::{LabFrame, SplitColumns};
use crate::labs::guide::Guide;
use crate::labs::harness::LastOutcome;
use crate::ui::i18n::{render, tr};
use crate::ui::panel::{act_button, Panel, SqlShown};
use crate::ui::reveal::{head_height, reveal_within};
use crate::ui::sql_log::LastActionSql;
use crate::ui::table::ScrollTable;
use leptos::prelude::*;
use lessons::{DualWrite, Idempotency, NotifyQueue};
use lifecycle::{deliveries, CompleteMode, DeadAlerts, DeadCount};
use queue_lab_core::i18n::{Key, Msg};
use states::JobStates;

/// What the lab's panels read and call: its state, its snapshot, its actions, and whether
/// they are disabled while work runs.
#[derive(Clone, Copy)]
struct Ui {
    lab: RwSignal<Option<Lab>, LocalStorage>,
    snap: RwSignal<Snapshot>,
    act: Callback<Action>,
    disabled: Signal<bool>,
}

impl Ui {
    /// `read` of the lab's state, tracked; the default before the lab is set up.
    fn read<T: Default>(self, read: impl FnOnce(&Lab) -> T) -> T {
        self.lab.with(|l| l.as_ref().map(read).unwrap_or_default())
    }
}

#[component]
pub fn JobsLab() -> impl IntoView {
    let ctx = use_ctx();
    let (guide, harness) = Guide::<Lab>::start(ctx, &TOUR, crate::labs::jobs::share::decode);
    let challenges = Challenges::new(ctx, harness, &crate::labs::jobs::challenges::CHALLENGES);
    let (lab, snap, last) = (harness.lab, harness.snap, harness.last);
    // Memos: the jobs table's rows read these, and only rows whose answer changes redraw.
    let touched =
        Memo::new(move |_| lab.with(|l| l.as_ref().map(|l| l.touched.clone()).unwrap_or_default()));
    let act = move |a: Action| harness.run(vec![a], false, None);
    let busy = Signal::derive(move || harness.busy());
    let working = Signal::derive(move || harness.working());

    let disabled = move || busy.get();
    let ui = Ui {
        lab,
        snap,
        act: Callback::new(act),
        disabled: Signal::derive(disabled),
    };

    view! {
        <LabFrame harness=harness guide=guide slug="jobs" title=keys::LAB_JOBS_TITLE tour_title=keys::JOBS_TOUR_TITLE
            intro=move || view! { <p class="lead">{ctx.t(keys::JOBS_INTRO)}</p> }
            waiting=move || view! { <p class="muted">{ctx.t(keys::JOBS_NEEDS_POSTGRES)}</p> }
            share=|l| crate::labs::jobs::share::encode(&l.history)
            reset=keys::JOBS_RESET challenges=challenges
            console="select id, status, attempts, run_at, locked_until from jobs;">
            // On a wide screen two columns: what you press on the left, and, kept in
            // view beside it, the table the action changed and the SQL it ran.
            <SplitColumns
                now=Signal::derive(move || snap.with(|s| s.now.clone()))
                on_advance=Callback::new(move |s| act(Action::Advance(s)))
                busy=Signal::derive(disabled)
                status=move || view! { <LastOutcome last=last/> <DeadCount snap=snap/> }
                watch=move || view! {
                    <LastActionSql entries=ctx.log busy=working/>
                    <JobsTable ui=ui touched=touched/>
                }>
                <div class="lab-grid">
                    <Producers act=Callback::new(act) disabled=Signal::derive(disabled)/>
                    <Notify ui=ui/>
                </div>
                <DualWrite ui=ui/>
                <NotifyQueue ui=ui/>
                <Workers ui=ui/>
                <Idempotency ui=ui/>
                <CompleteMode ui=ui/>
                <DeadAlerts lab=lab/>
                <PerKey ui=ui/>
            </SplitColumns>
            // Below the two columns: beside them it pushed the changed row and the
            // statement out of the watched column at 1280 × 800.
            <JobStates lab=lab snap=snap last=last/>
            <AtLeastOnce lab=lab/>
            <OrdersTable snap=snap/>
            <ClaimQuery/>
        </LabFrame>
    }
}

#[component]
fn Producers(act: Callback<Action>, disabled: Signal<bool>) -> impl IntoView {
    let ctx = use_ctx();
    let queue = RwSignal::new("default".to_string());
    let payload =
        RwSignal::new(r#"{"kind": "receipt_email", "to": "kim@example.com"}"#.to_string());
    let priority = RwSignal::new("0".to_string());
    let delay = RwSignal::new("0".to_string());
    let max_attempts = RwSignal::new("5".to_string());
    let problems = RwSignal::new(Vec::<(&'static str, Msg)>::new());
    let submit = move || match EnqueueInput::parse(
        &queue.get_untracked(),
        &payload.get_untracked(),
        &priority.get_untracked(),
        &delay.get_untracked(),
        &max_attempts.get_untracked(),
    ) {
        Ok(input) => {
            problems.set(Vec::new());
            act.run(Action::Enqueue(input));
        }
        Err(p) => problems.set(p),
    };
    let field_error = move |field: &'static str| {
        move || {
            problems.with(|p| p.iter().find(|(f, _)| *f == field).map(|(_, m)| render(ctx.lang.get(), m))).map(|text| {
                view! { <span class="field-error" role="alert" id=format!("err-{field}")>{text}</span> }
            })
        }
    };
    let input = move |id: &'static str, label: Key, sig: RwSignal<String>, mode: &'static str| {
        view! {
            <div class="field">
                <label for=id>{ctx.t(label)}</label>
                <input id=id type="text" inputmode=mode prop:value=sig on:input=move |ev| sig.set(event_target_value(&ev))/>
                {field_error(id.trim_start_matches("enq-"))}
            </div>
        }
    };
    view! {
        <Panel heading_id="producers-title" heading=keys::JOBS_PRODUCERS>
            <div class="row">
                {act_button("order-commit", keys::JOBS_ORDER_COMMIT, true, disabled, move || act.run(Action::OrderWithJob))}
                {act_button("order-rollback", keys::JOBS_ORDER_ROLLBACK, false, disabled, move || act.run(Action::OrderWithJobFails))}
            </div>
            <form class="enqueue-form" on:submit=move |ev| { ev.prevent_default(); submit(); }>
                <div class="field wide">
                    <label for="enq-payload">{ctx.t(keys::JOBS_PAYLOAD)}</label>
                    <textarea id="enq-payload" rows="2" prop:value=payload on:input=move |ev| payload.set(event_target_value(&ev))></textarea>
                    {field_error("payload")}
                </div>
                <div class="fields">
                    {input("enq-queue", keys::JOBS_QUEUE, queue, "text")}
                    {input("enq-priority", keys::JOBS_PRIORITY, priority, "numeric")}
                    {input("enq-delay", keys::JOBS_DELAY, delay, "numeric")}
                    {input("enq-max_attempts", keys::JOBS_MAX_ATTEMPTS, max_attempts, "numeric")}
                </div>
                <button type="submit" id="enqueue" disabled=disabled>{ctx.t(keys::JOBS_ENQUEUE)}</button>
            </form>
        </Panel>
    }
}

#[component]
fn Notify(ui: Ui) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    let bytes = RwSignal::new("8000".to_string());
    let problem = RwSignal::new(None::<Msg>);
    let connected = move || ui.read(|l| l.connected);
    let delivered = move || {
        ui.read(|l| {
            l.delivered
                .iter()
                .rev()
                .take(6)
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let lost = move || ui.read(|l| l.lost.len());
    let send = move || match bytes.get_untracked().trim().parse::<usize>() {
        Ok(n) if n <= 100_000 => {
            problem.set(None);
            ui.act.run(Action::NotifyBytes(n));
        }
        Ok(n) => problem.set(Some(
            Msg::new(keys::JOBS_ERR_RANGE)
                .arg("min", 0)
                .arg("max", 100_000)
                .arg("n", n),
        )),
        Err(_) => problem.set(Some(
            Msg::new(keys::JOBS_ERR_NUMBER).arg("text", bytes.get_untracked()),
        )),
    };
    view! {
        <section class="panel" aria-labelledby="notify-title">
            <h2 id="notify-title">"LISTEN / NOTIFY"</h2>
            <p id="listen-state">
                {move || if connected() { ctx.t(keys::JOBS_LISTENING)() } else { ctx.t(keys::JOBS_DISCONNECTED)() }}
            </p>
            <div class="row">
                <Show when=connected fallback=move || view! {
                    <button type="button" id="reconnect" disabled=disabled on:click=move |_| ui.act.run(Action::Reconnect)>{ctx.t(keys::JOBS_RECONNECT)}</button>
                }>
                    <button type="button" id="disconnect" disabled=disabled on:click=move |_| ui.act.run(Action::Disconnect)>{ctx.t(keys::JOBS_DISCONNECT)}</button>
                </Show>
            </div>
            <p class="muted">{ctx.t(keys::JOBS_NOTIFY_EXPLAIN)}</p>
            <h3>{ctx.t(keys::JOBS_DELIVERED)}</h3>
            {deliveries("deliveries", delivered, |(at, payload)| {
                let short = if payload.len() > 24 { format!("{}… ({} B)", &payload[..12], payload.len()) } else { payload };
                view! { <li><code>{crate::clock::time_of_day(&at).to_owned()}</code> " NOTIFY jobs, '" {short} "'"</li> }.into_any()
            })}
            <Show when=move || { lost() > 0 }>
                <p class="note bad" id="lost">{move || render(ctx.lang.get(), &Msg::new(keys::JOBS_LOST).arg("n", lost()))}</p>
            </Show>
            <form class="row" on:submit=move |ev| { ev.prevent_default(); send(); }>
                <label for="notify-bytes">{ctx.t(keys::JOBS_NOTIFY_BYTES)}</label>
                <input id="notify-bytes" type="text" inputmode="numeric" size="7" prop:value=bytes on:input=move |ev| bytes.set(event_target_value(&ev))/>
                <button type="submit" id="notify-send" disabled=disabled>{ctx.t(keys::JOBS_NOTIFY_SEND)}</button>
            </form>
            {move || problem.get().map(|m| view! { <p class="field-error" role="alert">{render(ctx.lang.get(), &m)}</p> })}
        </section>
    }
}

#[component]
fn Workers(ui: Ui) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    let card = move |w: WorkerId| {
        let worker = move || ui.read(|l| l.worker(w).clone());
        let alive = move || worker().alive;
        let state = move || {
            let wk = worker();
            let lang = ctx.lang.get();
            let msg = match (wk.alive, wk.holding, wk.woken_by) {
                (false, Some(c), _) => Msg::new(keys::JOBS_W_DEAD_HOLDING)
                    .arg("job", c.job)
                    .arg("attempt", c.attempt),
                (false, None, _) => Msg::new(keys::JOBS_W_DEAD),
                (true, Some(c), _) => {
                    let lease = ui.snap.with(|s| {
                        s.jobs
                            .iter()
                            .find(|j| j.id == c.job && j.attempts == c.attempt)
                            .and_then(|j| j.locked_until.clone())
                    });
                    match lease {
                        Some(until) => Msg::new(keys::JOBS_W_WORKING)
                            .arg("job", c.job)
                            .arg("attempt", c.attempt)
                            .arg("until", crate::clock::time_of_day(&until)),
                        None => Msg::new(keys::JOBS_W_WORKING_LOST)
                            .arg("job", c.job)
                            .arg("attempt", c.attempt),
                    }
                }
                (true, None, Some(p)) => Msg::new(keys::JOBS_W_WOKEN).arg("payload", p),
                (true, None, None) => Msg::new(keys::JOBS_W_IDLE),
            };
            render(lang, &msg)
        };
        let letter = w.letter();
        view! {
            <article class="worker" class:dead=move || !alive() id=format!("worker-{letter}") aria-label=move || format!("{} {letter}", tr(ctx.lang.get(), keys::JOBS_WORKER))>
                <h3><span>{ctx.t(keys::JOBS_WORKER)} " " {letter.to_string()}</span></h3>
                <p class="state" class:woken=move || worker().woken_by.is_some() && worker().alive>{state}</p>
                <div class="row">
                    <button type="button" class="small" data-act="claim" disabled=move || disabled.get() || !alive() on:click=move |_| ui.act.run(Action::Claim(w))>{ctx.t(keys::JOBS_CLAIM)}</button>
                    <button type="button" class="small" data-act="complete" disabled=move || disabled.get() || worker().holding.is_none() on:click=move |_| ui.act.run(Action::Complete(w))>
                        {move || if alive() { ctx.t(keys::JOBS_COMPLETE)() } else { ctx.t(keys::JOBS_LATE_COMPLETE)() }}
                    </button>
                    <button type="button" class="small" data-act="fail" disabled=move || disabled.get() || !alive() || worker().holding.is_none() on:click=move |_| ui.act.run(Action::Fail(w))>{ctx.t(keys::JOBS_FAIL)}</button>
                    <button type="button" class="small" data-act="heartbeat" disabled=move || disabled.get() || !alive() || worker().holding.is_none() on:click=move |_| ui.act.run(Action::Heartbeat(w))>{ctx.t(keys::JOBS_HEARTBEAT)}</button>
                    <button type="button" class="small danger" data-act="die" disabled=move || disabled.get() || !alive() on:click=move |_| ui.act.run(Action::Die(w))>{ctx.t(keys::JOBS_DIE)}</button>
                </div>
            </article>
        }
    };
    view! {
        <Panel heading_id="workers-title" heading=keys::JOBS_WORKERS>
            <p class="muted">{ctx.t(keys::JOBS_WORKERS_EXPLAIN)}</p>
            <div class="workers">{WorkerId::ALL.into_iter().map(card).collect_view()}</div>
        </Panel>
    }
}

#[component]
fn JobsTable(ui: Ui, touched: Memo<Vec<i64>>) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    // Which worker holds which claim (job, attempt): changes only on claim, finish or death.
    let holdings = Memo::new(move |_| {
        ui.lab.with(|l| {
            l.as_ref()
                .map(|l| {
                    WorkerId::ALL
                        .into_iter()
                        .filter_map(|w| l.worker(w).holding.map(|c| (c.job, c.attempt, w)))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let holder = move |id: i64, attempts: i32| {
        holdings.with(|h| {
            h.iter()
                .filter(|(job, attempt, _)| *job == id && *attempt == attempts)
                .map(|(_, _, w)| w.letter().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        })
    };
    let counts = move || {
        let c = ui.snap.with(|s| s.counts.clone());
        render(
            ctx.lang.get(),
            &Msg::new(keys::JOBS_COUNTS)
                .arg("total", c.total)
                .arg("ready", c.ready)
                .arg("running", c.running)
                .arg("done", c.done)
                .arg("dead", c.dead),
        )
    };
    // After each action, the changed row is scrolled into the table's own view (the table
    // scrolls by itself where the page is laid out in two columns; the page never moves).
    let wrap = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        touched.track();
        ui.snap.track();
        request_animation_frame(move || {
            // The page may be gone by the next frame (a restart unmounts it).
            let Some(Some(wrap)) = wrap.try_get_untracked() else {
                return;
            };
            if let Ok(Some(row)) = wrap.query_selector("tr.changed") {
                reveal_within(&wrap, &row, head_height(&wrap));
            }
        });
    });
    view! {
        <Panel heading_id="jobs-title" heading=keys::JOBS_TABLE>
            <p class="muted" id="job-counts">{counts}</p>
            <Show when=move || ui.snap.with(|s| s.counts.total > model::LIST_LIMIT)>
                <p class="muted" id="jobs-shown">
                    {move || render(ctx.lang.get(), &Msg::new(keys::JOBS_SHOWN).arg("shown", model::LIST_LIMIT).arg("total", ui.snap.with(|s| s.counts.total)))}
                </p>
            </Show>
            <div class="table-wrap jobs-wrap" tabindex="0" node_ref=wrap>
                <table class="jobs" id="jobs-table">
                    <thead>
                        <tr>
                            <th scope="col" translate="no">"id"</th>
                            <th scope="col" translate="no">"status"</th>
                            <th scope="col" translate="no">"priority"</th>
                            <th scope="col" translate="no">"attempts"</th>
                            <th scope="col" translate="no">"run_at"</th>
                            <th scope="col" translate="no">"locked_until"</th>
                            <th scope="col">{ctx.t(keys::JOBS_HELD_BY)}</th>
                            <th scope="col" translate="no">"last_error"</th>
                            <th scope="col" translate="no">"payload"</th>
                            <th scope="col"><span class="visually-hidden">{ctx.t(keys::JOBS_REQUEUE)}</span></th>
                        </tr>
                    </thead>
                    <tbody>
                        // Keyed by everything a row shows: a lab rebuilt (a tour step, Reset, a
                        // share link) makes job 1 again with other values, and a row kept by a
                        // shorter key would go on showing the old job's priority or payload.
                        <For each=move || ui.snap.with(|s| s.jobs.clone()) key=job_key let:job>
                            {
                                let id = job.id;
                                let status = job.status.clone();
                                let dead = status == "dead";
                                let changed = Memo::new(move |_| touched.with(|t| t.contains(&id)));
                                let changed = move || changed.get();
                                let attempts = job.attempts;
                                let held = Memo::new(move |_| holder(id, attempts));
                                view! {
                                    <tr class:changed=changed class:claimable=job.claimable data-job=id.to_string() data-status=status.clone()>
                                        <td class="mono">{id}</td>
                                        <td><span class=format!("status {status}")>{status.clone()}</span></td>
                                        <td class="mono">{job.priority}</td>
                                        <td class="mono">{format!("{}/{}", job.attempts, job.max_attempts)}</td>
                                        <td class="mono">{crate::clock::time_of_day(&job.run_at).to_owned()}</td>
                                        <td class="mono">{job.locked_until.as_deref().map(|t| crate::clock::time_of_day(t).to_owned()).unwrap_or_default()}</td>
                                        <td>{move || held.get()}</td>
                                        <td class="payload" translate="no">{job.last_error.clone().unwrap_or_default()}</td>
                                        <td class="payload" translate="no">{job.payload.clone()}</td>
                                        <td>
                                            <Show when=move || dead>
                                                <button type="button" class="small" data-act="requeue" disabled=disabled on:click=move |_| ui.act.run(Action::Requeue(id))>
                                                    {ctx.t(keys::JOBS_REQUEUE)}
                                                </button>
                                            </Show>
                                        </td>
                                    </tr>
                                }
                            }
                        </For>
                    </tbody>
                </table>
            </div>
            <p class="muted">{ctx.t(keys::JOBS_TABLE_EXPLAIN)}</p>
        </Panel>
    }
}

#[component]
fn AtLeastOnce(lab: RwSignal<Option<Lab>, LocalStorage>) -> impl IntoView {
    let ctx = use_ctx();
    // A memo: the list is drawn again when it changes, not at every action.
    let twice = Memo::new(move |_| {
        lab.with(|l| l.as_ref().map(Lab::ran_more_than_once).unwrap_or_default())
    });
    let twice = move || twice.get();
    view! {
        <Panel heading_id="twice-title" heading=keys::JOBS_TWICE_TITLE>
            <ul id="ran-twice">
                {move || {
                    let t = twice();
                    if t.is_empty() {
                        view! { <li class="muted">{ctx.t(keys::JOBS_TWICE_NONE)}</li> }.into_any()
                    } else {
                        t.into_iter()
                            .map(|(id, runs)| {
                                let runs = runs.clone();
                                let who = move || {
                                    let l = ctx.lang.get();
                                    runs.iter()
                                        .map(|(w, a)| render(l, &Msg::new(keys::JOBS_TWICE_RUN).arg("worker", w.letter()).arg("attempt", a)))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                };
                                view! { <li>{move || render(ctx.lang.get(), &Msg::new(keys::JOBS_TWICE_ROW).arg("job", id).arg("runs", who()))}</li> }
                            })
                            .collect_view()
                            .into_any()
                    }
                }}
            </ul>
            <p class="note">{ctx.t(keys::JOBS_IDEMPOTENCY)}</p>
        </Panel>
    }
}

#[component]
fn OrdersTable(snap: RwSignal<Snapshot>) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <Panel heading_id="orders-title" heading=keys::JOBS_ORDERS>
            <ScrollTable id="orders-table" head=|| view! {
                <th scope="col" translate="no">"id"</th>
                <th scope="col" translate="no">"customer"</th>
                <th scope="col" translate="no">"total"</th>
                <th scope="col" translate="no">"created"</th>
            }>
                <For each=move || snap.with(|s| s.orders.clone()) key=|o| (o.id, o.customer.clone(), o.total.clone(), o.created.clone()) let:o>
                    <tr data-order=o.id.to_string()>
                        <td class="mono">{o.id}</td>
                        <td translate="no">{o.customer.clone()}</td>
                        <td class="mono">{o.total.clone()}</td>
                        <td class="mono">{crate::clock::time_of_day(&o.created).to_owned()}</td>
                    </tr>
                </For>
            </ScrollTable>
            <Show when=move || snap.with(|s| s.orders.is_empty())>
                <p class="muted">{ctx.t(keys::JOBS_NO_ORDERS)}</p>
            </Show>
        </Panel>
    }
}

/// The lab's own (not the article's): jobs with an ordering key, and the per-key claim.
#[component]
fn PerKey(ui: Ui) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    let key = RwSignal::new("customer-42".to_string());
    let problem = RwSignal::new(None::<Msg>);
    let on = move || ui.read(|l| l.per_key);
    let submit = move || match model::parse_key(&key.get_untracked()) {
        Ok(k) => {
            problem.set(None);
            ui.act.run(Action::EnqueueKeyed(k));
        }
        Err(m) => problem.set(Some(m)),
    };
    view! {
        <Panel heading_id="per-key-title" heading=keys::JOBS_PER_KEY_TITLE id="per-key">
            <p class="note">{ctx.t(keys::JOBS_PER_KEY_NOTE)}</p>
            <form class="row" on:submit=move |ev| { ev.prevent_default(); submit(); }>
                <label for="per-key-key">{ctx.t(keys::JOBS_PER_KEY_KEY)}</label>
                <input id="per-key-key" type="text" prop:value=key on:input=move |ev| key.set(event_target_value(&ev))/>
                <button type="submit" id="enqueue-key" disabled=disabled>{ctx.t(keys::JOBS_PER_KEY_ENQUEUE)}</button>
                {move || problem.get().map(|m| view! { <span class="field-error" role="alert" id="err-key">{move || render(ctx.lang.get(), &m)}</span> })}
            </form>
            <label class="row">
                <input type="checkbox" id="per-key-claim" prop:checked=on disabled=disabled
                    on:change=move |ev| ui.act.run(Action::PerKeyClaim(event_target_checked(&ev)))/>
                {ctx.t(keys::JOBS_PER_KEY_TOGGLE)}
            </label>
            <SqlShown summary=keys::JOBS_PER_KEY_SQL statements=&[model::CLAIM_PER_KEY_SQL]/>
        </Panel>
    }
}

#[component]
fn ClaimQuery() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <Panel heading_id="claim-sql-title" heading=keys::JOBS_CLAIM_SQL>
            <p class="note">{ctx.t(keys::JOBS_CLAIM_FIX)}</p>
            <div class="lab-grid">
                <div>
                    <h3>{ctx.t(keys::JOBS_CLAIM_ARTICLE)}</h3>
                    <pre class="sql">{model::CLAIM_ARTICLE_SQL.trim()}</pre>
                </div>
                <div>
                    <h3>{ctx.t(keys::JOBS_CLAIM_OURS)}</h3>
                    <pre class="sql">{model::REAP_SQL.trim()}</pre>
                    <pre class="sql">{model::CLAIM_SQL.trim()}</pre>
                </div>
            </div>
        </Panel>
    }
}

/// What a row of the jobs table shows, as the key of its row: a row is made afresh when any
/// of it changes. The job's id and a hash of all it shows, worked out without copying any of it
/// (the key of each of the 50 rows is taken at every action).
fn job_key(j: &model::Job) -> (i64, u64) {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    j.hash(&mut h);
    (j.id, h.finish())
}
