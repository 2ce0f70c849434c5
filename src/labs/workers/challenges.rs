//! L2's challenges, in the tour's format (see [`crate::labs::challenge`]): each step is the
//! tour's one action (inputs set and run), and each check a rule over the figures of the run
//! on screen ([`Ran`]), since L2 has no tables. The texts are `workers.ch.<name>.*` in
//! `assets/i18n/workers.tsv`. The answers are computed from the simulator here, never typed:
//! a solution's steps are the answer and its near miss.

use super::model::{Inputs, Pick, Ran, Shape};
use super::tour::all_four;
use crate::keys;
use crate::labs::challenge::{Challenge, Check};
use queue_sim::Strategy::{self, *};
use queue_sim::{simulate, Outcome, Params, MAX_KEYS, MAX_WORKERS};

/// (b) "does less than half of (c)'s work": its throughput under this share of (c)'s, in %.
pub const HALF_PERCENT: f64 = 50.0;

/// An ordering remedy "keeps the pace": at least this share of (d)'s throughput, in %.
pub const KEEP_PERCENT: f64 = 90.0;

/// The ordering challenge is about many workers: at least this many.
pub const MANY_WORKERS: u32 = 16;

/// "A transaction open for a second": (c)'s longest, in µs.
pub const LONG_TX_US: u64 = 1_000_000;

/// The outcome of `strategy` among `outs`.
fn find(outs: &[Outcome], strategy: Strategy) -> Option<&Outcome> {
    outs.iter().find(|o| o.params.strategy == strategy)
}

/// Whether `p` is the simulator's defaults but for its strategy, its workers and what it keeps
/// for the timeline.
fn defaults_but_workers(p: &Params) -> bool {
    let d = Params::default();
    p.jobs == d.jobs
        && p.durations == d.durations
        && p.latency_us == d.latency_us
        && p.gap_us == d.gap_us
        && p.max_executions == d.max_executions
        && p.seed == d.seed
        && p.keys == d.keys
}

/// Whether the naive claim runs some job twice with `workers` workers, the rest of `p` kept.
fn naive_runs_twice(p: &Params, workers: u32) -> bool {
    let p = Params {
        strategy: Naive,
        workers,
        timeline_limit: 0,
        ..p.clone()
    };
    simulate(&p).is_ok_and(|o| o.jobs_run_more_than_once > 0)
}

/// Challenge 1: the naive claim ran a job twice, at the defaults (seed 42), and one worker
/// fewer does not (the check simulates that neighbour, which the learner can run too).
fn naive_twice(r: &Ran) -> bool {
    let Some(o) = find(&r.outs, Naive) else {
        return false;
    };
    let p = &o.params;
    defaults_but_workers(p)
        && o.jobs_run_more_than_once > 0
        && p.workers > 1
        && !naive_runs_twice(p, p.workers - 1)
}

/// The answer to challenge 1: the fewest workers at which the naive claim runs a job twice.
pub fn fewest_naive_twice() -> u32 {
    let d = Params::default();
    (2..=MAX_WORKERS)
        .find(|w| naive_runs_twice(&d, *w))
        .unwrap_or(MAX_WORKERS)
}

/// (b)'s throughput as a share of (c)'s, in %, when both ran.
fn for_update_share(outs: &[Outcome]) -> Option<f64> {
    let b = find(outs, ForUpdate)?;
    let c = find(outs, SkipLockedTx).filter(|c| c.jobs_per_s > 0.0)?;
    Some(100.0 * b.jobs_per_s / c.jobs_per_s)
}

/// Challenge 2: (b) did less than half of (c)'s work, the two side by side.
fn for_update_half(r: &Ran) -> bool {
    for_update_share(&r.outs).is_some_and(|s| s < HALF_PERCENT)
}

/// The answer to challenge 2 at the defaults: the fewest workers at which (b) falls under half.
pub fn fewest_for_update_half() -> u32 {
    (1..=MAX_WORKERS)
        .find(|w| {
            let outs = [ForUpdate, SkipLockedTx].map(|strategy| {
                simulate(&Params {
                    strategy,
                    workers: *w,
                    timeline_limit: 0,
                    ..Params::default()
                })
            });
            match outs {
                [Ok(b), Ok(c)] => for_update_share(&[b, c]).is_some_and(|s| s < HALF_PERCENT),
                _ => false,
            }
        })
        .unwrap_or(MAX_WORKERS)
}

/// Challenge 3: with many workers, (d) swaps some key's jobs, and a remedy keeps every key in
/// order at nearly (d)'s pace.
fn remedy_keeps_pace(r: &Ran) -> bool {
    let Some(d) = find(&r.ordering, SkipLockedLease) else {
        return false;
    };
    d.params.workers >= MANY_WORKERS
        && d.key_inversions > 0
        && [SplitQueues, PerKey].into_iter().any(|s| {
            find(&r.ordering, s).is_some_and(|o| {
                o.key_inversions == 0 && 100.0 * o.jobs_per_s >= KEEP_PERCENT * d.jobs_per_s
            })
        })
}

