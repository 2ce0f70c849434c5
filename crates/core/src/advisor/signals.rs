//! The five leave-signals of §8 and §6's long transaction ([`SignalKind`], [`Signal`]), the
//! thresholds they are judged by, each signal's verdict for a workload, and the notes that
//! are not signals on their own.

use super::inputs::Workload;
use super::messages::Msg;
use super::vacuum::{DeadTuples, BLOAT_WARNING_DEAD};
use super::SECONDS_PER_DAY;
use crate::i18n::Key;
use crate::keys;

/// Statements one job costs the database on the success path: insert, claim, complete.
pub const STATEMENTS_PER_JOB: f64 = 3.0;
/// The article's lease: `locked_until = now() + 30 seconds` (§4).
pub const LEASE_S: f64 = 30.0;
/// A worker polling once a second starts a job up to a second late (§5).
pub const POLL_INTERVAL_MS: f64 = 1_000.0;
/// Independent consumers of the same event from which fan-out is a leave-signal. Our
/// judgement, not the article's number: with two, the producer can still enqueue one job per
/// consumer in the same transaction; from three on, every new team means changing the
/// producer, which is the shape publish/subscribe exists for.
pub const FAN_OUT_LEAVE_AT: f64 = 3.0;
/// "Thousands per second, sustained" (§8) starts here.
pub const THOUSANDS_LEAVE_AT: f64 = 1_000.0;
/// Main-database load (percent) from which it counts as already heavily loaded.
pub const HIGH_LOAD_PERCENT: f64 = 70.0;
/// Main-database load (percent) from which it counts as medium (for
/// [`LoadBand`](super::LoadBand)).
pub const MEDIUM_LOAD_PERCENT: f64 = 40.0;
/// Jobs per second from which the queue's writes matter on a heavily loaded database. The
/// article: "up to a few hundred a second, the operating burden hardly grows"; on a database
/// that is already at its limit, a hundred a second (300 writes) is not nothing.
pub const QUEUE_MATTERS_AT: f64 = 100.0;

/// The leave-signals of §8, in the article's order, and §6's long transaction after the
/// first (it stops VACUUM whatever the rates, so it is judged apart from them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignalKind {
    /// autovacuum cannot keep up: `n_dead_tup` keeps growing, the claim gets slower. Decided
    /// by PostgreSQL 18's trigger formula and naptime at their defaults.
    AutovacuumBehind,
    /// a long transaction on the primary pins the xmin horizon (§6).
    LongTransaction,
    /// the queue's writes, connections and I/O slow the core queries.
    QueueEatsMainDb,
    /// several services each subscribe to the same events.
    FanOut,
    /// past events must be replayed.
    Replay,
    /// thousands of jobs per second, sustained.
    SustainedThousands,
}

impl SignalKind {
    pub const ALL: [SignalKind; 6] = [
        SignalKind::AutovacuumBehind,
        SignalKind::LongTransaction,
        SignalKind::QueueEatsMainDb,
        SignalKind::FanOut,
        SignalKind::Replay,
        SignalKind::SustainedThousands,
    ];

    pub fn id(self) -> &'static str {
        match self {
            SignalKind::AutovacuumBehind => "autovacuum",
            SignalKind::LongTransaction => "long_tx",
            SignalKind::QueueEatsMainDb => "main_db",
            SignalKind::FanOut => "fan_out",
            SignalKind::Replay => "replay",
            SignalKind::SustainedThousands => "thousands",
        }
    }

    /// The signal's name, as §8 words it.
    pub fn title_key(self) -> Key {
        match self {
            SignalKind::AutovacuumBehind => keys::LEAVE_SIGNAL_AUTOVACUUM,
            SignalKind::LongTransaction => keys::LEAVE_SIGNAL_LONG_TX,
            SignalKind::QueueEatsMainDb => keys::LEAVE_SIGNAL_MAIN_DB,
            SignalKind::FanOut => keys::LEAVE_SIGNAL_FAN_OUT,
            SignalKind::Replay => keys::LEAVE_SIGNAL_REPLAY,
            SignalKind::SustainedThousands => keys::LEAVE_SIGNAL_THOUSANDS,
        }
    }
}

