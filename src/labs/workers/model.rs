//! L2 Many workers: the lab's plain state, no UI and no web types.
//!
//! For: the learner's inputs as typed text, turning them into simulator [`Params`] (or
//! translated messages per field), carrying them in the URL (`#/workers?w=4&j=200&…`),
//! the job the simulator's worker runs for the chosen strategies (and [`run`], the same runs
//! here, for tests), the plain-language reading of each result, and laying out
//! the per-worker timeline with a bounded number of shapes. Not for: drawing (see view/)
//! or simulating (the `queue-sim` crate).

use crate::keys;
use crate::ui::format::{group, micros};
use queue_lab_core::i18n::Key;
use queue_lab_core::i18n::Msg;
use queue_lab_core::input::whole_in;
use queue_lab_core::url;
use queue_sim::{
    simulate, Durations, Outcome, Params, Segment, SegmentKind, Strategy, LEASE_US, MAX_JOBS,
    MAX_KEYS, MAX_LATENCY_US, MAX_WORKERS,
};
use queue_sim_worker::{Done, GroupDone, Job};

/// The article's own count (§3) of adjacent swapped pairs in completion order "at the
/// simulator's defaults": the article's figure, quoted, not this simulator's (see
/// [`inversions_at_defaults`]).
pub const ARTICLE_INVERSIONS: u64 = 65;

/// This simulator's count at the article's settings. The article names none beyond "the
/// simulator's defaults" with several workers taking jobs by SKIP LOCKED, so these are this
/// simulator's defaults with the lease claim (d): computed here, never typed.
pub fn inversions_at_defaults() -> u64 {
    simulate(&defaults_params()).map_or(0, |o| o.inversions)
}

/// The run behind [`inversions_at_defaults`]: the simulator's defaults, with the lease claim.
pub fn defaults_params() -> Params {
    Params {
        strategy: Strategy::SkipLockedLease,
        ..Params::default()
    }
}

/// What one press of Run computes, for the simulator's worker: the chosen strategies, then
/// the ordering comparison on the same inputs, then the defaults' run (its inversions are
/// quoted beside the article's). `params` is what [`Inputs::to_params`] returned (never empty).
pub fn job(params: &[Params]) -> Job {
    Job {
        groups: vec![
            params.to_vec(),
            ordering_params(&params[0]),
            vec![defaults_params()],
        ],
    }
}

/// The figures of one press of Run, shaped from the worker's answer to [`job`].
#[derive(Clone, Debug, PartialEq)]
pub struct Ran {
    pub outs: Vec<Outcome>,
    /// SKIP LOCKED (lease) and the two ordering remedies at the same inputs.
    pub ordering: Vec<Outcome>,
    /// This simulator's completion-order inversions at its defaults (beside the article's).
    pub ours_at_defaults: u64,
    /// Wall time of the chosen strategies' runs, in the worker.
    pub took_ms: f64,
    /// Wall time of the ordering comparison's runs, in the worker.
    pub ordering_ms: f64,
}

impl Ran {
    /// The worker's answer to [`job`], or why it does not fit (a bug: it is shown, not hidden).
    pub fn from_done(done: Done) -> Result<Ran, Msg> {
        let bad = || {
            Msg::new(keys::WORKERS_ERR_SIM).arg("detail", "the worker's answer has the wrong shape")
        };
        let [chosen, ordering, defaults]: [GroupDone; 3] =
            done.groups.try_into().map_err(|_| bad())?;
        let ours_at_defaults = defaults.outcomes.first().ok_or_else(bad)?.inversions;
        Ok(Ran {
            outs: chosen.outcomes,
            ordering: ordering.outcomes,
            ours_at_defaults,
            took_ms: chosen.took_ms,
            ordering_ms: ordering.took_ms,
        })
    }
}

/// Most segments the timeline chart draws (the page stays fast however big the run).
pub const CHART_SEGMENTS: usize = 1_500;

/// About this many segments per worker row, so a bar stays wide enough to see.
pub const SEGMENTS_PER_WORKER: usize = 40;

