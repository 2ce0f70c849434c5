//! L4 side by side: the rotation queue against L1's SKIP LOCKED queue under the same load,
//! round after round, without and with a long transaction pinning the xmin horizon.
//! State and measurements only, no UI.
//!
//! A round, each side fed the same N events:
//! - **rotation queue** (`pgque`, queue `compare`, consumers billing and email): `send_batch`
//!   of `page` events at a time, each followed by a tick (so a batch holds at most `page`);
//!   each consumer receives every batch whole and acks it (fan-out: 2 × N deliveries); then
//!   the housekeeping a ticker daemon does:
//!   the lab clock moves on by the rotation period, a tick, each consumer steps onto it,
//!   `maint('compare')`.
//! - **SKIP LOCKED queue** (the article's `jobs` table, in schema `pgq_compare`): N INSERTs
//!   in one statement, the article's claim taking `page` jobs at a time and DELETE on
//!   completion until drained, then VACUUM (standing in for autovacuum, which PGlite does
//!   not run).
//!
//! Every statement is a file: the engine's lab SQL (`src/sql/pgque/lab/`), L3's claim,
//! enqueue and DELETE (`src/sql/vacuum/`), L1's table (`src/sql/jobs/schema.sql`) and the
//! side by side's own (`src/sql/pgque/compare/`).

use crate::db::{Db, DbError};
use crate::keys;
use crate::labs::common::{breathe, claim_pages, now_ms, sql as vac};
use crate::ui::format::group;
use queue_lab_core::i18n::Msg;
use serde::Deserialize;
use std::cell::Cell;

use super::CONSUMERS;
use crate::labs::pgq::sql;
use crate::labs::pgq::sql::compare::{self as cmp, Stats};

pub const QUEUE: &str = "compare";
/// The rotation period of the `compare` queue, by which the clock moves each round.
pub const ROTATION_SECONDS: i64 = 30;

/// Bounds of the inputs; the defaults are the article's 20,000 jobs × 3 rounds.
pub const EVENTS: (i64, i64, i64) = (100, 20_000, 20_000);
pub const ROUNDS: (i64, i64, i64) = (1, 5, 3);
pub const PAGE: (i64, i64, i64) = (10, 1_000, 500);

/// At most this many pages (a receive or a claim of `page` rows) a side in one run: events
/// ÷ page × rounds. The article's claim reads the whole table each time, and a long
/// transaction keeps every dead row version in it; measured (`BENCH_ONLY=limits`,
/// bench/results/2026-12-05-limits-before.md), 20,000 events × 5 rounds at page 10 (10,000
/// pages) with the long transaction had not finished after 7 minutes. The defaults make 120.
pub const RUN_PAGES_MAX: u32 = 200;

/// Reads the form's three inputs within their bounds, then refuses a run with more pages
/// than the tab can take ([`within_the_tab`]).
pub fn parse_settings(
    events: &str,
    rounds: &str,
    page: &str,
    pinned: bool,
) -> Result<Settings, Msg> {
    let read = |text: &str, (min, max, _): (i64, i64, i64)| {
        super::parse_in(text, min, max).map(|n| n as u32)
    };
    Ok(Settings {
        events: read(events, EVENTS)?,
        rounds: read(rounds, ROUNDS)?,
        page: read(page, PAGE)?,
        pinned,
    })
    .and_then(within_the_tab)
}

/// Refuses a run with more pages than [`RUN_PAGES_MAX`] up front, naming the smallest page
/// that would let it run.
pub fn within_the_tab(s: Settings) -> Result<Settings, Msg> {
    let pages = s.events.div_ceil(s.page) * s.rounds;
    if pages > RUN_PAGES_MAX {
        let per_round = (RUN_PAGES_MAX / s.rounds).max(1);
        return Err(Msg::new(keys::PGQ_CMP_TOO_MANY_PAGES)
            .arg("page", group(s.page))
            .arg("pages", group(pages))
            .arg("max", RUN_PAGES_MAX)
            .arg("min", group(s.events.div_ceil(per_round))));
    }
    Ok(s)
}

