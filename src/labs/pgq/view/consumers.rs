//! L4's consumers: subscribe and unsubscribe, one card per subscribed consumer (cursor,
//! lag, batch with ack / nack), and a cooperative group's subconsumers with their parts.

use super::wiring::{LabSig, Wiring};
use crate::ctx::use_ctx;
use crate::keys;
use crate::labs::pgq::model::parse_in;
use crate::labs::pgq::model::{self, Action, Event, Snapshot, SubInfo};
use crate::ui::i18n::{render, tr};
use crate::ui::table::{col_heads, ScrollTable};
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

/// A name from one of the lab's fixed lists, as the `'static` str components capture.
fn known(list: &'static [&'static str], name: &str) -> Option<&'static str> {
    list.iter().copied().find(|n| *n == name)
}

/// The fields every card reads: receive limit, nack delay, and a refused value's message.
#[derive(Clone, Copy)]
struct Fields {
    limit: RwSignal<String>,
    delay: RwSignal<String>,
    problem: RwSignal<Option<Msg>>,
}

impl Fields {
    fn limit(&self) -> Option<i64> {
        self.checked(&self.limit, model::MAX_RECEIVE, 1)
    }
    fn delay(&self) -> Option<i64> {
        self.checked(&self.delay, model::MAX_DELAY, 0)
    }
    fn checked(&self, field: &RwSignal<String>, max: i64, min: i64) -> Option<i64> {
        let got = parse_in(&field.get_untracked(), min, max);
        self.problem.set(got.as_ref().err().cloned());
        got.ok()
    }
}

/// What every card of the panel reads and calls: the lab, its snapshot, the actions, whether
/// they are disabled, and the receive limit and nack delay fields.
#[derive(Clone, Copy)]
struct Ui {
    lab: LabSig,
    snap: RwSignal<Snapshot>,
    act: Callback<Action>,
    disabled: Signal<bool>,
    f: Fields,
}

impl Ui {
    /// The snapshot's row of `rows` that `is` picks; a default row until the snapshot has it.
    fn row<R: Clone + Default>(
        self,
        rows: impl Fn(&Snapshot) -> &Vec<R>,
        is: impl Fn(&R) -> bool,
    ) -> R {
        self.snap
            .with(|s| rows(s).iter().find(|r| is(r)).cloned().unwrap_or_default())
    }

    /// The events the lab holds where `held` says; none before the lab is set up.
    fn held(self, held: impl Fn(&model::Lab) -> &[Event]) -> Vec<Event> {
        self.lab
            .with(|l| l.as_ref().map(|l| held(l).to_vec()).unwrap_or_default())
    }

    /// Runs the receive `of` the limit field's number, if the field holds a valid one.
    fn receive(self, of: impl Fn(i64) -> Action) {
        if let Some(max) = self.f.limit() {
            self.act.run(of(max));
        }
    }
}

