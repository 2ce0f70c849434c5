//! The advisor's sentences through its public API: placeholder filling,
//! and `assets/i18n/leave.tsv` against [`MESSAGE_KEYS`] and against every message emitted.

mod common;

use common::*;
use queue_lab_core::advisor::*;

const TSV: &str = include_str!("../../../assets/i18n/leave.tsv");

// --- messages -------------------------------------------------------------------------------

#[test]
fn fill_replaces_named_placeholders_and_leaves_unknown_ones() {
    let msg = Msg::new(queue_lab_core::i18n::Key::new("x"))
        .num("n", 1_600.0)
        .num("load", 85.0);
    assert_eq!(
        fill("{n} dead/s at {load}% {other} {", &msg),
        "1,600 dead/s at 85% {other} {"
    );
}

fn tsv() -> Vec<(&'static str, &'static str, &'static str)> {
    TSV.lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split('\t').collect();
            assert_eq!(parts.len(), 3, "three columns: {line}");
            (parts[0], parts[1], parts[2])
        })
        .collect()
}

#[test]
fn translation_file_has_exactly_the_message_keys_each_in_english_and_korean() {
    let rows = tsv();
    let mut keys: Vec<&str> = rows.iter().map(|r| r.0).collect();
    for (key, en, ko) in &rows {
        assert!(!en.trim().is_empty(), "{key} has English");
        assert!(!ko.trim().is_empty(), "{key} has Korean");
        assert!(key.starts_with("leave."), "{key}");
    }
    let count = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), count, "no duplicate keys");
    let mut expected: Vec<&str> = MESSAGE_KEYS.iter().map(|k| k.as_str()).collect();
    expected.sort_unstable();
    assert_eq!(keys, expected);
}

/// Every message the advisor can produce, over workloads that reach every branch.
fn every_emitted_message() -> Vec<Msg> {
    let tuned_edge = VacuumSettings::TUNED.clear_ceiling_per_s() / 2.0;
    let default_edge = VacuumSettings::DEFAULT.clear_ceiling_per_s() / 2.0;
    let workloads = [
        Workload::default(),
        Workload {
            db_load_percent: 85.0,
            long_transactions: true,
            ..at_rate(800.0)
        },
        loaded(85.0, 50.0),
        consumers(5.0),
        consumers(2.0),
        Workload {
            replay_needed: true,
            strict_ordering: true,
            latency_target_ms: 50.0,
            job_duration_s: 60.0,
            ..Workload::default()
        },
        at_rate(5_000.0),
        Workload {
            peak_jobs_per_s: 2_000.0,
            ..at_rate(500.0)
        },
        at_rate(just_above(default_edge)),
        at_rate(just_above(tuned_edge)),
    ];
    let mut msgs = Vec::new();
    for w in &workloads {
        let v = ok(w);
        msgs.extend(v.signals.iter().map(|s| s.reason.clone()));
        msgs.extend(v.signals.iter().map(|s| Msg::new(s.status_key())));
        msgs.extend(v.notes.iter().cloned());
        msgs.extend(v.dead_tuples.summary());
        msgs.push(Msg::new(v.recommendation.key()));
        msgs.push(Msg::new(v.recommendation.why_key()));
        msgs.extend(v.fixes.iter().map(|f| Msg::new(f.key())));
        msgs.extend(v.lab_links.iter().map(|l| Msg::new(l.reason_key)));
    }
    msgs.extend(SignalKind::ALL.iter().map(|k| Msg::new(k.title_key())));
    msgs.push(Msg::new(INTERFACE_INTRO_KEY));
    msgs.extend(INTERFACE.iter().map(|op| Msg::new(op.key)));
    msgs.extend(REFERENCES.iter().map(|r| r.msg()));
    for band in [LoadBand::Low, LoadBand::Medium, LoadBand::High] {
        msgs.push(Msg::new(band.key()));
    }
    for field in Field::ALL {
        msgs.push(Msg::new(field.label_key()));
        msgs.push(Msg::new(field.help_key()));
        msgs.extend(field.unit_key().map(Msg::new));
    }
    let mut errors = Vec::new();
    errors.extend(Workload::from_query("sustained=x&fanout=1.5&replay=x").unwrap_err());
    errors.extend(Workload::from_query("sustained=-1&load=101").unwrap_err());
    errors.extend(Workload::from_query("sustained=9&peak=8").unwrap_err());
    msgs.extend(errors.iter().map(FieldError::msg));
    msgs
}

#[test]
fn every_emitted_message_has_a_translation_whose_placeholders_it_fills() {
    let rows = tsv();
    for msg in every_emitted_message() {
        let row = rows.iter().find(|r| msg.key == r.0);
        let (_, en, ko) = row.unwrap_or_else(|| panic!("{} is in leave.tsv", msg.key));
        for template in [en, ko] {
            let text = fill(template, &msg);
            assert!(
                !text.contains('{'),
                "{}: unfilled placeholder in {text}",
                msg.key
            );
        }
    }
}

#[test]
fn every_message_key_is_reachable_so_none_is_dead() {
    let emitted: Vec<_> = every_emitted_message().iter().map(|m| m.key).collect();
    for key in MESSAGE_KEYS {
        assert!(emitted.contains(key), "{key} is never emitted");
    }
}