/// What a run is asked to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub events: u32,
    pub rounds: u32,
    /// Events a receive asks for, jobs a claim takes.
    pub page: u32,
    /// A long transaction (prepared, holding a transaction id) open for the whole run.
    pub pinned: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            events: EVENTS.2 as u32,
            rounds: ROUNDS.2 as u32,
            page: PAGE.2 as u32,
            pinned: false,
        }
    }
}

/// One round of the rotation queue.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgqRound {
    /// Receive + ack calls, both consumers.
    pub receives: u32,
    pub delivered: u64,
    /// Time from the first receive to the last ack.
    pub consume_ms: f64,
    /// Dead tuples in the event tables after the round.
    pub dead: i64,
    /// The event tables' size with indexes.
    pub bytes: i64,
    /// Events still stored (a TRUNCATE empties a table at once).
    pub stored: i64,
    /// Events TRUNCATEd by this round's maint(), if it rotated.
    pub truncated: Option<i64>,
    /// maint()'s reason for waiting, if it did not rotate.
    pub waiting: Option<Msg>,
}

impl PgqRound {
    pub fn ms_per_receive(&self) -> f64 {
        self.consume_ms / f64::from(self.receives.max(1))
    }
}

/// One round of the SKIP LOCKED queue.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobsRound {
    pub claims: u32,
    pub done: u64,
    /// Time from the first claim to the last DELETE.
    pub consume_ms: f64,
    pub first_claim_ms: f64,
    pub last_claim_ms: f64,
    /// The article's one-job claim, EXPLAIN (ANALYZE, BUFFERS) right after the round's
    /// INSERTs (rolled back): pages it read and its execution time. Its OR filter cannot
    /// use the partial index, so it reads the heap, dead tuples included: the pages grow
    /// with what VACUUM could not free; a figure that does not depend on the machine.
    pub claim_pages: i64,
    pub claim_plan_ms: f64,
    /// Dead tuples after the round's DELETEs, and after the VACUUM that followed.
    pub dead_before_vacuum: i64,
    pub dead: i64,
    pub bytes: i64,
}

impl JobsRound {
    pub fn ms_per_claim(&self) -> f64 {
        self.consume_ms / f64::from(self.claims.max(1))
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Round {
    pub round: u32,
    pub pgq: PgqRound,
    pub jobs: JobsRound,
}

/// What happened after the long transaction ended (pinned runs only).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Released {
    /// Dead tuples the next VACUUM left in the SKIP LOCKED table (0 when it removed them).
    pub jobs_dead: i64,
    pub jobs_bytes: i64,
    /// Events TRUNCATEd by the rotations that had been held back.
    pub truncated: i64,
    pub pgq_bytes: i64,
}

/// A whole run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub settings: Option<Settings>,
    pub rounds: Vec<Round>,
    pub released: Option<Released>,
    pub pgq_ms: f64,
    pub jobs_ms: f64,
    pub total_ms: f64,
    pub cancelled: bool,
}

#[derive(Deserialize)]
struct Delivered {
    batch_id: i64,
}
/// Whether a side by side's long transaction is open (say, after a page reload mid-run).
pub async fn pinned(db: &Db) -> Result<bool, DbError> {
    cmp::pinned(db).await
}

/// Ends the run's long transaction if it is open.
pub async fn release(db: &Db) -> Result<(), DbError> {
    if pinned(db).await? {
        cmp::unpin(db).await?;
    }
    Ok(())
}

/// The event tables after a round, statistics flushed first (a statement of its own:
/// Postgres flushes them only after a statement ends).
async fn event_stats(db: &Db) -> Result<Stats, DbError> {
    sql::flush_stats(db).await?;
    cmp::event_stats(db, QUEUE).await
}

/// The jobs table after a round, statistics flushed first.
async fn jobs_stats(db: &Db) -> Result<Stats, DbError> {
    sql::flush_stats(db).await?;
    cmp::jobs_stats(db).await
}

/// A tick now (force_next_tick, then ticker): the side by side cuts its batches itself.
async fn tick(db: &Db) -> Result<(), DbError> {
    sql::force_next_tick(db, QUEUE).await?;
    sql::ticker(db, QUEUE).await.map(|_| ())
}