/// The answer to challenge 3 at the defaults with [`MANY_WORKERS`]: the fewest keys, going by
/// doubling, at which a remedy keeps the pace.
pub fn keys_for_pace() -> u32 {
    let mut keys = 1;
    while keys < MAX_KEYS {
        let base = Params {
            workers: MANY_WORKERS,
            keys,
            timeline_limit: 0,
            ..Params::default()
        };
        let ordering: Result<Vec<Outcome>, _> = super::model::ordering_params(&base)
            .iter()
            .map(simulate)
            .collect();
        if let Ok(ordering) = ordering {
            let ran = Ran {
                outs: Vec::new(),
                ordering,
                ours_at_defaults: 0,
                took_ms: 0.0,
                ordering_ms: 0.0,
            };
            if remedy_keeps_pace(&ran) {
                return keys;
            }
        }
        keys *= 2;
    }
    MAX_KEYS
}

/// Challenge 4: (c) held a transaction open for a second or more, while (d)'s stayed short.
fn long_tx(r: &Ran) -> bool {
    let held = find(&r.outs, SkipLockedTx).is_some_and(|c| c.tx.longest_tx_us >= LONG_TX_US);
    let short = find(&r.outs, SkipLockedLease).is_some_and(|d| d.tx.longest_tx_us < LONG_TX_US);
    held && short
}

/// One strategy at the defaults with `workers`.
fn naive_with(workers: u32) -> Inputs {
    Inputs {
        pick: Pick::One(Naive),
        workers: workers.to_string(),
        ..Inputs::default()
    }
}

/// All four at the defaults, every job lasting `ms`.
fn fixed_jobs(ms: u64) -> Inputs {
    Inputs {
        shape: Shape::Fixed,
        dur_a: ms.to_string(),
        ..Inputs::default()
    }
}

pub const CHALLENGES: [Challenge<Inputs, Ran>; 4] = [
    Challenge {
        id: "workers-naive-twice",
        goal: keys::WORKERS_CH_NAIVE_GOAL,
        start: || vec![naive_with(1)],
        check: Check::State {
            rule: keys::WORKERS_CH_NAIVE_RULE,
            holds: naive_twice,
        },
        hints: &[
            keys::WORKERS_CH_NAIVE_HINT_1,
            keys::WORKERS_CH_NAIVE_HINT_2,
            keys::WORKERS_CH_NAIVE_HINT_3,
        ],
        solution_text: keys::WORKERS_CH_NAIVE_SOLUTION,
        solution: || {
            let w = fewest_naive_twice();
            vec![naive_with(w + 1), naive_with(w)]
        },
        why: keys::WORKERS_CH_NAIVE_WHY,
    },
    Challenge {
        id: "workers-for-update-half",
        goal: keys::WORKERS_CH_HALF_GOAL,
        start: || vec![all_four(1, 8)],
        check: Check::State {
            rule: keys::WORKERS_CH_HALF_RULE,
            holds: for_update_half,
        },
        hints: &[
            keys::WORKERS_CH_HALF_HINT_1,
            keys::WORKERS_CH_HALF_HINT_2,
            keys::WORKERS_CH_HALF_HINT_3,
        ],
        solution_text: keys::WORKERS_CH_HALF_SOLUTION,
        solution: || {
            let w = fewest_for_update_half();
            vec![all_four(w - 1, 8), all_four(w, 8)]
        },
        why: keys::WORKERS_CH_HALF_WHY,
    },
    Challenge {
        id: "workers-order-pace",
        goal: keys::WORKERS_CH_ORDER_GOAL,
        start: || vec![all_four(MANY_WORKERS, 1)],
        check: Check::State {
            rule: keys::WORKERS_CH_ORDER_RULE,
            holds: remedy_keeps_pace,
        },
        hints: &[
            keys::WORKERS_CH_ORDER_HINT_1,
            keys::WORKERS_CH_ORDER_HINT_2,
            keys::WORKERS_CH_ORDER_HINT_3,
        ],
        solution_text: keys::WORKERS_CH_ORDER_SOLUTION,
        solution: || {
            let k = keys_for_pace();
            vec![all_four(MANY_WORKERS, k / 2), all_four(MANY_WORKERS, k)]
        },
        why: keys::WORKERS_CH_ORDER_WHY,
    },
    Challenge {
        id: "workers-long-tx",
        goal: keys::WORKERS_CH_LONGTX_GOAL,
        start: || vec![Inputs::default()],
        check: Check::State {
            rule: keys::WORKERS_CH_LONGTX_RULE,
            holds: long_tx,
        },
        hints: &[
            keys::WORKERS_CH_LONGTX_HINT_1,
            keys::WORKERS_CH_LONGTX_HINT_2,
            keys::WORKERS_CH_LONGTX_HINT_3,
        ],
        solution_text: keys::WORKERS_CH_LONGTX_SOLUTION,
        solution: || {
            let ms = LONG_TX_US / 1_000;
            vec![fixed_jobs(ms / 2), fixed_jobs(ms)]
        },
        why: keys::WORKERS_CH_LONGTX_WHY,
    },
];

#[cfg(test)]
mod tests;
