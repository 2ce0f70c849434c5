use super::*;
use queue_sim::simulate;
use std::cell::Cell;

fn params(strategy: Strategy, jobs: u32) -> Params {
    Params {
        strategy,
        workers: 8,
        jobs,
        durations: Durations::LongTail {
            min_us: 2_000,
            max_us: 90_000,
        },
        max_executions: Some(jobs + 7),
        timeline_limit: 3_000,
        ..Params::default()
    }
}

fn job() -> Job {
    Job {
        groups: vec![
            Strategy::ALL.map(|s| params(s, 3_000)).to_vec(),
            Strategy::ORDERING.map(|s| params(s, 3_000)).to_vec(),
            vec![Params::default()],
        ],
    }
}

#[test]
fn a_job_decodes_to_the_params_it_was_encoded_from() {
    let j = job();
    assert_eq!(Job::decode(&j.encode()), Ok(j));
}

#[test]
fn the_worker_returns_bit_for_bit_what_simulate_returns_on_the_page() {
    let j = job();
    let clock = Cell::new(0.0);
    let now = || {
        clock.set(clock.get() + 1.0);
        clock.get()
    };
    let done = run_job(&j, &now, &mut |_| {}).expect("valid");
    let back = Done::decode(&done.encode()).expect("decodes");
    assert_eq!(back, done);
    for (group, params) in back.groups.iter().zip(&j.groups) {
        let direct: Vec<Outcome> = params.iter().map(|p| simulate(p).expect("valid")).collect();
        assert_eq!(group.outcomes, direct);
        // Every float crossed as its bits.
        for (a, b) in group.outcomes.iter().zip(&direct) {
            assert_eq!(a.jobs_per_s.to_bits(), b.jobs_per_s.to_bits());
            assert_eq!(a.tx.mean_in_tx.to_bits(), b.tx.mean_in_tx.to_bits());
        }
    }
    assert!(
        back.groups[0].outcomes[0].timeline.len() > 100,
        "the timeline crossed too"
    );
}

#[test]
fn progress_is_posted_only_after_its_interval_of_wall_time_and_grows_to_at_most_one() {
    let j = Job {
        groups: vec![
            vec![params(Strategy::SkipLockedLease, 40_000)],
            vec![params(Strategy::Naive, 40_000)],
        ],
    };
    // A clock that moves 20 ms per reading: the hook reads it once per call.
    let clock = Cell::new(0.0);
    let now = || {
        clock.set(clock.get() + 20.0);
        clock.get()
    };
    let mut seen = Vec::new();
    let mut last_at = 0.0;
    run_job(&j, &now, &mut |f| {
        let at = clock.get();
        assert!(
            seen.is_empty() || at - last_at >= PROGRESS_MS,
            "posted {} ms after the last",
            at - last_at
        );
        last_at = at;
        seen.push(f);
    })
    .expect("valid");
    assert!(seen.len() >= 2, "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(seen.iter().all(|f| (0.0..=1.0).contains(f)));
    assert!(
        seen.iter().any(|f| *f > 0.5),
        "the second group counts after the first: {seen:?}"
    );

    // A wall clock that stands still: nothing is posted.
    let mut calls = 0;
    run_job(&j, &|| 5.0, &mut |_| calls += 1).expect("valid");
    assert_eq!(calls, 0);
}

#[test]
fn a_refused_run_ends_the_job_with_the_simulators_message() {
    let mut j = job();
    j.groups[1][0].workers = 0;
    let err = run_job(&j, &|| 0.0, &mut |_| {}).unwrap_err();
    assert!(err.contains("between 1 and 64"), "{err}");
}

#[test]
fn a_cut_or_padded_message_is_refused_with_a_reason() {
    let done = run_job(&job(), &|| 0.0, &mut |_| {})
        .expect("valid")
        .encode();
    assert!(Done::decode(&done[..done.len() - 1]).is_err());
    let mut longer = done.clone();
    longer.push(0);
    assert!(Done::decode(&longer).unwrap_err().contains("left over"));
    assert!(Job::decode(&[9, 9, 9, 9]).is_err());
}

#[test]
fn the_warm_up_runs_every_strategy_the_page_can_run_once() {
    let mut ran: Vec<&str> = warm_up().into_iter().map(Strategy::as_str).collect();
    ran.sort_unstable();
    assert_eq!(
        ran,
        [
            "for-update",
            "naive",
            "per-key",
            "skip-locked-lease",
            "skip-locked-tx",
            "split-queues"
        ]
    );
}
