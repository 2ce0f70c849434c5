//! The labs' input bounds kept as data (src/labs/vacuum/model/limits.tsv,
//! src/labs/pgq/model/limits.tsv), which the benchmark reads (bench/labs.mjs), are the bounds
//! the app checks inputs by: the Rust constants equal them. Native: nothing here needs a
//! browser.
#![cfg(not(target_arch = "wasm32"))]

use queue_lab::labs::pgq::model::compare;
use queue_lab::labs::vacuum::model as vacuum;
use std::collections::BTreeMap;

/// `key<TAB>value` lines, `#` comments, each key once; the values as whole numbers.
fn parse(name: &str, text: &str) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("{name}: {line:?} is not key<TAB>value"));
        let value = value
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}: {key} is not a whole number"));
        assert!(
            out.insert(key.trim().to_string(), value).is_none(),
            "{name}: {key} comes twice"
        );
    }
    out
}

/// Checks every key of `data` against `expected` and that no key is left over or missing.
fn same(name: &str, data: BTreeMap<String, i64>, expected: &[(&str, i64)]) {
    let want: BTreeMap<String, i64> = expected.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    assert_eq!(data, want, "{name} and the Rust constants differ");
}

#[test]
fn l3_bounds_in_the_data_file_are_the_apps() {
    let data = parse(
        "src/labs/vacuum/model/limits.tsv",
        include_str!("../src/labs/vacuum/model/limits.tsv"),
    );
    same(
        "src/labs/vacuum/model/limits.tsv",
        data,
        &[
            ("jobs_min", vacuum::JOBS_MIN.into()),
            ("jobs_max", vacuum::JOBS_MAX.into()),
            ("jobs_default", vacuum::JOBS_DEFAULT.into()),
            ("rounds_min", vacuum::ROUNDS_MIN.into()),
            ("rounds_max", vacuum::ROUNDS_MAX.into()),
            ("rounds_default", vacuum::ROUNDS_DEFAULT.into()),
            ("batch_min", vacuum::BATCH_MIN.into()),
            ("batch_max", vacuum::BATCH_MAX.into()),
            ("batch_default", vacuum::BATCH_DEFAULT.into()),
            ("run_jobs_max", vacuum::RUN_JOBS_MAX.into()),
            ("run_claims_max", vacuum::RUN_CLAIMS_MAX.into()),
        ],
    );
}

#[test]
fn l4_bounds_in_the_data_file_are_the_apps() {
    let data = parse(
        "src/labs/pgq/model/limits.tsv",
        include_str!("../src/labs/pgq/model/limits.tsv"),
    );
    let bound = |name: &str, (min, max, default): (i64, i64, i64)| {
        [
            (format!("{name}_min"), min),
            (format!("{name}_max"), max),
            (format!("{name}_default"), default),
        ]
    };
    let mut expected: Vec<(String, i64)> = [
        bound("events", compare::EVENTS),
        bound("rounds", compare::ROUNDS),
        bound("page", compare::PAGE),
    ]
    .into_iter()
    .flatten()
    .collect();
    expected.push(("run_pages_max".into(), compare::RUN_PAGES_MAX.into()));
    let expected: Vec<(&str, i64)> = expected.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    same("src/labs/pgq/model/limits.tsv", data, &expected);
}
