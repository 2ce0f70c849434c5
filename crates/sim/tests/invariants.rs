//! The simulator's promises, checked through its public API: no job lost, no job run twice
//! where the strategy forbids it, determinism, validation, and what each strategy does to
//! transactions. Each test fails if the behaviour it names breaks.

use queue_sim::{simulate, Durations, Outcome, Params, SegmentKind, Strategy};

const LOCKING: [Strategy; 3] = [
    Strategy::ForUpdate,
    Strategy::SkipLockedTx,
    Strategy::SkipLockedLease,
];

fn run(params: Params) -> Outcome {
    simulate(&params).expect("test params are valid")
}

fn shapes() -> [Durations; 3] {
    [
        Durations::Fixed { us: 20_000 },
        Durations::Uniform {
            min_us: 1_000,
            max_us: 40_000,
        },
        Durations::LongTail {
            min_us: 2_000,
            max_us: 2_000_000,
        },
    ]
}

#[test]
fn every_job_is_run_and_ends_done_under_every_strategy() {
    for strategy in Strategy::ALL {
        for durations in shapes() {
            for (workers, seed) in [(1, 1), (3, 2), (8, 3), (64, 4)] {
                let out = run(Params {
                    strategy,
                    workers,
                    jobs: 500,
                    durations,
                    seed,
                    ..Params::default()
                });
                let what = format!("{strategy}, {workers} workers, {}", durations.kind());
                assert_eq!(out.distinct_jobs, 500, "{what}: some job never ran");
                assert_eq!(out.jobs_done, 500, "{what}: some job is not done");
            }
        }
    }
}

#[test]
fn for_update_and_skip_locked_never_run_a_job_twice() {
    for strategy in LOCKING {
        for durations in shapes() {
            for seed in 0..4 {
                let out = run(Params {
                    strategy,
                    workers: 16,
                    jobs: 400,
                    durations,
                    latency_us: 2_000,
                    seed,
                    ..Params::default()
                });
                assert_eq!(out.jobs_run_more_than_once, 0, "{strategy}: duplicate runs");
                assert_eq!(out.executions, 400, "{strategy}: executions ≠ jobs");
            }
        }
    }
}

#[test]
fn naive_runs_jobs_twice_when_workers_contend_and_never_alone() {
    let contended = run(Params {
        strategy: Strategy::Naive,
        workers: 4,
        ..Params::default()
    });
    assert!(
        contended.jobs_run_more_than_once > 0,
        "4 naive workers must collide on the head row"
    );
    assert!(contended.executions > u64::from(contended.distinct_jobs));
    let alone = run(Params {
        strategy: Strategy::Naive,
        workers: 1,
        ..Params::default()
    });
    assert_eq!(
        alone.jobs_run_more_than_once, 0,
        "one worker cannot collide"
    );
}

#[test]
fn same_seed_gives_an_identical_outcome_and_timeline() {
    for strategy in Strategy::ALL {
        let params = Params {
            strategy,
            workers: 6,
            jobs: 300,
            durations: Durations::LongTail {
                min_us: 3_000,
                max_us: 500_000,
            },
            seed: 99,
            ..Params::default()
        };
        let a = run(params.clone());
        let b = run(params.clone());
        assert!(!a.timeline.is_empty());
        assert_eq!(a.timeline, b.timeline, "{strategy}: timelines differ");
        assert_eq!(a, b, "{strategy}: outcomes differ");
        let other = run(Params {
            seed: 100,
            ..params
        });
        assert_ne!(
            a.timeline, other.timeline,
            "{strategy}: the seed is ignored"
        );
    }
}

#[test]
fn out_of_range_inputs_are_refused_with_a_message_naming_the_field() {
    let ok = Params::default();
    let cases: Vec<(Params, &str, &str)> = vec![
        (
            Params {
                workers: 0,
                ..ok.clone()
            },
            "workers",
            "between 1 and 64",
        ),
        (
            Params {
                workers: 65,
                ..ok.clone()
            },
            "workers",
            "got 65",
        ),
        (
            Params {
                jobs: 0,
                ..ok.clone()
            },
            "jobs",
            "between 1 and 200000",
        ),
        (
            Params {
                jobs: u32::MAX,
                ..ok.clone()
            },
            "jobs",
            "between 1 and 200000",
        ),
        (
            Params {
                latency_us: u64::MAX,
                ..ok.clone()
            },
            "latency_us",
            "at most",
        ),
        (
            Params {
                gap_us: 5_000_000,
                ..ok.clone()
            },
            "gap_us",
            "at most",
        ),
        (
            Params {
                durations: Durations::Uniform {
                    min_us: 9,
                    max_us: 1,
                },
                ..ok.clone()
            },
            "durations",
            "longer than the longest",
        ),
        (
            Params {
                durations: Durations::Fixed { us: u64::MAX },
                ..ok.clone()
            },
            "durations",
            "30 s lease",
        ),
        (
            Params {
                durations: Durations::LongTail {
                    min_us: 0,
                    max_us: 10,
                },
                ..ok.clone()
            },
            "durations",
            "above 0",
        ),
        (
            Params {
                max_executions: Some(0),
                ..ok.clone()
            },
            "max_executions",
            "between",
        ),
        (
            Params {
                timeline_limit: u32::MAX,
                ..ok.clone()
            },
            "timeline_limit",
            "at most",
        ),
    ];
    for (params, field, words) in cases {
        let err = simulate(&params).expect_err("must be refused");
        assert_eq!(err.field, field);
        assert!(
            err.to_string().contains(words),
            "message for {field} should say {words:?}: {err}"
        );
    }
    assert!(ok.validate().is_ok());
}

