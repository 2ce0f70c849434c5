//! `pgcheck pgq`: L4's side by side on a real server, with L4's own SQL: the rotation queue
//! (the lab's PL/pgSQL engine, `src/sql/pgque/*.sql`, its statements `src/sql/pgque/lab/` and
//! `src/sql/pgque/compare/`) beside L1's table as a SKIP LOCKED queue (L3's enqueue, claim and
//! DELETE), round after round, without and then with a long transaction. The same steps as
//! the lab's `compare::run` (src/labs/pgq/compare.rs).
//!
//! One difference from the lab: the long transaction is a second connection holding a
//! transaction that took an id (`begin; select txid_current()`), not the lab's prepared
//! transaction (`pin.sql` needs `max_prepared_transactions` > 0; servers default to 0).
//! Both pin the xmin horizon the same way, for VACUUM and for maint()'s rotation rule.
//!
//! A batch is one tick interval, and `ack(batch_id)` finishes the whole batch, also events a
//! receive's `max_return` left out (PgQue's batch-ownership caveat). So a round sends its N
//! events in transactions of `page` events, each followed by a tick (`force_tick.sql`, then
//! `tick.sql`: a tick now, whatever the ticker's thresholds): every batch holds at most
//! `page` events, and each receive asks for `page`, so it returns its batch whole.
//!
//! Then cooperative consumers and unsubscribe ([`coop`]): two subconsumers receive two
//! batches of their own, a dead member's batch is taken over, and an unsubscribed consumer
//! stops holding rotation back.

#[path = "pgq_coop.rs"]
pub mod coop;
#[path = "pgq_stmt.rs"]
pub(crate) mod stmt;

use crate::keys;
use std::time::Instant;

use postgres::types::Type;
use postgres::Client;

use crate::target::{self, en, group, lab_sql, render, table, Print, CLOCK_SCHEMA};
use crate::{context, CheckError};
use queue_lab_core::i18n::Msg;
use stmt::{ACK, FLUSH_STATS, FORCE_TICK, RECEIVE, ROTATE_STEP2, SEND_BURST, TICK};

/// L4's schema, as its descriptor names it.
pub fn lab_schema() -> &'static str {
    target::lab_schema!("pgq")
}

/// `[(file, its text)]` for files of `src/sql/pgque/`, named once each.
macro_rules! engine_files {
    ($($file:literal),* $(,)?) => {
        [$(($file, include_str!(concat!("../../../src/sql/pgque/", $file)))),*]
    };
}

/// The engine, in install order (each file one script), as the lab installs it.
pub(crate) const ENGINE: [(&str, &str); 12] = engine_files! {
    "00_schema.sql", "10_queue.sql", "20_send.sql", "30_ticker.sql", "40_receive.sql",
    "45_coop.sql", "50_retry_dlq.sql", "55_triggers.sql", "60_info.sql", "70_maint.sql",
    "80_schedule.sql", "90_roles.sql",
};

/// A lab session on L4's schema with the engine installed on it, as the lab installs it.
pub(crate) fn engine_session(url: &str) -> Result<Client, CheckError> {
    let mut c = target::lab_session(url, lab_schema())?;
    for (name, sql) in ENGINE {
        context(c.batch_execute(sql), name)?;
    }
    Ok(c)
}
const SETUP: &str = lab_sql!("pgque/compare/setup.sql");
const MAINT: &str = lab_sql!("pgque/compare/maint.sql");
const EVENT_STATS: &str = lab_sql!("pgque/compare/event_stats.sql");
const JOBS_STATS: &str = lab_sql!("pgque/compare/jobs_stats.sql");
/// L1's table, created in `pgq_compare` (setup.sql puts it first on the search path).
const JOBS_TABLE: &str = lab_sql!("jobs/schema.sql");
const ENQUEUE: &str = lab_sql!("vacuum/enqueue.sql");
const CLAIM_BATCH: &str = lab_sql!("vacuum/claim_batch.sql");
const COMPLETE_DELETE: &str = lab_sql!("vacuum/complete_delete.sql");
const VACUUM: &str = lab_sql!("vacuum/vacuum.sql");
const RESET_SEARCH_PATH: &str = lab_sql!("vacuum/reset_search_path.sql");
const CATALOG: &str = include_str!("../../../assets/i18n/pgq.tsv");

