//! L4's event tables as a ring: one segment per table (`get_table_info`), the current one
//! (where send writes) and the next to be truncated marked, whether the next rotation is held
//! back and by what (the engine's own rotation status, `queue_report`, and each consumer's
//! `holds_rotation`: nothing is judged here), and each consumer's cursor as a marker on the
//! oldest table holding an event it has not read (`get_cursor_info`), or under "caught up"
//! when it has none. The same facts are written under the picture and in its label.

use crate::clock::time_of_day;
use crate::ctx::use_ctx;
use crate::keys;
use crate::labs::pgq::model::{CursorInfo, QueueInfo, Snapshot, TableInfo};
use crate::ui::figure::ArrowHead;
use crate::ui::i18n::render;
use leptos::prelude::*;
use queue_lab_core::i18n::{Lang, Msg};
use std::f64::consts::PI;

const CX: f64 = 260.0;
const CY: f64 = 200.0;
const R_OUT: f64 = 82.0;
const R_IN: f64 = 46.0;
/// Degrees left blank between two segments.
const GAP: f64 = 3.0;
const LINE: f64 = 14.0;

/// Where table `no` of `n` sits: its start and end angle in degrees, clockwise from
/// three o'clock, table 0 centred at the top.
pub fn span(no: i32, n: i32) -> (f64, f64) {
    let step = 360.0 / f64::from(n.max(1));
    let start = -90.0 - step / 2.0 + f64::from(no) * step;
    (start + GAP / 2.0, start + step - GAP / 2.0)
}

fn point(r: f64, deg: f64) -> (f64, f64) {
    let a = deg * PI / 180.0;
    (CX + r * a.cos(), CY + r * a.sin())
}

/// The annulus segment between `a0` and `a1` degrees.
fn segment_path(a0: f64, a1: f64) -> String {
    let large = i32::from(a1 - a0 > 180.0);
    let (x0, y0) = point(R_OUT, a0);
    let (x1, y1) = point(R_OUT, a1);
    let (x2, y2) = point(R_IN, a1);
    let (x3, y3) = point(R_IN, a0);
    format!(
        "M {x0:.1} {y0:.1} A {R_OUT} {R_OUT} 0 {large} 1 {x1:.1} {y1:.1} \
         L {x2:.1} {y2:.1} A {R_IN} {R_IN} 0 {large} 0 {x3:.1} {y3:.1} Z"
    )
}

/// The consumers whose cursor is on table `no` (the oldest table holding an unread event).
pub fn cursors_on(cursors: &[CursorInfo], no: i32) -> Vec<&CursorInfo> {
    cursors.iter().filter(|c| c.table_no == Some(no)).collect()
}

/// Whether the engine says `consumer` holds rotation back (consumer_report).
fn holds(snap: &Snapshot, consumer: &str) -> bool {
    snap.consumers
        .iter()
        .any(|c| c.consumer_name == consumer && c.holds_rotation)
}

/// A consumer's name, and whether it holds rotation back.
fn holder(lang: Lang, consumer: &str, holding: bool) -> String {
    if holding {
        render(
            lang,
            &Msg::new(keys::PGQ_RING_HOLDS).arg("consumer", consumer),
        )
    } else {
        consumer.to_owned()
    }
}

/// The next rotation's state in a few words, from the engine's rotation status (its reason
/// code and values); the full sentence is the rotation panel's.
pub fn next_state(q: &QueueInfo) -> Msg {
    if q.rotation_ready == Some(true) {
        return Msg::new(keys::PGQ_RING_READY);
    }
    let args = q.rotation_args.as_deref().unwrap_or_default();
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
    match q.rotation_reason.as_deref().unwrap_or_default() {
        "consumer" => Msg::new(keys::PGQ_RING_HELD_CONSUMER).arg("consumer", arg(0)),
        "long_tx" => Msg::new(keys::PGQ_RING_HELD_TX).arg("txid", arg(0)),
        "period" => {
            Msg::new(keys::PGQ_RING_WAITS_PERIOD).arg("time", time_of_day(&arg(0)).to_owned())
        }
        _ => Msg::new(keys::PGQ_RING_WAITS_TICK),
    }
}

fn table_name(tables: &[TableInfo], no: i32) -> String {
    tables
        .iter()
        .find(|t| t.table_no == no)
        .map(|t| t.table_name.clone())
        .unwrap_or_default()
}

