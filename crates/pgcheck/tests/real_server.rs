//! The simulator held to a real PostgreSQL server: the four strategies run with real
//! concurrent connections, and the simulator at matching inputs must show the same
//! behaviour. Needs `QUEUE_LAB_PG_URL` (start a local server with `scripts/pg-local.sh start`);
//! without it every test here fails, on purpose, rather than passing without checking.
//!
//! All tests share one set of runs (made once, by whichever test comes first), so the real
//! server sees one experiment at a time and the whole file takes a few seconds.

use std::collections::HashMap;
use std::sync::OnceLock;

use pgcheck::{matching_params, measure_round_trip, run_strategy, Config};
use queue_sim::{simulate, Strategy, Summary};

const WORKERS: u32 = 4;
/// Work per job. Long enough that sleeping workers, not the 2-core CPU, set the pace, so
/// throughput ratios mean something on a small machine.
const JOB_US: u64 = 2_000;

struct Runs {
    real: HashMap<Strategy, Summary>,
    sim: HashMap<Strategy, Summary>,
    /// SKIP LOCKED (transaction held) with one worker: the single-worker baseline.
    real_one: Summary,
    sim_one: Summary,
}

fn runs() -> &'static Runs {
    static RUNS: OnceLock<Result<Runs, String>> = OnceLock::new();
    match RUNS.get_or_init(make_runs) {
        Ok(runs) => runs,
        Err(message) => panic!("{message}"),
    }
}

fn make_runs() -> Result<Runs, String> {
    let url = std::env::var("QUEUE_LAB_PG_URL").map_err(|_| {
        "QUEUE_LAB_PG_URL is not set, so the simulator cannot be checked against a real \
         server. Start one with `scripts/pg-local.sh start` and run again with \
         QUEUE_LAB_PG_URL set to the URL it prints, e.g. \
         QUEUE_LAB_PG_URL=$(scripts/pg-local.sh start) cargo test -p pgcheck"
            .to_string()
    })?;
    let cfg = Config {
        database_url: url,
        workers: WORKERS,
        jobs: 5_000,
        executions: 600,
        job_us: JOB_US,
        gap_us: 100,
    };
    let rtt = measure_round_trip(&cfg.database_url, cfg.jobs).map_err(|e| e.to_string())?;
    let mut real = HashMap::new();
    let mut sim = HashMap::new();
    let one_cfg = Config {
        workers: 1,
        executions: 150,
        ..cfg.clone()
    };
    let pair = |cfg: &Config, strategy| -> Result<(Summary, Summary), String> {
        let r = run_strategy(cfg, strategy).map_err(|e| e.to_string())?;
        let params = matching_params(cfg, strategy, rtt, r.mean_work_us);
        let s = simulate(&params).map_err(|e| e.to_string())?;
        eprintln!(
            "{strategy}, {} workers: pg {:.0} jobs/s, {} dup; sim {:.0} jobs/s, {} dup",
            cfg.workers,
            r.summary.jobs_per_s,
            r.summary.jobs_run_more_than_once,
            s.jobs_per_s,
            s.jobs_run_more_than_once
        );
        Ok((r.summary, s.summary()))
    };
    for strategy in Strategy::ALL {
        let (r, s) = pair(&cfg, strategy)?;
        real.insert(strategy, r);
        sim.insert(strategy, s);
    }
    let (real_one, sim_one) = pair(&one_cfg, Strategy::SkipLockedTx)?;
    Ok(Runs {
        real,
        sim,
        real_one,
        sim_one,
    })
}

/// Both sides, labelled, for assertions that must hold on each.
fn both(strategy: Strategy) -> [(&'static str, &'static Summary); 2] {
    let r = runs();
    [("pg", &r.real[&strategy]), ("sim", &r.sim[&strategy])]
}