/// As in the lab (src/labs/pgq/compare.rs and model.rs).
const QUEUE: &str = "compare";
const CONSUMERS: [&str; 2] = ["billing", "email"];
const EVENT_TYPE: &str = "order.created";
const ROTATION_SECONDS: f64 = 30.0;

/// The schemas L4's SQL creates itself: the engine's and the side by side's.
const MADE_BY_SQL: [&str; 2] = ["pgque", "pgq_compare"];

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub events: u32,
    pub rounds: u32,
    pub page: u32,
}

impl Default for Settings {
    /// The lab's defaults: the article's 20,000 jobs × 3 rounds, pages of 500 (batches of
    /// at most 500 events, each received whole).
    fn default() -> Self {
        Settings {
            events: 20_000,
            rounds: 3,
            page: 500,
        }
    }
}

/// One round of both queues.
#[derive(Clone, Debug, Default)]
pub struct Round {
    pub round: u32,
    // The rotation queue.
    /// Batches the round's sends made (one tick after each `page` events).
    pub batches: u32,
    /// Receives, the last of each consumer's loop (which found no batch) included.
    pub receives: u32,
    /// Acks that returned 0 (the batch was not open): none should.
    pub unfinished_acks: u32,
    /// Events a housekeeping receive returned after the round's loop (none should).
    pub stray: u64,
    pub delivered: u64,
    pub receive_ms: f64,
    pub pgq_dead: i64,
    pub pgq_bytes: i64,
    /// Events TRUNCATEd by this round's maint(), if it rotated.
    pub truncated: Option<i64>,
    /// maint()'s reason for waiting (its code), if it did not rotate.
    pub waiting: Option<String>,
    // The SKIP LOCKED queue.
    pub claims: u32,
    pub done: u64,
    pub claim_ms: f64,
    pub claim_pages: i64,
    pub claim_plan_ms: f64,
    pub dead_before_vacuum: i64,
    pub jobs_dead: i64,
    pub jobs_bytes: i64,
}

/// After the long transaction ended (pinned run only).
#[derive(Clone, Debug, Default)]
pub struct Released {
    pub jobs_dead: i64,
    pub jobs_bytes: i64,
    pub truncated: i64,
    pub pgq_bytes: i64,
    /// Events a housekeeping receive returned (none should be left to it).
    pub stray: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Run {
    pub pinned: bool,
    pub rounds: Vec<Round>,
    pub released: Option<Released>,
}

fn ms(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0} ms")
    } else {
        format!("{x:.1} ms")
    }
}