/// Segments kept by the simulator per run: enough to fill the chart window.
pub const TIMELINE_KEEP: u32 = 3_000;

/// Longest job a learner may ask for, in ms (below the 30 s lease; see `queue_sim::LEASE_US`).
pub const MAX_JOB_MS: u64 = (LEASE_US - 1) / 1_000;

/// Longest query round trip, in ms.
pub const MAX_LATENCY_MS: u64 = MAX_LATENCY_US / 1_000;

/// Which strategies to run: all four side by side, or one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    All,
    One(Strategy),
}

impl Pick {
    pub fn as_str(self) -> &'static str {
        match self {
            Pick::All => "all",
            Pick::One(s) => s.as_str(),
        }
    }

    pub fn parse(id: &str) -> Option<Pick> {
        if id == "all" {
            Some(Pick::All)
        } else {
            Strategy::parse(id).map(Pick::One)
        }
    }

    pub fn strategies(self) -> Vec<Strategy> {
        match self {
            Pick::All => Strategy::ALL.to_vec(),
            Pick::One(s) => vec![s],
        }
    }
}

/// The shape of job durations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Fixed,
    Uniform,
    LongTail,
}

impl Shape {
    pub const ALL: [Shape; 3] = [Shape::Fixed, Shape::Uniform, Shape::LongTail];

    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Fixed => "fixed",
            Shape::Uniform => "uniform",
            Shape::LongTail => "long-tail",
        }
    }

    pub fn parse(id: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.as_str() == id)
    }

    pub fn label_key(self) -> Key {
        match self {
            Shape::Fixed => keys::WORKERS_SHAPE_FIXED,
            Shape::Uniform => keys::WORKERS_SHAPE_UNIFORM,
            Shape::LongTail => keys::WORKERS_SHAPE_LONG_TAIL,
        }
    }
}

/// The catalog key of a strategy's name.
pub fn strategy_key(s: Strategy) -> Key {
    match s {
        Strategy::Naive => keys::WORKERS_STRATEGY_NAIVE,
        Strategy::ForUpdate => keys::WORKERS_STRATEGY_FOR_UPDATE,
        Strategy::SkipLockedTx => keys::WORKERS_STRATEGY_SKIP_LOCKED_TX,
        Strategy::SkipLockedLease => keys::WORKERS_STRATEGY_SKIP_LOCKED_LEASE,
        Strategy::SplitQueues => keys::WORKERS_STRATEGY_SPLIT_QUEUES,
        Strategy::PerKey => keys::WORKERS_STRATEGY_PER_KEY,
    }
}

/// The catalog key of a timeline segment kind.
pub fn segment_key(k: SegmentKind) -> Key {
    match k {
        SegmentKind::Claim => keys::WORKERS_SEG_CLAIM,
        SegmentKind::LockWait => keys::WORKERS_SEG_LOCK_WAIT,
        SegmentKind::Work => keys::WORKERS_SEG_WORK,
        SegmentKind::Complete => keys::WORKERS_SEG_COMPLETE,
        SegmentKind::Idle => keys::WORKERS_SEG_IDLE,
    }
}

/// A form field, for placing its message next to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Workers,
    Jobs,
    DurA,
    DurB,
    Latency,
    Seed,
    Keys,
}

/// The inputs as the learner typed them. Strings, so a bad value stays on screen with its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inputs {
    pub pick: Pick,
    pub workers: String,
    pub jobs: String,
    pub shape: Shape,
    /// Fixed: the duration; uniform and long tail: the shortest job. Milliseconds.
    pub dur_a: String,
    /// Uniform and long tail: the longest job, in ms (unused for fixed).
    pub dur_b: String,
    /// Query round trip, in ms (decimals allowed).
    pub latency: String,
    pub seed: String,
    /// Distinct job keys (customers, say) for the ordering comparison.
    pub keys: String,
}

