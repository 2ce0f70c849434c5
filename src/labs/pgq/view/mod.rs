//! L4's page: producers, the ticker, the consumers (view/consumers.rs), table rotation
//! (with the tables as a ring, view/ring.rs),
//! retries and dead letters, the SQL log and console.

mod compare;
mod consumers;
mod ring;
mod schedule;
mod wiring;

use super::model::{self, Action, Lab};
use super::tour::TOUR;
use crate::ctx::use_ctx;
use crate::keys;
use crate::labs::challenge::Challenges;
use crate::labs::frame::{LabFrame, SplitColumns};
use crate::labs::guide::Guide;
use crate::labs::harness::{Explain, LastOutcome};
use crate::ui::format::bytes;
use crate::ui::i18n::{render, tr};
use crate::ui::panel::{act_button, Panel};
use crate::ui::reveal::reveal_later;
use crate::ui::sql_log::LastActionSql;
use crate::ui::table::{col_heads, ScrollTable};
use compare::Compare;
use consumers::Consumers;
use leptos::prelude::*;
use queue_lab_core::i18n::{Key, Msg};
use ring::TableRing;
use schedule::Schedule;
use wiring::Wiring;

/// Every way the lab's engine differs from PgQue, each with its reason (shown on the page).
pub const DIFFERENCES: [Key; 9] = [
    keys::PGQ_DIFF_CODE,
    keys::PGQ_DIFF_NTABLES,
    keys::PGQ_DIFF_CLOCK,
    keys::PGQ_DIFF_MAINT,
    keys::PGQ_DIFF_INFO,
    keys::PGQ_DIFF_SUBSCRIPTION,
    keys::PGQ_DIFF_READONLY_TX,
    keys::PGQ_DIFF_RETRY_BATCH,
    keys::PGQ_DIFF_OMITTED,
];

#[component]
pub fn PgqLab() -> impl IntoView {
    let ctx = use_ctx();
    let (guide, harness) = Guide::<Lab>::start(ctx, &TOUR, crate::labs::pgq::share::decode);
    let (lab, snap, last) = (harness.lab, harness.snap, harness.last);
    let run_actions = move |actions: Vec<Action>, reset: bool| harness.run(actions, reset, None);
    let refresh = move || harness.refresh();
    // What a receive changed (the consumer's events, a subconsumer's part) is scrolled into
    // the consumers' view once the action is done.
    let reveal = StoredValue::new(None::<String>);
    let act = Callback::new(move |a: Action| {
        reveal.set_value(match &a {
            Action::Receive { consumer, .. } => Some(format!("#consumer-{consumer} table.batch")),
            Action::ReceiveCoop { consumer, sub, .. } => Some(format!("#sub-{consumer}-{sub}")),
            _ => None,
        });
        run_actions(vec![a], false)
    });
    Effect::new(move |_| {
        snap.track();
        if let Some(target) = reveal.get_value() {
            reveal_later(".lab-watch .consumers-panel", target);
        }
    });

    let disabled = Signal::derive(move || harness.busy());
    let w = Wiring {
        lab,
        snap,
        act,
        disabled,
    };
    let working = Signal::derive(move || harness.working());
    let challenges = Challenges::new(ctx, harness, &crate::labs::pgq::challenges::CHALLENGES);

    let intro = move || {
        view! {
            <p class="lead">{ctx.t(keys::PGQ_LEAD)}</p>
            <p class="muted">{ctx.rich(keys::PGQ_ENGINE_NOTE)}</p>
            <details class="pgque-diff" id="pgque-diff">
                <summary>{ctx.t(keys::PGQ_DIFF_TITLE)}</summary>
                <ul>
                    {DIFFERENCES.iter().map(|k| view! { <li>{ctx.rich(*k)}</li> }).collect_view()}
                </ul>
            </details>
        }
    };
    view! {
        <LabFrame harness=harness guide=guide slug="pgq" title=keys::LAB_PGQ_TITLE tour_title=keys::PGQ_TOUR_TITLE
            intro=intro
            waiting=move || view! { <p class="muted">{ctx.t(keys::PGQ_NEEDS_POSTGRES)}</p> }
            share=|l| crate::labs::pgq::share::encode(&l.history)
            reset=keys::PGQ_ACTION_RESET challenges=challenges
            console="select * from pgque.get_consumer_info('orders');">
            // On a wide screen two columns: the producer, ticker and housekeeping on the
            // left; the consumers, where a receive shows its events, beside the SQL that
            // the last action ran, kept in view on the right.
            <SplitColumns
                now=Signal::derive(move || snap.with(|s| s.now.clone()))
                on_advance=Callback::new(move |s| act.run(Action::Advance(s)))
                busy=disabled
                status=move || view! {
                    {move || (lab.with(Option::is_some) && snap.with(|s| s.queue.is_none())).then(|| {
                        let gone = if snap.with(|s| s.uninstalled) { keys::PGQ_ENGINE_GONE } else { keys::PGQ_QUEUE_GONE };
                        view! { <p class="note warn" id="queue-gone" role="status">{ctx.rich(gone)}</p> }
                    })}
                    <LastOutcome last=last explain=Explain {
                        sentence: model::error_key,
                        then: keys::PGQ_ERROR_UNCHANGED,
                        id: "pgq-error-explained",
                    }/>
                }
                watch=move || view! {
                    <LastActionSql entries=ctx.log busy=working/>
                    <Consumers w=w/>
                }>
                // PgQue's schedule, first below the clock but not held at the top with it:
                // the panel that stays in view holds the clock and what the last move did,
                // and with the schedule's table and note it covered over half the column at
                // 1280 x 900.
                <div class="panel"><Schedule w=w/></div>
                <div class="lab-grid">
                    <Producers w=w/>
                    <Ticker w=w/>
                </div>
                <Rotation w=w/>
                <RetriesAndDead w=w/>
            </SplitColumns>
            <Compare disabled=disabled on_done=Callback::new(move |()| refresh())/>
        </LabFrame>
    }
}

