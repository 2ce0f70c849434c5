//! L1's guided tour: each step resets the lab, runs its actions and says where to look
//! (`jobs.tour.N.*` in `assets/i18n/jobs.tsv`).

use super::model::{Action, EnqueueInput, WorkerId};
use crate::keys;
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
        title: keys::JOBS_TOUR_1_TITLE,
        body: keys::JOBS_TOUR_1_BODY,
        look: &[],
        actions: || vec![Action::OrderWithJob],
    },
    TourStep {
        title: keys::JOBS_TOUR_2_TITLE,
        body: keys::JOBS_TOUR_2_BODY,
        look: &[],
        actions: || vec![Action::OrderWithJobFails],
    },
    TourStep {
        title: keys::JOBS_TOUR_3_TITLE,
        body: keys::JOBS_TOUR_3_BODY,
        look: &[],
        actions: || vec![enqueue(0, 5), enqueue(10, 5), Action::Claim(WorkerId::A)],
    },
    TourStep {
        title: keys::JOBS_TOUR_4_TITLE,
        body: keys::JOBS_TOUR_4_BODY,
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
        title: keys::JOBS_TOUR_5_TITLE,
        body: keys::JOBS_TOUR_5_BODY,
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
        title: keys::JOBS_TOUR_6_TITLE,
        body: keys::JOBS_TOUR_6_BODY,
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
        title: keys::JOBS_TOUR_7_TITLE,
        body: keys::JOBS_TOUR_7_BODY,
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
        title: keys::JOBS_TOUR_8_TITLE,
        body: keys::JOBS_TOUR_8_BODY,
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
        title: keys::JOBS_TOUR_9_TITLE,
        body: keys::JOBS_TOUR_9_BODY,
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
        title: keys::JOBS_TOUR_10_TITLE,
        body: keys::JOBS_TOUR_10_BODY,
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
        title: keys::JOBS_TOUR_11_TITLE,
        body: keys::JOBS_TOUR_11_BODY,
        look: &[],
        actions: || vec![Action::NotifyBurst(1000)],
    },
];
