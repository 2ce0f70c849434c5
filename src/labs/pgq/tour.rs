//! L4's guided tour: each step from a fresh queue, in the order the ideas build on each
//! other (`pgq.tour.N.*` in `assets/i18n/pgq.tsv`).

use super::model::{self, Action, Action::*};
use crate::keys;
use crate::labs::guide::TourStep;

/// `consumer` receives a batch of at most 100 events.
pub(super) fn receive(consumer: &str) -> Action {
    Receive {
        consumer: consumer.into(),
        max: 100,
    }
}

/// `consumer` acks the batch it holds.
pub(super) fn ack(consumer: &str) -> Action {
    AckHeld(consumer.into())
}

/// Four events in two tick intervals; each of `consumers` receives and acks both batches;
/// then the rotation period passes and maintenance runs.
fn both_batches_then_rotate(consumers: &[&str]) -> Vec<Action> {
    let mut actions = vec![Burst(4), Tick, Tick];
    for c in consumers {
        actions.extend([receive(c), ack(c), receive(c), ack(c)]);
    }
    actions.extend([Advance(model::ROTATION_SECONDS + 1), Maint]);
    actions
}

/// An event sent in a transaction left open across a tick, then another committed, billing's
/// batch, the commit, and billing's next batch (tour step 5; L4's late-event challenge).
pub(super) fn late_event() -> Vec<Action> {
    vec![
        Prepare,
        SendOne,
        Tick,
        receive("billing"),
        ack("billing"),
        CommitPrepared,
        Tick,
        receive("billing"),
    ]
}

/// The guided tour: each step from a fresh queue, in the order the ideas build on each other.
pub const TOUR: [TourStep<Action>; 8] = [
    TourStep::new(keys::PGQ_TOUR_1_TITLE, keys::PGQ_TOUR_1_BODY, || {
        vec![
            SendOne,
            SendOne,
            receive("billing"),
            Tick,
            receive("billing"),
        ]
    }),
    TourStep::new(keys::PGQ_TOUR_2_TITLE, keys::PGQ_TOUR_2_BODY, || {
        vec![
            Burst(5),
            Tick,
            receive("billing"),
            ack("billing"),
            receive("email"),
        ]
    }),
    TourStep::new(keys::PGQ_TOUR_3_TITLE, keys::PGQ_TOUR_3_BODY, || {
        both_batches_then_rotate(&["billing"])
    }),
    TourStep::new(keys::PGQ_TOUR_4_TITLE, keys::PGQ_TOUR_4_BODY, || {
        both_batches_then_rotate(&["billing", "email"])
    }),
    TourStep::new(keys::PGQ_TOUR_5_TITLE, keys::PGQ_TOUR_5_BODY, late_event),
    TourStep::new(keys::PGQ_TOUR_6_TITLE, keys::PGQ_TOUR_6_BODY, || {
        let sub = |s: &str| ("audit".to_string(), s.to_string());
        let part = |s: &str| {
            let (consumer, sub) = sub(s);
            ReceiveCoop {
                consumer,
                sub,
                max: 100,
            }
        };
        let (c1, w1) = sub("w1");
        let (c2, w2) = sub("w2");
        vec![
            Subscribe("audit".into()),
            AddSub {
                consumer: c1.clone(),
                sub: w1.clone(),
            },
            AddSub {
                consumer: c2.clone(),
                sub: w2.clone(),
            },
            Burst(3),
            Tick,
            Burst(3),
            Tick,
            part("w1"),
            part("w2"),
            Kill {
                consumer: c1,
                sub: w1,
            },
            AckCoop {
                consumer: c2,
                sub: w2,
            },
            Advance(model::DEAD_SECONDS + 1),
            part("w2"),
        ]
    }),
    TourStep::new(keys::PGQ_TOUR_7_TITLE, keys::PGQ_TOUR_7_BODY, || {
        vec![
            Burst(5),
            Tick,
            Receive {
                consumer: "billing".into(),
                max: 2,
            },
            receive("email"),
            // last, so the outcome the page shows is the ack naming what it skipped
            ack("billing"),
        ]
    }),
    TourStep::new(keys::PGQ_TOUR_8_TITLE, keys::PGQ_TOUR_8_BODY, || {
        vec![
            Burst(3),
            Tick,
            receive("billing"),
            receive("billing"),
            ack("billing"),
        ]
    }),
];