#[component]
fn Producers(w: Wiring) -> impl IntoView {
    let (snap, act, disabled) = (w.snap, w.act, w.disabled);
    let ctx = use_ctx();
    let burst = RwSignal::new("100".to_string());
    let problem = RwSignal::new(None::<Msg>);
    let open = move || snap.with(|s| s.inflight_open);
    let send_burst = move || match model::parse_in(&burst.get_untracked(), 1, model::MAX_BURST) {
        Ok(n) => {
            problem.set(None);
            act.run(Action::Burst(n));
        }
        Err(m) => problem.set(Some(m)),
    };
    view! {
        <Panel heading_id="producers-title" heading=keys::PGQ_SECTION_PRODUCERS>
            <div class="row">
                {act_button("send-one", keys::PGQ_ACTION_SEND_ONE, true, disabled, move || act.run(Action::SendOne))}
                {act_button("send-rollback", keys::PGQ_ACTION_SEND_ROLLBACK, false, disabled, move || act.run(Action::SendRollback))}
            </div>
            <form class="row" on:submit=move |ev| { ev.prevent_default(); send_burst(); }>
                <label for="burst-n">{ctx.t(keys::PGQ_BURST_SIZE)}</label>
                <input id="burst-n" type="text" inputmode="numeric" size="6" prop:value=burst on:input=move |ev| burst.set(event_target_value(&ev))/>
                <button type="submit" id="send-burst" disabled=disabled>
                    {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_ACTION_SEND_BURST).arg("count", burst.get().trim()))}
                </button>
            </form>
            {move || problem.get().map(|m| view! { <p class="field-error" role="alert">{render(ctx.lang.get(), &m)}</p> })}
            <h3>{ctx.t(keys::PGQ_INFLIGHT_TITLE)}</h3>
            <p class="muted">{ctx.t(keys::PGQ_EXPLAIN_SNAPSHOT)}</p>
            <div class="row">
                <button type="button" id="prepare" disabled=move || disabled.get() || open() on:click=move |_| act.run(Action::Prepare)>
                    {ctx.t(keys::PGQ_ACTION_PREPARE)}
                </button>
                <button type="button" id="commit-prepared" disabled=move || disabled.get() || !open() on:click=move |_| act.run(Action::CommitPrepared)>
                    {ctx.t(keys::PGQ_ACTION_COMMIT_PREPARED)}
                </button>
                <button type="button" id="rollback-prepared" disabled=move || disabled.get() || !open() on:click=move |_| act.run(Action::RollbackPrepared)>
                    {ctx.t(keys::PGQ_ACTION_ROLLBACK_PREPARED)}
                </button>
            </div>
            <Show when=open>
                <p class="note bad" id="inflight-open">{move || render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_PREPARED_OPEN).arg("name", "pgq_inflight"))}</p>
            </Show>
        </Panel>
    }
}

