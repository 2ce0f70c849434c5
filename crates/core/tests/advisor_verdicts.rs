//! The advisor's verdicts through its public API: the three worked cases of §8, each
//! leave-signal at and around its threshold, the recommendation they drive, the fixes, the
//! notes, and the reference data a verdict carries.

mod common;

use common::*;
use queue_lab_core::advisor::*;
use queue_lab_core::keys;
use SignalKind::*;

/// `kind`'s reason for `w` is the catalog's `key`.
fn assert_reason(w: &Workload, kind: SignalKind, key: queue_lab_core::i18n::Key) {
    assert_eq!(reason_key(w, kind), key, "{kind:?}");
}

// --- the three worked cases of §8 ------------------------------------------------

#[test]
fn side_project_at_5_jobs_per_s_meets_no_signal_and_stays_on_one_postgres() {
    let w = Workload::default();
    assert_eq!(w.sustained_jobs_per_s, 5.0);
    let v = ok(&w);
    for signal in &v.signals {
        assert!(!signal.met, "{:?} should not be met", signal.kind);
    }
    assert_eq!(v.recommendation, Recommendation::StayOnOnePostgres);
    assert!(v.driven_by.is_empty());
    assert!(v.fixes.is_empty());
    assert_eq!(v.dead_tuples.per_s, 10.0);
    assert!(v.dead_tuples.default.keeps_up);
}

#[test]
fn planetscale_case_800_jobs_per_s_beside_analytics_with_long_transaction_moves_queue_to_own_postgres(
) {
    let v = ok(&Workload::planetscale_case());
    // 1,600 dead versions a second: 96,000 in one 60 s naptime, and 24,000 even tuned.
    let autovacuum = v.signal(AutovacuumBehind);
    assert!(autovacuum.met);
    assert_eq!(autovacuum.reason.key, keys::LEAVE_AUTOVACUUM_MET);
    let long_tx = v.signal(LongTransaction);
    assert!(long_tx.met);
    assert_eq!(long_tx.reason.key, keys::LEAVE_LONG_TX_MET);
    assert_eq!(long_tx.reason.number("dead_per_s"), Some(1_600.0));
    assert!(v.is_met(QueueEatsMainDb));
    assert!(!v.is_met(FanOut));
    assert!(!v.is_met(Replay));
    assert!(!v.is_met(SustainedThousands));
    assert_eq!(v.recommendation, Recommendation::QueueOnOwnPostgres);
    assert_eq!(
        v.driven_by,
        vec![AutovacuumBehind, LongTransaction, QueueEatsMainDb]
    );
    assert_eq!(v.fixes.first(), Some(&Fix::EndLongTransactions));
    assert!(v.fixes.contains(&Fix::TuneAutovacuum));
    assert!(v.dead_tuples.horizon_pinned);
    assert_eq!(v.dead_tuples.default.clears_per_s, 0.0);
    assert_eq!(v.dead_tuples.tuned.clears_per_s, 0.0);
}

#[test]
fn five_teams_consuming_the_same_events_is_fan_out_and_recommends_a_log() {
    let v = ok(&Workload::five_teams_case());
    assert!(v.is_met(FanOut));
    assert_eq!(v.signal(FanOut).reason.number("consumers"), Some(5.0));
    assert_eq!(v.recommendation, Recommendation::Log);
    assert_eq!(v.driven_by, vec![FanOut]);
    assert!(v.fixes.contains(&Fix::PublishThroughOutbox));
    assert!(v
        .lab_links
        .iter()
        .any(|l| l.lab == "pgq" && l.query() == "consumers=5"));
}

// --- autovacuum falling behind ----------------------------------------------------

#[test]
fn a_long_transaction_is_its_own_signal_and_does_not_decide_autovacuums() {
    let mut w = at_rate(0.1);
    assert!(!ok(&w).is_met(LongTransaction));
    assert_reason(&w, LongTransaction, keys::LEAVE_LONG_TX_NOT_MET);
    w.long_transactions = true;
    let v = ok(&w);
    assert!(v.is_met(LongTransaction));
    assert_reason(&w, LongTransaction, keys::LEAVE_LONG_TX_MET);
    // The rates are tiny: by PostgreSQL's formula autovacuum keeps up; it is the horizon
    // that stops it, and that is the other signal.
    assert!(!v.is_met(AutovacuumBehind));
    assert_eq!(v.dead_tuples.default.clears_per_s, 0.0);
    assert_eq!(v.recommendation, Recommendation::QueueOnOwnPostgres);
    assert_eq!(v.driven_by, vec![LongTransaction]);
    assert_eq!(v.fixes.first(), Some(&Fix::EndLongTransactions));
}