#[component]
pub fn Consumers(w: Wiring) -> impl IntoView {
    let (lab, snap, act, disabled) = (w.lab, w.snap, w.act, w.disabled);
    let ctx = use_ctx();
    let f = Fields {
        limit: RwSignal::new("100".to_string()),
        delay: RwSignal::new("30".to_string()),
        problem: RwSignal::new(None),
    };
    let ui = Ui {
        lab,
        snap,
        act,
        disabled,
        f,
    };
    let names = move || {
        snap.with(|s| {
            s.consumers
                .iter()
                .filter_map(|c| known(&model::NAMES, &c.consumer_name))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="panel consumers-panel" aria-labelledby="consumers-title">
            <h2 id="consumers-title">{ctx.t(keys::PGQ_SECTION_CONSUMERS)}</h2>
            <div class="row">
                <label for="receive-limit">{ctx.t(keys::PGQ_FIELD_LIMIT)}</label>
                <input id="receive-limit" type="text" inputmode="numeric" size="5" prop:value=f.limit on:input=move |ev| f.limit.set(event_target_value(&ev))/>
                <label for="nack-delay">{ctx.t(keys::PGQ_NACK_DELAY)}</label>
                <input id="nack-delay" type="text" inputmode="numeric" size="5" prop:value=f.delay on:input=move |ev| f.delay.set(event_target_value(&ev))/>
            </div>
            {move || f.problem.get().map(|m| view! { <p class="field-error" role="alert">{render(ctx.lang.get(), &m)}</p> })}
            <Subscribe snap=snap act=act disabled=disabled/>
            <div class="workers">
                <For each=names key=|n| *n let:name>
                    <ConsumerCard name=name ui=ui/>
                </For>
            </div>
            <p class="muted">{ctx.t(keys::PGQ_EXPLAIN_NACK)}</p>
            <p class="muted">{move || render(ctx.lang.get(), &Msg::new(keys::PGQ_EXPLAIN_COOP).arg("secs", model::DEAD_SECONDS))}</p>
        </section>
    }
}

/// Picks a name not subscribed yet and subscribes it.
#[component]
fn Subscribe(
    snap: RwSignal<Snapshot>,
    act: Callback<Action>,
    disabled: Signal<bool>,
) -> impl IntoView {
    let ctx = use_ctx();
    let pick = RwSignal::new(String::new());
    // Memos here and in the cards: a part is drawn again when what it shows changes, not at
    // every snapshot.
    let free = Memo::new(move |_| {
        snap.with(|s| {
            model::NAMES
                .into_iter()
                .filter(|n| !s.consumers.iter().any(|c| c.consumer_name == *n))
                .collect::<Vec<_>>()
        })
    });
    let free = move || free.get();
    let chosen = move || {
        let free = free();
        let p = pick.get();
        free.iter().find(|n| **n == p).or(free.first()).copied()
    };
    view! {
        <div class="row" id="subscribe">
            <strong>{ctx.t(keys::PGQ_SUBSCRIBE_TITLE)}</strong>
            <Show when=move || chosen().is_some() fallback=move || view! { <span class="muted">{ctx.t(keys::PGQ_ALL_SUBSCRIBED)}</span> }>
                <label for="new-consumer">{ctx.t(keys::PGQ_FIELD_NEW_CONSUMER)}</label>
                <select id="new-consumer" on:change=move |ev| pick.set(event_target_value(&ev))>
                    {move || free().into_iter().map(|n| view! { <option value=n selected=move || chosen() == Some(n)>{n}</option> }).collect_view()}
                </select>
                <button type="button" id="subscribe-consumer" disabled=disabled
                    on:click=move |_| { if let Some(n) = chosen() { act.run(Action::Subscribe(n.into())) } }>
                    {ctx.t(keys::PGQ_ACTION_SUBSCRIBE)}
                </button>
            </Show>
        </div>
    }
}

#[component]
fn ConsumerCard(name: &'static str, ui: Ui) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    let info = Memo::new(move |_| ui.row(|s| &s.consumers, |c| c.consumer_name == name));
    let info = move || info.get();
    let group = move || info().subconsumers > 0;
    let events = Memo::new(move |_| ui.held(|l| l.batch(name)));
    let events = move || events.get();
    let batch_id = move || events().first().map(|e| e.batch_id);
    let receive = move || {
        ui.receive(|max| Action::Receive {
            consumer: name.into(),
            max,
        })
    };
    let lag_max = Memo::new(move |_| {
        ui.snap.with(|s| {
            s.consumers
                .iter()
                .map(|c| c.lag_events)
                .max()
                .unwrap_or(0)
                .max(1)
        })
    });
    let lag_max = move || lag_max.get();
    let next_sub = Memo::new(move |_| {
        ui.snap.with(|s| {
            model::SUBS.into_iter().find(|n| {
                !s.subs
                    .iter()
                    .any(|x| x.consumer_name == name && x.subconsumer_name == *n)
            })
        })
    });
    let next_sub = move || next_sub.get();
    view! {
        <article class="worker" id=format!("consumer-{name}") aria-label=move || format!("{} {name}", tr(ctx.lang.get(), keys::PGQ_LABEL_CONSUMER))>
            <h3><span>{name}</span></h3>
            <p class="state mono" data-field="cursor">{move || render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_CURSOR).arg("tick", info().last_tick))}</p>
            <p class="muted">
                {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_LAG_TICKS).arg("count", info().lag_ticks))} " · "
                {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_LAG_EVENTS).arg("count", info().lag_events))} " · "
                {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_LAG_TIME).arg("duration", info().lag_time.unwrap_or_default()))}
            </p>
            <meter min="0" max=move || lag_max().to_string() value=move || info().lag_events.to_string() class="full-width"
                aria-label=move || tr(ctx.lang.get(), keys::PGQ_LAG_BAR)></meter>
            <Show when=move || info().holds_rotation>
                <p class="note bad" data-field="holds">{ctx.t(keys::PGQ_LABEL_HOLDS_ROTATION)}</p>
            </Show>
            <div class="row">
                <Show when=move || !group()>
                    <button type="button" class="small" data-act="receive" disabled=disabled on:click=move |_| receive()>{ctx.t(keys::PGQ_ACTION_RECEIVE)}</button>
                    <button type="button" class="small" data-act="ack" disabled=move || disabled.get() || batch_id().is_none()
                        on:click=move |_| { if let Some(b) = batch_id() { ui.act.run(Action::Ack { consumer: name.into(), batch: b }) } }>
                        {ctx.t(keys::PGQ_ACTION_ACK)}
                    </button>
                </Show>
                {move || next_sub().map(|sub| view! {
                    <button type="button" class="small" data-act="add-sub" disabled=disabled
                        on:click=move |_| ui.act.run(Action::AddSub { consumer: name.into(), sub: sub.into() })>
                        {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_ACTION_ADD_SUB).arg("sub", sub))}
                    </button>
                })}
                <button type="button" class="small" data-act="unsubscribe" disabled=disabled
                    on:click=move |_| ui.act.run(Action::Unsubscribe(name.into()))>{ctx.t(keys::PGQ_ACTION_UNSUBSCRIBE)}</button>
            </div>
            <Show when=group fallback=move || view! { <PlainBatch name=name info=Signal::derive(info) events=Signal::derive(events) ui=ui/> }>
                <Group name=name ui=ui/>
            </Show>
        </article>
    }
}