#[test]
fn skip_locked_tx_holds_a_transaction_open_for_every_job_it_runs() {
    let out = run(Params {
        strategy: Strategy::SkipLockedTx,
        workers: 8,
        jobs: 400,
        ..Params::default()
    });
    assert!(!out.timeline_truncated);
    let works: Vec<_> = out
        .timeline
        .iter()
        .filter(|s| s.kind == SegmentKind::Work)
        .collect();
    assert_eq!(works.len(), 400);
    for work in works {
        let covered = out.transactions.iter().any(|tx| {
            tx.worker == work.worker && tx.start_us <= work.start_us && work.end_us <= tx.end_us
        });
        assert!(covered, "job {:?} ran outside a transaction", work.job);
    }
    // Busy workers are in a transaction nearly all the time: one per worker.
    assert!(
        out.tx.mean_in_tx > 0.9 * 8.0,
        "mean in tx {}",
        out.tx.mean_in_tx
    );
    assert_eq!(out.tx.max_in_tx, 8);
    assert!(
        out.tx.longest_tx_us >= 140_000,
        "a 150 ms job's transaction lasts as long"
    );
}

#[test]
fn skip_locked_lease_runs_every_job_outside_any_transaction() {
    let params = Params {
        strategy: Strategy::SkipLockedLease,
        workers: 8,
        jobs: 400,
        ..Params::default()
    };
    let out = run(params.clone());
    assert!(!out.timeline_truncated);
    for work in out.timeline.iter().filter(|s| s.kind == SegmentKind::Work) {
        let overlaps = out.transactions.iter().any(|tx| {
            tx.worker == work.worker && tx.start_us < work.end_us && work.start_us < tx.end_us
        });
        assert!(!overlaps, "job {:?} ran inside a transaction", work.job);
    }
    // A transaction is one statement: at most one round trip (+20 % jitter).
    assert!(out.tx.longest_tx_us <= params.latency_us * 12 / 10);
    assert!(out.tx.mean_in_tx < 0.5, "mean in tx {}", out.tx.mean_in_tx);
}

#[test]
fn for_update_stays_at_one_workers_throughput_while_skip_locked_scales() {
    let jobs_per_s = |strategy, workers| {
        run(Params {
            strategy,
            workers,
            jobs: 400,
            ..Params::default()
        })
        .jobs_per_s
    };
    let one = jobs_per_s(Strategy::SkipLockedTx, 1);
    let for_update = jobs_per_s(Strategy::ForUpdate, 8);
    let skip_tx = jobs_per_s(Strategy::SkipLockedTx, 8);
    let lease = jobs_per_s(Strategy::SkipLockedLease, 8);
    // FOR UPDATE serialises on the head row: within 10 % of one worker (it pays a little
    // extra for the lock hand-over chain).
    assert!(
        (for_update / one - 1.0).abs() < 0.10,
        "for-update {for_update:.1}/s vs one worker {one:.1}/s"
    );
    // SKIP LOCKED: 8 workers, 100 ms jobs, 1 ms round trips: close to 8×.
    assert!(
        skip_tx > 7.0 * one,
        "skip-locked-tx {skip_tx:.1}/s vs {one:.1}/s"
    );
    assert!(
        lease > 7.0 * one,
        "skip-locked-lease {lease:.1}/s vs {one:.1}/s"
    );
}

#[test]
fn for_update_completes_in_id_order_and_skip_locked_does_not() {
    let inversions = |strategy| {
        run(Params {
            strategy,
            ..Params::default()
        })
        .inversions
    };
    assert_eq!(inversions(Strategy::ForUpdate), 0);
    assert!(inversions(Strategy::SkipLockedTx) > 0);
    assert!(inversions(Strategy::SkipLockedLease) > 0);
}

#[test]
fn the_execution_limit_stops_new_claims() {
    for strategy in Strategy::ALL {
        let out = run(Params {
            strategy,
            jobs: 1_000,
            max_executions: Some(50),
            ..Params::default()
        });
        assert_eq!(out.executions, 50, "{strategy}");
        assert!(out.jobs_done <= 50);
    }
}

#[test]
fn the_timeline_limit_caps_what_is_kept_but_not_what_is_counted() {
    let full = run(Params::default());
    let capped = run(Params {
        timeline_limit: 10,
        ..Params::default()
    });
    assert!(!full.timeline_truncated);
    assert!(capped.timeline_truncated);
    assert_eq!(capped.timeline.len(), 10);
    assert!(capped.transactions.len() <= 10);
    assert_eq!(capped.executions, full.executions);
    assert_eq!(capped.tx, full.tx);
}

#[test]
fn strategy_ids_round_trip_and_unknown_ids_are_refused() {
    let ids: Vec<&str> = Strategy::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(
        ids,
        ["naive", "for-update", "skip-locked-tx", "skip-locked-lease"]
    );
    for s in Strategy::ALL {
        assert_eq!(Strategy::parse(s.as_str()), Some(s));
        assert_eq!(s.to_string(), s.as_str());
    }
    assert_eq!(Strategy::parse("skip_locked"), None);
    assert_eq!(Strategy::parse("NAIVE"), None);
}

#[test]
fn a_timeline_never_overlaps_itself_within_a_worker() {
    for strategy in Strategy::ALL {
        let out = run(Params {
            strategy,
            workers: 5,
            ..Params::default()
        });
        for w in 0..5u16 {
            let mut segs: Vec<_> = out.timeline.iter().filter(|s| s.worker == w).collect();
            segs.sort_by_key(|s| s.start_us);
            for pair in segs.windows(2) {
                assert!(
                    pair[0].end_us <= pair[1].start_us,
                    "{strategy}: worker {w} does two things at once"
                );
            }
            assert!(segs.iter().all(|s| s.start_us < s.end_us));
        }
    }
}