#[test]
fn long_transaction_with_no_jobs_leaves_nothing_to_clear_so_neither_signal_is_met() {
    let w = Workload {
        long_transactions: true,
        ..at_rate(0.0)
    };
    let v = ok(&w);
    assert!(!v.is_met(AutovacuumBehind));
    assert!(!v.is_met(LongTransaction));
    assert!(!v.dead_tuples.horizon_pinned);
}

/// PostgreSQL 18: a pass starts once dead versions exceed
/// `min(autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × reltuples,
/// autovacuum_vacuum_max_threshold)`, checked every `autovacuum_naptime`.
#[test]
fn the_trigger_is_postgresql_18s_formula_with_its_defaults() {
    let d = VacuumSettings::DEFAULT;
    assert_eq!(
        (d.threshold, d.scale_factor, d.max_threshold, d.naptime_s),
        (50.0, 0.2, 100_000_000.0, 60.0)
    );
    assert_eq!(d.trigger_dead(0.0), 50.0);
    assert_eq!(d.trigger_dead(1_000.0), 250.0);
    // The cap: from 499,999,750 live rows on, the trigger stays at 100,000,000.
    assert_eq!(d.trigger_dead(499_999_750.0), 100_000_000.0);
    assert_eq!(d.trigger_dead(2_000_000_000.0), 100_000_000.0);
    let t = VacuumSettings::TUNED;
    assert_eq!(t.trigger_dead(720_000.0), 50.0 + 7_200.0);
}

/// The two shapes the page shows: a short-job queue where the defaults keep up, and a
/// long-job queue whose 720,000 live rows raise the trigger past what the queue tolerates.
#[test]
fn autovacuum_keeps_up_for_short_jobs_and_falls_behind_when_live_rows_raise_the_trigger() {
    let short = Workload {
        job_duration_s: 1.0,
        ..at_rate(100.0)
    };
    let v = ok(&short);
    let d = &v.dead_tuples.default;
    // 100 jobs/s × (1 s + 1 s latency) = 200 live rows: trigger 50 + 40 = 90.
    assert_eq!(d.trigger_dead, 90.0);
    assert_eq!(d.per_look, 200.0 * 60.0);
    assert_eq!(d.dead_before_pass, 90.0 + 12_000.0);
    assert!(d.keeps_up);
    assert!(!v.is_met(AutovacuumBehind));
    assert_reason(&short, AutovacuumBehind, keys::LEAVE_AUTOVACUUM_NOT_MET);
    assert_eq!(v.recommendation, Recommendation::StayOnOnePostgres);

    let long = Workload {
        job_duration_s: 3_599.0,
        ..at_rate(200.0)
    };
    let v = ok(&long);
    let d = &v.dead_tuples.default;
    // 200 jobs/s × 3,600 s = 720,000 live rows: trigger 50 + 144,000.
    assert_eq!(d.trigger_dead, 144_050.0);
    assert_eq!(d.dead_before_pass, 144_050.0 + 400.0 * 60.0);
    assert!(!d.keeps_up);
    assert!(v.is_met(AutovacuumBehind));
    // Tuned: 50 + 7,200 + 400 × 15 = 13,250, within 20,000: tune, do not move.
    assert_eq!(v.dead_tuples.tuned.dead_before_pass, 13_250.0);
    assert_reason(&long, AutovacuumBehind, keys::LEAVE_AUTOVACUUM_MET_TUNE);
    assert_eq!(v.recommendation, Recommendation::StayOnOnePostgres);
    assert_eq!(v.fixes, vec![Fix::TuneAutovacuum]);
    let reason = &v.signal(AutovacuumBehind).reason;
    assert_eq!(reason.number("dead_before_pass"), Some(168_050.0));
    assert_eq!(reason.number("tuned_before_pass"), Some(13_250.0));
    assert_eq!(reason.number("bloat_at"), Some(BLOAT_WARNING_DEAD));
}