/// How far force_next_tick moves the event id sequence: PgQue's `ticker_max_count * 2 + 1000`.
fn force_jump(ticker_max_count: i32) -> i64 {
    i64::from(ticker_max_count) * 2 + 1000
}

#[component]
fn Ticker(w: Wiring) -> impl IntoView {
    let (snap, act, disabled) = (w.snap, w.act, w.disabled);
    let ctx = use_ctx();
    let q = move || snap.with(|s| s.queue.clone().unwrap_or_default());
    let last_tick = move || {
        let q = q();
        let time = q
            .last_tick_time
            .as_deref()
            .map(crate::clock::time_of_day)
            .unwrap_or("–")
            .to_owned();
        render(
            ctx.lang.get(),
            &Msg::new(keys::PGQ_LABEL_LAST_TICK)
                .arg("tick", q.last_tick)
                .arg("time", time),
        )
    };
    let waiting = move || q().events_waiting.unwrap_or(0);
    view! {
        <Panel heading_id="ticker-title" heading=keys::PGQ_SECTION_TICKER>
            <div class="row">
                {act_button("tick", keys::PGQ_ACTION_TICK, true, disabled, move || act.run(Action::Tick))}
                <span id="last-tick">{last_tick}</span>
            </div>
            <p id="waiting-tick" class:note=move || { waiting() > 0 } class:muted=move || { waiting() == 0 }>
                {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_EVENTS_SINCE_TICK).arg("count", waiting()))}
            </p>
            <p class="muted" id="ticker-thresholds">
                {move || { let q = q(); render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_THRESHOLDS).arg("count", q.ticker_max_count).arg("lag", q.ticker_max_lag)) }}
            </p>
            <p class="muted" id="force-note">
                {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_TICKER_FORCE_NOTE).arg("jump", force_jump(q().ticker_max_count)))}
            </p>
            <p class="muted">{ctx.t(keys::PGQ_EXPLAIN_LATENCY)}</p>
            <p class="muted">{ctx.t(keys::PGQ_EXPLAIN_FANOUT)}</p>
        </Panel>
    }
}

#[component]
fn Rotation(w: Wiring) -> impl IntoView {
    let (lab, snap, act, disabled) = (w.lab, w.snap, w.act, w.disabled);
    let ctx = use_ctx();
    let q = move || snap.with(|s| s.queue.clone().unwrap_or_default());
    let maint_rows =
        move || lab.with(|l| l.as_ref().map(|l| l.last_maint.clone()).unwrap_or_default());
    view! {
        <Panel heading_id="rotation-title" heading=keys::PGQ_SECTION_ROTATION>
            <p class="muted">{ctx.t(keys::PGQ_EXPLAIN_ROTATION)}</p>
            <p id="current-table">
                {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_CURRENT_TABLE).arg("table", q().cur_table_name).arg("period", q().rotation_period))}
            </p>
            <p id="rotation-next" class="note" class:good=move || q().rotation_ready == Some(true)>
                {move || {
                    let q = q();
                    let key = if q.rotation_ready == Some(true) { keys::PGQ_NEXT_ROTATE } else { keys::PGQ_NEXT_WAIT };
                    render(ctx.lang.get(), &Msg::new(key).arg_msg("note", q.rotation_msg()))
                }}
            </p>
            <ScrollTable id="event-tables" head=move || view! {
                {col_heads(ctx, &[keys::PGQ_LABEL_TABLE, keys::PGQ_LABEL_EVENTS, keys::PGQ_LABEL_DEAD_TUPLES, keys::PGQ_LABEL_UPDATES_DELETES, keys::PGQ_LABEL_SIZE])}
                <th scope="col">"ev_id"</th>
            }>
                <For each=move || snap.get().tables key=|t| format!("{t:?}") let:t>
                    <tr data-table=t.table_no.to_string() class:changed=t.is_current>
                        <td class="mono">
                            {t.table_name.clone()}
                            {t.is_current.then(|| view! { " " <span class="status">{ctx.t(keys::PGQ_LABEL_CURRENT)}</span> })}
                            {t.is_next.then(|| view! { " " <span class="status">{ctx.t(keys::PGQ_LABEL_NEXT)}</span> })}
                        </td>
                        <td class="mono" data-field="events">{t.events}</td>
                        <td class="mono" data-field="dead">{t.dead_tuples}</td>
                        <td class="mono">{format!("{} / {}", t.tup_upd, t.tup_del)}</td>
                        <td class="mono">{bytes(t.size_bytes)}</td>
                        <td class="mono">{match (t.min_msg_id, t.max_msg_id) { (Some(a), Some(b)) => format!("{a}–{b}"), _ => "–".into() }}</td>
                    </tr>
                </For>
            </ScrollTable>
            <p class="muted">{ctx.t(keys::PGQ_EXPLAIN_STATS_FLUSH)}</p>
            <TableRing snap=snap/>
            <div class="row">
                {act_button("maint", keys::PGQ_ACTION_MAINT, true, disabled, move || act.run(Action::Maint))}
            </div>
            <ul id="maint-answer">
                {move || maint_rows().into_iter().map(|r| {
                    let msg = r.msg();
                    view! {
                        <li data-action=r.action.clone()>
                            <code>{r.action.clone()}</code> " " {move || render(ctx.lang.get(), &msg)}
                        </li>
                    }
                }).collect_view()}
            </ul>
            <p class="muted">{ctx.t(keys::PGQ_EXPLAIN_LONG_TX)}</p>
            <p class="muted">{ctx.t(keys::PGQ_EXPLAIN_ROLLBACK_DEAD_TUPLE)}</p>
        </Panel>
    }
}

