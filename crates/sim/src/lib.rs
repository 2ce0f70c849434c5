//! Queue Lab's many-worker simulator (lab L2): a deterministic discrete-event model of
//! workers, transactions and row locks under four ways of claiming a job from a Postgres table.
//!
//! For: answering "what happens with N workers" (duplicates, lock waits, throughput,
//! connections held in a transaction, completion order) in the browser, where PGlite has a
//! single session and cannot show real concurrency; and printing the results table that the
//! real-server harness (`pgcheck`) prints too. Not for: talking to any database, or timing on
//! a wall clock — everything here is simulated time in microseconds.
//!
//! ```
//! use queue_sim::{simulate, Params, Strategy};
//! let out = simulate(&Params { strategy: Strategy::Naive, ..Params::default() }).unwrap();
//! assert!(out.jobs_run_more_than_once > 0);
//! ```

mod engine;
mod params;
mod report;
mod rng;

pub use engine::{job_keys, simulate, simulate_with_progress, Progress, PROGRESS_EVERY};
pub use params::{
    Durations, ParamError, Params, Strategy, LEASE_US, MAX_EXECUTIONS, MAX_GAP_US, MAX_JOBS,
    MAX_JOB_US, MAX_KEYS, MAX_LATENCY_US, MAX_TIMELINE_LIMIT, MAX_WORKERS,
};
pub use report::{
    format_table, Outcome, Segment, SegmentKind, Summary, TxBucket, TxSpan, TxStats, TxTracker,
    SERIES_BUCKETS,
};
pub use rng::SplitMix64;