#[test]
fn autovacuum_signal_is_met_just_above_20000_waiting_dead_versions_not_at_it() {
    let dead_before = |jobs: f64| ok(&at_rate(jobs)).dead_tuples.default.dead_before_pass;
    // Linear in the rate: find where the defaults carry exactly BLOAT_WARNING_DEAD.
    let slope = dead_before(1.0) - dead_before(0.0);
    let boundary = (BLOAT_WARNING_DEAD - dead_before(0.0)) / slope;
    let below = ok(&at_rate(boundary * (1.0 - 1e-6)));
    let above = ok(&at_rate(boundary * (1.0 + 1e-6)));
    assert!(!below.is_met(AutovacuumBehind));
    assert!(!below.fixes.contains(&Fix::TuneAutovacuum));
    assert!(above.is_met(AutovacuumBehind));
    assert!(above.fixes.contains(&Fix::TuneAutovacuum));
    // About 166 jobs/s for the default workload's shape: far below the 800,000 at which
    // the I/O ceiling alone would have decided it.
    assert!((160.0..170.0).contains(&boundary), "{boundary}");
}

#[test]
fn when_even_tuned_settings_fall_behind_the_queue_moves_to_its_own_postgres() {
    // 700 jobs/s: tuned, 50 + ~14 + 1,400 × 15 = ~21,064 wait, above 20,000.
    let v = ok(&at_rate(700.0));
    assert!(!v.dead_tuples.tuned.keeps_up);
    assert_reason(
        &at_rate(700.0),
        AutovacuumBehind,
        keys::LEAVE_AUTOVACUUM_MET,
    );
    assert_eq!(v.recommendation, Recommendation::QueueOnOwnPostgres);
    assert_eq!(v.driven_by, vec![AutovacuumBehind]);
    // 600 jobs/s: tuned, ~18,062: tuning answers it.
    let v = ok(&at_rate(600.0));
    assert!(v.dead_tuples.tuned.keeps_up);
    assert_eq!(v.recommendation, Recommendation::StayOnOnePostgres);
}

#[test]
fn above_the_default_io_ceiling_the_reason_is_the_rate() {
    let boundary = VacuumSettings::DEFAULT.clear_ceiling_per_s() / DEAD_VERSIONS_PER_JOB;
    let above = ok(&at_rate(just_above(boundary)));
    assert!(above.is_met(AutovacuumBehind));
    assert_eq!(
        above.signal(AutovacuumBehind).reason.key,
        keys::LEAVE_AUTOVACUUM_MET_RATE
    );
}

#[test]
fn model_ceilings_are_rounded_to_two_figures_and_tuning_multiplies_them_by_ten() {
    // 100,000 cost units/s over ~0.645 units per dead version: ~155k, shown as 160k
    // dead versions/s (80k jobs/s); tuned: ten times that.
    let default = VacuumSettings::DEFAULT.clear_ceiling_per_s();
    let tuned = VacuumSettings::TUNED.clear_ceiling_per_s();
    assert_eq!(default, 160_000.0);
    assert_eq!(tuned, 1_600_000.0);
    assert!(
        default / DEAD_VERSIONS_PER_JOB > REFERENCES[1].low_per_s,
        "above River's 46k"
    );
    assert_eq!(VacuumSettings::DEFAULT.cost_budget_per_s(), 100_000.0);
}

#[test]
fn every_job_leaves_two_dead_versions_claim_and_completion() {
    let v = ok(&at_rate(123.0));
    assert_eq!(v.dead_tuples.dead_per_job, 2.0);
    assert_eq!(v.dead_tuples.per_s, 246.0);
    assert_eq!(v.dead_tuples.per_s_at_peak, 246.0);
    let peaky = Workload {
        peak_jobs_per_s: 500.0,
        ..at_rate(123.0)
    };
    assert_eq!(ok(&peaky).dead_tuples.per_s_at_peak, 1_000.0);
}

#[test]
fn dead_versions_before_a_pass_are_trigger_plus_one_naptime_of_dead_versions() {
    // 800 jobs/s, 0.2 s jobs, 1 s latency target: 960 live rows by Little's law.
    let w = Workload {
        job_duration_s: 0.2,
        ..at_rate(800.0)
    };
    let d = ok(&w).dead_tuples;
    assert!((d.live_rows - 960.0).abs() < 1e-9);
    assert!((d.default.trigger_dead - (50.0 + 0.2 * 960.0)).abs() < 1e-9);
    assert!((d.default.dead_before_pass - (50.0 + 192.0 + 1_600.0 * 60.0)).abs() < 1e-6);
    assert!((d.tuned.dead_before_pass - (50.0 + 9.6 + 1_600.0 * 15.0)).abs() < 1e-6);
    assert!(d.tuned.dead_before_pass < d.default.dead_before_pass);
}