/// One leave-signal's verdict and its reason in one sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Signal {
    pub kind: SignalKind,
    pub met: bool,
    pub reason: Msg,
}

impl Signal {
    /// `leave.status.met` or `leave.status.not_met`.
    pub fn status_key(&self) -> Key {
        if self.met {
            keys::LEAVE_STATUS_MET
        } else {
            keys::LEAVE_STATUS_NOT_MET
        }
    }
}

/// Decided by PostgreSQL 18's formula at its defaults, from the workload's rates: dead
/// versions per second against `min(50 + 0.2 × live rows, 100,000)` and a look every 60 s,
/// and against the I/O ceiling. Whether a long transaction holds the horizon is
/// [`long_transaction_signal`].
pub(super) fn autovacuum_signal(dead: &DeadTuples) -> Signal {
    let d = &dead.default;
    let t = &dead.tuned;
    let reason = if dead.per_s > d.clear_ceiling_per_s {
        Msg::new(keys::LEAVE_AUTOVACUUM_MET_RATE)
            .num("dead_per_s", dead.per_s)
            .num("default_ceiling_per_s", d.clear_ceiling_per_s)
            .num("tuned_ceiling_per_s", t.clear_ceiling_per_s)
    } else {
        let key = match (d.keeps_up, t.keeps_up) {
            (true, _) => keys::LEAVE_AUTOVACUUM_NOT_MET,
            (false, true) => keys::LEAVE_AUTOVACUUM_MET_TUNE,
            (false, false) => keys::LEAVE_AUTOVACUUM_MET,
        };
        Msg::new(key)
            .num("dead_before_pass", d.dead_before_pass)
            .num("tuned_before_pass", t.dead_before_pass)
            .num("bloat_at", BLOAT_WARNING_DEAD)
    };
    Signal {
        kind: SignalKind::AutovacuumBehind,
        met: !d.keeps_up,
        reason,
    }
}

/// A long transaction on the primary: VACUUM removes nothing that died after it began,
/// whatever the settings.
pub(super) fn long_transaction_signal(dead: &DeadTuples) -> Signal {
    let reason = if dead.horizon_pinned {
        Msg::new(keys::LEAVE_LONG_TX_MET)
            .num("dead_per_s", dead.per_s)
            .num("dead_per_hour", dead.per_s * 3_600.0)
    } else {
        Msg::new(keys::LEAVE_LONG_TX_NOT_MET)
    };
    Signal {
        kind: SignalKind::LongTransaction,
        met: dead.horizon_pinned,
        reason,
    }
}

pub(super) fn main_db_signal(w: &Workload) -> Signal {
    let jobs = w.sustained_jobs_per_s;
    let writes = jobs * STATEMENTS_PER_JOB;
    let (met, reason) = if w.db_load_percent < HIGH_LOAD_PERCENT {
        (
            false,
            Msg::new(keys::LEAVE_MAIN_DB_NOT_MET_LIGHT_LOAD)
                .num("load", w.db_load_percent)
                .num("high_load", HIGH_LOAD_PERCENT)
                .num("writes_per_s", writes),
        )
    } else if jobs < QUEUE_MATTERS_AT {
        (
            false,
            Msg::new(keys::LEAVE_MAIN_DB_NOT_MET_SMALL_QUEUE)
                .num("load", w.db_load_percent)
                .num("jobs_per_s", jobs)
                .num("writes_per_s", writes)
                .num("matters_at", QUEUE_MATTERS_AT),
        )
    } else {
        (
            true,
            Msg::new(keys::LEAVE_MAIN_DB_MET)
                .num("load", w.db_load_percent)
                .num("high_load", HIGH_LOAD_PERCENT)
                .num("matters_at", QUEUE_MATTERS_AT)
                .num("jobs_per_s", jobs)
                .num("writes_per_s", writes),
        )
    };
    Signal {
        kind: SignalKind::QueueEatsMainDb,
        met,
        reason,
    }
}

