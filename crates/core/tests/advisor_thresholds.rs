//! The lab's own thresholds (a heavily loaded database, where the queue matters, fan-out,
//! "thousands a second") are rules of thumb, not measurements: every verdict they decide
//! carries the threshold it used, so the sentence shows it; the autovacuum model carries its
//! two assumptions.

mod common;

use common::*;
use queue_lab_core::advisor::*;

/// Every signal judged by a threshold of the lab's own carries that threshold, met or not.
#[test]
fn each_rule_of_thumb_verdict_carries_its_threshold() {
    let cases = [
        (
            Workload::default(),
            SignalKind::QueueEatsMainDb,
            "high_load",
        ),
        (
            Workload {
                db_load_percent: 85.0,
                ..Workload::default()
            },
            SignalKind::QueueEatsMainDb,
            "matters_at",
        ),
        (
            Workload {
                sustained_jobs_per_s: 500.0,
                peak_jobs_per_s: 500.0,
                db_load_percent: 85.0,
                ..Workload::default()
            },
            SignalKind::QueueEatsMainDb,
            "high_load",
        ),
        (
            Workload {
                fan_out_consumers: 5.0,
                ..Workload::default()
            },
            SignalKind::FanOut,
            "leave_at",
        ),
        (
            Workload {
                fan_out_consumers: 2.0,
                ..Workload::default()
            },
            SignalKind::FanOut,
            "leave_at",
        ),
        (
            Workload::default(),
            SignalKind::SustainedThousands,
            "leave_at",
        ),
        (
            Workload {
                sustained_jobs_per_s: 2_000.0,
                peak_jobs_per_s: 2_000.0,
                ..Workload::default()
            },
            SignalKind::SustainedThousands,
            "leave_at",
        ),
    ];
    for (w, kind, threshold) in cases {
        let v = ok(&w);
        let reason = &v.signal(kind).reason;
        assert!(
            reason.number(threshold).is_some(),
            "{:?}: {} does not carry {threshold}",
            kind,
            reason.key
        );
    }
}

#[test]
fn the_autovacuum_model_shows_its_assumptions() {
    let v = ok(&Workload::default());
    let model = v
        .dead_tuples
        .summary()
        .into_iter()
        .find(|m| m.key == queue_lab_core::keys::LEAVE_DEAD_MODEL)
        .expect("the model's caveat is shown");
    assert_eq!(model.number("rows_per_page"), Some(ROWS_PER_HEAP_PAGE));
    assert_eq!(
        model.number("entries_per_leaf"),
        Some(INDEX_ENTRIES_PER_LEAF_PAGE)
    );
}