#[test]
fn naive_runs_jobs_more_than_once_on_the_server_and_in_the_simulator() {
    for (side, s) in both(Strategy::Naive) {
        assert!(
            s.jobs_run_more_than_once > 0,
            "{side}: naive ran no job twice: {s:?}"
        );
        assert!(s.distinct_jobs < s.executions, "{side}: {s:?}");
    }
}

#[test]
fn for_update_and_skip_locked_never_run_a_job_twice_on_either_side() {
    for strategy in [
        Strategy::ForUpdate,
        Strategy::SkipLockedTx,
        Strategy::SkipLockedLease,
    ] {
        for (side, s) in both(strategy) {
            assert_eq!(s.jobs_run_more_than_once, 0, "{side} {strategy}: {s:?}");
            assert_eq!(s.distinct_jobs, s.executions, "{side} {strategy}: {s:?}");
        }
    }
}

#[test]
fn for_update_stays_near_one_workers_throughput_while_skip_locked_scales() {
    let r = runs();
    for (side, one, map) in [("pg", &r.real_one, &r.real), ("sim", &r.sim_one, &r.sim)] {
        let base = one.jobs_per_s;
        let for_update = map[&Strategy::ForUpdate].jobs_per_s / base;
        let skip_tx = map[&Strategy::SkipLockedTx].jobs_per_s / base;
        let lease = map[&Strategy::SkipLockedLease].jobs_per_s / base;
        // FOR UPDATE with 4 workers: between 0.5× and 2× one worker, and below either SKIP
        // LOCKED figure. It should be about 1×, but at each hand-over of the head lock the
        // waiting backends wake, re-check the row (now done), move on to the next one and
        // race for it, so a claim can overlap the end of the previous job; on a loaded
        // 2-core machine those wake-ups and the sleeps' own overshoot have moved the real
        // figure from 0.8× to 1.5× between runs. Both bounds stay well clear of SKIP
        // LOCKED's ≥ 2.5× below.
        assert!(
            (0.5..=2.0).contains(&for_update),
            "{side}: for-update at 4 workers is {for_update:.2}× one worker"
        );
        assert!(
            for_update < skip_tx.min(lease),
            "{side}: for-update ({for_update:.2}×) is not below SKIP LOCKED ({skip_tx:.2}×, {lease:.2}×)"
        );
        // SKIP LOCKED with 4 workers: at least 2.5× one worker. Ideal is 4× (jobs are
        // sleeps), but 4 clients and 4 backends share 2 cores for the claim statements.
        assert!(
            skip_tx >= 2.5,
            "{side}: skip-locked-tx at 4 workers is only {skip_tx:.2}× one worker"
        );
        assert!(
            lease >= 2.5,
            "{side}: skip-locked-lease at 4 workers is only {lease:.2}× one worker"
        );
    }
}

#[test]
fn skip_locked_tx_holds_a_transaction_per_worker_for_the_whole_job_and_the_lease_does_not() {
    for side in 0..2 {
        let (name, tx) = both(Strategy::SkipLockedTx)[side];
        let lease = both(Strategy::SkipLockedLease)[side].1;
        // (c): every busy worker sits in a transaction nearly all the time, and a
        // transaction lasts at least one job.
        assert!(
            tx.mean_in_tx >= 0.75 * f64::from(WORKERS),
            "{name}: skip-locked-tx mean in tx {:.2}",
            tx.mean_in_tx
        );
        assert!(
            tx.longest_tx_us >= JOB_US,
            "{name}: skip-locked-tx longest tx {} µs is shorter than a job",
            tx.longest_tx_us
        );
        // (d): transactions are single statements between jobs, so on average fewer than
        // half the workers are inside one.
        assert!(
            lease.mean_in_tx <= 0.5 * f64::from(WORKERS),
            "{name}: skip-locked-lease mean in tx {:.2}",
            lease.mean_in_tx
        );
        assert!(lease.mean_in_tx < tx.mean_in_tx / 2.0);
    }
}