impl Default for Inputs {
    /// The simulator's defaults: 4 workers, 200 jobs of 50–150 ms, 1 ms round trips, seed 42.
    fn default() -> Self {
        let p = Params::default();
        let (shape, a, b) = match p.durations {
            Durations::Fixed { us } => (Shape::Fixed, us, us),
            Durations::Uniform { min_us, max_us } => (Shape::Uniform, min_us, max_us),
            Durations::LongTail { min_us, max_us } => (Shape::LongTail, min_us, max_us),
        };
        Inputs {
            pick: Pick::All,
            workers: p.workers.to_string(),
            jobs: p.jobs.to_string(),
            shape,
            dur_a: ms_text(a),
            dur_b: ms_text(b),
            latency: ms_text(p.latency_us),
            seed: p.seed.to_string(),
            keys: p.keys.to_string(),
        }
    }
}

/// µs as a short ms text: 50000 → "50", 1500 → "1.5".
fn ms_text(us: u64) -> String {
    let ms = us as f64 / 1000.0;
    let s = format!("{ms:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn whole(text: &str, min: u64, max: u64) -> Result<u64, Msg> {
    whole_in(text, min, max).map_err(|_| {
        Msg::new(keys::WORKERS_ERR_WHOLE_RANGE)
            .arg("min", group(min))
            .arg("max", group(max))
    })
}

/// Milliseconds (decimals allowed) to µs, within `min_ms..=max_ms`.
fn millis(text: &str, min_ms: u64, max_ms: u64) -> Result<u64, Msg> {
    let t = text.trim().replace(',', "");
    let err = || {
        Msg::new(keys::WORKERS_ERR_MS_RANGE)
            .arg("min", group(min_ms))
            .arg("max", group(max_ms))
    };
    let v: f64 = t.parse().map_err(|_| err())?;
    if !v.is_finite() || v < min_ms as f64 || v > max_ms as f64 {
        return Err(err());
    }
    Ok((v * 1000.0).round() as u64)
}

impl Inputs {
    /// The simulator's parameters for each chosen strategy, or a message per bad field.
    pub fn to_params(&self) -> Result<Vec<Params>, Vec<(Field, Msg)>> {
        let mut errors = Vec::new();
        let workers = whole(&self.workers, 1, u64::from(MAX_WORKERS))
            .map_err(|m| errors.push((Field::Workers, m)))
            .ok();
        let jobs = whole(&self.jobs, 1, u64::from(MAX_JOBS))
            .map_err(|m| errors.push((Field::Jobs, m)))
            .ok();
        let min_a = if self.shape == Shape::LongTail { 1 } else { 0 };
        let a = millis(&self.dur_a, min_a, MAX_JOB_MS)
            .map_err(|m| errors.push((Field::DurA, m)))
            .ok();
        let b = if self.shape == Shape::Fixed {
            a
        } else {
            millis(&self.dur_b, 0, MAX_JOB_MS)
                .map_err(|m| errors.push((Field::DurB, m)))
                .ok()
        };
        if let (Some(a), Some(b)) = (a, b) {
            if self.shape != Shape::Fixed && a > b {
                errors.push((Field::DurB, Msg::new(keys::WORKERS_ERR_MIN_GT_MAX)));
            }
        }
        let latency = millis(&self.latency, 0, MAX_LATENCY_MS)
            .map_err(|m| errors.push((Field::Latency, m)))
            .ok();
        let seed = whole(&self.seed, 0, u64::MAX)
            .map_err(|m| errors.push((Field::Seed, m)))
            .ok();
        let keys = whole(&self.keys, 1, u64::from(MAX_KEYS))
            .map_err(|m| errors.push((Field::Keys, m)))
            .ok();
        let (Some(workers), Some(jobs), Some(a), Some(b), Some(latency_us), Some(seed), Some(keys)) =
            (workers, jobs, a, b, latency, seed, keys)
        else {
            return Err(errors);
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        let durations = match self.shape {
            Shape::Fixed => Durations::Fixed { us: a },
            Shape::Uniform => Durations::Uniform {
                min_us: a,
                max_us: b,
            },
            Shape::LongTail => Durations::LongTail {
                min_us: a,
                max_us: b,
            },
        };
        let base = Params {
            workers: workers as u32,
            jobs: jobs as u32,
            durations,
            latency_us,
            seed,
            keys: keys as u32,
            timeline_limit: TIMELINE_KEEP,
            ..Params::default()
        };
        let params: Vec<Params> = self
            .pick
            .strategies()
            .into_iter()
            .map(|strategy| Params {
                strategy,
                ..base.clone()
            })
            .collect();
        // The simulator checks again; anything it refuses is shown rather than run.
        for p in &params {
            if let Err(e) = p.validate() {
                let field = match e.field {
                    "workers" => Field::Workers,
                    "jobs" => Field::Jobs,
                    "latency_us" => Field::Latency,
                    "keys" => Field::Keys,
                    _ => Field::DurB,
                };
                return Err(vec![(
                    field,
                    Msg::new(keys::WORKERS_ERR_SIM).arg("detail", e.message),
                )]);
            }
        }
        Ok(params)
    }

    /// The part after `?` in `#/workers?…`: every input, so a link reproduces the run.
    pub fn to_query(&self) -> String {
        let mut q = format!(
            "s={}&w={}&j={}&d={}&a={}",
            self.pick.as_str(),
            url::encode(&self.workers),
            url::encode(&self.jobs),
            self.shape.as_str(),
            url::encode(&self.dur_a)
        );
        if self.shape != Shape::Fixed {
            q.push_str(&format!("&b={}", url::encode(&self.dur_b)));
        }
        q.push_str(&format!(
            "&l={}&seed={}&k={}",
            url::encode(&self.latency),
            url::encode(&self.seed),
            url::encode(&self.keys)
        ));
        q
    }

    /// Inputs from a query (`w=4&j=200…`, with or without a leading `?`); a missing or unknown
    /// key keeps its default, a bad value is kept as typed so its message shows.
    pub fn from_query(query: &str) -> Inputs {
        let mut inputs = Inputs::default();
        for pair in query.trim_start_matches('?').split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = url::decode(value);
            match key {
                "s" => {
                    if let Some(p) = Pick::parse(&value) {
                        inputs.pick = p;
                    }
                }
                "w" => inputs.workers = value,
                "j" => inputs.jobs = value,
                "d" => {
                    if let Some(s) = Shape::parse(&value) {
                        inputs.shape = s;
                    }
                }
                "a" => inputs.dur_a = value,
                "b" => inputs.dur_b = value,
                "l" => inputs.latency = value,
                "seed" => inputs.seed = value,
                "k" => inputs.keys = value,
                _ => {}
            }
        }
        inputs
    }
}

/// The ordering comparison's runs: SKIP LOCKED with a lease and the two remedies, on the
/// same inputs (and so the same jobs and keys) as `base`.
pub fn ordering_params(base: &Params) -> Vec<Params> {
    Strategy::ORDERING
        .map(|strategy| Params {
            strategy,
            ..base.clone()
        })
        .to_vec()
}

/// The reading of the ordering comparison: per-key inversions and throughput, computed.
pub fn ordering_reading(ordering: &[Outcome]) -> Option<Msg> {
    let find = |s| ordering.iter().find(|o| o.params.strategy == s);
    let lease = find(Strategy::SkipLockedLease)?;
    let split = find(Strategy::SplitQueues)?;
    let per_key = find(Strategy::PerKey)?;
    let tp = |o: &Outcome| format!("{:.0}", o.jobs_per_s);
    let share = |o: &Outcome| {
        if lease.jobs_per_s > 0.0 {
            format!("{:.0}", 100.0 * o.jobs_per_s / lease.jobs_per_s)
        } else {
            "0".into()
        }
    };
    let key = if lease.key_inversions > 0 {
        keys::WORKERS_READ_ORDERING
    } else {
        keys::WORKERS_READ_ORDERING_NONE
    };
    Some(
        Msg::new(key)
            .arg("keys", group(u64::from(lease.params.keys)))
            .arg("inv", group(lease.key_inversions))
            .arg("inv_split", group(split.key_inversions))
            .arg("inv_per_key", group(per_key.key_inversions))
            .arg("tp", tp(lease))
            .arg("tp_split", tp(split))
            .arg("tp_per_key", tp(per_key))
            .arg("share_split", share(split))
            .arg("share_per_key", share(per_key)),
    )
}

/// Runs each strategy here, on the calling thread: for tests (the page runs the same
/// simulations in its worker, see [`job`]). The params were validated, so an error here is a
/// bug; it is returned.
pub fn run(params: &[Params]) -> Result<Vec<Outcome>, Msg> {
    params
        .iter()
        .map(|p| simulate(p).map_err(|e| Msg::new(keys::WORKERS_ERR_SIM).arg("detail", e.message)))
        .collect()
}

/// The plain-language reading of one strategy's result.
pub fn reading(out: &Outcome, all: &[Outcome]) -> Msg {
    let p = &out.params;
    match p.strategy {
        Strategy::Naive => {
            if out.jobs_run_more_than_once > 0 {
                Msg::new(keys::WORKERS_READ_NAIVE_DUP)
                    .arg("dups", group(u64::from(out.jobs_run_more_than_once)))
                    .arg(
                        "extra",
                        group(out.executions.saturating_sub(u64::from(out.distinct_jobs))),
                    )
            } else if p.workers == 1 {
                Msg::new(keys::WORKERS_READ_NAIVE_ONE)
            } else {
                Msg::new(keys::WORKERS_READ_NAIVE_LUCKY)
            }
        }
        Strategy::ForUpdate => {
            // "Everyone queued" only when someone did.
            let msg = if out.lock_waits == 0 {
                Msg::new(keys::WORKERS_READ_FOR_UPDATE_NO_WAIT)
                    .arg("tp", format!("{:.0}", out.jobs_per_s))
            } else {
                Msg::new(keys::WORKERS_READ_FOR_UPDATE)
                    .arg("waits", group(out.lock_waits))
                    .arg("wait", micros(out.lock_wait_us))
                    .arg("tp", format!("{:.0}", out.jobs_per_s))
            };
            // The verdict is computed: against SKIP LOCKED on the same jobs, when it ran.
            match all
                .iter()
                .find(|o| o.params.strategy == Strategy::SkipLockedTx)
                .filter(|c| c.jobs_per_s > 0.0)
            {
                Some(c) => Msg::new(keys::WORKERS_READ_FOR_UPDATE_VS_SKIP)
                    .arg_msg("head", msg)
                    .arg("tp_skip", format!("{:.0}", c.jobs_per_s))
                    .arg(
                        "share",
                        format!("{:.0}", 100.0 * out.jobs_per_s / c.jobs_per_s),
                    ),
                None => msg,
            }
        }
        Strategy::SkipLockedTx => Msg::new(keys::WORKERS_READ_SKIP_TX)
            .arg("max", out.tx.max_in_tx)
            .arg("mean", format!("{:.2}", out.tx.mean_in_tx))
            .arg("longest", micros(out.tx.longest_tx_us)),
        Strategy::SkipLockedLease => {
            match all
                .iter()
                .find(|o| o.params.strategy == Strategy::SkipLockedTx)
            {
                Some(c) => Msg::new(keys::WORKERS_READ_LEASE_VS_TX)
                    .arg_msg("pace", pace_vs_tx(out.jobs_per_s, c.jobs_per_s))
                    .arg("longest", micros(out.tx.longest_tx_us))
                    .arg("longest_c", micros(c.tx.longest_tx_us))
                    .arg("mean", format!("{:.2}", out.tx.mean_in_tx))
                    .arg("mean_c", format!("{:.2}", c.tx.mean_in_tx)),
                None => Msg::new(keys::WORKERS_READ_LEASE)
                    .arg("tp", format!("{:.0}", out.jobs_per_s))
                    .arg("longest", micros(out.tx.longest_tx_us)),
            }
        }
        Strategy::SplitQueues => Msg::new(keys::WORKERS_READ_SPLIT_QUEUES)
            .arg("tp", format!("{:.0}", out.jobs_per_s))
            .arg("inv", group(out.key_inversions)),
        Strategy::PerKey => Msg::new(keys::WORKERS_READ_PER_KEY)
            .arg("tp", format!("{:.0}", out.jobs_per_s))
            .arg("inv", group(out.key_inversions)),
    }
}

/// Throughputs within this share (percent) of each other are read as "about the same": the
/// lab's rule of thumb for a simulated run, shown in the sentence with the figures.
pub const SAME_PACE_PERCENT: f64 = 10.0;

/// How (d)'s throughput compares with (c)'s, chosen from the two figures and
/// [`SAME_PACE_PERCENT`]: about the same, faster or slower, with both figures and the share.
pub fn pace_vs_tx(tp: f64, tp_c: f64) -> Msg {
    let share = if tp_c > 0.0 { 100.0 * tp / tp_c } else { 100.0 };
    let key = if (share - 100.0).abs() <= SAME_PACE_PERCENT {
        keys::WORKERS_READ_PACE_SAME
    } else if share > 100.0 {
        keys::WORKERS_READ_PACE_FASTER
    } else {
        keys::WORKERS_READ_PACE_SLOWER
    };
    Msg::new(key)
        .arg("tp", format!("{tp:.0}"))
        .arg("tp_c", format!("{tp_c:.0}"))
        .arg("share", format!("{share:.0}"))
        .arg("within", format!("{SAME_PACE_PERCENT:.0}"))
}

/// The reading of completion order across the runs, beside the article's figure and this
/// simulator's at the same (default) settings.
pub fn order_reading(all: &[Outcome], ours_at_defaults: u64) -> Option<Msg> {
    let o = all
        .iter()
        .find(|o| o.params.strategy == Strategy::SkipLockedLease)
        .or_else(|| all.first())?;
    Some(
        Msg::new(keys::WORKERS_READ_ORDER)
            .arg("inv", group(o.inversions))
            .arg("n", group(o.completions))
            .arg("article", ARTICLE_INVERSIONS)
            .arg("ours", group(ours_at_defaults)),
    )
}

/// One drawn segment of the timeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    pub worker: u16,
    pub kind: SegmentKind,
    pub start_us: u64,
    pub end_us: u64,
}

