//! L1's job states as a picture: ready, running, done and dead with the number of jobs in
//! each (the snapshot's counts, the same the jobs table reports), the moves the lab's SQL
//! makes between them, and the move the last action made drawn in the accent colour.

use crate::ctx::use_ctx;
use crate::keys;
use crate::labs::harness::Last;
use crate::labs::jobs::model::{Lab, Snapshot};
use crate::ui::figure::ArrowHead;
use crate::ui::i18n::{render, tr};
use crate::ui::panel::Panel;
use leptos::prelude::*;
use queue_lab_core::i18n::Key;
use queue_lab_core::i18n::Msg;

use crate::labs::jobs::model::Outcome;

/// A move between statuses, as the SQL files make it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// enqueue.sql (and the order's transaction): a new row, status 'ready'.
    Enqueue,
    /// claim.sql: 'ready' → 'running'.
    Claim,
    /// claim.sql's revival: 'running' with its lease run out → 'running' again, next attempt.
    Lease,
    /// complete.sql: 'running' → 'done'.
    Complete,
    /// complete_delete.sql: the 'running' row is deleted.
    Delete,
    /// fail.sql with an attempt left: 'running' → 'ready' (backoff).
    Retry,
    /// fail.sql on the last attempt: 'running' → 'dead'.
    Dead,
    /// requeue.sql: 'dead' → 'ready'.
    Requeue,
}

impl Move {
    /// The name tests and styles read (`data-move`).
    pub fn name(self) -> &'static str {
        match self {
            Move::Enqueue => "enqueue",
            Move::Claim => "claim",
            Move::Lease => "lease",
            Move::Complete => "complete",
            Move::Delete => "delete",
            Move::Retry => "retry",
            Move::Dead => "dead",
            Move::Requeue => "requeue",
        }
    }

    fn label(self) -> Key {
        match self {
            Move::Enqueue => keys::JOBS_STATES_ENQUEUE,
            Move::Claim => keys::JOBS_STATES_CLAIM,
            Move::Lease => keys::JOBS_STATES_LEASE,
            Move::Complete => keys::JOBS_STATES_COMPLETE,
            Move::Delete => keys::JOBS_STATES_DELETE,
            Move::Retry => keys::JOBS_STATES_RETRY,
            Move::Dead => keys::JOBS_STATES_DEAD,
            Move::Requeue => keys::JOBS_STATES_REQUEUE,
        }
    }
}

/// The move the last outcome reports, read from its message: the model words each outcome
/// by what its SQL did. A claim of a job that another worker still holds (its lease ran
/// out, so `held_by` is 2 after the claim) is the revival, running → running. Outcomes
/// that changed no status (0 rows, a heartbeat, the clock) have none.
pub fn move_of(msg: &Msg, held_by: impl Fn(i64) -> usize) -> Option<Move> {
    let job = || {
        msg.args
            .iter()
            .find(|(n, _)| *n == "job")
            .and_then(|(_, v)| v.parse::<i64>().ok())
    };
    Some(match msg.key {
        keys::JOBS_OUT_ENQUEUED
        | keys::JOBS_OUT_ENQUEUED_KEY
        | keys::JOBS_OUT_COMMITTED_WOKE
        | keys::JOBS_OUT_COMMITTED_LOST => Move::Enqueue,
        keys::JOBS_OUT_CLAIMED | keys::JOBS_OUT_CLAIMED_KEY | keys::JOBS_OUT_CLAIMED_AGAIN => {
            if job().is_some_and(|j| held_by(j) > 1) {
                Move::Lease
            } else {
                Move::Claim
            }
        }
        keys::JOBS_OUT_COMPLETED | keys::JOBS_OUT_LATE_COMPLETE_1 => Move::Complete,
        keys::JOBS_OUT_DELETED | keys::JOBS_OUT_LATE_DELETED_1 => Move::Delete,
        keys::JOBS_OUT_RETRY => Move::Retry,
        keys::JOBS_OUT_DEAD => Move::Dead,
        keys::JOBS_OUT_REQUEUED => Move::Requeue,
        _ => return None,
    })
}

/// Where each status sits: (status as SQL spells it, x, y).
const BOXES: [(&str, f64, f64); 4] = [
    ("ready", 40.0, 90.0),
    ("running", 240.0, 90.0),
    ("done", 440.0, 20.0),
    ("dead", 440.0, 160.0),
];
const BOX_W: f64 = 110.0;
const BOX_H: f64 = 52.0;

/// Each move's path and where its label sits: (move, path, label x, label y, anchor).
#[rustfmt::skip]
const ARROWS: [(Move, &str, f64, f64, &str); 8] = [
    (Move::Enqueue,  "M 95 30 L 95 88",                      103.0,  52.0, "start"),
    (Move::Claim,    "M 150 106 L 238 106",                  194.0, 100.0, "middle"),
    (Move::Retry,    "M 240 128 L 152 128",                  196.0, 146.0, "middle"),
    (Move::Lease,    "M 275 90 C 255 40, 325 40, 305 88",    290.0,  38.0, "middle"),
    (Move::Complete, "M 350 100 L 438 52",                   395.0,  96.0, "start"),
    (Move::Delete,   "M 350 116 L 436 116",                  442.0, 120.0, "start"),
    (Move::Dead,     "M 350 134 L 438 172",                  380.0, 172.0, "end"),
    (Move::Requeue,  "M 495 212 C 420 252, 110 252, 95 144", 290.0, 226.0, "middle"),
];

