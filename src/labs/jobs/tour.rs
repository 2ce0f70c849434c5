//! L1's guided tour: each step resets the lab, runs its actions and says where to look
//! (`jobs.tour.N.*` in `assets/i18n/jobs.tsv`).

use super::model::Action::{self, *};
use super::model::EnqueueInput;
use super::model::WorkerId::{A, B, C};
use crate::keys;
use crate::labs::guide::TourStep;

/// An enqueue at `priority` with `max_attempts`, the other fields at their defaults.
fn enqueue(priority: i32, max_attempts: i32) -> Action {
    Enqueue(EnqueueInput {
        priority,
        max_attempts,
        ..EnqueueInput::default()
    })
}

pub const TOUR: [TourStep<Action>; 11] = [
    TourStep::new(keys::JOBS_TOUR_1_TITLE, keys::JOBS_TOUR_1_BODY, || {
        vec![OrderWithJob]
    }),
    TourStep::new(keys::JOBS_TOUR_2_TITLE, keys::JOBS_TOUR_2_BODY, || {
        vec![OrderWithJobFails]
    }),
    TourStep::new(keys::JOBS_TOUR_3_TITLE, keys::JOBS_TOUR_3_BODY, || {
        vec![enqueue(0, 5), enqueue(10, 5), Claim(A)]
    }),
    TourStep::new(keys::JOBS_TOUR_4_TITLE, keys::JOBS_TOUR_4_BODY, || {
        vec![
            enqueue(0, 2),
            Claim(A),
            Fail(A),
            Advance(19),
            Claim(B),
            Advance(2),
            Claim(B),
            Fail(B),
        ]
    }),
    TourStep::new(keys::JOBS_TOUR_5_TITLE, keys::JOBS_TOUR_5_BODY, || {
        vec![
            enqueue(0, 5),
            Claim(A),
            Die(A),
            Advance(29),
            Claim(B),
            Advance(2),
            Claim(B),
            Complete(A),
            Complete(B),
        ]
    }),
    TourStep::new(keys::JOBS_TOUR_6_TITLE, keys::JOBS_TOUR_6_BODY, || {
        vec![
            Disconnect,
            enqueue(0, 5),
            OrderWithJob,
            Reconnect,
            NotifyBytes(8000),
        ]
    }),
    TourStep::new(keys::JOBS_TOUR_7_TITLE, keys::JOBS_TOUR_7_BODY, || {
        vec![
            DeleteOnComplete(true),
            enqueue(0, 5),
            enqueue(0, 5),
            Claim(A),
            Complete(A),
            Claim(B),
            Complete(B),
        ]
    }),
    TourStep::new(keys::JOBS_TOUR_8_TITLE, keys::JOBS_TOUR_8_BODY, || {
        let keyed = |k: &str| EnqueueKeyed(k.to_owned());
        vec![
            PerKeyClaim(true),
            keyed("customer-42"),
            keyed("customer-42"),
            keyed("customer-7"),
            Claim(A),
            Claim(B),
            Claim(C),
            Complete(A),
            Claim(C),
        ]
    }),
    TourStep::new(keys::JOBS_TOUR_9_TITLE, keys::JOBS_TOUR_9_BODY, || {
        vec![
            DualWriteLost,
            DualWriteGhost,
            OrderWithJob,
            OrderWithJobFails,
        ]
    }),
    TourStep::new(keys::JOBS_TOUR_10_TITLE, keys::JOBS_TOUR_10_BODY, || {
        vec![
            enqueue(0, 5),
            Claim(A),
            Effect(A),
            Die(A),
            Advance(31),
            Claim(B),
            Effect(B),
            Complete(B),
        ]
    }),
    TourStep::new(keys::JOBS_TOUR_11_TITLE, keys::JOBS_TOUR_11_BODY, || {
        vec![NotifyBurst(1000)]
    }),
];