/// A tick, each consumer steps onto it (its batch is empty, so receive finishes it), maint():
/// what a ticker daemon does between rounds. Returns (events truncated, maint's reason to wait).
async fn housekeeping(db: &Db, page: u32) -> Result<(Option<i64>, Option<Msg>), DbError> {
    tick(db).await?;
    for c in CONSUMERS {
        let of = sql::Receive {
            queue: QUEUE,
            consumer: c,
            max: page.into(),
        };
        sql::receive::<serde_json::Value>(db, of).await?;
    }
    let rows = cmp::maint(db, QUEUE).await?;
    sql::rotate_step2(db).await?;
    let truncated = rows
        .iter()
        .filter(|r| r.action == "rotate")
        // rotate's args: (from table, to table, events truncated)
        .filter_map(|r| r.args.as_ref()?.get(2)?.parse::<i64>().ok())
        .reduce(|a, b| a + b);
    let waiting = rows
        .iter()
        .find(|r| r.action == "wait")
        .map(|r| super::reason_msg(r.reason.as_deref(), r.args.as_deref().unwrap_or_default()));
    Ok((truncated, waiting))
}

/// `work`'s result and the time it took, in ms.
async fn timed<T>(
    work: impl std::future::Future<Output = Result<T, DbError>>,
) -> Result<(T, f64), DbError> {
    let t = now_ms();
    let out = work.await?;
    Ok((out, now_ms() - t))
}

/// One round: the N events go in as transactions of `page` events, each followed by a tick,
/// so no batch holds more than `page`; each consumer receives every batch whole (a limit of
/// `page`, at least the batch size: PgQue's batch-ownership rule) and acks it.
async fn pgq_round(db: &Db, s: Settings, cancel: &Cell<bool>) -> Result<PgqRound, DbError> {
    let mut left = i64::from(s.events);
    while left > 0 {
        let n = left.min(i64::from(s.page));
        let burst = sql::SendBurst {
            queue: QUEUE,
            event_type: "order.created",
            count: n,
        };
        sql::send_burst(db, burst).await?;
        tick(db).await?;
        left -= n;
    }
    let mut r = PgqRound::default();
    let started = now_ms();
    for c in CONSUMERS {
        loop {
            if cancel.get() {
                return Ok(r);
            }
            let of = sql::Receive {
                queue: QUEUE,
                consumer: c,
                max: s.page.into(),
            };
            let page: Vec<Delivered> = sql::receive(db, of).await?;
            r.receives += 1;
            let Some(first) = page.first() else { break };
            r.delivered += page.len() as u64;
            sql::ack(db, first.batch_id).await?;
            breathe().await;
        }
    }
    r.consume_ms = now_ms() - started;
    crate::clock::advance(db, ROTATION_SECONDS).await?;
    (r.truncated, r.waiting) = housekeeping(db, s.page).await?;
    let st = event_stats(db).await?;
    (r.dead, r.bytes, r.stored) = (st.dead, st.bytes, st.events);
    Ok(r)
}

async fn jobs_round(db: &Db, s: Settings, cancel: &Cell<bool>) -> Result<JobsRound, DbError> {
    vac::enqueue(db, s.events).await?;
    let plan = claim_pages(db).await?;
    let mut r = JobsRound {
        claim_pages: plan.pages,
        claim_plan_ms: plan.execution_ms,
        ..JobsRound::default()
    };
    let started = now_ms();
    loop {
        if cancel.get() {
            return Ok(r);
        }
        let t = now_ms();
        let ids = vac::claim_batch(db, s.page).await?;
        let claim_ms = now_ms() - t;
        r.claims += 1;
        if ids.is_empty() {
            break;
        }
        if r.done == 0 {
            r.first_claim_ms = claim_ms;
        }
        r.last_claim_ms = claim_ms;
        vac::complete_delete(db, &ids).await?;
        r.done += ids.len() as u64;
        breathe().await;
    }
    r.consume_ms = now_ms() - started;
    r.dead_before_vacuum = jobs_stats(db).await?.dead;
    vac::vacuum(db).await?;
    let st = jobs_stats(db).await?;
    (r.dead, r.bytes) = (st.dead, st.bytes);
    Ok(r)
}