#[component]
fn RetriesAndDead(w: Wiring) -> impl IntoView {
    let (snap, act, disabled) = (w.snap, w.act, w.disabled);
    let ctx = use_ctx();
    let max_retries = move || snap.with(|s| s.queue.as_ref().map_or(0, |q| q.max_retries));
    view! {
        <div class="lab-grid">
            <Panel heading_id="retry-title" heading=keys::PGQ_SECTION_RETRY>
                <p class="muted">{move || render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_MAX_RETRIES).arg("count", max_retries()))}</p>
                <ScrollTable id="retry-table" head=move || view! {
                    {col_heads(ctx, &[keys::PGQ_LABEL_CONSUMER, keys::PGQ_LABEL_MSG_ID, keys::PGQ_LABEL_RETRY_COUNT, keys::PGQ_LABEL_RETRY_AFTER])}
                }>
                    <For each=move || snap.get().retries key=|r| format!("{r:?}") let:r>
                        <tr class:claimable=r.due>
                            <td>{r.consumer.clone()}</td>
                            <td class="mono">{r.msg_id}</td>
                            <td class="mono">{r.retry_count}</td>
                            <td class="mono">{crate::clock::time_of_day(&r.retry_after).to_owned()}</td>
                        </tr>
                    </For>
                </ScrollTable>
                <div class="row">
                    {act_button("retry-events", keys::PGQ_ACTION_RETRY_EVENTS, false, disabled, move || act.run(Action::RetryEvents))}
                </div>
            </Panel>
            <Panel heading_id="dead-title" heading=keys::PGQ_SECTION_DEAD>
                <ScrollTable id="dead-table" head=move || view! {
                    <th scope="col">"dl_id"</th>
                    {col_heads(ctx, &[keys::PGQ_LABEL_CONSUMER, keys::PGQ_FIELD_PAYLOAD, keys::PGQ_FIELD_REASON, keys::PGQ_LABEL_DIED_AT])}
                    <th scope="col"><span class="visually-hidden">{ctx.t(keys::PGQ_ACTION_REPLAY)}</span></th>
                }>
                    <For each=move || snap.get().dead key=|d| format!("{d:?}") let:d>
                        {
                            let id = d.dl_id;
                            view! {
                                <tr data-dl=id.to_string()>
                                    <td class="mono">{id}</td>
                                    <td>{d.consumer.clone()}</td>
                                    <td class="payload">{d.payload.clone().unwrap_or_default()}</td>
                                    <td>{d.reason.clone().unwrap_or_default()}</td>
                                    <td class="mono">{crate::clock::time_of_day(&d.died_at).to_owned()}</td>
                                    <td>
                                        <button type="button" class="small" data-act="replay" disabled=disabled
                                            aria-label=move || format!("{} {id}", tr(ctx.lang.get(), keys::PGQ_ACTION_REPLAY))
                                            on:click=move |_| act.run(Action::Replay(id))>{ctx.t(keys::PGQ_ACTION_REPLAY)}</button>
                                    </td>
                                </tr>
                            }
                        }
                    </For>
                </ScrollTable>
                <Show when=move || snap.with(|s| s.dead.is_empty())>
                    <p class="muted">{ctx.t(keys::PGQ_NO_DEAD)}</p>
                </Show>
            </Panel>
        </div>
    }
}