/// The picture, with its counts and the last move in its text alternative.
#[component]
pub fn JobStates(
    lab: RwSignal<Option<Lab>, LocalStorage>,
    snap: RwSignal<Snapshot>,
    last: RwSignal<Option<Last<Outcome>>, LocalStorage>,
) -> impl IntoView {
    let ctx = use_ctx();
    let moved = Memo::new(move |_| {
        last.with(|l| match l {
            Some(Last::Done(o)) => lab.with(|lab| {
                move_of(&o.msg, |job| {
                    lab.as_ref().map_or(0, |lab| {
                        lab.workers
                            .iter()
                            .filter(|w| w.holding.is_some_and(|c| c.job == job))
                            .count()
                    })
                })
            }),
            _ => None,
        })
    });
    let count = move |status: &str| {
        snap.with(|s| match status {
            "ready" => s.counts.ready,
            "running" => s.counts.running,
            "done" => s.counts.done,
            _ => s.counts.dead,
        })
    };
    let summary = move || {
        let lang = ctx.lang.get();
        let c = snap.with(|s| s.counts.clone());
        let msg = Msg::new(keys::JOBS_STATES_SUMMARY)
            .arg("ready", c.ready)
            .arg("running", c.running)
            .arg("done", c.done)
            .arg("dead", c.dead);
        let msg = match moved.get() {
            Some(m) => msg.arg_msg("move", Msg::new(m.label())),
            None => msg.arg_msg("move", Msg::new(keys::JOBS_STATES_NO_MOVE)),
        };
        render(lang, &msg)
    };
    let boxes = BOXES
        .iter()
        .map(|&(status, x, y)| {
            view! {
                <g class="state" data-state=status>
                    <rect x=x y=y width=BOX_W height=BOX_H rx="6"/>
                    <text x=x + BOX_W / 2.0 y=y + 21.0 text-anchor="middle" class="state-name" translate="no">{status}</text>
                    <text x=x + BOX_W / 2.0 y=y + 42.0 text-anchor="middle" class="count">{move || count(status)}</text>
                </g>
            }
        })
        .collect_view();
    let arrows = ARROWS
        .iter()
        .map(|&(m, d, lx, ly, anchor)| {
            let on = move || moved.get() == Some(m);
            view! {
                <g class="move" class:on=on data-move=m.name() data-on=move || on().to_string()>
                    <path d=d marker-end=move || if on() { "url(#states-head-on)" } else { "url(#states-head)" }/>
                    <text x=lx y=ly text-anchor=anchor>{move || tr(ctx.lang.get(), m.label())}</text>
                </g>
            }
        })
        .collect_view();
    view! {
        <Panel heading_id="job-states-title" heading=keys::JOBS_STATES_TITLE>
            // Scrolls sideways on a phone rather than shrinking its labels past reading.
            <div class="table-wrap" tabindex="0">
            <svg id="job-states" class="states-svg" viewBox="0 0 590 250" width="100%" role="img" aria-label=summary>
                <defs>
                    <ArrowHead id="states-head" class="head"/>
                    <ArrowHead id="states-head-on" class="head-on"/>
                </defs>
                {arrows}
                {boxes}
            </svg>
            </div>
            <p class="muted">{ctx.t(keys::JOBS_STATES_NOTE)}</p>
        </Panel>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_of_a_job_another_worker_still_holds_is_the_lease_revival() {
        let claimed = Msg::new(keys::JOBS_OUT_CLAIMED_AGAIN).arg("job", 7);
        assert_eq!(move_of(&claimed, |_| 2), Some(Move::Lease));
        assert_eq!(move_of(&claimed, |_| 1), Some(Move::Claim));
    }

    #[test]
    fn outcomes_map_to_the_move_their_sql_made() {
        let m = |k| move_of(&Msg::new(k), |_| 1);
        assert_eq!(m(keys::JOBS_OUT_ENQUEUED), Some(Move::Enqueue));
        assert_eq!(m(keys::JOBS_OUT_CLAIMED), Some(Move::Claim));
        assert_eq!(m(keys::JOBS_OUT_COMPLETED), Some(Move::Complete));
        assert_eq!(m(keys::JOBS_OUT_DELETED), Some(Move::Delete));
        assert_eq!(m(keys::JOBS_OUT_RETRY), Some(Move::Retry));
        assert_eq!(m(keys::JOBS_OUT_DEAD), Some(Move::Dead));
        assert_eq!(m(keys::JOBS_OUT_REQUEUED), Some(Move::Requeue));
        assert_eq!(m(keys::JOBS_OUT_COMPLETE_0), None);
        assert_eq!(m(keys::JOBS_OUT_REQUEUE_0), None);
        assert_eq!(m(keys::JOBS_OUT_HEARTBEAT), None);
    }
}