pub(super) fn fan_out_signal(w: &Workload) -> Signal {
    let consumers = w.fan_out_consumers;
    let (met, key) = if consumers >= FAN_OUT_LEAVE_AT {
        (true, keys::LEAVE_FAN_OUT_MET)
    } else if consumers >= 2.0 {
        (false, keys::LEAVE_FAN_OUT_NOT_MET_TWO)
    } else {
        (false, keys::LEAVE_FAN_OUT_NOT_MET_SINGLE)
    };
    Signal {
        kind: SignalKind::FanOut,
        met,
        reason: Msg::new(key)
            .num("consumers", consumers)
            .num("leave_at", FAN_OUT_LEAVE_AT),
    }
}

pub(super) fn replay_signal(w: &Workload) -> Signal {
    let key = if w.replay_needed {
        keys::LEAVE_REPLAY_MET
    } else {
        keys::LEAVE_REPLAY_NOT_MET
    };
    Signal {
        kind: SignalKind::Replay,
        met: w.replay_needed,
        reason: Msg::new(key),
    }
}

pub(super) fn thousands_signal(w: &Workload) -> Signal {
    let jobs = w.sustained_jobs_per_s;
    let (met, reason) = if jobs >= THOUSANDS_LEAVE_AT {
        (
            true,
            Msg::new(keys::LEAVE_THOUSANDS_MET)
                .num("jobs_per_s", jobs)
                .num("leave_at", THOUSANDS_LEAVE_AT)
                .num("jobs_per_day", jobs * SECONDS_PER_DAY),
        )
    } else if w.peak_jobs_per_s >= THOUSANDS_LEAVE_AT {
        (
            false,
            Msg::new(keys::LEAVE_THOUSANDS_NOT_MET_PEAK_ONLY)
                .num("jobs_per_s", jobs)
                .num("leave_at", THOUSANDS_LEAVE_AT)
                .num("peak_per_s", w.peak_jobs_per_s),
        )
    } else {
        (
            false,
            Msg::new(keys::LEAVE_THOUSANDS_NOT_MET)
                .num("jobs_per_s", jobs)
                .num("leave_at", THOUSANDS_LEAVE_AT)
                .num("jobs_per_day", jobs * SECONDS_PER_DAY),
        )
    };
    Signal {
        kind: SignalKind::SustainedThousands,
        met,
        reason,
    }
}

pub(super) fn notes(w: &Workload) -> Vec<Msg> {
    let mut notes = vec![Msg::new(keys::LEAVE_NOTE_IN_FLIGHT)
        .num("in_flight", w.sustained_jobs_per_s * w.job_duration_s)
        .num("in_flight_peak", w.peak_jobs_per_s * w.job_duration_s)];
    let latency_key = if w.latency_target_ms < POLL_INTERVAL_MS {
        keys::LEAVE_NOTE_LATENCY_NOTIFY
    } else {
        keys::LEAVE_NOTE_LATENCY_POLL
    };
    notes.push(
        Msg::new(latency_key)
            .num("latency_ms", w.latency_target_ms)
            .num("poll_ms", POLL_INTERVAL_MS),
    );
    if w.job_duration_s >= LEASE_S {
        notes.push(
            Msg::new(keys::LEAVE_NOTE_LEASE_HEARTBEAT)
                .num("duration_s", w.job_duration_s)
                .num("lease_s", LEASE_S),
        );
    }
    if w.strict_ordering {
        notes.push(Msg::new(keys::LEAVE_NOTE_ORDERING_STRICT));
    }
    notes
}
