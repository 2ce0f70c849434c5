//! Each tour step, run as the page runs it (its inputs through `to_params`, the strategies
//! chosen and the ordering comparison), shows what its text says about the marked figures.

use super::super::model::{self, Inputs};
use super::{Look, Table, TOUR};
use crate::keys;
use queue_sim::{Outcome, Strategy};

struct Ran {
    outs: Vec<Outcome>,
    ordering: Vec<Outcome>,
}

impl Ran {
    fn of(&self, table: Table, s: Strategy) -> &Outcome {
        let list = match table {
            Table::Results => &self.outs,
            Table::Ordering => &self.ordering,
        };
        list.iter()
            .find(|o| o.params.strategy == s)
            .unwrap_or_else(|| panic!("{s} ran in {table:?}"))
    }
    fn res(&self, s: Strategy) -> &Outcome {
        self.of(Table::Results, s)
    }
    fn ord(&self, s: Strategy) -> &Outcome {
        self.of(Table::Ordering, s)
    }
}

fn run_step(i: usize) -> Ran {
    let inputs: Inputs = TOUR[i].inputs();
    let params = inputs.to_params().expect("a tour step's inputs are valid");
    let outs = model::run(&params).expect("runs");
    let ordering = model::run(&model::ordering_params(&params[0])).expect("runs");
    Ran { outs, ordering }
}

use Strategy::*;

#[test]
fn every_marked_figure_is_a_cell_the_step_shows() {
    // The metric ids the two tables give their cells (`data-metric`).
    let results = [
        "executions",
        "distinct",
        "dups",
        "lock-wait",
        "lock-waits",
        "elapsed",
        "throughput",
        "max-tx",
        "mean-tx",
        "longest-tx",
        "inversions",
    ];
    let ordering = ["throughput", "key-inversions", "inversions", "elapsed"];
    for (i, step) in TOUR.iter().enumerate() {
        let ran = run_step(i);
        assert!(!step.look.is_empty(), "step {} marks something", i + 1);
        for Look {
            table,
            metric,
            strategies,
        } in step.look
        {
            let ids: &[&str] = match table {
                Table::Results => &results,
                Table::Ordering => &ordering,
            };
            assert!(
                ids.contains(metric),
                "step {}: {metric} in {table:?}",
                i + 1
            );
            for s in *strategies {
                ran.of(*table, *s);
            }
        }
    }
}

#[test]
fn step_1_one_worker_runs_every_job_once_in_order_at_one_pace() {
    let r = run_step(0);
    let tp = r.res(Naive).jobs_per_s;
    for o in &r.outs {
        assert_eq!(o.params.workers, 1);
        assert_eq!(o.inversions, 0, "{}", o.params.strategy);
        assert_eq!(o.jobs_run_more_than_once, 0, "{}", o.params.strategy);
        assert!(
            (o.jobs_per_s - tp).abs() < 1.0,
            "{}: {} vs {tp}",
            o.params.strategy,
            o.jobs_per_s
        );
    }
}

#[test]
fn step_2_only_the_naive_claim_runs_jobs_twice() {
    let r = run_step(1);
    let naive = r.res(Naive);
    assert!(naive.jobs_run_more_than_once > 0);
    assert!(naive.executions > u64::from(naive.params.jobs));
    for s in [ForUpdate, SkipLockedTx, SkipLockedLease] {
        assert_eq!(r.res(s).jobs_run_more_than_once, 0, "{s}");
    }
}

#[test]
fn step_3_for_update_waits_and_gains_nothing_over_one_worker() {
    let one = run_step(0);
    let r = run_step(2);
    let b = r.res(ForUpdate);
    assert!(b.lock_waits > 0);
    assert!(b.jobs_per_s * 2.0 < r.res(SkipLockedTx).jobs_per_s);
    assert!(b.jobs_per_s < one.res(ForUpdate).jobs_per_s * 1.2);
}

#[test]
fn step_4_the_lease_closes_its_transaction_at_the_same_pace() {
    let r = run_step(3);
    let (c, d) = (r.res(SkipLockedTx), r.res(SkipLockedLease));
    // The body says "at the same pace": within the reading's own rule of thumb.
    assert_eq!(
        crate::labs::workers::model::pace_vs_tx(d.jobs_per_s, c.jobs_per_s).key,
        keys::WORKERS_READ_PACE_SAME
    );
    assert!(d.tx.mean_in_tx * 10.0 < c.tx.mean_in_tx);
    assert!(d.tx.longest_tx_us * 10 < c.tx.longest_tx_us);
}

#[test]
fn step_5_many_workers_go_faster_and_lose_order_but_not_the_remedies() {
    let one = run_step(0);
    let r = run_step(4);
    let d = r.res(SkipLockedLease);
    assert!(d.jobs_per_s > 4.0 * one.res(SkipLockedLease).jobs_per_s);
    assert!(d.inversions > 0);
    assert!(r.ord(SkipLockedLease).key_inversions > 0);
    assert_eq!(r.ord(SplitQueues).key_inversions, 0);
    assert_eq!(r.ord(PerKey).key_inversions, 0);
}

#[test]
fn step_6_one_key_keeps_order_at_one_workers_pace() {
    let one = run_step(0);
    let r = run_step(5);
    assert_eq!(r.ord(PerKey).params.keys, 1);
    assert!(r.ord(SkipLockedLease).key_inversions > 0);
    let single = one.res(SkipLockedLease).jobs_per_s;
    for s in [SplitQueues, PerKey] {
        let o = r.ord(s);
        assert_eq!(o.key_inversions, 0, "{s}");
        assert!(
            o.jobs_per_s < single * 1.2,
            "{s}: {} vs {single}",
            o.jobs_per_s
        );
        assert!(
            o.jobs_per_s * 4.0 < r.ord(SkipLockedLease).jobs_per_s,
            "{s}"
        );
    }
}

#[test]
fn a_step_body_states_its_own_inputs() {
    for step in &TOUR {
        let i = step.inputs();
        let m = step.body_msg();
        let arg = |n: &str| m.args.iter().find(|(k, _)| *k == n).map(|(_, v)| v.clone());
        assert_eq!(arg("workers"), Some(i.workers.clone()));
        assert_eq!(arg("keys"), Some(i.keys.clone()));
    }
}
