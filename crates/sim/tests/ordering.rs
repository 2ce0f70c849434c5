//! Ordering: jobs carry keys; SKIP LOCKED completes jobs of one key out of enqueue order, and
//! the two remedies (split queues, per-key serialization) do not, at a price in throughput
//! that depends on how many keys there are. Each test fails if the behaviour it names breaks.

use queue_sim::{job_keys, simulate, Durations, Outcome, Params, SegmentKind, Strategy};

fn run(params: Params) -> Outcome {
    simulate(&params).expect("test params are valid")
}

fn with(strategy: Strategy, base: &Params) -> Outcome {
    run(Params {
        strategy,
        ..base.clone()
    })
}

/// Per-key inversions recomputed from the timeline, by the definition: per key, adjacent
/// completions whose ids descend. With zero round trips the `done` write happens at the
/// instant the work ends, events at one instant run in worker order, so the order of the
/// writes is the order of the work segments' ends, then workers.
fn key_inversions_from_timeline(out: &Outcome) -> u64 {
    assert_eq!(out.params.latency_us, 0);
    let keys = job_keys(&out.params);
    let mut works: Vec<(u64, u16, u32)> = out
        .timeline
        .iter()
        .filter(|s| s.kind == SegmentKind::Work)
        .map(|s| {
            (
                s.end_us,
                s.worker,
                s.job.expect("a work segment names its job"),
            )
        })
        .collect();
    works.sort_unstable();
    let mut last = vec![None; out.params.keys as usize];
    let mut n = 0;
    for (_, _, job) in works {
        let k = keys[job as usize] as usize;
        if last[k].is_some_and(|l| job < l) {
            n += 1;
        }
        last[k] = Some(job);
    }
    n
}

#[test]
fn skip_locked_swaps_jobs_of_one_key_and_per_key_serialization_never_does() {
    for seed in 0..6 {
        for (workers, keys) in [(4, 8), (8, 3), (16, 40)] {
            let base = Params {
                workers,
                jobs: 400,
                keys,
                seed,
                ..Params::default()
            };
            let lease = with(Strategy::SkipLockedLease, &base);
            let tx = with(Strategy::SkipLockedTx, &base);
            let per_key = with(Strategy::PerKey, &base);
            let split = with(Strategy::SplitQueues, &base);
            let what = format!("seed {seed}, {workers} workers, {keys} keys");
            assert!(lease.key_inversions > 0, "{what}: lease kept per-key order");
            assert!(
                tx.key_inversions > 0,
                "{what}: skip-locked-tx kept per-key order"
            );
            assert_eq!(per_key.key_inversions, 0, "{what}: per-key swapped a key");
            assert_eq!(
                split.key_inversions, 0,
                "{what}: split queues swapped a key"
            );
            // Per-key order is not global order: the remedies still swap jobs of
            // different keys.
            assert!(per_key.inversions > 0, "{what}");
        }
    }
}

#[test]
fn per_key_inversions_count_what_the_timeline_shows() {
    for seed in 0..4 {
        let out = run(Params {
            workers: 6,
            jobs: 300,
            keys: 5,
            latency_us: 0,
            seed,
            ..Params::default()
        });
        assert!(!out.timeline_truncated);
        assert!(out.key_inversions > 0);
        assert_eq!(
            out.key_inversions,
            key_inversions_from_timeline(&out),
            "seed {seed}"
        );
    }
}

#[test]
fn per_key_never_runs_two_jobs_of_one_key_at_once_and_skip_locked_does() {
    let base = Params {
        workers: 8,
        jobs: 400,
        keys: 6,
        ..Params::default()
    };
    let overlaps = |out: &Outcome| {
        let keys = job_keys(&out.params);
        let mut works: Vec<_> = out
            .timeline
            .iter()
            .filter(|s| s.kind == SegmentKind::Work)
            .collect();
        works.sort_by_key(|s| s.start_us);
        let mut n = 0;
        for (i, a) in works.iter().enumerate() {
            for b in &works[i + 1..] {
                if b.start_us >= a.end_us {
                    break;
                }
                if keys[a.job.unwrap() as usize] == keys[b.job.unwrap() as usize] {
                    n += 1;
                }
            }
        }
        n
    };
    let per_key = with(Strategy::PerKey, &base);
    let split = with(Strategy::SplitQueues, &base);
    let lease = with(Strategy::SkipLockedLease, &base);
    assert!(!per_key.timeline_truncated && !lease.timeline_truncated);
    assert_eq!(overlaps(&per_key), 0);
    assert_eq!(overlaps(&split), 0);
    assert!(overlaps(&lease) > 0);
}

