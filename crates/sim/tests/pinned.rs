//! The four article strategies pinned: a fingerprint of every output field (counts, times,
//! transaction statistics, the whole timeline and every transaction span) for a spread of
//! inputs, recorded before the ordering remedies and job keys were added. A change to the
//! engine that moves any of the four strategies' outputs, by one microsecond or one segment,
//! fails here.

use queue_sim::{simulate, Durations, Outcome, Params, Strategy};

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
        },
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
fn the_four_article_strategies_give_the_outputs_they_gave_before_keys_existed() {
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

/// Recorded from main at 85128d3, before keys existed.
const PINNED: &str = "
    naive:72321cfeed334d8c
    for-update:9a72995aecf0c62e
    skip-locked-tx:229910e938b5113e
    skip-locked-lease:aa6c808fc6daa2ae
    naive:2652fa69b6c6b6b9
    for-update:6a77f61bc516eaab
    skip-locked-tx:18cda092e319019d
    skip-locked-lease:f9d1f0626384a816
    naive:a10f1ea2bbaeedad
    for-update:2fc2852e687eaa83
    skip-locked-tx:e9991c436e07f2aa
    skip-locked-lease:d7957edb5baea920
";

/// Runs that fill their timeline and transaction spans early (a small `timeline_limit`), so
/// most of each run happens after recording stops, when the engine handles some replies
/// ahead of their arrival: their outputs, and the per-key inversions, must match the
/// engine that handled every reply as an event of its own, for all six strategies.
fn full_recording_cases() -> Vec<Params> {
    vec![
        Params {
            timeline_limit: 0,
            ..Params::default()
        },
        Params {
            workers: 8,
            jobs: 1_000,
            durations: Durations::LongTail {
                min_us: 2_000,
                max_us: 400_000,
            },
            latency_us: 3_000,
            seed: 7,
            timeline_limit: 40,
            ..Params::default()
        },
        Params {
            workers: 16,
            jobs: 2_000,
            keys: 50,
            durations: Durations::Fixed { us: 20_000 },
            gap_us: 0,
            seed: 3,
            timeline_limit: 25,
            ..Params::default()
        },
        Params {
            workers: 5,
            jobs: 600,
            latency_us: 0,
            timeline_limit: 10,
            max_executions: Some(500),
            ..Params::default()
        },
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

/// Recorded from main at 803096c, before replies were handled ahead.
const PINNED_FULL: &str = "
    naive:6eae2762e9f5fa29
    for-update:87358dfece629a8b
    skip-locked-tx:f866c7ec1408ecf5
    skip-locked-lease:d1cb9086db875d22
    split-queues:ae90a0ef68091470
    per-key:85cbea24f2628c36
    naive:4a90d7478221249d
    for-update:a9c033932a0644ec
    skip-locked-tx:11a4cdd6cb4a1b3d
    skip-locked-lease:d57b0c20b5df27ab
    split-queues:f71875cbb3b597a9
    per-key:4270d967c78e89a5
    naive:4f71387dcfe901b1
    for-update:8897b41e9804752c
    skip-locked-tx:3544c8a45f9f0bdc
    skip-locked-lease:2b98e06d3f8d5d4e
    split-queues:9f5c28a770a8b724
    per-key:b991bd32ab21a00d
    naive:75b81eaa8ff4c3b2
    for-update:85b9b923cca16a79
    skip-locked-tx:ea65cac2d2a1c1f7
    skip-locked-lease:fb3a1e49b77f4a91
    split-queues:b9e4c40e9f752272
    per-key:7204a13c68b9633d
";