/// The facts the picture shows, one sentence each: the current table, the next to truncate
/// and its state, then each consumer's cursor.
pub fn facts(snap: &Snapshot) -> Vec<Msg> {
    let Some(q) = snap.queue.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let count = |no: i32| {
        snap.tables
            .iter()
            .find(|t| t.table_no == no)
            .map_or(0, |t| t.events)
    };
    let next = (q.cur_table + 1) % q.ntables.max(1);
    out.push(
        Msg::new(keys::PGQ_RING_FACT_CURRENT)
            .arg("table", table_name(&snap.tables, q.cur_table))
            .arg("count", count(q.cur_table)),
    );
    out.push(
        Msg::new(keys::PGQ_RING_FACT_NEXT)
            .arg("table", table_name(&snap.tables, next))
            .arg("count", count(next))
            .arg_msg("state", next_state(q)),
    );
    for c in &snap.cursors {
        let holding = holds(snap, &c.consumer_name);
        out.push(match (&c.table_name, c.next_msg_id) {
            (Some(table), Some(id)) => Msg::new(if holding {
                keys::PGQ_RING_FACT_CURSOR_HOLDS
            } else {
                keys::PGQ_RING_FACT_CURSOR
            })
            .arg("consumer", c.consumer_name.clone())
            .arg("count", c.unread)
            .arg("id", id)
            .arg("table", table.clone()),
            _ => Msg::new(if holding {
                keys::PGQ_RING_FACT_CAUGHT_UP_HOLDS
            } else {
                keys::PGQ_RING_FACT_CAUGHT_UP
            })
            .arg("consumer", c.consumer_name.clone()),
        });
    }
    out
}

/// What one table's segment shows, as data: the table, how many tables share the ring, its
/// role, and its label's lines (text, class, and for a cursor the consumer and whether it
/// holds rotation back). The ring draws a table again only when this changes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct TableDraw {
    no: i32,
    n: i32,
    current: bool,
    next: bool,
    lines: Vec<(String, &'static str, String, bool)>,
}

/// Table `t`'s drawing data: its role (current, next to truncate and the rotation's state),
/// its events, and the cursors on it.
fn table_draw(snap: &Snapshot, t: &TableInfo, lang: Lang) -> TableDraw {
    let q = snap.queue.clone().unwrap_or_default();
    let mut lines: Vec<(String, &'static str, String, bool)> = Vec::new();
    // A line of the label that names no consumer: its text and class.
    let mut say = |msg: &Msg, class: &'static str| {
        lines.push((render(lang, msg), class, String::new(), false));
    };
    if t.is_current {
        say(&Msg::new(keys::PGQ_LABEL_CURRENT), "role-current");
        say(&Msg::new(keys::PGQ_RING_SEND_HERE), "send-here");
    }
    if t.is_next {
        say(&Msg::new(keys::PGQ_LABEL_NEXT), "role-next");
        say(&next_state(&q), "next-state");
    }
    say(
        &Msg::new(keys::PGQ_RING_EVENTS).arg("count", t.events),
        "events",
    );
    for c in cursors_on(&snap.cursors, t.table_no) {
        let holding = holds(snap, &c.consumer_name);
        let text = format!("◆ {}", holder(lang, &c.consumer_name, holding));
        lines.push((text, "cursor", c.consumer_name.clone(), holding));
    }
    TableDraw {
        no: t.table_no,
        n: q.ntables.max(1),
        current: t.is_current,
        next: t.is_next,
        lines,
    }
}

/// One table's segment with its label block outside the ring.
fn table_view(d: TableDraw) -> impl IntoView {
    let TableDraw {
        no,
        n,
        current,
        next,
        lines,
    } = d;
    let (a0, a1) = span(no, n);
    let mid = (a0 + a1) / 2.0;
    let (nx, ny) = point((R_IN + R_OUT) / 2.0, mid);
    // The label block: above a table at the top, below the others; anchored away from the ring.
    let (cos, sin) = ((mid * PI / 180.0).cos(), (mid * PI / 180.0).sin());
    let (px, py) = point(R_OUT + 12.0, mid);
    let anchor = if cos > 0.3 {
        "start"
    } else if cos < -0.3 {
        "end"
    } else {
        "middle"
    };
    let count = lines.len() as f64;
    let first_y = if sin < -0.5 {
        py - (count - 1.0) * LINE
    } else {
        py + 10.0
    };
    let labels = lines
        .into_iter()
        .enumerate()
        .map(|(i, (text, class, consumer, holding))| {
            let y = first_y + i as f64 * LINE;
            if class == "cursor" {
                view! {
                    <text x=px y=y text-anchor=anchor class="cursor" class:holds=holding data-consumer=consumer data-table=no.to_string()>{text}</text>
                }
                .into_any()
            } else {
                view! { <text x=px y=y text-anchor=anchor class=class>{text}</text> }.into_any()
            }
        })
        .collect_view();
    view! {
        <g class="table" class:current=current class:next=next data-table=no.to_string()
            data-current=current.to_string() data-next=next.to_string()>
            <path d=segment_path(a0, a1)/>
            <text x=nx y=ny + 5.0 text-anchor="middle" class="no" translate="no">{no}</text>
            {labels}
        </g>
    }
}

