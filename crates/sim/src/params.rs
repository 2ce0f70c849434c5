//! What a simulation run is asked to do: the claim strategy, the workload and its bounds.
//!
//! For: the inputs a learner sets (and a URL carries), their stable ids, and validation that
//! turns an out-of-range value into a message naming the field. Not for: running anything;
//! see [`crate::simulate`].

use std::fmt;

/// Largest number of workers (each one connection) a run may have.
pub const MAX_WORKERS: u32 = 64;
/// Largest number of ready jobs in the table at the start.
pub const MAX_JOBS: u32 = 200_000;
/// Largest query round trip, in microseconds (one second).
pub const MAX_LATENCY_US: u64 = 1_000_000;
/// Largest naive gap between SELECT's reply and the UPDATE, in microseconds (one second).
pub const MAX_GAP_US: u64 = 1_000_000;
/// Longest single job, in microseconds (ten minutes).
pub const MAX_JOB_US: u64 = 600_000_000;
/// Most distinct job keys (e.g. customer ids) a run may spread its jobs over.
pub const MAX_KEYS: u32 = MAX_JOBS;
/// Largest execution limit.
pub const MAX_EXECUTIONS: u32 = 1_000_000;
/// Most timeline segments (and transaction spans) a run may be asked to keep.
pub const MAX_TIMELINE_LIMIT: u32 = 1_000_000;
/// The lease the lease strategy writes into `locked_until`, in microseconds (the article's 30 s).
/// Job durations must stay below it, or an expired lease would legitimately hand a running job
/// to a second worker — that is L1's subject, not this lab's.
pub const LEASE_US: u64 = 30_000_000;

/// How a worker claims a job. The ids are stable: they go into URLs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// (a) `SELECT` the head row, then `UPDATE` it in a separate statement; nothing stops two
    /// workers from reading the same head before either marks it.
    Naive,
    /// (b) `BEGIN; SELECT … FOR UPDATE` the head, run the job, mark it done, `COMMIT`:
    /// every other worker queues on the head row's lock.
    ForUpdate,
    /// (c) as (b) with `SKIP LOCKED`: workers take different rows, but each holds its
    /// transaction (and its connection) open for the whole job.
    SkipLockedTx,
    /// (d) one short statement claims with `SKIP LOCKED` and writes a lease
    /// (`status = 'running'`, `locked_until`); a second statement completes. No transaction
    /// spans the job.
    SkipLockedLease,
    /// Remedy for order, split queues: as (d), but each worker owns one key group (the keys
    /// with `key % workers = worker`) and claims only from it:
    /// `… where status = 'ready' and key % $workers = $me order by id limit 1 for update skip
    /// locked`. One worker per key, so each key runs one job at a time, in id order. Workers
    /// whose group has no job left stop, however much work the others still have.
    SplitQueues,
    /// Remedy for order, per-key serialization: as (d), but a job is claimable only when every
    /// earlier job of its key is done:
    /// `… where status = 'ready' and not exists (select 1 from jobs e where e.key = j.key and
    /// e.id < j.id and e.status <> 'done') order by id limit 1 for update skip locked`.
    /// A worker that finds nothing claimable while ready jobs remain waits until a completion
    /// makes a job claimable (as a LISTEN/NOTIFY worker would): the completing statement wakes
    /// the longest-waiting idle worker, half a round trip later.
    PerKey,
}

impl Strategy {
    /// All four, in the article's order.
    pub const ALL: [Strategy; 4] = [
        Strategy::Naive,
        Strategy::ForUpdate,
        Strategy::SkipLockedTx,
        Strategy::SkipLockedLease,
    ];

    /// SKIP LOCKED (lease) and the two remedies that keep per-key order, side by side.
    pub const ORDERING: [Strategy; 3] = [
        Strategy::SkipLockedLease,
        Strategy::SplitQueues,
        Strategy::PerKey,
    ];

    /// The stable id: `naive`, `for-update`, `skip-locked-tx`, `skip-locked-lease`,
    /// `split-queues`, `per-key`.
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Naive => "naive",
            Strategy::ForUpdate => "for-update",
            Strategy::SkipLockedTx => "skip-locked-tx",
            Strategy::SkipLockedLease => "skip-locked-lease",
            Strategy::SplitQueues => "split-queues",
            Strategy::PerKey => "per-key",
        }
    }

    /// The strategy with this id, if any (exact, lower case).
    pub fn parse(id: &str) -> Option<Strategy> {
        Strategy::ALL
            .into_iter()
            .chain(Strategy::ORDERING)
            .find(|s| s.as_str() == id)
    }

    /// Whether one transaction spans the job (so the connection is held and the xmin horizon
    /// pinned while the job runs).
    pub fn holds_transaction_during_job(self) -> bool {
        matches!(self, Strategy::ForUpdate | Strategy::SkipLockedTx)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// How long each job takes. Durations are drawn once per job id from the seed, so the four
/// strategies run the very same jobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durations {
    /// Every job takes `us`.
    Fixed { us: u64 },
    /// Evenly spread between `min_us` and `max_us` (inclusive).
    Uniform { min_us: u64, max_us: u64 },
    /// Pareto-shaped (α = 2): most jobs take near `min_us`, a few take many times longer,
    /// capped at `max_us`. One job in ten takes over 3.2 × `min_us`, one in a hundred over
    /// 10 ×. (α = 2 because its draw needs only a square root, which is exact on every
    /// platform, so a shared URL gives the same jobs in the browser and natively.)
    LongTail { min_us: u64, max_us: u64 },
}