/// Runs the side by side. `progress` gets the report after every round (and side).
/// The long transaction, when asked for, is always ended before returning, and the search
/// path is always the lab's again, error or not.
pub async fn run(
    db: &Db,
    s: Settings,
    cancel: &Cell<bool>,
    progress: &dyn Fn(&Report),
) -> Result<Report, DbError> {
    let started = now_ms();
    let mut report = Report {
        settings: Some(s),
        ..Report::default()
    };
    let out = run_inner(db, s, cancel, progress, &mut report).await;
    let released = release(db).await;
    let reset = vac::reset_search_path(db).await;
    out?;
    released?;
    reset?;
    report.total_ms = now_ms() - started;
    progress(&report);
    Ok(report)
}

async fn run_inner(
    db: &Db,
    s: Settings,
    cancel: &Cell<bool>,
    progress: &dyn Fn(&Report),
    report: &mut Report,
) -> Result<(), DbError> {
    release(db).await?;
    cmp::setup(db).await?;
    cmp::jobs_table(db).await?;
    if s.pinned {
        cmp::pin(db).await?;
    }
    for round in 1..=s.rounds {
        let (pgq, ms) = timed(pgq_round(db, s, cancel)).await?;
        report.pgq_ms += ms;
        if cancel.get() {
            report.cancelled = true;
            return Ok(());
        }
        report.rounds.push(Round {
            round,
            pgq,
            jobs: JobsRound::default(),
        });
        progress(report);
        let (jobs, ms) = timed(jobs_round(db, s, cancel)).await?;
        report.jobs_ms += ms;
        if cancel.get() {
            report.cancelled = true;
            return Ok(());
        }
        if let Some(last) = report.rounds.last_mut() {
            last.jobs = jobs;
        }
        progress(report);
    }
    if s.pinned {
        cmp::unpin(db).await?;
        let mut released = Released::default();
        // The held-back rotations now go through: one per period, as maint() allows.
        for _ in 0..3 {
            crate::clock::advance(db, ROTATION_SECONDS).await?;
            released.truncated += housekeeping(db, s.page).await?.0.unwrap_or(0);
        }
        released.pgq_bytes = event_stats(db).await?.bytes;
        vac::vacuum(db).await?;
        let st = jobs_stats(db).await?;
        (released.jobs_dead, released.jobs_bytes) = (st.dead, st.bytes);
        report.released = Some(released);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(events: u32, rounds: u32, page: u32) -> Settings {
        Settings {
            events,
            rounds,
            page,
            pinned: true,
        }
    }

    #[test]
    fn a_side_by_side_with_more_pages_than_the_tab_can_take_is_refused_with_the_reason() {
        // The defaults, and the largest runs still accepted.
        assert!(within_the_tab(Settings::default()).is_ok());
        assert!(parse_settings("20000", "5", "500", true).is_ok());
        assert_eq!(
            parse_settings("20001", "3", "500", false).unwrap_err().key,
            keys::PGQ_ERR_RANGE
        );
        assert!(within_the_tab(settings(20_000, 5, 500)).is_ok());
        assert!(within_the_tab(settings(20_000, 1, 100)).is_ok());
        // 20,000 × 5 at page 10: measured unfinished after 7 minutes; refused from the form.
        let e = parse_settings("20,000", "5", "10", true).unwrap_err();
        assert_eq!(e.key, keys::PGQ_CMP_TOO_MANY_PAGES);
        assert!(e.args.contains(&("pages", "10,000".into())));
        assert!(e.args.contains(&("min", "500".into())));
        assert!(within_the_tab(settings(20_000, 5, 499)).is_err());
        let e = within_the_tab(settings(20_000, 3, 10)).unwrap_err();
        assert!(e.args.contains(&("min", "304".into())));
        assert!(within_the_tab(settings(20_000, 3, 304)).is_ok());
        assert!(within_the_tab(settings(20_000, 3, 303)).is_err());
    }
}
