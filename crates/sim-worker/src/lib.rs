//! L2's simulator off the page's thread: what the page and its Web Worker exchange, and the
//! worker's job runner.
//!
//! For: a [`Job`] (groups of simulator [`Params`], run one after another) and its [`Done`]
//! (every [`Outcome`], with each group's wall time) as bytes, so they cross `postMessage`
//! unchanged to the bit (an `f64` travels as its bits); running a job with a progress hook
//! that a wall clock throttles. Not for: web types (the worker's glue is `src/main.rs`, the
//! page's is `src/labs/workers/view/worker.rs` in the app) or simulating (`queue-sim`).
//!
//! The app links this crate for [`Job::encode`] and [`Done::decode`] only; [`run_job`], and
//! with it the simulator, is reached from the worker alone, so the simulator's code stays
//! out of the app's `.wasm`.

use queue_sim::{
    simulate, simulate_with_progress, Durations, Outcome, Params, Segment, SegmentKind, Strategy,
    TxBucket, TxSpan, TxStats,
};

mod bytes;
use bytes::{from_bytes, to_bytes, Reader, Wire, Writer};

/// The page posts progress no more often than this, in ms of wall time (and never for a run
/// that ends sooner).
pub const PROGRESS_MS: f64 = 50.0;

/// What the page asks the worker to run: groups of runs, each timed on its own (L2 times the
/// chosen strategies apart from the ordering comparison).
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub groups: Vec<Vec<Params>>,
}

/// One group's outcomes, in the order of its params, and the wall time they took together.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupDone {
    pub outcomes: Vec<Outcome>,
    pub took_ms: f64,
}

/// A job's result: one entry per group, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Done {
    pub groups: Vec<GroupDone>,
}

/// Runs every group, calling `progress` with the share of the job done (0..=1, by jobs
/// completed over all runs) at most every [`PROGRESS_MS`] of `now_ms`. A run the simulator
/// refuses ends the job with its message.
pub fn run_job(
    job: &Job,
    now_ms: &dyn Fn() -> f64,
    progress: &mut dyn FnMut(f64),
) -> Result<Done, String> {
    let total: f64 = job
        .groups
        .iter()
        .flatten()
        .map(|p| f64::from(p.jobs))
        .sum::<f64>()
        .max(1.0);
    let mut before = 0.0;
    let mut last = now_ms();
    let mut groups = Vec::with_capacity(job.groups.len());
    for group in &job.groups {
        let t0 = now_ms();
        let mut outcomes = Vec::with_capacity(group.len());
        for p in group {
            let out = simulate_with_progress(p, &mut |pr| {
                let now = now_ms();
                if now - last >= PROGRESS_MS {
                    last = now;
                    let here = (pr.completions as f64).min(f64::from(pr.jobs));
                    progress(((before + here) / total).min(1.0));
                }
            })
            .map_err(|e| e.message)?;
            before += f64::from(p.jobs);
            outcomes.push(out);
        }
        groups.push(GroupDone {
            outcomes,
            took_ms: now_ms() - t0,
        });
    }
    Ok(Done { groups })
}

/// Jobs per strategy in [`warm_up`]'s runs.
pub const WARM_UP_JOBS: u32 = 2_000;

/// Runs every strategy once on a small input (16 workers × [`WARM_UP_JOBS`] jobs) and
/// returns the strategies run; the outcomes are dropped.
///
/// For: a worker that has answered its first job and waits for the next. A browser first runs
/// WebAssembly from a baseline compiler and compiles a function's optimized code only once
/// the function has run for a while; these runs are that while, so the learner's next run
/// finds the simulator optimized (in V8 its event loop is then 1.4–2.1× faster; measured in
/// Node 20 on this crate's simulator built for wasm32). Not for: anything the page shows.
pub fn warm_up() -> Vec<Strategy> {
    let mut ran = Vec::new();
    for strategy in Strategy::ALL.into_iter().chain(Strategy::ORDERING) {
        if ran.contains(&strategy) {
            continue;
        }
        let p = Params {
            strategy,
            workers: 16,
            jobs: WARM_UP_JOBS,
            durations: Durations::Uniform {
                min_us: 5_000,
                max_us: 15_000,
            },
            ..Params::default()
        };
        if simulate(&p).is_ok() {
            ran.push(strategy);
        }
    }
    ran
}

