//! What a run produced, and the one results table that both the simulator and the real-server
//! harness (`pgcheck`) print.
//!
//! For: result types ([`Outcome`], [`Segment`], [`TxStats`], [`Summary`]), turning transaction
//! spans into "connections in a transaction over time", and formatting the table. Not for:
//! producing the numbers (see [`crate::simulate`] and the `pgcheck` crate) or any UI.

use crate::params::{Params, Strategy};

/// What a worker is doing during one stretch of its timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SegmentKind {
    /// Sending the claim statements and waiting for their replies (for naive, including the
    /// gap between SELECT and UPDATE).
    Claim,
    /// Blocked on a row lock another transaction holds.
    LockWait,
    /// Running the job (no database work).
    Work,
    /// Marking the job done, and committing where a transaction is open.
    Complete,
    /// Per-key only: nothing claimable (every ready job waits behind an earlier job of its
    /// key), waiting to be woken by a completion.
    Idle,
}

impl SegmentKind {
    /// Stable id: `claim`, `lock-wait`, `work`, `complete`, `idle`.
    pub fn as_str(self) -> &'static str {
        match self {
            SegmentKind::Claim => "claim",
            SegmentKind::LockWait => "lock-wait",
            SegmentKind::Work => "work",
            SegmentKind::Complete => "complete",
            SegmentKind::Idle => "idle",
        }
    }
}

/// One stretch of one worker's timeline, in simulated µs from the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub worker: u16,
    pub kind: SegmentKind,
    pub start_us: u64,
    pub end_us: u64,
    /// The job being worked on or completed (`None` while claiming or waiting).
    pub job: Option<u32>,
}

/// One transaction as the worker sees it: from sending its first statement (BEGIN, or the
/// single autocommit statement) to receiving the reply of its last (COMMIT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxSpan {
    pub worker: u16,
    pub start_us: u64,
    pub end_us: u64,
}

/// One slice of the run for the "connections in a transaction" chart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TxBucket {
    pub start_us: u64,
    pub end_us: u64,
    /// Most connections in a transaction at any moment of the slice.
    pub max_in_tx: u32,
    /// Time-weighted average over the slice.
    pub mean_in_tx: f64,
}

/// How many connections sat inside a transaction, and for how long.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TxStats {
    pub max_in_tx: u32,
    /// Time-weighted average over the whole run.
    pub mean_in_tx: f64,
    pub longest_tx_us: u64,
    /// The run cut into at most [`SERIES_BUCKETS`] consecutive slices of (nearly) equal length.
    pub series: Vec<TxBucket>,
}

/// Slices in [`TxStats::series`].
pub const SERIES_BUCKETS: u64 = 100;

/// Fine slices the tracker keeps while a run goes on; when time outgrows them, neighbours
/// are merged and the slice width doubles, so memory stays fixed however long the run.
const FINE_SLICES: usize = 4096;

/// Builds [`TxStats`] from transactions opening and closing in time order, in fixed memory.
#[derive(Debug, Clone)]
pub struct TxTracker {
    open: u32,
    longest: u64,
    max_in_tx: u32,
    /// Up to here, the open count has been added to the slices.
    until: u64,
    width: u64,
    /// `until / width` (may be `FINE_SLICES`, until time moves on and the slices coarsen).
    slice: usize,
    /// Where that slice ends: `(slice + 1) × width`.
    slice_end: u64,
    /// `slice_end` while `slice` is a fine slice, else 0: before it, time moves within the
    /// current slice, and only `current` changes.
    fast_end: u64,
    /// The current fine slice's figures, kept out of `slices` while time stays inside it
    /// (the common case: most calls move time by a few µs).
    current: (u32, u128),
    /// Per fine slice: most transactions open at once, and open-transaction µs.
    slices: Vec<(u32, u128)>,
}

impl Default for TxTracker {
    fn default() -> Self {
        TxTracker {
            open: 0,
            longest: 0,
            max_in_tx: 0,
            until: 0,
            width: 1,
            slice: 0,
            slice_end: 1,
            fast_end: 1,
            current: (0, 0),
            slices: vec![(0, 0); FINE_SLICES],
        }
    }
}

/// `open × us`, widened to u128 without a 128-bit multiply: on wasm32 that is a call to
/// `__multi3` (a full 128 × 128 software multiply), which Chromium's profile of the
/// simulator showed on every step of this hot path. Both halves' products fit in a u64.
#[inline(always)]
fn open_us(open: u32, us: u64) -> u128 {
    let open = u64::from(open);
    u128::from(open * (us & 0xFFFF_FFFF)) + (u128::from(open * (us >> 32)) << 32)
}

impl TxTracker {
    pub fn new() -> Self {
        TxTracker::default()
    }

    /// Adds the current open count over `self.until..t`.
    #[inline(always)]
    fn advance(&mut self, t: u64) {
        // Most calls stay inside the current slice (or do not move at all).
        if t < self.fast_end {
            if t > self.until {
                self.current.0 = self.current.0.max(self.open);
                self.current.1 += open_us(self.open, t - self.until);
                self.until = t;
            }
            return;
        }
        self.advance_slices(t);
    }

