//! What a worker does next, as the engine's event loop dispatches on it.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Stmt {
    Begin,
    NaiveSelect,
    MarkRunning,
    SelectForUpdate,
    SelectSkipLocked,
    LeaseClaim,
    MarkDone,
    Commit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Next {
    Start,
    Exec,
    Granted,
    Reply,
    GapEnd,
    WorkEnd,
}

/// A worker's pending event as one small number: what comes next and, for `Exec` and
/// `Reply`, the statement. The event loop dispatches on it with a single jump: workers'
/// events interleave unpredictably, and a second dispatch on the statement would cost
/// another mispredicted branch per event.
pub(super) const fn code(next: Next, stmt: Stmt) -> u8 {
    match next {
        Next::Exec | Next::Reply => (next as u8) << 3 | stmt as u8,
        _ => (next as u8) << 3,
    }
}

/// Whether the reply to `stmt` that found `found` touches only its own worker: it closes the
/// worker's autocommit transaction (or none), or closes one as it opens the next, and starts
/// the job, schedules the naive gap, sends COMMIT or starts the next claim. No table row,
/// lock or other worker is involved (each worker draws its own round trips), and it records
/// nothing once the timeline and spans are full. The other replies stop a worker (`holds_job`
/// false after COMMIT), consult the per-key state, or start a claim that an execution limit
/// (`unlimited` false) may refuse, which depends on the other workers' claims.
#[inline(always)]
pub(super) fn private_reply(
    stmt: Stmt,
    found: Option<u32>,
    holds_job: bool,
    unlimited: bool,
) -> bool {
    match stmt {
        Stmt::MarkRunning => true,
        Stmt::NaiveSelect | Stmt::SelectForUpdate | Stmt::SelectSkipLocked | Stmt::LeaseClaim => {
            found.is_some()
        }
        Stmt::MarkDone => unlimited,
        Stmt::Commit => holds_job && unlimited,
        Stmt::Begin => false,
    }
}

pub(super) const START: u8 = code(Next::Start, Stmt::Begin);
pub(super) const GRANTED: u8 = code(Next::Granted, Stmt::Begin);
pub(super) const GAP_END: u8 = code(Next::GapEnd, Stmt::Begin);
pub(super) const WORK_END: u8 = code(Next::WorkEnd, Stmt::Begin);
pub(super) const EXEC_BEGIN: u8 = code(Next::Exec, Stmt::Begin);
pub(super) const EXEC_NAIVE_SELECT: u8 = code(Next::Exec, Stmt::NaiveSelect);
pub(super) const EXEC_MARK_RUNNING: u8 = code(Next::Exec, Stmt::MarkRunning);
pub(super) const EXEC_SELECT_FOR_UPDATE: u8 = code(Next::Exec, Stmt::SelectForUpdate);
pub(super) const EXEC_SELECT_SKIP_LOCKED: u8 = code(Next::Exec, Stmt::SelectSkipLocked);
pub(super) const EXEC_LEASE_CLAIM: u8 = code(Next::Exec, Stmt::LeaseClaim);
pub(super) const EXEC_MARK_DONE: u8 = code(Next::Exec, Stmt::MarkDone);
pub(super) const EXEC_COMMIT: u8 = code(Next::Exec, Stmt::Commit);
pub(super) const REPLY_BEGIN: u8 = code(Next::Reply, Stmt::Begin);
pub(super) const REPLY_NAIVE_SELECT: u8 = code(Next::Reply, Stmt::NaiveSelect);
pub(super) const REPLY_MARK_RUNNING: u8 = code(Next::Reply, Stmt::MarkRunning);
pub(super) const REPLY_SELECT_FOR_UPDATE: u8 = code(Next::Reply, Stmt::SelectForUpdate);
pub(super) const REPLY_SELECT_SKIP_LOCKED: u8 = code(Next::Reply, Stmt::SelectSkipLocked);
pub(super) const REPLY_LEASE_CLAIM: u8 = code(Next::Reply, Stmt::LeaseClaim);
pub(super) const REPLY_MARK_DONE: u8 = code(Next::Reply, Stmt::MarkDone);
pub(super) const REPLY_COMMIT: u8 = code(Next::Reply, Stmt::Commit);
