//! The contract suite (`tests/contract/pgque/*.sql`) on the lab's engine on a real server:
//! every file, each on a database of its own, must pass as it passes on real PgQue (`pgcheck
//! pgq --against-pgque DIR` runs both). Needs `QUEUE_LAB_PG_URL` (start a local server with
//! `scripts/pg-local.sh start`) and a role that may create databases; without the URL the
//! test fails, on purpose, rather than passing without checking.

use pgcheck::contract::{self, Engine};

#[test]
fn every_contract_file_passes_on_the_lab_engine() {
    let url = std::env::var("QUEUE_LAB_PG_URL").unwrap_or_else(|_| {
        panic!(
            "QUEUE_LAB_PG_URL is not set, so the contract suite cannot run on a server. Start \
             one with `scripts/pg-local.sh start` and run again with QUEUE_LAB_PG_URL set to \
             the URL it prints, e.g. QUEUE_LAB_PG_URL=$(scripts/pg-local.sh start) cargo test \
             -p pgcheck --test contract"
        )
    });
    let runs = contract::run(&url, &Engine::Lab, &mut |r| {
        println!("{:<40} {:?}", r.file, r.outcome)
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(runs.len(), contract::FILES.len());
    // Files the lab's engine does not pass yet, each with its reason: they must still fail
    // (a fixed one leaves the list), and every other file must pass.
    let differences = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/contract/differences.tsv"
    ))
    .expect("tests/contract/differences.tsv");
    let known: Vec<&str> = differences
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .collect();
    let failed: Vec<String> = runs
        .iter()
        .filter(|r| !known.contains(&r.file))
        .filter_map(|r| r.failure_text())
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} contract files fail on the lab's engine:\n\n{}",
        failed.len(),
        runs.len(),
        failed.join("\n\n")
    );
    let fixed: Vec<&str> = runs
        .iter()
        .filter(|r| known.contains(&r.file) && r.failure_text().is_none())
        .map(|r| r.file)
        .collect();
    assert!(
        fixed.is_empty(),
        "these pass on the lab's engine now: remove them from tests/contract/differences.tsv: {fixed:?}"
    );
}
