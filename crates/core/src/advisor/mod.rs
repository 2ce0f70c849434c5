//! L5 "When to leave": the decision logic behind the calculator of article §8.
//!
//! What it is for: given a workload ([`Workload`]), say which of §8's leave-signals are met
//! and why, how many dead row versions the queue makes against what autovacuum clears, what
//! to recommend (stay on one Postgres, give the queue its own Postgres, a log, a managed
//! queue), what to fix first, and the article's reference figures as data. It also encodes
//! and decodes the inputs as a URL query string, so a lab state can be shared.
//!
//! What it is not for: no UI, no translation lookup, no web types, no I/O. It never measures
//! anything; every number it produces comes from the plain model below and says so.
//!
//! # Messages
//!
//! Every sentence the advisor produces is a [`Msg`]: a key prefixed `leave.` and a list of
//! named numbers. The texts live in `assets/i18n/leave.tsv`, one line per key,
//! `key<TAB>en<TAB>ko`, no header. Placeholder syntax: `{name}`, where `name` is one of the
//! message's argument names (lowercase ASCII letters and `_`). [`fill`] replaces each
//! placeholder with the number formatted by [`crate::format::number`]; a `{…}` that names no
//! argument is left as it is. The texts use no other braces, so there is no escaping.
//! Input labels, units and help texts are keys too (see [`Field`]); [`MESSAGE_KEYS`] lists
//! every key, and a test checks the TSV against it.
//!
//! # The dead-tuple model (and what it does not know)
//!
//! One job, on the success path of the article's queue (§2), is three statements:
//! - `INSERT` writes the `ready` version: no dead version.
//! - the claim `UPDATE` writes a `running` version; the `ready` one is now dead (1).
//! - completion either `DELETE`s the row (the `running` version is dead: 2) or `UPDATE`s it to
//!   `done` (the `running` version is dead: 2, and the `done` row stays until it is purged,
//!   which makes a third dead version unless its partition is dropped or truncated).
//!
//! So [`DEAD_VERSIONS_PER_JOB`] is 2. The claim changes `status`, a column the partial index's
//! predicate reads, so it cannot be a HOT update: each version also leaves index entries that
//! only VACUUM removes. Retries add two more per failed attempt (fail + next claim), each
//! heartbeat one, each rolled-back enqueue one; the model counts none of these.
//!
//! What autovacuum clears is bounded by two things, and the model shows both:
//! - **The horizon.** While any transaction that started earlier is open, VACUUM may remove
//!   none of the versions that died after it began (§6). With long transactions on the primary
//!   the model says autovacuum clears 0 per second: that is the PlanetScale case.
//! - **Its I/O budget.** Autovacuum sleeps `autovacuum_vacuum_cost_delay` (2 ms since
//!   PostgreSQL 12) each time it has spent `autovacuum_vacuum_cost_limit` (200) cost units:
//!   at most 100,000 units a second. We charge a heap page 2 (miss) + 20 (dirtied) + 1 (second
//!   pass, hit) and assume [`ROWS_PER_HEAP_PAGE`] versions per 8 KB page (about 200 bytes a
//!   row with a small `jsonb` payload), plus one dirtied b-tree leaf per
//!   [`INDEX_ENTRIES_PER_LEAF_PAGE`] dead index entries. That gives a ceiling of dead versions
//!   per second (rounded to two figures); the tuned settings raise the cost limit tenfold.
//!
//! The ceiling ignores WAL and checkpoints, disk speed, whole-index scans on big tables, the
//! three autovacuum workers sharing one budget, and every other table. It is an order of
//! magnitude, not a forecast: its lesson is that at the rates a queue usually runs,
//! autovacuum's speed is rarely the limit; a pinned horizon, and the gap between passes, are.
//!
//! The gap between passes decides the autovacuum signal. PostgreSQL 18 starts a pass once
//! the dead versions exceed `min(autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor
//! × live rows, autovacuum_vacuum_max_threshold)` (defaults 50, 0.2 and 100,000,000), and
//! looks every `autovacuum_naptime` (60 s). Live rows come from Little's law: arrival rate ×
//! (job duration + latency target), assuming completed jobs are deleted and the workers keep
//! up. So a table can carry up to `trigger + dead per second × naptime` dead versions before a
//! pass starts ([`VacuumEstimate::dead_before_pass`]). Above [`BLOAT_WARNING_DEAD`] (the
//! article's lab: 20,000 made the claim query read 723 pages instead of 2), or above the I/O
//! ceiling, autovacuum counts as falling behind. A long transaction is judged apart
//! ([`SignalKind::LongTransaction`]): it stops VACUUM whatever the rates.
//!
//! # Layout
//!
//! This module holds the answer ([`advise`], [`Verdict`], [`Recommendation`], [`Fix`],
//! [`LabLink`]) and re-exports everything else from its parts: `messages` (sentences and
//! number formatting), `inputs` (the workload, validation, URL query), `vacuum` (the
//! dead-tuple model), `signals` (the leave-signals and notes) and `reference` (the interface
//! and the article's figures). Its tests are in `crates/core/tests/advisor_*.rs`.