/// The timeline as drawn: bars inside `0..window_us`, and whether the run goes on after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub workers: u16,
    pub window_us: u64,
    pub bars: Vec<Bar>,
    pub cut: bool,
}

/// Lays out the first [`SEGMENTS_PER_WORKER`] × workers segments (at most [`CHART_SEGMENTS`]) (they come in the order they ended), plus
/// any kept segment already under way at the window's end, clipped to it.
pub fn chart(out: &Outcome) -> Chart {
    let segs: &[Segment] = &out.timeline;
    let budget = (out.params.workers as usize * SEGMENTS_PER_WORKER).min(CHART_SEGMENTS);
    let n = segs.len().min(budget);
    let window_us = if n == 0 {
        out.elapsed_us.max(1)
    } else if n < segs.len() || out.timeline_truncated {
        segs[n - 1].end_us.max(1)
    } else {
        out.elapsed_us.max(segs[n - 1].end_us).max(1)
    };
    let mut bars: Vec<Bar> = segs[..n]
        .iter()
        .map(|s| Bar {
            worker: s.worker,
            kind: s.kind,
            start_us: s.start_us,
            end_us: s.end_us,
        })
        .collect();
    for s in &segs[n..] {
        if s.start_us < window_us && bars.len() < CHART_SEGMENTS + 64 {
            bars.push(Bar {
                worker: s.worker,
                kind: s.kind,
                start_us: s.start_us,
                end_us: s.end_us.min(window_us),
            });
        }
    }
    Chart {
        workers: out.params.workers as u16,
        window_us,
        bars,
        cut: n < segs.len() || out.timeline_truncated,
    }
}

/// Axis ticks for `0..window_us`: a round step (1, 2 or 5 × 10ⁿ µs), about 6 ticks.
pub fn ticks(window_us: u64) -> Vec<u64> {
    let target = (window_us / 6).max(1);
    let mut step = 1u64;
    'outer: loop {
        for m in [1u64, 2, 5] {
            if step * m >= target {
                step *= m;
                break 'outer;
            }
        }
        step *= 10;
    }
    (0..=window_us / step).map(|i| i * step).collect()
}

#[cfg(test)]
mod tests;