    /// [`Self::advance`] across slice boundaries.
    #[inline(never)]
    fn advance_slices(&mut self, t: u64) {
        self.store_current();
        while self.until < t {
            if self.slice >= FINE_SLICES {
                self.coarsen();
                continue;
            }
            let end = t.min(self.slice_end);
            if self.open > 0 {
                let s = &mut self.slices[self.slice];
                s.0 = s.0.max(self.open);
                s.1 += open_us(self.open, end - self.until);
                self.max_in_tx = self.max_in_tx.max(self.open);
            }
            self.until = end;
            if end == self.slice_end {
                self.slice += 1;
                self.slice_end += self.width;
            }
        }
        if self.slice < FINE_SLICES {
            self.current = self.slices[self.slice];
            self.fast_end = self.slice_end;
        } else {
            self.current = (0, 0);
            self.fast_end = 0;
        }
    }

    /// Puts `current` back into its slice (after which `slices` is complete).
    fn store_current(&mut self) {
        if self.slice < FINE_SLICES {
            self.slices[self.slice] = self.current;
            self.max_in_tx = self.max_in_tx.max(self.current.0);
        }
    }

    fn coarsen(&mut self) {
        for i in 0..FINE_SLICES / 2 {
            let (a, b) = (self.slices[2 * i], self.slices[2 * i + 1]);
            self.slices[i] = (a.0.max(b.0), a.1 + b.1);
        }
        for s in &mut self.slices[FINE_SLICES / 2..] {
            *s = (0, 0);
        }
        self.width *= 2;
        self.slice = (self.until / self.width) as usize;
        self.slice_end = (self.until / self.width + 1) * self.width;
    }

    /// A transaction opened at `t` (not earlier than any previous call).
    pub fn open(&mut self, t: u64) {
        self.advance(t);
        self.open += 1;
    }

    /// A transaction opened at `start` closed at `t` (not earlier than any previous call).
    pub fn close(&mut self, start: u64, t: u64) {
        self.advance(t);
        self.open = self.open.saturating_sub(1);
        self.note_span(start, t);
    }

    /// A transaction opened at `start` closed at `t` while another opened at `t`: the same
    /// as `close(start, t)` then `open(t)`, for a `start` that was opened.
    pub(crate) fn note_span(&mut self, start: u64, t: u64) {
        self.longest = self.longest.max(t.saturating_sub(start));
    }

    /// The statistics over `0..end_us` (`end_us` not earlier than any previous call).
    pub fn finish(mut self, end_us: u64) -> TxStats {
        let end = end_us.max(1);
        self.advance(end);
        self.store_current();
        let used = end.div_ceil(self.width);
        let group = used.div_ceil(SERIES_BUCKETS).max(1);
        let mut series = Vec::new();
        let mut total: u128 = 0;
        let mut first = 0u64;
        while first < used {
            let last = (first + group).min(used);
            let start_us = first * self.width;
            let end_us = (last * self.width).min(end);
            let (mut max_in_tx, mut area) = (0u32, 0u128);
            for s in &self.slices[first as usize..last as usize] {
                max_in_tx = max_in_tx.max(s.0);
                area += s.1;
            }
            total += area;
            series.push(TxBucket {
                start_us,
                end_us,
                max_in_tx,
                mean_in_tx: area as f64 / (end_us - start_us).max(1) as f64,
            });
            first = last;
        }
        TxStats {
            max_in_tx: self.max_in_tx,
            mean_in_tx: total as f64 / end as f64,
            longest_tx_us: self.longest,
            series,
        }
    }
}

impl TxStats {
    /// Statistics from spans in any order (how `pgcheck` gets them from real threads).
    /// At equal times a close counts before an open.
    pub fn from_spans(spans: &[(u64, u64)], end_us: u64) -> TxStats {
        let mut edges: Vec<(u64, bool, u64)> = Vec::with_capacity(spans.len() * 2);
        for &(s, e) in spans {
            edges.push((s, true, s));
            edges.push((e.max(s), false, s));
        }
        edges.sort_unstable();
        let mut tracker = TxTracker::new();
        for (t, is_open, start) in edges {
            if is_open {
                tracker.open(t);
            } else {
                tracker.close(start, t);
            }
        }
        tracker.finish(end_us)
    }
}

/// Everything one simulated run produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub params: Params,
    /// Job executions started (a job run twice counts twice).
    pub executions: u64,
    /// Jobs executed at least once.
    pub distinct_jobs: u32,
    /// Jobs executed more than once.
    pub jobs_run_more_than_once: u32,
    /// Rows whose status is `done` at the end.
    pub jobs_done: u32,
    /// Total time workers spent blocked on row locks.
    pub lock_wait_us: u64,
    /// Times a worker blocked on a row lock.
    pub lock_waits: u64,
    /// Simulated time from the start until the last worker stopped.
    pub elapsed_us: u64,
    /// Distinct jobs per simulated second.
    pub jobs_per_s: f64,
    /// Executions per simulated second (counts duplicates).
    pub executions_per_s: f64,
    pub tx: TxStats,
    /// Adjacent pairs in completion order whose job ids are descending (0 = strict FIFO).
    pub inversions: u64,
    /// The same within each key, summed: per key, adjacent pairs of that key's completions
    /// whose ids descend (0 = every key completed in enqueue order). See the engine's notes.
    pub key_inversions: u64,
    /// Completions recorded (the sequence `inversions` counts over).
    pub completions: u64,
    /// Per-worker segments in the order they ended, at most `params.timeline_limit`.
    pub timeline: Vec<Segment>,
    /// Transactions in the order they ended, at most `params.timeline_limit`.
    pub transactions: Vec<TxSpan>,
    /// Whether segments or spans were dropped because of `timeline_limit`.
    pub timeline_truncated: bool,
}

