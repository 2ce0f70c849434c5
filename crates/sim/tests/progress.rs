//! The progress hook (what L2's worker reports while a long run goes on): called as the run
//! advances, never backwards, and without changing the outcome by one bit.

use queue_sim::{simulate, simulate_with_progress, Durations, Params, Strategy, PROGRESS_EVERY};

fn big(strategy: Strategy) -> Params {
    Params {
        strategy,
        workers: 16,
        jobs: 20_000,
        durations: Durations::Uniform {
            min_us: 5_000,
            max_us: 15_000,
        },
        ..Params::default()
    }
}

#[test]
fn the_hook_sees_time_and_completions_grow_and_the_outcome_is_the_one_simulate_returns() {
    for strategy in Strategy::ALL.into_iter().chain(Strategy::ORDERING) {
        let p = big(strategy);
        let mut seen = Vec::new();
        let out = simulate_with_progress(&p, &mut |pr| seen.push(pr)).expect("valid");
        assert_eq!(
            out,
            simulate(&p).expect("valid"),
            "{strategy}: same outcome"
        );
        assert!(
            seen.len() >= 2,
            "{strategy}: the hook was called {} times",
            seen.len()
        );
        assert!(seen.iter().all(|pr| pr.jobs == p.jobs));
        for pair in seen.windows(2) {
            assert!(
                pair[0].now_us <= pair[1].now_us,
                "{strategy}: time went back"
            );
            assert!(
                pair[0].completions <= pair[1].completions,
                "{strategy}: completions went back"
            );
        }
        let last = seen.last().expect("called");
        assert!(last.completions > 0 && last.now_us <= out.elapsed_us);
        assert!(last.completions <= out.completions);
    }
}

#[test]
fn a_run_shorter_than_the_hooks_interval_never_calls_it() {
    let p = Params {
        jobs: 10,
        ..Params::default()
    };
    let mut calls = 0;
    simulate_with_progress(&p, &mut |_| calls += 1).expect("valid");
    assert_eq!(
        calls, 0,
        "10 jobs are far fewer than {PROGRESS_EVERY} events"
    );
}