/// A plain consumer's open page: its events, each with a nack button.
#[component]
fn PlainBatch(
    name: &'static str,
    info: Signal<model::ConsumerInfo>,
    events: Signal<Vec<Event>>,
    ui: Ui,
) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    let batch_id = move || events.with(|e| e.first().map(|e| e.batch_id));
    let nacked = move |msg: i64| {
        ui.lab.with(|l| {
            l.as_ref()
                .and_then(|l| l.nacked.get(name))
                .and_then(|n| n.iter().find(|(m, _)| *m == msg).map(|(_, o)| o.clone()))
        })
    };
    let nack = move |batch: i64, msg: i64| {
        if let Some(delay) = ui.f.delay() {
            ui.act.run(Action::Nack {
                consumer: name.into(),
                batch,
                msg,
                delay,
            });
        }
    };
    view! {
        <p class="muted" data-field="batch">
            {move || match (batch_id(), info.get().batch_end_tick) {
                (Some(b), end) => render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_BATCH).arg("id", b).arg("from", info.get().last_tick).arg("to", end.map_or("?".into(), |t| t.to_string()))),
                (None, _) => tr(ctx.lang.get(), keys::PGQ_LABEL_NO_BATCH),
            }}
        </p>
        <Show when=move || events.with(|e| !e.is_empty())>
            <ScrollTable class="batch" head=move || view! {
                {col_heads(ctx, &[keys::PGQ_LABEL_MSG_ID, keys::PGQ_FIELD_PAYLOAD, keys::PGQ_LABEL_RETRY_COUNT, keys::PGQ_LABEL_CREATED_AT])}
                <th scope="col"><span class="visually-hidden">{ctx.t(keys::PGQ_ACTION_NACK)}</span></th>
            }>
                <For each=move || events.get() key=|e| (e.batch_id, e.msg_id, e.payload.clone(), e.retry_count, e.created_at.clone()) let:e>
                    {
                        let (batch, msg) = (e.batch_id, e.msg_id);
                        view! {
                            <tr data-msg=msg.to_string()>
                                <td class="mono">{msg}</td>
                                <td class="payload">{e.payload.clone().unwrap_or_default()}</td>
                                <td class="mono">{e.retry_count.map_or_else(|| "null".to_owned(), |n| n.to_string())}</td>
                                <td class="mono">{crate::clock::time_of_day(&e.created_at).to_owned()}</td>
                                <td>
                                    {move || match nacked(msg) {
                                        Some(o) => view! { <span class="status">{o}</span> }.into_any(),
                                        None => view! {
                                            <button type="button" class="small" data-act="nack" disabled=disabled
                                                aria-label=move || format!("{} {msg}", tr(ctx.lang.get(), keys::PGQ_ACTION_NACK))
                                                on:click=move |_| nack(batch, msg)>{ctx.t(keys::PGQ_ACTION_NACK)}</button>
                                        }.into_any(),
                                    }}
                                </td>
                            </tr>
                        }
                    }
                </For>
            </ScrollTable>
        </Show>
    }
}

