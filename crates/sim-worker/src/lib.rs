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
    simulate_with_progress, Durations, Outcome, Params, Segment, SegmentKind, Strategy, TxBucket,
    TxSpan, TxStats,
};

mod bytes;
use bytes::{Reader, Writer};

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

impl Job {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.count(self.groups.len());
        for g in &self.groups {
            w.count(g.len());
            for p in g {
                params(&mut w, p);
            }
        }
        w.into_bytes()
    }

    pub fn decode(bytes: &[u8]) -> Result<Job, String> {
        let mut r = Reader::new(bytes);
        let groups = r.list(|r| r.list(read_params))?;
        r.end()?;
        Ok(Job { groups })
    }
}

impl Done {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.count(self.groups.len());
        for g in &self.groups {
            w.f64(g.took_ms);
            w.count(g.outcomes.len());
            for o in &g.outcomes {
                outcome(&mut w, o);
            }
        }
        w.into_bytes()
    }

    pub fn decode(bytes: &[u8]) -> Result<Done, String> {
        let mut r = Reader::new(bytes);
        let groups = r.list(|r| {
            let took_ms = r.f64()?;
            let outcomes = r.list(read_outcome)?;
            Ok(GroupDone { outcomes, took_ms })
        })?;
        r.end()?;
        Ok(Done { groups })
    }
}

fn params(w: &mut Writer, p: &Params) {
    w.str(p.strategy.as_str());
    w.u32(p.workers);
    w.u32(p.jobs);
    match p.durations {
        Durations::Fixed { us } => {
            w.u8(0);
            w.u64(us);
            w.u64(us);
        }
        Durations::Uniform { min_us, max_us } => {
            w.u8(1);
            w.u64(min_us);
            w.u64(max_us);
        }
        Durations::LongTail { min_us, max_us } => {
            w.u8(2);
            w.u64(min_us);
            w.u64(max_us);
        }
    }
    w.u64(p.latency_us);
    w.u64(p.gap_us);
    w.opt_u32(p.max_executions);
    w.u64(p.seed);
    w.u32(p.keys);
    w.u32(p.timeline_limit);
}

fn read_params(r: &mut Reader) -> Result<Params, String> {
    let id = r.str()?;
    let strategy = Strategy::parse(&id).ok_or_else(|| format!("no strategy {id:?}"))?;
    let workers = r.u32()?;
    let jobs = r.u32()?;
    let (kind, a, b) = (r.u8()?, r.u64()?, r.u64()?);
    let durations = match kind {
        0 => Durations::Fixed { us: a },
        1 => Durations::Uniform {
            min_us: a,
            max_us: b,
        },
        2 => Durations::LongTail {
            min_us: a,
            max_us: b,
        },
        k => return Err(format!("no duration shape {k}")),
    };
    Ok(Params {
        strategy,
        workers,
        jobs,
        durations,
        latency_us: r.u64()?,
        gap_us: r.u64()?,
        max_executions: r.opt_u32()?,
        seed: r.u64()?,
        keys: r.u32()?,
        timeline_limit: r.u32()?,
    })
}

const KINDS: [SegmentKind; 5] = [
    SegmentKind::Claim,
    SegmentKind::LockWait,
    SegmentKind::Work,
    SegmentKind::Complete,
    SegmentKind::Idle,
];

fn outcome(w: &mut Writer, o: &Outcome) {
    params(w, &o.params);
    w.u64(o.executions);
    w.u32(o.distinct_jobs);
    w.u32(o.jobs_run_more_than_once);
    w.u32(o.jobs_done);
    w.u64(o.lock_wait_us);
    w.u64(o.lock_waits);
    w.u64(o.elapsed_us);
    w.f64(o.jobs_per_s);
    w.f64(o.executions_per_s);
    w.u32(o.tx.max_in_tx);
    w.f64(o.tx.mean_in_tx);
    w.u64(o.tx.longest_tx_us);
    w.count(o.tx.series.len());
    for b in &o.tx.series {
        w.u64(b.start_us);
        w.u64(b.end_us);
        w.u32(b.max_in_tx);
        w.f64(b.mean_in_tx);
    }
    w.u64(o.inversions);
    w.u64(o.key_inversions);
    w.u64(o.completions);
    w.count(o.timeline.len());
    for s in &o.timeline {
        w.u16(s.worker);
        w.u8(KINDS.iter().position(|k| *k == s.kind).unwrap_or(0) as u8);
        w.u64(s.start_us);
        w.u64(s.end_us);
        w.opt_u32(s.job);
    }
    w.count(o.transactions.len());
    for t in &o.transactions {
        w.u16(t.worker);
        w.u64(t.start_us);
        w.u64(t.end_us);
    }
    w.u8(u8::from(o.timeline_truncated));
}

fn read_outcome(r: &mut Reader) -> Result<Outcome, String> {
    let params = read_params(r)?;
    let executions = r.u64()?;
    let distinct_jobs = r.u32()?;
    let jobs_run_more_than_once = r.u32()?;
    let jobs_done = r.u32()?;
    let lock_wait_us = r.u64()?;
    let lock_waits = r.u64()?;
    let elapsed_us = r.u64()?;
    let jobs_per_s = r.f64()?;
    let executions_per_s = r.f64()?;
    let tx = TxStats {
        max_in_tx: r.u32()?,
        mean_in_tx: r.f64()?,
        longest_tx_us: r.u64()?,
        series: r.list(|r| {
            Ok(TxBucket {
                start_us: r.u64()?,
                end_us: r.u64()?,
                max_in_tx: r.u32()?,
                mean_in_tx: r.f64()?,
            })
        })?,
    };
    let inversions = r.u64()?;
    let key_inversions = r.u64()?;
    let completions = r.u64()?;
    let timeline = r.list(|r| {
        let worker = r.u16()?;
        let kind = *KINDS
            .get(usize::from(r.u8()?))
            .ok_or("no segment kind with that code")?;
        Ok(Segment {
            worker,
            kind,
            start_us: r.u64()?,
            end_us: r.u64()?,
            job: r.opt_u32()?,
        })
    })?;
    let transactions = r.list(|r| {
        Ok(TxSpan {
            worker: r.u16()?,
            start_us: r.u64()?,
            end_us: r.u64()?,
        })
    })?;
    let timeline_truncated = r.u8()? != 0;
    Ok(Outcome {
        params,
        executions,
        distinct_jobs,
        jobs_run_more_than_once,
        jobs_done,
        lock_wait_us,
        lock_waits,
        elapsed_us,
        jobs_per_s,
        executions_per_s,
        tx,
        inversions,
        key_inversions,
        completions,
        timeline,
        transactions,
        timeline_truncated,
    })
}

#[cfg(test)]
mod tests;
