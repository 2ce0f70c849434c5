//! The simulator held to a real PostgreSQL server: the four strategies, and the two ordering
//! remedies beside SKIP LOCKED, run with real concurrent connections, and the simulator at
//! matching inputs must show the same behaviour. Needs `QUEUE_LAB_PG_URL` (start a local server with `scripts/pg-local.sh start`);
//! without it every test here fails, on purpose, rather than passing without checking.
//!
//! All tests share one set of runs (made once, by whichever test comes first), so the real
//! server sees one experiment at a time and the whole file takes a few seconds.

use std::collections::HashMap;
use std::sync::OnceLock;

use pgcheck::{matching_params, measure_round_trip, run_strategy, Config, RealRun};
use queue_sim::{simulate, Strategy, Summary};

const WORKERS: u32 = 4;
/// Job keys in the ordering runs: twice the workers, so SKIP LOCKED often runs two jobs of
/// one key at once and per-key serialization rarely leaves a worker without a claimable job.
const KEYS: u32 = 8;
/// Work per job. Long enough that sleeping workers, not the 2-core CPU, set the pace, so
/// throughput ratios mean something on a small machine.
const JOB_US: u64 = 2_000;

struct Runs {
    real: HashMap<Strategy, Summary>,
    sim: HashMap<Strategy, Summary>,
    /// SKIP LOCKED (transaction held) with one worker: the single-worker baseline.
    real_one: Summary,
    sim_one: Summary,
    /// Lease, split queues and per-key over `KEYS` keys: (pg, sim).
    ordering: HashMap<Strategy, (RealRun, queue_sim::Outcome)>,
    /// Per-key with a single key: (pg, sim) jobs per second.
    per_key_one_key: (f64, f64),
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
        keys: KEYS,
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
    let run_both = |cfg: &Config, strategy| -> Result<(RealRun, queue_sim::Outcome), String> {
        let r = run_strategy(cfg, strategy).map_err(|e| e.to_string())?;
        let s = simulate(&matching_params(cfg, strategy, rtt, r.mean_work_us))
            .map_err(|e| e.to_string())?;
        eprintln!(
            "{strategy}, {} workers, {} keys: pg {:.0} jobs/s, {} per-key inversions; \
             sim {:.0} jobs/s, {} per-key inversions",
            cfg.workers,
            cfg.keys,
            r.summary.jobs_per_s,
            r.key_inversions,
            s.jobs_per_s,
            s.key_inversions
        );
        Ok((r, s))
    };
    let mut ordering = HashMap::new();
    for strategy in Strategy::ORDERING {
        ordering.insert(strategy, run_both(&cfg, strategy)?);
    }
    let one_key = Config {
        keys: 1,
        executions: 150,
        ..cfg.clone()
    };
    let (r1, s1) = run_both(&one_key, Strategy::PerKey)?;
    Ok(Runs {
        real,
        sim,
        real_one,
        sim_one,
        ordering,
        per_key_one_key: (r1.summary.jobs_per_s, s1.jobs_per_s),
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

#[test]
fn per_key_serialization_and_split_queues_keep_each_keys_order_where_skip_locked_does_not() {
    let o = &runs().ordering;
    let (pg, _) = &o[&Strategy::SkipLockedLease];
    // Without a remedy, jobs of one key overlap and finish out of enqueue order on the real
    // server (real sleeps overshoot unevenly: 7 to 34 per-key inversions in nine runs here).
    // The simulator at matching inputs gives every job the same fixed duration, so only the
    // round trips' jitter reorders it (0 to 4 here): its side is checked with varied
    // durations in crates/sim/tests/ordering.rs, and here only for the remedies.
    assert!(pg.key_inversions > 0, "pg: lease kept every key's order");
    for strategy in [Strategy::PerKey, Strategy::SplitQueues] {
        let (pg, sim) = &o[&strategy];
        assert_eq!(pg.key_inversions, 0, "pg {strategy}");
        assert_eq!(sim.key_inversions, 0, "sim {strategy}");
        assert_eq!(pg.summary.jobs_run_more_than_once, 0, "pg {strategy}");
        assert_eq!(
            pg.summary.distinct_jobs, pg.summary.executions,
            "pg {strategy}"
        );
    }
}

#[test]
fn per_key_keeps_skip_lockeds_pace_over_many_keys_and_one_workers_over_one_key() {
    let r = runs();
    let (pg_one_key, sim_one_key) = r.per_key_one_key;
    for (side, base, many, one_key) in [
        (
            "pg",
            r.real_one.jobs_per_s,
            r.ordering[&Strategy::PerKey].0.summary.jobs_per_s,
            pg_one_key,
        ),
        (
            "sim",
            r.sim_one.jobs_per_s,
            r.ordering[&Strategy::PerKey].1.jobs_per_s,
            sim_one_key,
        ),
    ] {
        // Over 8 keys, 4 workers rarely find every ready job behind a running one of its key:
        // the same ≥ 2.5× one worker that SKIP LOCKED must reach above.
        let many = many / base;
        assert!(
            many >= 2.5,
            "{side}: per-key over {KEYS} keys is only {many:.2}× one worker"
        );
        // One key: one job at a time, so never above one worker's pace however many workers
        // (≤ 1.5×: the machine's noise, as for FOR UPDATE); if jobs of the key overlapped,
        // 4 workers would approach 4×. In the simulator also not far below it; on the real
        // server it is well below (0.2–0.3× measured on a busy 2-core machine): while the one
        // running job blocks every other, each idle worker's claim scans every ready job of
        // the key to find none claimable, and those scans compete for the CPU.
        let one = one_key / base;
        assert!(
            one <= 1.5,
            "{side}: per-key over one key is {one:.2}× one worker"
        );
        if side == "sim" {
            assert!(
                one >= 0.5,
                "sim: per-key over one key is {one:.2}× one worker"
            );
        }
    }
}