// --- the queue eating the main database -------------------------------------------

#[test]
fn main_db_signal_is_met_from_70_percent_load_not_just_below() {
    assert!(!ok(&loaded(69.99, 800.0)).is_met(QueueEatsMainDb));
    assert_reason(
        &loaded(69.99, 800.0),
        QueueEatsMainDb,
        keys::LEAVE_MAIN_DB_NOT_MET_LIGHT_LOAD,
    );
    assert!(ok(&loaded(70.0, 800.0)).is_met(QueueEatsMainDb));
    assert!(ok(&loaded(70.01, 800.0)).is_met(QueueEatsMainDb));
}

#[test]
fn main_db_signal_needs_at_least_100_jobs_per_s_on_a_loaded_database() {
    assert_reason(
        &loaded(85.0, 99.99),
        QueueEatsMainDb,
        keys::LEAVE_MAIN_DB_NOT_MET_SMALL_QUEUE,
    );
    let at = ok(&loaded(85.0, 100.0));
    assert!(at.is_met(QueueEatsMainDb));
    assert_eq!(
        at.signal(QueueEatsMainDb).reason.number("writes_per_s"),
        Some(300.0)
    );
    assert!(ok(&loaded(85.0, 100.01)).is_met(QueueEatsMainDb));
}

#[test]
fn main_db_signal_alone_recommends_the_queue_own_postgres_instance() {
    let v = ok(&loaded(90.0, 300.0));
    assert_eq!(v.recommendation, Recommendation::QueueOnOwnPostgres);
    assert_eq!(v.driven_by, vec![QueueEatsMainDb]);
}

// --- fan-out --------------------------------------------------------------------------

#[test]
fn fan_out_is_met_from_three_consumers_not_at_two() {
    assert_reason(&consumers(1.0), FanOut, keys::LEAVE_FAN_OUT_NOT_MET_SINGLE);
    assert_reason(&consumers(2.0), FanOut, keys::LEAVE_FAN_OUT_NOT_MET_TWO);
    assert!(!ok(&consumers(2.0)).is_met(FanOut));
    assert!(ok(&consumers(3.0)).is_met(FanOut));
    assert!(ok(&consumers(4.0)).is_met(FanOut));
    assert_eq!(
        ok(&consumers(2.0)).recommendation,
        Recommendation::StayOnOnePostgres
    );
    assert_eq!(ok(&consumers(3.0)).recommendation, Recommendation::Log);
}

// --- replay ---------------------------------------------------------------------------

#[test]
fn replay_need_is_met_only_when_asked_and_recommends_a_log() {
    assert!(!ok(&Workload::default()).is_met(Replay));
    let w = Workload {
        replay_needed: true,
        ..Workload::default()
    };
    let v = ok(&w);
    assert!(v.is_met(Replay));
    assert_eq!(v.recommendation, Recommendation::Log);
    assert_eq!(v.driven_by, vec![Replay]);
}

// --- sustained thousands per second ----------------------------------------------------

#[test]
fn thousands_signal_is_met_from_1000_sustained_jobs_per_s_not_just_below() {
    assert!(!ok(&at_rate(999.99)).is_met(SustainedThousands));
    let at = ok(&at_rate(1_000.0));
    assert!(at.is_met(SustainedThousands));
    assert_eq!(
        at.signal(SustainedThousands).reason.number("jobs_per_day"),
        Some(86_400_000.0)
    );
    assert!(ok(&at_rate(1_000.01)).is_met(SustainedThousands));
    assert_eq!(at.recommendation, Recommendation::ManagedQueue);
}

#[test]
fn peaks_of_thousands_alone_do_not_meet_the_sustained_signal() {
    let peak = |p: f64| Workload {
        peak_jobs_per_s: p,
        ..at_rate(500.0)
    };
    assert_reason(
        &peak(999.99),
        SustainedThousands,
        keys::LEAVE_THOUSANDS_NOT_MET,
    );
    assert_reason(
        &peak(1_000.0),
        SustainedThousands,
        keys::LEAVE_THOUSANDS_NOT_MET_PEAK_ONLY,
    );
    assert!(!ok(&peak(5_000.0)).is_met(SustainedThousands));
}

