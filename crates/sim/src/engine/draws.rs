//! What a run draws once from its seed, before any event: each job's key and duration.

use crate::params::{Durations, Params};
use crate::rng::SplitMix64;

/// The key of every job (`0..params.keys`), drawn from the seed on a stream of its own.
/// Same `seed`, `jobs` and `keys`, same keys, on every platform.
pub fn job_keys(p: &Params) -> Vec<u32> {
    let mut rng = SplitMix64::new(p.seed ^ 0xBB67_AE85_84CA_A73B);
    let top = u64::from(p.keys.max(1) - 1);
    (0..p.jobs)
        .map(|_| rng.range_inclusive(0, top) as u32)
        .collect()
}

/// Durations of every job, drawn from their own stream so they do not depend on the strategy.
pub(super) fn draw_durations(p: &Params) -> Vec<u32> {
    let mut rng = SplitMix64::new(p.seed ^ 0xD1B5_4A32_D192_ED03);
    (0..p.jobs)
        .map(|_| {
            let us = match p.durations {
                Durations::Fixed { us } => us,
                Durations::Uniform { min_us, max_us } => rng.range_inclusive(min_us, max_us),
                Durations::LongTail { min_us, max_us } => {
                    // Pareto with α = 2: P(D > x) = (min / x)².
                    let d = min_us as f64 / rng.unit_open_zero().sqrt();
                    if d >= max_us as f64 {
                        max_us
                    } else {
                        d as u64
                    }
                }
            };
            // Validation keeps every duration under the 30 s lease, so it fits in u32.
            u32::try_from(us).unwrap_or(u32::MAX)
        })
        .collect()
}