impl Run {
    /// The lab's table: round; rotation queue (dead tuples, size, time per receive,
    /// rotation); SKIP LOCKED + DELETE (dead tuples → after VACUUM, size, time per claim,
    /// pages one claim reads).
    pub fn table(&self, s: Settings) -> String {
        let t = |k| en(CATALOG, k).to_string();
        let caption = render(
            CATALOG,
            &Msg::new(if self.pinned {
                keys::PGQ_CMP_CAPTION_PINNED
            } else {
                keys::PGQ_CMP_CAPTION
            })
            .arg("events", group(i64::from(s.events)))
            .arg("rounds", s.rounds)
            .arg("page", s.page),
        );
        let (p, j) = (t(keys::PGQ_CMP_SIDE_PGQ), t(keys::PGQ_CMP_SIDE_JOBS));
        let header = vec![
            t(keys::PGQ_CMP_ROUND),
            format!("{p}: {}", t(keys::PGQ_CMP_DEAD_TUPLES)),
            t(keys::PGQ_CMP_SIZE),
            t(keys::PGQ_CMP_PER_RECEIVE),
            t(keys::PGQ_CMP_ROTATION),
            format!("{j}: {}", t(keys::PGQ_CMP_DEAD_VACUUM)),
            t(keys::PGQ_CMP_SIZE),
            t(keys::PGQ_CMP_PER_CLAIM),
            t(keys::PGQ_CMP_CLAIM_PAGES),
        ];
        let rows: Vec<Vec<String>> = self
            .rounds
            .iter()
            .map(|r| {
                let rotation = match (&r.truncated, &r.waiting) {
                    (Some(n), _) => render(
                        CATALOG,
                        &Msg::new(keys::PGQ_CMP_TRUNCATED).arg("count", group(*n)),
                    ),
                    (None, Some(why)) => format!("{} ({why})", t(keys::PGQ_CMP_HELD)),
                    (None, None) => t(keys::PGQ_CMP_NO_ROTATION),
                };
                vec![
                    r.round.to_string(),
                    group(r.pgq_dead),
                    queue_lab_core::format::bytes(r.pgq_bytes),
                    ms(r.receive_ms / f64::from(r.receives.max(1))),
                    rotation,
                    format!("{} → {}", group(r.dead_before_vacuum), group(r.jobs_dead)),
                    queue_lab_core::format::bytes(r.jobs_bytes),
                    ms(r.claim_ms / f64::from(r.claims.max(1))),
                    format!("{} ({})", group(r.claim_pages), ms(r.claim_plan_ms)),
                ]
            })
            .collect();
        let mut out = format!("{caption}\n{}", table(&header, &rows, 1));
        if let Some(r) = &self.released {
            out.push_str(&format!(
                "\nAfter the long transaction ended: VACUUM left {} dead tuples in the SKIP \
                 LOCKED table ({}); the held-back rotations truncated {} events (event tables {}).",
                group(r.jobs_dead),
                queue_lab_core::format::bytes(r.jobs_bytes),
                group(r.truncated),
                queue_lab_core::format::bytes(r.pgq_bytes)
            ));
        }
        out
    }
}

#[derive(Clone, Debug)]
pub struct Report {
    pub settings: Settings,
    pub free: Run,
    pub pinned: Run,
    pub coop: coop::Coop,
}

impl Report {
    /// Invariants the lab shows that do not hold here; empty when all hold.
    pub fn problems(&self) -> Vec<String> {
        let mut out = self.coop.problems();
        let fan_out = 2 * u64::from(self.settings.events);
        for run in [&self.free, &self.pinned] {
            let h = if run.pinned { "pinned" } else { "free" };
            for r in &run.rounds {
                if r.pgq_dead != 0 {
                    out.push(format!(
                        "{h}: the rotation queue has {} dead tuples after round {}",
                        r.pgq_dead, r.round
                    ));
                }
                if r.delivered != fan_out {
                    out.push(format!(
                        "{h}: round {}: {} deliveries, not {fan_out} (2 consumers)",
                        r.round, r.delivered
                    ));
                }
                let batches = self.settings.events.div_ceil(self.settings.page.max(1));
                if r.batches != batches {
                    out.push(format!(
                        "{h}: round {}: {} batches sent, not {batches}",
                        r.round, r.batches
                    ));
                }
                // Each consumer: one receive per batch, and one that finds none.
                if r.receives != 2 * (batches + 1) {
                    out.push(format!(
                        "{h}: round {}: {} receives, not {} (a batch is one tick interval, \
                         received whole)",
                        r.round,
                        r.receives,
                        2 * (batches + 1)
                    ));
                }
                if r.unfinished_acks != 0 || r.stray != 0 {
                    out.push(format!(
                        "{h}: round {}: {} acks finished no batch; housekeeping received {} events",
                        r.round, r.unfinished_acks, r.stray
                    ));
                }
                if r.done != u64::from(self.settings.events) {
                    out.push(format!(
                        "{h}: round {}: SKIP LOCKED ran {} jobs, not {}",
                        r.round, r.done, self.settings.events
                    ));
                }
                if r.dead_before_vacuum <= 0 {
                    out.push(format!(
                        "{h}: round {}: no dead tuples after the SKIP LOCKED queue's DELETEs",
                        r.round
                    ));
                }
                if run.pinned {
                    // The pin opens after the queue is made, so the first switch (onto an
                    // empty table) may go through; no table holding events may be truncated,
                    // and from round 2 on maint() waits.
                    if r.truncated.unwrap_or(0) > 0 {
                        out.push(format!("{h}: round {}: maint() truncated events although a transaction pinned the horizon", r.round));
                    }
                    if r.round > 1 && r.waiting.is_none() {
                        out.push(format!(
                            "{h}: round {}: maint() did not wait for the long transaction",
                            r.round
                        ));
                    }
                    if r.jobs_dead <= 0 {
                        out.push(format!("{h}: round {}: VACUUM removed every dead tuple although the horizon was pinned", r.round));
                    }
                } else if r.jobs_dead != 0 {
                    out.push(format!(
                        "{h}: round {}: VACUUM left {} dead tuples with the horizon free",
                        r.round, r.jobs_dead
                    ));
                }
            }
            if !run.pinned && run.rounds.iter().all(|r| r.truncated.is_none()) {
                out.push("free: maint() never rotated".into());
            }
            if run.pinned && run.rounds.len() > 1 {
                let (first, last) = (&run.rounds[0], &run.rounds[run.rounds.len() - 1]);
                if last.claim_pages <= first.claim_pages {
                    out.push(format!(
                        "pinned: the article's claim read {} pages in round 1 and {} in round {}: no growth",
                        first.claim_pages, last.claim_pages, last.round
                    ));
                }
            }
            if run.pinned {
                match &run.released {
                    Some(r) if r.stray != 0 => out.push(format!(
                        "pinned: housekeeping after the release received {} events",
                        r.stray
                    )),
                    Some(r) if r.jobs_dead == 0 => {}
                    Some(r) => out.push(format!(
                        "pinned: after the transaction ended VACUUM still left {} dead tuples",
                        r.jobs_dead
                    )),
                    None => out.push("pinned: no release step".into()),
                }
            }
        }
        out
    }
}