/// A cooperative group: one row per subconsumer, with its part, the shared lag, and its
/// buttons.
#[component]
fn Group(name: &'static str, ui: Ui) -> impl IntoView {
    let ctx = use_ctx();
    let subs = move || {
        ui.snap.with(|s| {
            s.subs
                .iter()
                .filter(|x| x.consumer_name == name)
                .filter_map(|x| known(&model::SUBS, &x.subconsumer_name))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <p class="note" data-field="group">
            {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_GROUP).arg("count", subs().len()))}
        </p>
        <ul class="subs">
            <For each=subs key=|s| *s let:sub>
                <SubRow name=name sub=sub ui=ui/>
            </For>
        </ul>
    }
}

#[component]
fn SubRow(name: &'static str, sub: &'static str, ui: Ui) -> impl IntoView {
    let disabled = ui.disabled;
    let ctx = use_ctx();
    // Memos, as in the consumer's card: the row redraws what changed, not at every snapshot.
    let info = Memo::new(move |_| {
        ui.row(
            |s| &s.subs,
            |x| x.consumer_name == name && x.subconsumer_name == sub,
        )
    });
    let info = move || info.get();
    let held = Memo::new(move |_| ui.held(|l| l.part(name, sub)));
    let held = move || held.get();
    let killed = Memo::new(move |_| {
        ui.lab
            .with(|l| l.as_ref().is_some_and(|l| l.is_killed(name, sub)))
    });
    let killed = move || killed.get();
    let part = move |i: SubInfo| match i.batch_id {
        Some(b) => Msg::new(keys::PGQ_LABEL_PART)
            .arg("batch", b)
            .arg("from", i.batch_start_tick.unwrap_or(0))
            .arg("to", i.batch_end_tick.unwrap_or(0))
            .arg("count", i.batch_events),
        None => Msg::new(keys::PGQ_LABEL_NO_PART),
    };
    let receive = move || {
        ui.receive(|max| Action::ReceiveCoop {
            consumer: name.into(),
            sub: sub.into(),
            max,
        })
    };
    view! {
        <li class="sub" id=format!("sub-{name}-{sub}") class:stopped=killed>
            <strong>{sub}</strong> " "
            <span data-field="part">{move || render(ctx.lang.get(), &part(info()))}</span>
            <br/>
            <span class="muted" data-field="sub-lag">
                {move || render(ctx.lang.get(), &Msg::new(keys::PGQ_LABEL_SUB_IDLE).arg("idle", info().idle.unwrap_or_default()))}
            </span>
            <Show when=killed>
                <p class="note bad" data-field="killed">{ctx.t(keys::PGQ_LABEL_KILLED)}</p>
            </Show>
            <div class="row">
                <button type="button" class="small" data-act="receive-coop" disabled=move || disabled.get() || killed() on:click=move |_| receive()>{ctx.t(keys::PGQ_ACTION_RECEIVE_COOP)}</button>
                <button type="button" class="small" data-act="ack-coop" disabled=move || disabled.get() || killed() || held().is_empty()
                    on:click=move |_| ui.act.run(Action::AckCoop { consumer: name.into(), sub: sub.into() })>{ctx.t(keys::PGQ_ACTION_ACK_COOP)}</button>
                <Show when=killed fallback=move || view! {
                    <button type="button" class="small" data-act="kill" disabled=disabled
                        on:click=move |_| ui.act.run(Action::Kill { consumer: name.into(), sub: sub.into() })>{ctx.t(keys::PGQ_ACTION_KILL)}</button>
                }>
                    <button type="button" class="small" data-act="restart" disabled=disabled
                        on:click=move |_| ui.act.run(Action::AddSub { consumer: name.into(), sub: sub.into() })>{ctx.t(keys::PGQ_ACTION_RESTART)}</button>
                </Show>
                <button type="button" class="small" data-act="remove-sub" disabled=disabled
                    on:click=move |_| ui.act.run(Action::RemoveSub { consumer: name.into(), sub: sub.into() })>{ctx.t(keys::PGQ_ACTION_REMOVE_SUB)}</button>
            </div>
            <Show when=move || !held().is_empty()>
                <p class="mono" data-field="part-events">
                    {move || held().iter().map(|e| e.msg_id.to_string()).collect::<Vec<_>>().join(", ")}
                </p>
            </Show>
        </li>
    }
}
