//! The five leave-signals of §8 ([`SignalKind`], [`Signal`]), the thresholds they are judged
//! by, each signal's verdict for a workload, and the notes that are not signals on their own.

use super::inputs::Workload;
use super::messages::Msg;
use super::vacuum::DeadTuples;
use super::SECONDS_PER_DAY;

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

/// The leave-signals of §8, in the article's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignalKind {
    /// autovacuum cannot keep up: `n_dead_tup` keeps growing, the claim gets slower.
    AutovacuumBehind,
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
    pub const ALL: [SignalKind; 5] = [
        SignalKind::AutovacuumBehind,
        SignalKind::QueueEatsMainDb,
        SignalKind::FanOut,
        SignalKind::Replay,
        SignalKind::SustainedThousands,
    ];

    pub fn id(self) -> &'static str {
        match self {
            SignalKind::AutovacuumBehind => "autovacuum",
            SignalKind::QueueEatsMainDb => "main_db",
            SignalKind::FanOut => "fan_out",
            SignalKind::Replay => "replay",
            SignalKind::SustainedThousands => "thousands",
        }
    }

    /// The signal's name, as §8 words it.
    pub fn title_key(self) -> &'static str {
        match self {
            SignalKind::AutovacuumBehind => "leave.signal.autovacuum",
            SignalKind::QueueEatsMainDb => "leave.signal.main_db",
            SignalKind::FanOut => "leave.signal.fan_out",
            SignalKind::Replay => "leave.signal.replay",
            SignalKind::SustainedThousands => "leave.signal.thousands",
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
    pub fn status_key(&self) -> &'static str {
        if self.met {
            "leave.status.met"
        } else {
            "leave.status.not_met"
        }
    }
}

pub(super) fn autovacuum_signal(dead: &DeadTuples) -> Signal {
    let (met, reason) = if dead.horizon_pinned {
        (
            true,
            Msg::new("leave.autovacuum.met.long_tx")
                .num("dead_per_s", dead.per_s)
                .num("dead_per_hour", dead.per_s * 3_600.0),
        )
    } else if !dead.tuned.keeps_up {
        (
            true,
            Msg::new("leave.autovacuum.met.rate")
                .num("dead_per_s", dead.per_s)
                .num("tuned_ceiling_per_s", dead.tuned.clear_ceiling_per_s),
        )
    } else if !dead.default.keeps_up {
        (
            false,
            Msg::new("leave.autovacuum.not_met.tune")
                .num("dead_per_s", dead.per_s)
                .num("default_ceiling_per_s", dead.default.clear_ceiling_per_s)
                .num("tuned_ceiling_per_s", dead.tuned.clear_ceiling_per_s),
        )
    } else {
        (
            false,
            Msg::new("leave.autovacuum.not_met")
                .num("dead_per_s", dead.per_s)
                .num("default_ceiling_per_s", dead.default.clear_ceiling_per_s),
        )
    };
    Signal {
        kind: SignalKind::AutovacuumBehind,
        met,
        reason,
    }
}

pub(super) fn main_db_signal(w: &Workload) -> Signal {
    let jobs = w.sustained_jobs_per_s;
    let writes = jobs * STATEMENTS_PER_JOB;
    let (met, reason) = if w.db_load_percent < HIGH_LOAD_PERCENT {
        (
            false,
            Msg::new("leave.main_db.not_met.light_load")
                .num("load", w.db_load_percent)
                .num("high_load", HIGH_LOAD_PERCENT)
                .num("writes_per_s", writes),
        )
    } else if jobs < QUEUE_MATTERS_AT {
        (
            false,
            Msg::new("leave.main_db.not_met.small_queue")
                .num("load", w.db_load_percent)
                .num("jobs_per_s", jobs)
                .num("writes_per_s", writes)
                .num("matters_at", QUEUE_MATTERS_AT),
        )
    } else {
        (
            true,
            Msg::new("leave.main_db.met")
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
        (true, "leave.fan_out.met")
    } else if consumers >= 2.0 {
        (false, "leave.fan_out.not_met.two")
    } else {
        (false, "leave.fan_out.not_met.single")
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
        "leave.replay.met"
    } else {
        "leave.replay.not_met"
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
            Msg::new("leave.thousands.met")
                .num("jobs_per_s", jobs)
                .num("leave_at", THOUSANDS_LEAVE_AT)
                .num("jobs_per_day", jobs * SECONDS_PER_DAY),
        )
    } else if w.peak_jobs_per_s >= THOUSANDS_LEAVE_AT {
        (
            false,
            Msg::new("leave.thousands.not_met.peak_only")
                .num("jobs_per_s", jobs)
                .num("leave_at", THOUSANDS_LEAVE_AT)
                .num("peak_per_s", w.peak_jobs_per_s),
        )
    } else {
        (
            false,
            Msg::new("leave.thousands.not_met")
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
    let mut notes = vec![Msg::new("leave.note.in_flight")
        .num("in_flight", w.sustained_jobs_per_s * w.job_duration_s)
        .num("in_flight_peak", w.peak_jobs_per_s * w.job_duration_s)];
    let latency_key = if w.latency_target_ms < POLL_INTERVAL_MS {
        "leave.note.latency.notify"
    } else {
        "leave.note.latency.poll"
    };
    notes.push(
        Msg::new(latency_key)
            .num("latency_ms", w.latency_target_ms)
            .num("poll_ms", POLL_INTERVAL_MS),
    );
    if w.job_duration_s >= LEASE_S {
        notes.push(
            Msg::new("leave.note.lease.heartbeat")
                .num("duration_s", w.job_duration_s)
                .num("lease_s", LEASE_S),
        );
    }
    if w.strict_ordering {
        notes.push(Msg::new("leave.note.ordering.strict"));
    }
    notes
}