/// Runs both runs in their own schemas; `print` gets each table as it is ready.
pub fn run(url: &str, settings: Settings, print: Print) -> Result<Report, CheckError> {
    in_lab_schemas(url, |c| {
        let [free, pinned] = target::free_then_pinned(print, |pinned| {
            let run = one_run(url, c, settings, pinned)?;
            let text = format!("\n{}", run.table(settings));
            Ok((run, text))
        })?;
        let coop = coop::run(c)?;
        print(coop.table());
        Ok(Report {
            settings,
            free,
            pinned,
            coop,
        })
    })
}

/// Cooperative consumers and unsubscribe alone (the end of [`run`]), in the same schemas.
pub fn run_coop(url: &str) -> Result<coop::Coop, CheckError> {
    in_lab_schemas(url, coop::run)
}

/// `body` on a lab session with the engine installed, inside [`target::run_in_schemas`] for
/// L4's schemas; the session's search path is put back once `body` has succeeded.
fn in_lab_schemas<T>(
    url: &str,
    body: impl FnOnce(&mut Client) -> Result<T, CheckError>,
) -> Result<T, CheckError> {
    target::run_in_schemas(
        url,
        "pgq",
        &[CLOCK_SCHEMA, lab_schema()],
        &MADE_BY_SQL,
        || {
            let mut c = engine_session(url)?;
            let out = body(&mut c)?;
            context(c.query(RESET_SEARCH_PATH, &[]), "reset_search_path.sql")?;
            Ok(out)
        },
    )
}