mod inputs;
mod messages;
mod reference;
mod signals;
mod vacuum;

pub use crate::i18n::fill;
use crate::i18n::Key;
use crate::keys;
pub use inputs::{Bounds, Field, FieldError, LoadBand, Workload};
pub use messages::{Msg, MESSAGE_KEYS};
pub use reference::{InterfaceOp, ReferenceFigure, INTERFACE, INTERFACE_INTRO_KEY, REFERENCES};
pub use signals::{
    Signal, SignalKind, FAN_OUT_LEAVE_AT, HIGH_LOAD_PERCENT, LEASE_S, MEDIUM_LOAD_PERCENT,
    POLL_INTERVAL_MS, QUEUE_MATTERS_AT, STATEMENTS_PER_JOB, THOUSANDS_LEAVE_AT,
};
pub use vacuum::{
    cost_per_dead_version, DeadTuples, VacuumEstimate, VacuumSettings, BLOAT_WARNING_DEAD,
    COST_PAGE_DIRTY, COST_PAGE_HIT, COST_PAGE_MISS, DEAD_VERSIONS_PER_JOB,
    INDEX_ENTRIES_PER_LEAF_PAGE, ROWS_PER_HEAP_PAGE,
};

/// Used by the inputs (a job lasts at most a day), the thousands signal and the references.
const SECONDS_PER_DAY: f64 = 86_400.0;

use signals::{
    autovacuum_signal, fan_out_signal, long_transaction_signal, main_db_signal, notes,
    replay_signal, thousands_signal,
};

/// Where the queue should live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recommendation {
    /// Keep the queue in the main Postgres, in the same transactions as the data.
    StayOnOnePostgres,
    /// Move the queue to a Postgres instance of its own (§8: try this before leaving).
    QueueOnOwnPostgres,
    /// A log such as Kafka or Redpanda (fan-out, replay).
    Log,
    /// A managed queue such as SQS (sustained thousands per second).
    ManagedQueue,
}

impl Recommendation {
    pub fn id(self) -> &'static str {
        match self {
            Recommendation::StayOnOnePostgres => "stay",
            Recommendation::QueueOnOwnPostgres => "own_postgres",
            Recommendation::Log => "log",
            Recommendation::ManagedQueue => "managed_queue",
        }
    }

    /// A short name.
    pub fn key(self) -> Key {
        match self {
            Recommendation::StayOnOnePostgres => keys::LEAVE_REC_STAY,
            Recommendation::QueueOnOwnPostgres => keys::LEAVE_REC_OWN_POSTGRES,
            Recommendation::Log => keys::LEAVE_REC_LOG,
            Recommendation::ManagedQueue => keys::LEAVE_REC_MANAGED_QUEUE,
        }
    }

    /// Why, and what it costs, in a sentence or two.
    pub fn why_key(self) -> Key {
        match self {
            Recommendation::StayOnOnePostgres => keys::LEAVE_REC_STAY_WHY,
            Recommendation::QueueOnOwnPostgres => keys::LEAVE_REC_OWN_POSTGRES_WHY,
            Recommendation::Log => keys::LEAVE_REC_LOG_WHY,
            Recommendation::ManagedQueue => keys::LEAVE_REC_MANAGED_QUEUE_WHY,
        }
    }
}

/// Something to do before (or while) moving, in the order they are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    /// Long transactions pin the horizon: `idle_in_transaction_session_timeout`, analytics on
    /// a replica (without `hot_standby_feedback`, or it pins the primary again).
    EndLongTransactions,
    /// The default settings let too many dead versions pile up: [`VacuumSettings::TUNED`].
    TuneAutovacuum,
    /// Leaving the main database loses the same-transaction enqueue of §1: publish through
    /// an outbox table written in the business transaction.
    PublishThroughOutbox,
}

impl Fix {
    pub fn key(self) -> Key {
        match self {
            Fix::EndLongTransactions => keys::LEAVE_FIX_END_LONG_TX,
            Fix::TuneAutovacuum => keys::LEAVE_FIX_TUNE_AUTOVACUUM,
            Fix::PublishThroughOutbox => keys::LEAVE_FIX_OUTBOX,
        }
    }
}

