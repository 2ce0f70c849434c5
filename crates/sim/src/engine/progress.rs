//! The progress hook: how far a run has come, for a page that shows it while a long run goes
//! on in a worker. For: reading the run's clock and completions now and then. Not for:
//! changing anything (the outcome is the one [`super::simulate`] returns).

use super::Sim;
use crate::params::{ParamError, Params};
use crate::report::Outcome;

/// How far a run has come: what [`simulate_with_progress`] hands its hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Simulated time reached, in µs.
    pub now_us: u64,
    /// Jobs marked done so far (a job run twice counts twice, so this may pass `jobs`).
    pub completions: u64,
    /// Jobs in the table (`params.jobs`).
    pub jobs: u32,
}

/// Events handled between two calls of the progress hook.
pub const PROGRESS_EVERY: u32 = 1 << 14;

/// As [`simulate`], calling `hook` every [`PROGRESS_EVERY`] events (for a page to show how far
/// a long run has come, from a worker). The hook only reads: the outcome is the one
/// [`simulate`] returns, bit for bit.
pub fn simulate_with_progress(
    params: &Params,
    hook: &mut dyn FnMut(Progress),
) -> Result<Outcome, ParamError> {
    params.validate()?;
    let mut sim = Sim::new(params, false);
    sim.run(hook);
    Ok(sim.into_outcome())
}