#[test]
fn split_queues_give_each_key_to_one_worker() {
    let out = run(Params {
        strategy: Strategy::SplitQueues,
        workers: 5,
        jobs: 300,
        keys: 12,
        ..Params::default()
    });
    let keys = job_keys(&out.params);
    let mut owner = [None; 12];
    for s in out.timeline.iter().filter(|s| s.kind == SegmentKind::Work) {
        let k = keys[s.job.unwrap() as usize] as usize;
        assert_eq!(*owner[k].get_or_insert(s.worker), s.worker, "key {k}");
        assert_eq!(u32::from(s.worker), k as u32 % 5, "key {k}'s group");
    }
}

#[test]
fn the_remedies_run_every_job_once_and_finish() {
    for strategy in [Strategy::SplitQueues, Strategy::PerKey] {
        for (workers, keys, seed) in [(1, 1, 1), (4, 1, 2), (8, 3, 3), (3, 500, 4), (64, 9, 5)] {
            for durations in [
                Durations::Fixed { us: 5_000 },
                Durations::LongTail {
                    min_us: 1_000,
                    max_us: 300_000,
                },
            ] {
                let out = run(Params {
                    strategy,
                    workers,
                    jobs: 300,
                    keys,
                    durations,
                    seed,
                    ..Params::default()
                });
                let what = format!("{strategy}, {workers} workers, {keys} keys");
                assert_eq!(out.distinct_jobs, 300, "{what}");
                assert_eq!(out.executions, 300, "{what}");
                assert_eq!(out.jobs_done, 300, "{what}");
                assert_eq!(out.key_inversions, 0, "{what}");
                assert!(out.elapsed_us > 0, "{what}");
            }
        }
        let limited = run(Params {
            strategy,
            jobs: 1_000,
            keys: 2,
            max_executions: Some(50),
            ..Params::default()
        });
        assert_eq!(limited.executions, 50, "{strategy}");
    }
}

#[test]
fn per_key_costs_throughput_only_when_keys_are_few() {
    let tp = |strategy, keys| {
        run(Params {
            strategy,
            workers: 8,
            jobs: 800,
            keys,
            ..Params::default()
        })
        .jobs_per_s
    };
    let one = run(Params {
        workers: 1,
        jobs: 800,
        ..Params::default()
    })
    .jobs_per_s;
    // One key: one job at a time, one worker's pace (plus the wake-up's half round trip).
    let single = tp(Strategy::PerKey, 1);
    assert!(
        (single / one - 1.0).abs() < 0.05,
        "per-key, 1 key: {single:.1}/s vs one worker {one:.1}/s"
    );
    // Many keys: nearly SKIP LOCKED's pace.
    let lease = tp(Strategy::SkipLockedLease, 64);
    let many = tp(Strategy::PerKey, 64);
    assert!(
        many > 0.95 * lease,
        "per-key {many:.1}/s vs lease {lease:.1}/s"
    );
    assert!(lease > 6.0 * one);
}

#[test]
fn idle_per_key_workers_show_in_the_timeline() {
    let out = run(Params {
        strategy: Strategy::PerKey,
        workers: 4,
        keys: 2,
        ..Params::default()
    });
    assert!(out.timeline.iter().any(|s| s.kind == SegmentKind::Idle));
    let lease = run(Params {
        workers: 4,
        keys: 2,
        ..Params::default()
    });
    assert!(lease.timeline.iter().all(|s| s.kind != SegmentKind::Idle));
}

#[test]
fn keys_are_drawn_from_the_seed_within_range_and_leave_the_article_strategies_alone() {
    let p = Params {
        jobs: 5_000,
        keys: 7,
        ..Params::default()
    };
    let a = job_keys(&p);
    assert_eq!(a, job_keys(&p));
    assert_ne!(
        a,
        job_keys(&Params {
            seed: 43,
            ..p.clone()
        })
    );
    assert!(a.iter().all(|&k| k < 7));
    for k in 0..7 {
        let n = a.iter().filter(|&&x| x == k).count();
        assert!((600..830).contains(&n), "key {k}: {n} of 5,000");
    }
    // The keys change per-key counts, never an article strategy's run.
    for strategy in Strategy::ALL {
        let x = with(strategy, &p);
        let y = with(
            strategy,
            &Params {
                keys: 3,
                ..p.clone()
            },
        );
        assert_eq!(x.timeline, y.timeline, "{strategy}");
        assert_eq!(x.inversions, y.inversions, "{strategy}");
    }
    let err = simulate(&Params { keys: 0, ..p }).expect_err("0 keys");
    assert_eq!(err.field, "keys");
    assert!(err.to_string().contains("between 1 and 200000"));
}

#[test]
fn remedy_ids_round_trip() {
    assert_eq!(
        Strategy::ORDERING.map(Strategy::as_str),
        ["skip-locked-lease", "split-queues", "per-key"]
    );
    for s in Strategy::ORDERING {
        assert_eq!(Strategy::parse(s.as_str()), Some(s));
        assert!(!s.holds_transaction_during_job());
    }
}