impl Durations {
    /// The stable id of the shape: `fixed`, `uniform`, `long-tail`.
    pub fn kind(&self) -> &'static str {
        match self {
            Durations::Fixed { .. } => "fixed",
            Durations::Uniform { .. } => "uniform",
            Durations::LongTail { .. } => "long-tail",
        }
    }

    /// The longest duration this shape can produce.
    pub fn max_us(&self) -> u64 {
        match *self {
            Durations::Fixed { us } => us,
            Durations::Uniform { max_us, .. } | Durations::LongTail { max_us, .. } => max_us,
        }
    }
}

/// Everything that determines a run. Same `Params`, same [`crate::Outcome`], bit for bit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    pub strategy: Strategy,
    /// Concurrent workers, each with its own connection: 1..=64.
    pub workers: u32,
    /// Ready jobs in the table at the start: 1..=200,000.
    pub jobs: u32,
    pub durations: Durations,
    /// One statement's round trip between worker and server, in µs (each statement is drawn
    /// within ±20 % of it): 0..=1,000,000.
    pub latency_us: u64,
    /// Naive only: application time between the SELECT's reply and sending the UPDATE, in µs
    /// (real code does something there; the window for a collision is round trip + gap).
    pub gap_us: u64,
    /// Stop starting new claims after this many executions (`None`: until the table is
    /// drained). 1..=1,000,000.
    pub max_executions: Option<u32>,
    pub seed: u64,
    /// Distinct job keys (say, customer ids): each job's key is drawn evenly from `0..keys`
    /// by [`crate::job_keys`], from the seed on a stream of its own, so the keys never change
    /// the article strategies' runs. 1..=200,000.
    pub keys: u32,
    /// Keep at most this many timeline segments and as many transaction spans (the rest of the
    /// run is still simulated and counted): 0..=1,000,000.
    pub timeline_limit: u32,
}

impl Default for Params {
    /// The lab's opening state: four workers, 200 jobs of 50–150 ms over 8 keys, 1 ms round
    /// trips.
    fn default() -> Self {
        Params {
            strategy: Strategy::SkipLockedLease,
            workers: 4,
            jobs: 200,
            durations: Durations::Uniform {
                min_us: 50_000,
                max_us: 150_000,
            },
            latency_us: 1_000,
            gap_us: 100,
            max_executions: None,
            seed: 42,
            keys: 8,
            timeline_limit: 10_000,
        }
    }
}

/// An input out of range: which field, and a sentence saying the allowed range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamError {
    pub field: &'static str,
    pub message: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ParamError {}

fn out_of_range(field: &'static str, message: String) -> Result<(), ParamError> {
    Err(ParamError { field, message })
}

impl Params {
    /// Checks every bound; the first violation comes back as an error naming the field.
    pub fn validate(&self) -> Result<(), ParamError> {
        if !(1..=MAX_WORKERS).contains(&self.workers) {
            return out_of_range(
                "workers",
                format!("must be between 1 and {MAX_WORKERS}, got {}", self.workers),
            );
        }
        if !(1..=MAX_JOBS).contains(&self.jobs) {
            return out_of_range(
                "jobs",
                format!("must be between 1 and {MAX_JOBS}, got {}", self.jobs),
            );
        }
        if self.latency_us > MAX_LATENCY_US {
            return out_of_range(
                "latency_us",
                format!(
                    "a round trip must be at most {MAX_LATENCY_US} µs (1 s), got {}",
                    self.latency_us
                ),
            );
        }
        if self.gap_us > MAX_GAP_US {
            return out_of_range(
                "gap_us",
                format!(
                    "the gap must be at most {MAX_GAP_US} µs (1 s), got {}",
                    self.gap_us
                ),
            );
        }
        if !(1..=MAX_KEYS).contains(&self.keys) {
            return out_of_range(
                "keys",
                format!("must be between 1 and {MAX_KEYS}, got {}", self.keys),
            );
        }
        let limit = MAX_JOB_US.min(LEASE_US - 1);
        match self.durations {
            Durations::Fixed { .. } => {}
            Durations::Uniform { min_us, max_us } | Durations::LongTail { min_us, max_us } => {
                if min_us > max_us {
                    return out_of_range(
                        "durations",
                        format!("the shortest job ({min_us} µs) is longer than the longest ({max_us} µs)"),
                    );
                }
                if matches!(self.durations, Durations::LongTail { .. }) && min_us == 0 {
                    return out_of_range(
                        "durations",
                        "a long tail needs a shortest job above 0 µs".to_string(),
                    );
                }
            }
        }
        if self.durations.max_us() > limit {
            return out_of_range(
                "durations",
                format!(
                    "a job may take at most {limit} µs (under the 30 s lease), got {} µs",
                    self.durations.max_us()
                ),
            );
        }
        if let Some(n) = self.max_executions {
            if !(1..=MAX_EXECUTIONS).contains(&n) {
                return out_of_range(
                    "max_executions",
                    format!("must be between 1 and {MAX_EXECUTIONS}, got {n}"),
                );
            }
        }
        if self.timeline_limit > MAX_TIMELINE_LIMIT {
            return out_of_range(
                "timeline_limit",
                format!(
                    "must be at most {MAX_TIMELINE_LIMIT}, got {}",
                    self.timeline_limit
                ),
            );
        }
        Ok(())
    }
}
