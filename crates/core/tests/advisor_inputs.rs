//! The advisor's inputs through its public API: every range refused just past each end,
//! yes/no and typed-text parsing, and the URL query string (round trips, hash routes,
//! errors by field).

mod common;

use common::*;
use queue_lab_core::advisor::*;

// --- validation -------------------------------------------------------------------------

/// A workload where every input is valid, with room for either rate to move.
fn roomy() -> Workload {
    Workload {
        sustained_jobs_per_s: 0.0,
        peak_jobs_per_s: 1_000_000.0,
        ..Workload::default()
    }
}

fn errors_for(field: Field, value: f64) -> Vec<FieldError> {
    let mut w = roomy();
    set_number(&mut w, field, value);
    w.validate().err().unwrap_or_default()
}

/// Sets one numeric input of `w`, through its public fields.
fn set_number(w: &mut Workload, field: Field, value: f64) {
    match field {
        Field::SustainedJobsPerS => w.sustained_jobs_per_s = value,
        Field::PeakJobsPerS => w.peak_jobs_per_s = value,
        Field::JobDurationS => w.job_duration_s = value,
        Field::FanOutConsumers => w.fan_out_consumers = value,
        Field::LatencyTargetMs => w.latency_target_ms = value,
        Field::DbLoadPercent => w.db_load_percent = value,
        Field::ReplayNeeded | Field::StrictOrdering | Field::LongTransactions => {}
    }
    // The slot set is the one `Workload::number` reads for this field.
    if w.number(field).is_some() {
        assert_eq!(
            w.number(field).map(f64::to_bits),
            Some(value.to_bits()),
            "{field:?}"
        );
    }
}

/// Proves the field accepts both ends, refuses just past each with the bound, and
/// refuses NaN and infinity.
fn assert_range_enforced(field: Field, min: f64, max: f64, step: f64) {
    let bounds = field.bounds().expect("numeric field");
    assert_eq!((bounds.min, bounds.max), (min, max), "{field:?}");
    assert!(errors_for(field, min).is_empty(), "{field:?} at min");
    assert!(errors_for(field, max).is_empty(), "{field:?} at max");
    let below = errors_for(field, min - step);
    assert_eq!(
        below,
        vec![FieldError {
            field,
            key: queue_lab_core::keys::LEAVE_ERROR_BELOW_MIN,
            bound: Some(min)
        }]
    );
    let above = errors_for(field, max + step);
    assert_eq!(
        above,
        vec![FieldError {
            field,
            key: queue_lab_core::keys::LEAVE_ERROR_ABOVE_MAX,
            bound: Some(max)
        }]
    );
    for bad in [f64::NAN, f64::INFINITY] {
        let errors = errors_for(field, bad);
        assert_eq!(errors.len(), 1, "{field:?} {bad}");
        assert_eq!(
            errors[0].key,
            queue_lab_core::keys::LEAVE_ERROR_NOT_A_NUMBER
        );
    }
}

#[test]
fn sustained_rate_is_refused_outside_0_to_1_million_jobs_per_s() {
    assert_range_enforced(Field::SustainedJobsPerS, 0.0, 1_000_000.0, 0.01);
}

#[test]
fn peak_rate_is_refused_outside_0_to_1_million_jobs_per_s() {
    let mut w = roomy();
    w.peak_jobs_per_s = 0.0;
    assert!(w.validate().is_ok());
    assert_range_enforced(Field::PeakJobsPerS, 0.0, 1_000_000.0, 0.01);
}

#[test]
fn peak_below_sustained_is_refused_with_the_sustained_rate_as_bound() {
    let w = Workload {
        sustained_jobs_per_s: 100.0,
        peak_jobs_per_s: 99.0,
        ..Workload::default()
    };
    let errors = w.validate().expect_err("peak below sustained");
    assert_eq!(
        errors,
        vec![FieldError {
            field: Field::PeakJobsPerS,
            key: queue_lab_core::keys::LEAVE_ERROR_PEAK_BELOW_SUSTAINED,
            bound: Some(100.0)
        }]
    );
    assert_eq!(errors[0].msg().number("sustained"), Some(100.0));
    assert!(
        at_rate(100.0).validate().is_ok(),
        "peak equal to sustained is fine"
    );
}