fn one_run(url: &str, c: &mut Client, s: Settings, pinned: bool) -> Result<Run, CheckError> {
    context(c.batch_execute(SETUP), "compare/setup.sql")?;
    context(c.batch_execute(JOBS_TABLE), "jobs/schema.sql")?;
    // As in L3's lab: PGlite runs no autovacuum, so neither does the SKIP LOCKED table here
    // (VACUUM runs after each round, standing in for it, as in the lab).
    context(
        c.batch_execute("alter table pgq_compare.jobs set (autovacuum_enabled = off)"),
        "turning autovacuum off on the SKIP LOCKED table",
    )?;
    let pin = pinned.then(|| target::HorizonPin::open(url)).transpose()?;
    let mut run = Run {
        pinned,
        ..Run::default()
    };
    let out = (|| {
        for round in 1..=s.rounds {
            let mut r = Round {
                round,
                ..Round::default()
            };
            pgq_round(c, s, &mut r)?;
            jobs_round(c, s, &mut r)?;
            run.rounds.push(r);
        }
        Ok(())
    })();
    if let Some(p) = pin {
        let ended = p.release();
        out?;
        ended?;
        let mut released = Released::default();
        // The held-back rotations now go through: one per period, as maint() allows.
        for _ in 0..3 {
            target::advance_clock(c, ROTATION_SECONDS)?;
            released.truncated += housekeeping(c, s.page, &mut released.stray)?.0.unwrap_or(0);
        }
        released.pgq_bytes = event_stats(c)?.1;
        context(c.batch_execute(VACUUM), "vacuum.sql")?;
        (released.jobs_dead, released.jobs_bytes) = jobs_stats(c)?;
        run.released = Some(released);
    } else {
        out?;
    }
    Ok(run)
}

/// receive.sql for one consumer, asking for `page` events: (batch id, events returned).
fn receive(c: &mut Client, consumer: &str, page: u32) -> Result<(Option<i64>, usize), CheckError> {
    let stmt = context(
        c.prepare_typed(RECEIVE, &[Type::TEXT, Type::TEXT, Type::INT4]),
        "receive.sql",
    )?;
    let rows = context(
        c.query(&stmt, &[&QUEUE, &consumer, &(page as i32)]),
        "receive.sql",
    )?;
    Ok((rows.first().map(|r| r.get("batch_id")), rows.len()))
}

/// ack.sql: 1 when it finished the batch, 0 when the batch was not open.
fn ack(c: &mut Client, batch: i64) -> Result<i32, CheckError> {
    let stmt = context(c.prepare_typed(ACK, &[Type::INT8]), "ack.sql")?;
    let r = context(c.query_one(&stmt, &[&batch]), "ack.sql")?;
    Ok(r.get("finished"))
}

/// A tick now, whatever the ticker's thresholds: force_tick.sql, then tick.sql (PgQue's
/// idiom: force_next_tick, then ticker, in statements of their own).
fn tick(c: &mut Client) -> Result<i64, CheckError> {
    let force = context(c.prepare_typed(FORCE_TICK, &[Type::TEXT]), "force_tick.sql")?;
    context(c.query(&force, &[&QUEUE]), "force_tick.sql")?;
    let stmt = context(c.prepare_typed(TICK, &[Type::TEXT]), "tick.sql")?;
    let r = context(c.query_one(&stmt, &[&QUEUE]), "tick.sql")?;
    r.get::<_, Option<i64>>("tick_id")
        .ok_or_else(|| CheckError("tick.sql made no tick after force_tick.sql".into()))
}

/// A tick, each consumer steps onto it, maint(): what a ticker daemon does between rounds.
/// The tick's batch holds no event (none was sent after the round's last tick), so each
/// consumer's receive finishes it at once; one that returns events is acked and counted in
/// `stray`. Returns (events truncated, maint's reason to wait with its detail).
fn housekeeping(
    c: &mut Client,
    page: u32,
    stray: &mut u64,
) -> Result<(Option<i64>, Option<String>), CheckError> {
    tick(c)?;
    for consumer in CONSUMERS {
        if let (Some(batch), n) = receive(c, consumer, page)? {
            *stray += n as u64;
            ack(c, batch)?;
        }
    }
    let stmt = context(c.prepare_typed(MAINT, &[Type::TEXT]), "compare/maint.sql")?;
    let rows = context(c.query(&stmt, &[&QUEUE]), "compare/maint.sql")?;
    // rotation step 2 in a transaction of its own, as PgQue's 10 s job records it
    context(c.batch_execute(ROTATE_STEP2), "rotate_step2.sql")?;
    let mut truncated = None;
    let mut waiting = None;
    for r in rows {
        let action: String = r.get("action");
        let args: Option<Vec<Option<String>>> = r.get("args");
        if action == "rotate" {
            // rotate's args: (from table, to table, events truncated)
            let n = args
                .as_ref()
                .and_then(|a| a.get(2).cloned().flatten())
                .and_then(|n| n.parse::<i64>().ok())
                .unwrap_or(0);
            truncated = Some(truncated.unwrap_or(0) + n);
        } else if action == "wait" {
            let reason: Option<String> = r.get("reason");
            waiting = Some(reason.unwrap_or_default());
        }
    }
    Ok((truncated, waiting))
}

