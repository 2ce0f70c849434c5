//! Inputs shared by the pinned outputs (`tests/pinned.rs`) and the engine's own check that
//! replies handled ahead change nothing (`src/engine/tests.rs`, which includes this file by
//! path): the same spread of workloads for both. The includer brings `Durations` and
//! `Params` into scope.

use super::{Durations, Params};

/// Eight workers on a long tail of durations (2 ms to 400 ms), round trips of 3 ms.
pub fn long_tail() -> Params {
    Params {
        workers: 8,
        jobs: 1_000,
        durations: Durations::LongTail {
            min_us: 2_000,
            max_us: 400_000,
        },
        latency_us: 3_000,
        seed: 7,
        ..Params::default()
    }
}

/// Sixteen workers on 50 job keys, jobs of 20 ms sent with no gap.
pub fn keyed_burst(timeline_limit: u32) -> Params {
    Params {
        workers: 16,
        jobs: 2_000,
        keys: 50,
        durations: Durations::Fixed { us: 20_000 },
        gap_us: 0,
        seed: 3,
        timeline_limit,
        ..Params::default()
    }
}

/// Five workers with no round-trip time, stopped at 500 executions.
pub fn no_latency(timeline_limit: u32) -> Params {
    Params {
        workers: 5,
        jobs: 600,
        latency_us: 0,
        max_executions: Some(500),
        timeline_limit,
        ..Params::default()
    }
}