#[test]
fn fan_out_outranks_thousands_because_a_log_also_carries_the_rate() {
    let w = Workload {
        fan_out_consumers: 5.0,
        ..at_rate(5_000.0)
    };
    let v = ok(&w);
    assert_eq!(v.recommendation, Recommendation::Log);
    assert!(v.is_met(SustainedThousands));
}

// --- notes ------------------------------------------------------------------------------

fn has_note(w: &Workload, key: queue_lab_core::i18n::Key) -> bool {
    ok(w).notes.iter().any(|n| n.key == key)
}

#[test]
fn latency_below_one_second_asks_for_listen_notify_from_one_second_polling_does() {
    let latency = |ms: f64| Workload {
        latency_target_ms: ms,
        ..Workload::default()
    };
    assert!(has_note(&latency(999.99), keys::LEAVE_NOTE_LATENCY_NOTIFY));
    assert!(has_note(&latency(1_000.0), keys::LEAVE_NOTE_LATENCY_POLL));
    assert!(has_note(&latency(1_000.01), keys::LEAVE_NOTE_LATENCY_POLL));
}

#[test]
fn jobs_of_30_seconds_or_more_get_the_heartbeat_note() {
    let duration = |s: f64| Workload {
        job_duration_s: s,
        ..Workload::default()
    };
    assert!(!has_note(
        &duration(29.99),
        keys::LEAVE_NOTE_LEASE_HEARTBEAT
    ));
    assert!(has_note(&duration(30.0), keys::LEAVE_NOTE_LEASE_HEARTBEAT));
    assert!(has_note(&duration(30.01), keys::LEAVE_NOTE_LEASE_HEARTBEAT));
}

#[test]
fn strict_ordering_is_a_note_not_a_leave_signal() {
    let w = Workload {
        strict_ordering: true,
        ..Workload::default()
    };
    let v = ok(&w);
    assert!(v
        .notes
        .iter()
        .any(|n| n.key == keys::LEAVE_NOTE_ORDERING_STRICT));
    assert!(v.signals.iter().all(|s| !s.met));
    assert_eq!(v.recommendation, Recommendation::StayOnOnePostgres);
    assert!(!has_note(
        &Workload::default(),
        keys::LEAVE_NOTE_ORDERING_STRICT
    ));
}

#[test]
fn jobs_in_flight_follow_littles_law() {
    let w = Workload {
        job_duration_s: 2.0,
        peak_jobs_per_s: 300.0,
        ..at_rate(100.0)
    };
    let note = ok(&w)
        .notes
        .into_iter()
        .find(|n| n.key == keys::LEAVE_NOTE_IN_FLIGHT);
    let note = note.expect("in-flight note");
    assert_eq!(note.number("in_flight"), Some(200.0));
    assert_eq!(note.number("in_flight_peak"), Some(600.0));
}

#[test]
fn verdict_lists_six_signals_in_order_and_the_four_interface_ops() {
    let v = ok(&Workload::default());
    let kinds: Vec<_> = v.signals.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, SignalKind::ALL.to_vec());
    let ops: Vec<_> = v.interface.iter().map(|o| o.op).collect();
    assert_eq!(ops, ["enqueue", "dequeue", "ack", "fail"]);
}

#[test]
fn reference_figures_are_the_article_numbers() {
    let figure = |id: &str| {
        *REFERENCES
            .iter()
            .find(|r| r.id == id)
            .expect("reference figure")
    };
    assert_eq!(figure("graphile_worker").low_per_s, 180_000.0);
    assert_eq!(figure("river").low_per_s, 46_000.0);
    assert_eq!(figure("hatchet").low_per_s, 10_000.0);
    assert_eq!(figure("sqs_fifo").low_per_s, 300.0);
    assert_eq!(figure("sqs_fifo_batched").low_per_s, 3_000.0);
    let high = figure("sqs_fifo_high_throughput");
    assert_eq!((high.low_per_s, high.high_per_s), (9_000.0, 70_000.0));
    let solid = figure("solid_queue");
    assert!(!solid.on_postgres, "Solid Queue's 20M/day is on MySQL");
    assert!((solid.low_per_s * 86_400.0 - 20_000_000.0).abs() < 1e-6);
}
