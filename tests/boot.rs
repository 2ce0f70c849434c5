//! How PostgreSQL boots: from the data directory made at build time (pglite-bridge/build.mjs),
//! and by initdb when that one is missing or corrupt.

use queue_lab::clock;
use queue_lab::db::{Db, Location};
use serde::Deserialize;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[derive(Deserialize)]
struct Facts {
    version: String,
    clock_fn: bool,
    schemas: Vec<String>,
    pageinspect: bool,
    databases: Vec<String>,
}

/// What the data directory must already hold, read before anything is installed.
const FACTS_SQL: &str = "select current_setting('server_version') as version,
    to_regprocedure('lab.now()') is not null as clock_fn,
    array(select nspname::text from pg_namespace
          where nspname = 'lab' or nspname like '%\\_lab' order by nspname) as schemas,
    exists (select 1 from pg_extension where extname = 'pageinspect') as pageinspect,
    array(select datname::text from pg_database order by datname) as databases";

/// Starts PostgreSQL from `datadir` (None: the shipped one). A start that does not answer in
/// time is tried again, as `Db::open_for_tests` does (a busy machine); how it booted is what
/// the tests check.
async fn open(datadir: Option<&str>) -> Db {
    let mut at = Location::tests()
        .await
        .expect("pglite-bridge/build is there");
    at.datadir = datadir.map(str::to_owned);
    let mut last = None;
    for _ in 0..3 {
        match Db::open(&at, |_| {}).await {
            Ok(db) => return db,
            Err(e) => last = Some(e),
        }
    }
    panic!("PostgreSQL did not start: {last:?}")
}

async fn facts(db: &Db) -> Facts {
    db.query::<Facts>(FACTS_SQL, &[])
        .await
        .expect("facts")
        .first()
        .expect("a row")
}

#[wasm_bindgen_test]
async fn boots_from_the_shipped_data_directory_with_the_lab_installed() {
    let db = open(None).await;
    let boot = db.boot();
    assert!(boot.from_datadir, "booted by initdb: {:?}", boot.note);
    assert_eq!(boot.note, None);
    let f = facts(&db).await;
    assert!(f.version.starts_with("18."), "server_version {}", f.version);
    assert!(f.clock_fn, "lab.now() is in the data directory");
    // Only the clock's schema: each lab's own schema is made by the runner (its descriptor's).
    assert_eq!(f.schemas, ["lab"]);
    assert!(f.pageinspect, "the page map's extension is installed");
    // Made smaller at build time: the template databases nothing here uses are not shipped.
    assert_eq!(f.databases, ["postgres"]);
    // The app's start: no install (the clock is there), only the session's settings.
    let version = clock::start(&db).await.expect("start");
    assert_eq!(version, f.version);
    assert_session_runs_on_lab_time(&db).await;
    clock::install(&db).await.expect("install is idempotent");
    assert_eq!(
        clock::now(&db).await.unwrap(),
        clock::START,
        "lab.now() starts at lab time"
    );
    assert_eq!(
        clock::advance(&db, 30).await.unwrap(),
        "2026-01-05 09:00:30+00"
    );
}

async fn falls_back(datadir: &str, why: &str) {
    let db = open(Some(datadir)).await;
    let boot = db.boot();
    assert!(!boot.from_datadir, "{datadir}: said it booted from it");
    let note = boot.note.expect("a note says why");
    assert!(note.contains(why), "{datadir}: note {note:?} lacks {why:?}");
    let f = facts(&db).await;
    assert!(f.version.starts_with("18."), "server_version {}", f.version);
    // A fresh initdb has none of the lab: the app's install path puts the clock in.
    assert!(!f.clock_fn, "initdb's database has no lab clock yet");
    assert_eq!(f.databases, ["postgres", "template0", "template1"]);
    // The app's start installs it.
    let version = clock::start(&db).await.expect("start");
    assert_eq!(version, f.version);
    assert!(facts(&db).await.clock_fn, "the start installed lab.now()");
    assert_session_runs_on_lab_time(&db).await;
}

/// After the app's start, unqualified now() (as the labs write it) is lab time: the session's
/// search path puts `lab` first and its clock is at the start.
async fn assert_session_runs_on_lab_time(db: &Db) {
    #[derive(Deserialize)]
    struct Now {
        now: String,
        first: String,
    }
    let row = db
        .query::<Now>(
            "select now()::text as now, (current_schemas(false))[1]::text as first",
            &[],
        )
        .await
        .expect("now()")
        .first()
        .expect("a row");
    assert_eq!(
        row.first, "lab",
        "the lab schema comes first on the search path"
    );
    assert_eq!(row.now, clock::START, "now() is lab time");
}

#[wasm_bindgen_test]
async fn a_missing_data_directory_falls_back_to_initdb_and_says_so() {
    falls_back("/pglite-bridge/build/no-such-pgdata.tar.gz", "404").await;
}

#[wasm_bindgen_test]
async fn a_corrupt_data_directory_falls_back_to_initdb_and_says_so() {
    // Any file that is not a data directory's tar: the crate's Cargo.toml.
    falls_back("/Cargo.toml", "did not boot").await;
}