/// A link into another lab with this workload's inputs carried over, as URL parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct LabLink {
    /// `vacuum` (L3) or `pgq` (L4).
    pub lab: &'static str,
    /// Why follow it.
    pub reason_key: Key,
    /// Proposed parameters for that lab: `longtx=0|1` for L3, `consumers=N` for L4.
    pub params: Vec<(&'static str, String)>,
}

impl LabLink {
    /// `key=value&…` of [`LabLink::params`].
    pub fn query(&self) -> String {
        self.params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
    }
}

/// Everything the calculator answers for one workload.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The five signals of §8 and §6's long transaction, in [`SignalKind::ALL`] order.
    pub signals: Vec<Signal>,
    /// Considerations that are not leave-signals on their own: jobs in flight, latency,
    /// the lease (jobs of 30 s or more), strict ordering.
    pub notes: Vec<Msg>,
    pub dead_tuples: DeadTuples,
    pub recommendation: Recommendation,
    /// The met signals behind the recommendation; empty for [`Recommendation::StayOnOnePostgres`].
    pub driven_by: Vec<SignalKind>,
    pub fixes: Vec<Fix>,
    pub interface: &'static [InterfaceOp; 4],
    pub references: &'static [ReferenceFigure; 7],
    pub lab_links: Vec<LabLink>,
}

impl Verdict {
    pub fn signal(&self, kind: SignalKind) -> &Signal {
        // Every kind is present: `advise` builds one signal per kind.
        &self.signals[SignalKind::ALL.iter().position(|k| *k == kind).unwrap_or(0)]
    }

    pub fn is_met(&self, kind: SignalKind) -> bool {
        self.signal(kind).met
    }
}

/// Answers the calculator for one workload, or refuses it with every out-of-range input.
///
/// The recommendation follows §8: fan-out or replay → a log; otherwise sustained thousands
/// per second → a managed queue; otherwise autovacuum falling behind even when tuned, a long
/// transaction, or the queue eating the main database → first the queue's own Postgres
/// instance; otherwise stay (with autovacuum tuned if the defaults fall behind).
pub fn advise(w: &Workload) -> Result<Verdict, Vec<FieldError>> {
    w.validate()?;
    let dead = DeadTuples::new(w);
    let signals = vec![
        autovacuum_signal(&dead),
        long_transaction_signal(&dead),
        main_db_signal(w),
        fan_out_signal(w),
        replay_signal(w),
        thousands_signal(w),
    ];
    // autovacuum falling behind at the defaults is a reason to move only when the tuned
    // settings fall behind too; otherwise tuning (a fix below) answers it.
    let tuning_falls_short = !dead.tuned.keeps_up;
    let met = |kinds: &[SignalKind]| -> Vec<SignalKind> {
        kinds
            .iter()
            .copied()
            .filter(|k| signals.iter().any(|s| s.kind == *k && s.met))
            .filter(|k| *k != SignalKind::AutovacuumBehind || tuning_falls_short)
            .collect()
    };
    let rules = [
        (
            Recommendation::Log,
            met(&[SignalKind::FanOut, SignalKind::Replay]),
        ),
        (
            Recommendation::ManagedQueue,
            met(&[SignalKind::SustainedThousands]),
        ),
        (
            Recommendation::QueueOnOwnPostgres,
            met(&[
                SignalKind::AutovacuumBehind,
                SignalKind::LongTransaction,
                SignalKind::QueueEatsMainDb,
            ]),
        ),
    ];
    let (recommendation, driven_by) = rules
        .into_iter()
        .find(|(_, driven_by)| !driven_by.is_empty())
        .unwrap_or((Recommendation::StayOnOnePostgres, Vec::new()));

    let mut fixes = Vec::new();
    if dead.horizon_pinned {
        fixes.push(Fix::EndLongTransactions);
    }
    if !dead.default.keeps_up {
        fixes.push(Fix::TuneAutovacuum);
    }
    if recommendation != Recommendation::StayOnOnePostgres {
        fixes.push(Fix::PublishThroughOutbox);
    }

    let mut lab_links = vec![LabLink {
        lab: "vacuum",
        reason_key: keys::LEAVE_LINK_VACUUM,
        params: vec![(
            "longtx",
            if w.long_transactions { "1" } else { "0" }.to_string(),
        )],
    }];
    if w.fan_out_consumers >= 2.0 {
        lab_links.push(LabLink {
            lab: "pgq",
            reason_key: keys::LEAVE_LINK_PGQ,
            params: vec![("consumers", format!("{}", w.fan_out_consumers))],
        });
    }

    Ok(Verdict {
        signals,
        notes: notes(w),
        dead_tuples: dead,
        recommendation,
        driven_by,
        fixes,
        interface: &INTERFACE,
        references: &REFERENCES,
        lab_links,
    })
}