#[test]
fn job_duration_is_refused_outside_1_ms_to_1_day() {
    assert_range_enforced(Field::JobDurationS, 0.001, 86_400.0, 0.0005);
}

#[test]
fn fan_out_is_refused_outside_1_to_100_consumers_and_when_not_whole() {
    assert_range_enforced(Field::FanOutConsumers, 1.0, 100.0, 1.0);
    let errors = errors_for(Field::FanOutConsumers, 2.5);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].key, queue_lab_core::keys::LEAVE_ERROR_NOT_WHOLE);
}

#[test]
fn latency_target_is_refused_outside_1_ms_to_1_hour() {
    assert_range_enforced(Field::LatencyTargetMs, 1.0, 3_600_000.0, 0.5);
}

#[test]
fn database_load_is_refused_outside_0_to_100_percent() {
    assert_range_enforced(Field::DbLoadPercent, 0.0, 100.0, 0.1);
}

#[test]
fn yes_no_inputs_refuse_anything_but_yes_or_no() {
    for field in [
        Field::ReplayNeeded,
        Field::StrictOrdering,
        Field::LongTransactions,
    ] {
        let mut w = Workload::default();
        let error = w.set_from_str(field, "maybe").expect_err("not a flag");
        assert_eq!(error.key, queue_lab_core::keys::LEAVE_ERROR_NOT_BOOL);
        assert_eq!(error.field, field);
        for yes in ["1", "true", "yes", "on", "TRUE"] {
            w.set_from_str(field, yes).expect("yes");
            assert_eq!(w.flag(field), Some(true));
        }
        for no in ["0", "false", "no", "off"] {
            w.set_from_str(field, no).expect("no");
            assert_eq!(w.flag(field), Some(false));
        }
    }
}

#[test]
fn typed_text_that_is_not_a_number_is_refused_per_field() {
    for field in Field::ALL.into_iter().filter(|f| !f.is_flag()) {
        let mut w = Workload::default();
        for bad in ["", "abc", "1,5", "NaN", "inf"] {
            let error = w.set_from_str(field, bad).expect_err("not a number");
            assert_eq!(
                (error.field, error.key),
                (field, queue_lab_core::keys::LEAVE_ERROR_NOT_A_NUMBER)
            );
        }
    }
}

#[test]
fn advise_refuses_an_invalid_workload_with_every_error() {
    let w = Workload {
        sustained_jobs_per_s: -1.0,
        db_load_percent: 101.0,
        fan_out_consumers: 0.0,
        ..Workload::default()
    };
    let errors = advise(&w).expect_err("invalid");
    let fields: Vec<_> = errors.iter().map(|e| e.field).collect();
    assert_eq!(
        fields,
        vec![
            Field::SustainedJobsPerS,
            Field::FanOutConsumers,
            Field::DbLoadPercent
        ]
    );
    assert_eq!(errors[0].msg().number("min"), Some(0.0));
    assert_eq!(errors[2].msg().number("max"), Some(100.0));
}

#[test]
fn load_bands_split_at_40_and_70_percent() {
    assert_eq!(LoadBand::from_percent(39.99), LoadBand::Low);
    assert_eq!(LoadBand::from_percent(40.0), LoadBand::Medium);
    assert_eq!(LoadBand::from_percent(69.99), LoadBand::Medium);
    assert_eq!(LoadBand::from_percent(70.0), LoadBand::High);
    for band in [LoadBand::Low, LoadBand::Medium, LoadBand::High] {
        assert_eq!(LoadBand::from_percent(band.typical_percent()), band);
    }
}

// --- URL query --------------------------------------------------------------------------

#[test]
fn query_string_round_trips_the_default_workload() {
    let w = Workload::default();
    let q = w.to_query();
    assert_eq!(
        q,
        "sustained=5&peak=20&duration=0.5&fanout=1&replay=0&ordering=0&latency=1000&load=20&longtx=0"
    );
    assert_eq!(Workload::from_query(&q), Ok(w));
}

