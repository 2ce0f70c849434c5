//! L1's guided tour: each step resets the lab, runs its actions and says where to look
//! (`jobs.tour.N.*` in `assets/i18n/jobs.tsv`).

use super::model::{Action, EnqueueInput, WorkerId};
use crate::labs::guide::TourStep;

/// An enqueue at `priority` with `max_attempts`, the other fields at their defaults.
fn enqueue(priority: i32, max_attempts: i32) -> Action {
    Action::Enqueue(EnqueueInput {
        priority,
        max_attempts,
        ..EnqueueInput::default()
    })
}

pub const TOUR: [TourStep<Action>; 11] = [
    TourStep {
        title: "jobs.tour.1.title",
        body: "jobs.tour.1.body",
        look: &[],
        actions: || vec![Action::OrderWithJob],
    },
    TourStep {
        title: "jobs.tour.2.title",
        body: "jobs.tour.2.body",
        look: &[],
        actions: || vec![Action::OrderWithJobFails],
    },
    TourStep {
        title: "jobs.tour.3.title",
        body: "jobs.tour.3.body",
        look: &[],
        actions: || vec![enqueue(0, 5), enqueue(10, 5), Action::Claim(WorkerId::A)],
    },
    TourStep {
        title: "jobs.tour.4.title",
        body: "jobs.tour.4.body",
        look: &[],
        actions: || {
            use WorkerId::*;
            vec![
                enqueue(0, 2),
                Action::Claim(A),
                Action::Fail(A),
                Action::Advance(19),
                Action::Claim(B),
                Action::Advance(2),
                Action::Claim(B),
                Action::Fail(B),
            ]
        },
    },
    TourStep {
        title: "jobs.tour.5.title",
        body: "jobs.tour.5.body",
        look: &[],
        actions: || {
            use WorkerId::*;
            vec![
                enqueue(0, 5),
                Action::Claim(A),
                Action::Die(A),
                Action::Advance(29),
                Action::Claim(B),
                Action::Advance(2),
                Action::Claim(B),
                Action::Complete(A),
                Action::Complete(B),
            ]
        },
    },
    TourStep {
        title: "jobs.tour.6.title",
        body: "jobs.tour.6.body",
        look: &[],
        actions: || {
            vec![
                Action::Disconnect,
                enqueue(0, 5),
                Action::OrderWithJob,
                Action::Reconnect,
                Action::NotifyBytes(8000),
            ]
        },
    },
    TourStep {
        title: "jobs.tour.7.title",
        body: "jobs.tour.7.body",
        look: &[],
        actions: || {
            use WorkerId::*;
            vec![
                Action::DeleteOnComplete(true),
                enqueue(0, 5),
                enqueue(0, 5),
                Action::Claim(A),
                Action::Complete(A),
                Action::Claim(B),
                Action::Complete(B),
            ]
        },
    },
    TourStep {
        title: "jobs.tour.8.title",
        body: "jobs.tour.8.body",
        look: &[],
        actions: || {
            use WorkerId::*;
            let keyed = |k: &str| Action::EnqueueKeyed(k.to_owned());
            vec![
                Action::PerKeyClaim(true),
                keyed("customer-42"),
                keyed("customer-42"),
                keyed("customer-7"),
                Action::Claim(A),
                Action::Claim(B),
                Action::Claim(C),
                Action::Complete(A),
                Action::Claim(C),
            ]
        },
    },
    TourStep {
        title: "jobs.tour.9.title",
        body: "jobs.tour.9.body",
        look: &[],
        actions: || {
            vec![
                Action::DualWriteLost,
                Action::DualWriteGhost,
                Action::OrderWithJob,
                Action::OrderWithJobFails,
            ]
        },
    },
    TourStep {
        title: "jobs.tour.10.title",
        body: "jobs.tour.10.body",
        look: &[],
        actions: || {
            use WorkerId::*;
            vec![
                enqueue(0, 5),
                Action::Claim(A),
                Action::Effect(A),
                Action::Die(A),
                Action::Advance(31),
                Action::Claim(B),
                Action::Effect(B),
                Action::Complete(B),
            ]
        },
    },
    TourStep {
        title: "jobs.tour.11.title",
        body: "jobs.tour.11.body",
        look: &[],
        actions: || vec![Action::NotifyBurst(1000)],
    },
];