/// (dead tuples, bytes, events) of the queue's event tables.
fn event_stats(c: &mut Client) -> Result<(i64, i64, i64), CheckError> {
    context(c.batch_execute(FLUSH_STATS), "flush_stats.sql")?;
    let stmt = context(
        c.prepare_typed(EVENT_STATS, &[Type::TEXT]),
        "event_stats.sql",
    )?;
    let r = context(c.query_one(&stmt, &[&QUEUE]), "event_stats.sql")?;
    Ok((r.get("dead"), r.get("bytes"), r.get("events")))
}

/// (dead tuples, bytes) of the SKIP LOCKED table.
fn jobs_stats(c: &mut Client) -> Result<(i64, i64), CheckError> {
    context(c.batch_execute(FLUSH_STATS), "flush_stats.sql")?;
    let r = context(c.query_one(JOBS_STATS, &[]), "jobs_stats.sql")?;
    Ok((r.get("dead"), r.get("bytes")))
}

/// The round's N events in transactions of `page` (send_burst.sql), each followed by a tick,
/// so every batch holds at most `page` events; then each consumer receives with
/// max_return = `page` (its batch whole) and acks, until no tick is left.
fn pgq_round(c: &mut Client, s: Settings, r: &mut Round) -> Result<(), CheckError> {
    let send = context(
        c.prepare_typed(SEND_BURST, &[Type::TEXT, Type::TEXT, Type::INT4]),
        "send_burst.sql",
    )?;
    let mut left = s.events;
    while left > 0 {
        let n = left.min(s.page.max(1));
        context(
            c.query(&send, &[&QUEUE, &EVENT_TYPE, &(n as i32)]),
            "send_burst.sql",
        )?;
        tick(c)?;
        r.batches += 1;
        left -= n;
    }
    let started = Instant::now();
    for consumer in CONSUMERS {
        loop {
            let (batch, n) = receive(c, consumer, s.page)?;
            r.receives += 1;
            let Some(batch) = batch else { break };
            r.delivered += n as u64;
            if ack(c, batch)? != 1 {
                r.unfinished_acks += 1;
            }
        }
    }
    r.receive_ms = started.elapsed().as_secs_f64() * 1000.0;
    target::advance_clock(c, ROTATION_SECONDS)?;
    (r.truncated, r.waiting) = housekeeping(c, s.page, &mut r.stray)?;
    (r.pgq_dead, r.pgq_bytes, _) = event_stats(c)?;
    Ok(())
}

fn jobs_round(c: &mut Client, s: Settings, r: &mut Round) -> Result<(), CheckError> {
    let enqueue = context(c.prepare_typed(ENQUEUE, &[Type::INT4]), "enqueue.sql")?;
    context(c.execute(&enqueue, &[&(s.events as i32)]), "enqueue.sql")?;
    // The article's one-job claim, EXPLAIN (ANALYZE, BUFFERS), rolled back.
    let summary = crate::vacuum::article_claim_summary(c)?;
    r.claim_pages = summary.get("pages");
    r.claim_plan_ms = summary.get("execution_ms");
    let claim = context(
        c.prepare_typed(CLAIM_BATCH, &[Type::INT8]),
        "claim_batch.sql",
    )?;
    let delete = context(c.prepare(COMPLETE_DELETE), "complete_delete.sql")?;
    let started = Instant::now();
    let (claims, done) =
        crate::vacuum::claim_all(c, &claim, &delete, "complete_delete.sql", s.page)?;
    r.claims += claims;
    r.done += done;
    r.claim_ms = started.elapsed().as_secs_f64() * 1000.0;
    r.dead_before_vacuum = jobs_stats(c)?.0;
    context(c.batch_execute(VACUUM), "vacuum.sql")?;
    (r.jobs_dead, r.jobs_bytes) = jobs_stats(c)?;
    Ok(())
}
