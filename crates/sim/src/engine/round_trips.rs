//! Round trips: each worker's own stream of them, drawn from the run's seed.

use crate::params::Params;
use crate::rng::SplitMix64;

/// Round trips are drawn within ±20 % of the latency, in whole percent: 41 of them.
pub(super) const ROUND_TRIPS: usize = 41;
/// Round trips drawn at a time per worker.
const BATCH: usize = 16;

/// Every round trip a statement can take: `latency_us × (80 + i) / 100` for a draw `i`.
pub(super) fn table(p: &Params) -> [u64; ROUND_TRIPS] {
    std::array::from_fn(|i| p.latency_us * (80 + i as u64) / 100)
}

/// One worker's round trips, `table[draw % ROUND_TRIPS]`, from a stream of its own, so a
/// worker's round trips do not depend on when other workers send. Drawn `BATCH` at a time
/// (the same sequence as one at a time), so sending a statement reads its round trip
/// instead of waiting on a draw.
#[derive(Debug, Clone)]
pub(super) struct RoundTrips {
    draws: SplitMix64,
    next: [u32; BATCH],
    /// How many of `next` are used.
    used: usize,
}

impl RoundTrips {
    /// One stream per worker for a run of `p`, each seeded by a draw from the run's seed.
    pub(super) fn per_worker(p: &Params) -> impl Iterator<Item = RoundTrips> {
        let mut seeds = SplitMix64::new(p.seed ^ 0x3C6E_F372_FE94_F82B);
        (0..p.workers).map(move |_| RoundTrips {
            draws: SplitMix64::new(seeds.next_u64()),
            next: [0; BATCH],
            used: BATCH,
        })
    }

    /// The worker's next round trip, in µs.
    #[inline(always)]
    pub(super) fn next(&mut self, table: &[u64; ROUND_TRIPS]) -> u64 {
        if self.used == BATCH {
            self.draw(table);
        }
        let rtt = self.next[self.used % BATCH];
        self.used += 1;
        u64::from(rtt)
    }

    #[inline(never)]
    fn draw(&mut self, table: &[u64; ROUND_TRIPS]) {
        for slot in &mut self.next {
            // At most 1.2 × MAX_LATENCY_US, far below u32::MAX.
            *slot = table[(self.draws.next_u64() % ROUND_TRIPS as u64) as usize] as u32;
        }
        self.used = 0;
    }
}