#[test]
fn query_string_round_trips_awkward_numbers_and_every_flag_exactly() {
    let w = Workload {
        sustained_jobs_per_s: 0.1 + 0.2,
        peak_jobs_per_s: 1_000_000.0,
        job_duration_s: 0.001,
        fan_out_consumers: 100.0,
        replay_needed: true,
        strict_ordering: true,
        latency_target_ms: 123_456.789,
        db_load_percent: 33.333_333_333_333_336,
        long_transactions: true,
    };
    let q = w.to_query();
    assert!(q.contains("replay=1&ordering=1"), "{q}");
    assert!(q.ends_with("longtx=1"), "{q}");
    assert_eq!(Workload::from_query(&q), Ok(w));
}

#[test]
fn query_string_is_read_from_a_hash_route_ignoring_unknown_keys() {
    let w = Workload::from_query(
        "https://example.org/docs/queue-lab/?lang=ko#/leave?lab=leave&embed=1&sustained=800&peak=1200&longtx=1&load=high",
    )
    .expect("valid");
    assert_eq!(w.sustained_jobs_per_s, 800.0);
    assert_eq!(w.peak_jobs_per_s, 1_200.0);
    assert!(w.long_transactions);
    assert_eq!(w.db_load_percent, LoadBand::High.typical_percent());
    assert_eq!(w.job_duration_s, Workload::default().job_duration_s);
}

#[test]
fn a_peak_is_not_refused_as_below_a_sustained_rate_that_does_not_read() {
    let errors = Workload::from_query("sustained=lots&peak=3").expect_err("unreadable rate");
    let keys: Vec<(Field, queue_lab_core::i18n::Key)> =
        errors.iter().map(|e| (e.field, e.key)).collect();
    assert_eq!(
        keys,
        [(
            Field::SustainedJobsPerS,
            queue_lab_core::keys::LEAVE_ERROR_NOT_A_NUMBER
        )]
    );
    // Read, the same rate refuses the peak below it; the last of a repeated key wins.
    let errors = Workload::from_query("sustained=lots&sustained=9&peak=3").expect_err("peak");
    let keys: Vec<(Field, queue_lab_core::i18n::Key)> =
        errors.iter().map(|e| (e.field, e.key)).collect();
    assert_eq!(
        keys,
        [(
            Field::PeakJobsPerS,
            queue_lab_core::keys::LEAVE_ERROR_PEAK_BELOW_SUSTAINED
        )]
    );
}

#[test]
fn empty_query_gives_the_default_workload() {
    assert_eq!(Workload::from_query(""), Ok(Workload::default()));
    assert_eq!(Workload::from_query("?"), Ok(Workload::default()));
    assert_eq!(
        Workload::from_query("?sustained=7#step-2").map(|w| w.sustained_jobs_per_s),
        Ok(7.0)
    );
}

#[test]
fn query_string_reports_bad_and_out_of_range_values_by_field() {
    let errors = Workload::from_query("sustained=abc&load=150&replay=maybe&fanout=2.5")
        .expect_err("invalid");
    let found: Vec<_> = errors.iter().map(|e| (e.field, e.key)).collect();
    assert_eq!(
        found,
        vec![
            (
                Field::SustainedJobsPerS,
                queue_lab_core::keys::LEAVE_ERROR_NOT_A_NUMBER
            ),
            (
                Field::FanOutConsumers,
                queue_lab_core::keys::LEAVE_ERROR_NOT_WHOLE
            ),
            (
                Field::ReplayNeeded,
                queue_lab_core::keys::LEAVE_ERROR_NOT_BOOL
            ),
            (
                Field::DbLoadPercent,
                queue_lab_core::keys::LEAVE_ERROR_ABOVE_MAX
            ),
        ]
    );
}

#[test]
fn a_repeated_query_key_takes_its_last_value() {
    let w = Workload::from_query("sustained=abc&sustained=9&peak=9").expect("last wins");
    assert_eq!(w.sustained_jobs_per_s, 9.0);
}
