//! The strategies' outputs pinned: a fingerprint of every output field (counts, times,
//! transaction statistics, the whole timeline and every transaction span) for a spread of
//! inputs. A change to the engine that moves any output, by one microsecond or one segment,
//! fails here.
//!
//! History: the four article strategies were first pinned before the ordering remedies and
//! job keys were added, and kept through them; every strategy once recording stops, before
//! replies were handled ahead. Both lists were recorded again when each worker got its own
//! round-trip stream (before, one stream served all workers in the order they sent): the
//! same distributions, other draws. That replies handled ahead change nothing is checked
//! directly, against the engine that handles every reply as an event, in the engine's own
//! tests (`replies_handled_ahead_give_the_outputs_of_one_event_per_reply`).

use queue_sim::{simulate, Durations, Outcome, Params, Strategy};

#[path = "common/workloads.rs"]
mod workloads;
use workloads::{keyed_burst, long_tail, no_latency};

/// FNV-1a over 64-bit words.
struct Fnv(u64);

impl Fnv {
    fn word(&mut self, v: u64) {
        for b in v.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
}

fn fingerprint(o: &Outcome) -> u64 {
    let mut h = Fnv(0xCBF2_9CE4_8422_2325);
    for v in [
        o.executions,
        u64::from(o.distinct_jobs),
        u64::from(o.jobs_run_more_than_once),
        u64::from(o.jobs_done),
        o.lock_wait_us,
        o.lock_waits,
        o.elapsed_us,
        o.jobs_per_s.to_bits(),
        o.executions_per_s.to_bits(),
        u64::from(o.tx.max_in_tx),
        o.tx.mean_in_tx.to_bits(),
        o.tx.longest_tx_us,
        o.inversions,
        o.completions,
        u64::from(o.timeline_truncated),
    ] {
        h.word(v);
    }
    for b in &o.tx.series {
        h.word(b.start_us);
        h.word(b.end_us);
        h.word(u64::from(b.max_in_tx));
        h.word(b.mean_in_tx.to_bits());
    }
    for s in &o.timeline {
        h.word(u64::from(s.worker));
        h.word(s.kind as u64);
        h.word(s.start_us);
        h.word(s.end_us);
        h.word(s.job.map_or(u64::MAX, u64::from));
    }
    for t in &o.transactions {
        h.word(u64::from(t.worker));
        h.word(t.start_us);
        h.word(t.end_us);
    }
    h.0
}

fn cases() -> Vec<Params> {
    vec![
        Params::default(),
        long_tail(),
        Params {
            workers: 3,
            jobs: 500,
            durations: Durations::Fixed { us: 20_000 },
            gap_us: 2_000,
            max_executions: Some(300),
            seed: 1,
            ..Params::default()
        },
    ]
}

#[test]
fn the_four_article_strategies_give_their_pinned_outputs() {
    let mut got = Vec::new();
    for base in cases() {
        for strategy in Strategy::ALL {
            let out = simulate(&Params {
                strategy,
                ..base.clone()
            })
            .expect("valid params");
            got.push(format!("{strategy}:{:016x}", fingerprint(&out)));
        }
    }
    let expected: Vec<&str> = PINNED.split_whitespace().collect();
    assert_eq!(got, expected, "an article strategy's outputs moved");
}

/// Recorded when round trips became per worker.
const PINNED: &str = "
    naive:38e6cff096e78ba5
    for-update:63a1aa7d86574461
    skip-locked-tx:c6b3dd17c15319ae
    skip-locked-lease:952318a9d777fbcb
    naive:613611bbde04fe8d
    for-update:7195254871db7c36
    skip-locked-tx:1969f6402d79fb8d
    skip-locked-lease:be7733b2a96cf624
    naive:202bb268285d8998
    for-update:9da73ce11ffbefc8
    skip-locked-tx:32b4fbed0b88f047
    skip-locked-lease:100469e347673153
";

/// Runs that fill their timeline and transaction spans early (a small `timeline_limit`), so
/// most of each run happens after recording stops, when the engine handles some replies
/// ahead of their arrival: their outputs and the per-key inversions, pinned for all six
/// strategies.
fn full_recording_cases() -> Vec<Params> {
    vec![
        Params {
            timeline_limit: 0,
            ..Params::default()
        },
        Params {
            timeline_limit: 40,
            ..long_tail()
        },
        keyed_burst(25),
        no_latency(10),
    ]
}

#[test]
fn outputs_stay_the_same_after_the_timeline_is_full() {
    let mut got = Vec::new();
    for base in full_recording_cases() {
        for strategy in [
            Strategy::Naive,
            Strategy::ForUpdate,
            Strategy::SkipLockedTx,
            Strategy::SkipLockedLease,
            Strategy::SplitQueues,
            Strategy::PerKey,
        ] {
            let out = simulate(&Params {
                strategy,
                ..base.clone()
            })
            .expect("valid params");
            assert!(
                out.timeline_truncated,
                "{strategy}: the case must fill the timeline"
            );
            let mut h = Fnv(fingerprint(&out));
            h.word(out.key_inversions);
            got.push(format!("{strategy}:{:016x}", h.0));
        }
    }
    let expected: Vec<&str> = PINNED_FULL.split_whitespace().collect();
    assert_eq!(
        got, expected,
        "a strategy's outputs moved once recording stopped"
    );
}

/// Recorded when round trips became per worker.
const PINNED_FULL: &str = "
    naive:61468ded7527b3f5
    for-update:318e60b1067beda8
    skip-locked-tx:774557b0423f9116
    skip-locked-lease:8c44ec722aa36f21
    split-queues:38fe26c5eaee13e6
    per-key:a18a3d09de83c140
    naive:8ad3b0195de7c614
    for-update:16733d0732aeeee5
    skip-locked-tx:60414109667f3926
    skip-locked-lease:3892e0dac2c827cc
    split-queues:15cdec691519e7d5
    per-key:f17595a201670c60
    naive:b31a7bff22c7b508
    for-update:02e5e5c55161c731
    skip-locked-tx:d0cb8619d66231ac
    skip-locked-lease:0ecc78f6aa8eaadd
    split-queues:fc2f72f410e20744
    per-key:f6f04297254711e3
    naive:75b81eaa8ff4c3b2
    for-update:85b9b923cca16a79
    skip-locked-tx:ea65cac2d2a1c1f7
    skip-locked-lease:fb3a1e49b77f4a91
    split-queues:b9e4c40e9f752272
    per-key:7204a13c68b9633d
";