/// The picture, its caption and its text alternative.
#[component]
pub fn TableRing(snap: RwSignal<Snapshot>) -> impl IntoView {
    let ctx = use_ctx();
    // Memos: each part of the picture is drawn again when what it shows changes, not at every
    // snapshot (a send changes one table's count; the rest stays as it is on the page).
    let lines = Memo::new(move |_| {
        let lang = ctx.lang.get();
        snap.with(|s| facts(s).iter().map(|m| render(lang, m)).collect::<Vec<_>>())
    });
    let lines = move || lines.get();
    let tables = Memo::new(move |_| {
        let lang = ctx.lang.get();
        snap.with(|s| {
            s.tables
                .iter()
                .map(|t| table_draw(s, t, lang))
                .collect::<Vec<_>>()
        })
    });
    let turn =
        Memo::new(move |_| snap.with(|s| s.queue.as_ref().map(|q| (q.cur_table, q.ntables))));
    let caught = Memo::new(move |_| {
        snap.with(|s| {
            s.cursors
                .iter()
                .filter(|c| c.table_no.is_none())
                .map(|c| (c.consumer_name.clone(), holds(s, &c.consumer_name)))
                .collect::<Vec<_>>()
        })
    });
    let label = move || {
        let lang = ctx.lang.get();
        format!(
            "{} {}",
            render(lang, &Msg::new(keys::PGQ_RING_TITLE)),
            lines().join(" ")
        )
    };
    // The rotation's direction: from the current table's middle to the next one's.
    let arrow = move || {
        turn.get().map(|(cur, n)| {
            let n = n.max(1);
            let (c0, c1) = span(cur, n);
            let (n0, n1) = span((cur + 1) % n, n);
            let from = (c0 + c1) / 2.0 + 12.0;
            let to = (n0 + n1) / 2.0 - 12.0;
            let to = if to < from { to + 360.0 } else { to };
            let r = R_IN - 8.0;
            let (x0, y0) = point(r, from);
            let (x1, y1) = point(r, to);
            let large = i32::from(to - from > 180.0);
            view! {
                <path class="turn" d=format!("M {x0:.1} {y0:.1} A {r} {r} 0 {large} 1 {x1:.1} {y1:.1}") marker-end="url(#ring-head)"/>
            }
        })
    };
    // The consumers with nothing left to read, in the top left corner (clear of the tables'
    // labels whatever table is current).
    let caught_up = move || {
        let lang = ctx.lang.get();
        let caught = caught.get();
        (!caught.is_empty()).then(|| {
            let names = caught
                .into_iter()
                .enumerate()
                .map(|(i, (name, holding))| {
                    let shown = format!("◆ {}", holder(lang, &name, holding));
                    view! {
                        <text x="12" y=24.0 + (i as f64 + 1.0) * LINE class="cursor caught" class:holds=holding
                            data-consumer=name data-table="caught-up">{shown}</text>
                    }
                })
                .collect_view();
            view! {
                <text x="12" y="24" class="caught-title">{render(lang, &Msg::new(keys::PGQ_RING_CAUGHT_UP))}</text>
                {names}
            }
        })
    };
    view! {
        <figure class="ring-figure" aria-labelledby="ring-title">
            <h3 id="ring-title">{ctx.t(keys::PGQ_RING_TITLE)}</h3>
            // Scrolls sideways on a phone rather than shrinking its labels past reading.
            <div class="table-wrap" tabindex="0">
                <svg id="table-ring" class="ring-svg" viewBox="0 0 520 370" width="100%" role="img" aria-label=label>
                    <defs>
                        <ArrowHead id="ring-head" class="head"/>
                    </defs>
                    <For each=move || tables.get() key=|d| d.clone() let:d>{table_view(d)}</For>
                    {arrow}
                    {caught_up}
                </svg>
            </div>
            <figcaption>
                <ul id="ring-facts">
                    {move || lines().into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                </ul>
                <p class="muted">{ctx.t(keys::PGQ_RING_NOTE)}</p>
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_zero_sits_at_the_top_and_the_tables_go_round_clockwise() {
        let (a0, a1) = span(0, 3);
        assert!(
            ((a0 + a1) / 2.0 + 90.0).abs() < 1e-9,
            "table 0 centred at 12 o'clock"
        );
        let (b0, b1) = span(1, 3);
        assert!(
            ((b0 + b1) / 2.0 - 30.0).abs() < 1e-9,
            "table 1 next, clockwise"
        );
        assert!(a1 < b0, "a gap between segments");
    }

    fn cursor(name: &str, table: Option<i32>) -> CursorInfo {
        CursorInfo {
            consumer_name: name.into(),
            table_no: table,
            table_name: table.map(|t| format!("pgque.event_1_{t}")),
            next_msg_id: table.map(|_| 5),
            unread: i64::from(table.is_some()),
            ..CursorInfo::default()
        }
    }

    #[test]
    fn a_cursor_is_drawn_on_its_table_and_a_caught_up_one_on_none() {
        let cs = [cursor("billing", None), cursor("email", Some(1))];
        assert!(cursors_on(&cs, 0).is_empty());
        let on1: Vec<&str> = cursors_on(&cs, 1)
            .iter()
            .map(|c| c.consumer_name.as_str())
            .collect();
        assert_eq!(on1, ["email"]);
    }

    #[test]
    fn the_next_tables_state_is_the_engines_reason_not_a_judgement_of_its_own() {
        let q = |ready, reason: &str, args: &[&str]| QueueInfo {
            rotation_ready: Some(ready),
            rotation_reason: Some(reason.into()),
            rotation_args: Some(args.iter().map(|a| a.to_string()).collect()),
            ..QueueInfo::default()
        };
        assert_eq!(
            next_state(&q(true, "ready", &["event_1_1"])).key,
            keys::PGQ_RING_READY
        );
        let held = next_state(&q(false, "consumer", &["email", "3"]));
        assert_eq!(held.key, keys::PGQ_RING_HELD_CONSUMER);
        assert_eq!(held.args, [("consumer", "email".to_string())]);
        assert_eq!(
            next_state(&q(false, "long_tx", &["812"])).key,
            keys::PGQ_RING_HELD_TX
        );
        assert_eq!(
            next_state(&q(false, "period", &["2026-01-01 10:00:30+00"])).key,
            keys::PGQ_RING_WAITS_PERIOD
        );
        assert_eq!(
            next_state(&q(false, "step2_pending", &[])).key,
            keys::PGQ_RING_WAITS_TICK
        );
    }

    #[test]
    fn the_facts_name_the_current_and_next_table_and_each_cursor() {
        let snap = Snapshot {
            queue: Some(QueueInfo {
                ntables: 3,
                cur_table: 2,
                rotation_ready: Some(false),
                rotation_reason: Some("consumer".into()),
                rotation_args: Some(vec!["email".into(), "4".into()]),
                ..QueueInfo::default()
            }),
            tables: (0..3)
                .map(|n| TableInfo {
                    table_no: n,
                    table_name: format!("pgque.event_1_{n}"),
                    events: i64::from(n) + 1,
                    ..TableInfo::default()
                })
                .collect(),
            cursors: vec![cursor("billing", None), cursor("email", Some(0))],
            consumers: vec![crate::labs::pgq::model::ConsumerInfo {
                consumer_name: "email".into(),
                holds_rotation: true,
                ..Default::default()
            }],
            ..Snapshot::default()
        };
        let f = facts(&snap);
        let named: Vec<queue_lab_core::i18n::Key> = f.iter().map(|m| m.key).collect();
        assert_eq!(
            named,
            [
                keys::PGQ_RING_FACT_CURRENT,
                keys::PGQ_RING_FACT_NEXT,
                keys::PGQ_RING_FACT_CAUGHT_UP,
                keys::PGQ_RING_FACT_CURSOR_HOLDS
            ]
        );
        assert_eq!(f[0].args[0], ("table", "pgque.event_1_2".to_string()));
        assert_eq!(f[1].args[0], ("table", "pgque.event_1_0".to_string()));
        assert_eq!(f[3].args[3], ("table", "pgque.event_1_0".to_string()));
    }
}
