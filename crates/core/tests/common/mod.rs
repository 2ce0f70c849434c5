//! Helpers shared by the advisor's integration tests. Each test file uses a different
//! subset of them, so the ones a file leaves unused are not warnings.
#![allow(dead_code)]

use queue_lab_core::advisor::{advise, SignalKind, Verdict, Workload};

/// The verdict for a workload that must be valid.
pub fn ok(w: &Workload) -> Verdict {
    match advise(w) {
        Ok(verdict) => verdict,
        Err(errors) => panic!("workload refused: {errors:?}"),
    }
}

pub fn at_rate(jobs: f64) -> Workload {
    Workload {
        sustained_jobs_per_s: jobs,
        peak_jobs_per_s: jobs,
        ..Workload::default()
    }
}

pub fn reason_key(w: &Workload, kind: SignalKind) -> queue_lab_core::i18n::Key {
    ok(w).signal(kind).reason.key
}

pub fn just_below(x: f64) -> f64 {
    x * (1.0 - 1e-9)
}

pub fn just_above(x: f64) -> f64 {
    x * (1.0 + 1e-9)
}

pub fn loaded(load: f64, jobs: f64) -> Workload {
    Workload {
        db_load_percent: load,
        ..at_rate(jobs)
    }
}

pub fn consumers(n: f64) -> Workload {
    Workload {
        fan_out_consumers: n,
        ..Workload::default()
    }
}
