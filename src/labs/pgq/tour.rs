//! L4's guided tour: each step from a fresh queue, in the order the ideas build on each
//! other (`pgq.tour.N.*` in `assets/i18n/pgq.tsv`).

use super::model::{self, Action};
use crate::labs::guide::TourStep;

fn receive(consumer: &str) -> Action {
    Action::Receive {
        consumer: consumer.into(),
        max: 100,
    }
}

fn ack(consumer: &str) -> Action {
    Action::AckHeld(consumer.into())
}

/// The guided tour: each step from a fresh queue, in the order the ideas build on each other.
pub const TOUR: [TourStep<Action>; 8] = [
    TourStep {
        title: "pgq.tour.1.title",
        body: "pgq.tour.1.body",
        look: &[],
        actions: || {
            vec![
                Action::SendOne,
                Action::SendOne,
                receive("billing"),
                Action::Tick,
                receive("billing"),
            ]
        },
    },
    TourStep {
        title: "pgq.tour.2.title",
        body: "pgq.tour.2.body",
        look: &[],
        actions: || {
            vec![
                Action::Burst(5),
                Action::Tick,
                receive("billing"),
                ack("billing"),
                receive("email"),
            ]
        },
    },
    TourStep {
        title: "pgq.tour.3.title",
        body: "pgq.tour.3.body",
        look: &[],
        actions: || {
            vec![
                Action::Burst(4),
                Action::Tick,
                Action::Tick,
                receive("billing"),
                ack("billing"),
                receive("billing"),
                ack("billing"),
                Action::Advance(model::ROTATION_SECONDS + 1),
                Action::Maint,
            ]
        },
    },
    TourStep {
        title: "pgq.tour.4.title",
        body: "pgq.tour.4.body",
        look: &[],
        actions: || {
            vec![
                Action::Burst(4),
                Action::Tick,
                Action::Tick,
                receive("billing"),
                ack("billing"),
                receive("billing"),
                ack("billing"),
                receive("email"),
                ack("email"),
                receive("email"),
                ack("email"),
                Action::Advance(model::ROTATION_SECONDS + 1),
                Action::Maint,
            ]
        },
    },
    TourStep {
        title: "pgq.tour.5.title",
        body: "pgq.tour.5.body",
        look: &[],
        actions: || {
            vec![
                Action::Prepare,
                Action::SendOne,
                Action::Tick,
                receive("billing"),
                ack("billing"),
                Action::CommitPrepared,
                Action::Tick,
                receive("billing"),
            ]
        },
    },
    TourStep {
        title: "pgq.tour.6.title",
        body: "pgq.tour.6.body",
        look: &[],
        actions: || {
            let sub = |s: &str| ("audit".to_string(), s.to_string());
            let part = |s: &str| {
                let (consumer, sub) = sub(s);
                Action::ReceiveCoop {
                    consumer,
                    sub,
                    max: 100,
                }
            };
            let (c1, w1) = sub("w1");
            let (c2, w2) = sub("w2");
            vec![
                Action::Subscribe("audit".into()),
                Action::AddSub {
                    consumer: c1.clone(),
                    sub: w1.clone(),
                },
                Action::AddSub {
                    consumer: c2.clone(),
                    sub: w2.clone(),
                },
                Action::Burst(3),
                Action::Tick,
                Action::Burst(3),
                Action::Tick,
                part("w1"),
                part("w2"),
                Action::Kill {
                    consumer: c1,
                    sub: w1,
                },
                Action::AckCoop {
                    consumer: c2,
                    sub: w2,
                },
                Action::Advance(model::DEAD_SECONDS + 1),
                part("w2"),
            ]
        },
    },
    TourStep {
        title: "pgq.tour.7.title",
        body: "pgq.tour.7.body",
        look: &[],
        actions: || {
            vec![
                Action::Burst(5),
                Action::Tick,
                Action::Receive {
                    consumer: "billing".into(),
                    max: 2,
                },
                receive("email"),
                // last, so the outcome the page shows is the ack naming what it skipped
                ack("billing"),
            ]
        },
    },
    TourStep {
        title: "pgq.tour.8.title",
        body: "pgq.tour.8.body",
        look: &[],
        actions: || {
            vec![
                Action::Burst(3),
                Action::Tick,
                receive("billing"),
                receive("billing"),
                ack("billing"),
            ]
        },
    },
];