/// The order in which a type's parts cross the wire, written once for both directions:
/// `wire!(Type { field, … })` writes the fields in the order named and reads them back in
/// the same order (a struct literal evaluates its fields as written).
macro_rules! wire {
    ($($ty:ident { $($field:ident),* $(,)? })*) => {$(
        impl Wire for $ty {
            fn put(&self, w: &mut Writer) {
                $(self.$field.put(w);)*
            }
            fn get(r: &mut Reader) -> Result<Self, String> {
                Ok($ty { $($field: Wire::get(r)?),* })
            }
        }
    )*};
}

wire! {
    Job { groups }
    Done { groups }
    GroupDone { took_ms, outcomes }
    Params {
        strategy, workers, jobs, durations, latency_us, gap_us, max_executions, seed, keys,
        timeline_limit,
    }
    Outcome {
        params, executions, distinct_jobs, jobs_run_more_than_once, jobs_done, lock_wait_us,
        lock_waits, elapsed_us, jobs_per_s, executions_per_s, tx, inversions, key_inversions,
        completions, timeline, transactions, timeline_truncated,
    }
    TxStats { max_in_tx, mean_in_tx, longest_tx_us, series }
    TxBucket { start_us, end_us, max_in_tx, mean_in_tx }
    Segment { worker, kind, start_us, end_us, job }
    TxSpan { worker, start_us, end_us }
}

impl Job {
    pub fn encode(&self) -> Vec<u8> {
        to_bytes(self)
    }
    pub fn decode(bytes: &[u8]) -> Result<Job, String> {
        from_bytes(bytes)
    }
}

impl Done {
    pub fn encode(&self) -> Vec<u8> {
        to_bytes(self)
    }
    pub fn decode(bytes: &[u8]) -> Result<Done, String> {
        from_bytes(bytes)
    }
}

/// A strategy travels as its id.
impl Wire for Strategy {
    fn put(&self, w: &mut Writer) {
        w.str(self.as_str());
    }
    fn get(r: &mut Reader) -> Result<Self, String> {
        let id = r.str()?;
        Strategy::parse(&id).ok_or_else(|| format!("no strategy {id:?}"))
    }
}

/// A shape's code, then two bounds (a fixed duration twice).
impl Wire for Durations {
    fn put(&self, w: &mut Writer) {
        let (kind, a, b) = match *self {
            Durations::Fixed { us } => (0, us, us),
            Durations::Uniform { min_us, max_us } => (1, min_us, max_us),
            Durations::LongTail { min_us, max_us } => (2, min_us, max_us),
        };
        w.u8(kind);
        w.u64(a);
        w.u64(b);
    }
    fn get(r: &mut Reader) -> Result<Self, String> {
        let (kind, a, b) = (r.u8()?, r.u64()?, r.u64()?);
        match kind {
            0 => Ok(Durations::Fixed { us: a }),
            1 => Ok(Durations::Uniform {
                min_us: a,
                max_us: b,
            }),
            2 => Ok(Durations::LongTail {
                min_us: a,
                max_us: b,
            }),
            k => Err(format!("no duration shape {k}")),
        }
    }
}

const KINDS: [SegmentKind; 5] = [
    SegmentKind::Claim,
    SegmentKind::LockWait,
    SegmentKind::Work,
    SegmentKind::Complete,
    SegmentKind::Idle,
];

/// A segment's kind travels as its place in [`KINDS`].
impl Wire for SegmentKind {
    fn put(&self, w: &mut Writer) {
        w.u8(KINDS.iter().position(|k| k == self).unwrap_or(0) as u8);
    }
    fn get(r: &mut Reader) -> Result<Self, String> {
        KINDS
            .get(usize::from(r.u8()?))
            .copied()
            .ok_or_else(|| "no segment kind with that code".to_owned())
    }
}

#[cfg(test)]
mod tests;