impl Outcome {
    /// This run as one row of the shared results table.
    pub fn summary(&self) -> Summary {
        Summary {
            label: format!("{} (sim)", self.params.strategy),
            strategy: self.params.strategy,
            workers: self.params.workers,
            executions: self.executions,
            distinct_jobs: u64::from(self.distinct_jobs),
            jobs_run_more_than_once: u64::from(self.jobs_run_more_than_once),
            lock_wait_us: self.lock_wait_us,
            elapsed_us: self.elapsed_us,
            jobs_per_s: self.jobs_per_s,
            max_in_tx: self.tx.max_in_tx,
            mean_in_tx: self.tx.mean_in_tx,
            longest_tx_us: self.tx.longest_tx_us,
        }
    }
}

/// One row of the results table, from the simulator or from a real server.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Shown in the first column, e.g. `naive (sim)` or `naive (pg)`.
    pub label: String,
    pub strategy: Strategy,
    pub workers: u32,
    pub executions: u64,
    pub distinct_jobs: u64,
    pub jobs_run_more_than_once: u64,
    pub lock_wait_us: u64,
    pub elapsed_us: u64,
    /// Distinct jobs per second.
    pub jobs_per_s: f64,
    pub max_in_tx: u32,
    pub mean_in_tx: f64,
    pub longest_tx_us: u64,
}

fn ms(us: u64) -> String {
    format!("{:.1} ms", us as f64 / 1000.0)
}

/// The results table, one line per row, with a header. Plain text, fixed-width columns.
pub fn format_table(rows: &[Summary]) -> String {
    let header = [
        "strategy",
        "workers",
        "executions",
        "distinct",
        "run >1",
        "lock wait",
        "elapsed",
        "jobs/s",
        "max in tx",
        "mean in tx",
        "longest tx",
    ];
    let mut cells: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    for r in rows {
        cells.push(vec![
            r.label.clone(),
            r.workers.to_string(),
            r.executions.to_string(),
            r.distinct_jobs.to_string(),
            r.jobs_run_more_than_once.to_string(),
            ms(r.lock_wait_us),
            ms(r.elapsed_us),
            format!("{:.0}", r.jobs_per_s),
            r.max_in_tx.to_string(),
            format!("{:.2}", r.mean_in_tx),
            ms(r.longest_tx_us),
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            cells
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &cells {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c == 0 {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str("  ");
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_us_is_the_full_product_for_any_count_and_span() {
        for open in [0, 1, 2, 16, 64, 65_535, u32::MAX] {
            for us in [
                0,
                1,
                999,
                0xFFFF_FFFF,
                0x1_0000_0000,
                0x1234_5678_9ABC_DEF0,
                u64::MAX,
            ] {
                assert_eq!(
                    open_us(open, us),
                    u128::from(open) * u128::from(us),
                    "{open} × {us}"
                );
            }
        }
    }

    #[test]
    fn overlapping_spans_count_as_concurrent_transactions_and_touching_ones_do_not() {
        // Two overlap during 5..10; the third starts exactly when the first ends.
        let stats = TxStats::from_spans(&[(0, 10), (5, 20), (10, 15)], 20);
        assert_eq!(stats.max_in_tx, 2);
        assert_eq!(stats.longest_tx_us, 15);
        // Area: 10 + 15 + 5 = 30 over 20 µs.
        assert!((stats.mean_in_tx - 1.5).abs() < 1e-9);
        assert_eq!(stats.series.len(), 20);
        assert_eq!(stats.series[7].max_in_tx, 2);
    }

    #[test]
    fn a_long_run_is_summarised_in_at_most_a_hundred_slices_with_exact_totals() {
        let mut tracker = TxTracker::new();
        // One transaction open for the first half of each 1,000 µs, for 10 s.
        for i in 0..10_000u64 {
            tracker.open(i * 1_000);
            tracker.close(i * 1_000, i * 1_000 + 500);
        }
        let stats = tracker.finish(10_000_000);
        assert!(stats.series.len() <= 100 && stats.series.len() >= 50);
        assert_eq!(stats.max_in_tx, 1);
        assert!((stats.mean_in_tx - 0.5).abs() < 1e-9);
        assert_eq!(stats.series.last().map(|b| b.end_us), Some(10_000_000));
        assert!(stats
            .series
            .iter()
            .all(|b| (b.mean_in_tx - 0.5).abs() < 0.01));
    }
}
