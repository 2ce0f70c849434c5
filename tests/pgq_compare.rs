//! L4's side by side, against real PGlite in headless Chromium, through the code the
//! "Run side by side" button runs: the same load on the rotation queue and on the article's
//! SKIP LOCKED queue, without and with a long transaction pinning the xmin horizon.
//! Times are figures for the page and the benchmark, never asserted here.

use queue_lab::db::Db;
use queue_lab::labs::pgq::model::compare::{self, Report, Settings};
use queue_lab::labs::pgq::model::Lab;
use serde::Deserialize;
use std::cell::Cell;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const N: u32 = 1_000;

async fn run(db: &Db, pinned: bool) -> Report {
    let s = Settings {
        events: N,
        rounds: 3,
        page: 100,
        pinned,
    };
    let rounds_seen = Cell::new(0usize);
    let report = compare::run(db, s, &Cell::new(false), &|r| {
        rounds_seen.set(r.rounds.len());
    })
    .await
    .unwrap_or_else(|e| panic!("side by side (pinned: {pinned}) failed: {e}"));
    assert_eq!(rounds_seen.get(), 3, "progress saw every round");
    report
}

#[derive(Deserialize)]
struct Text {
    v: String,
}

async fn text(db: &Db, sql: &str) -> String {
    db.query::<Text>(sql, &[]).await.unwrap().first().unwrap().v
}

/// The lab is left as it was: no long transaction open, the lab's search path back, and the
/// lab's own `orders` queue untouched.
async fn assert_lab_restored(db: &Db) {
    assert_eq!(
        text(db, "select count(*)::text as v from pg_prepared_xacts").await,
        "0",
        "the run's long transaction is ended"
    );
    assert_eq!(
        text(db, "select current_setting('search_path') as v").await,
        "lab, pg_catalog, public"
    );
    assert_eq!(
        text(
            db,
            "select count(*)::text as v from pgque.get_table_info('orders') where events > 0"
        )
        .await,
        "0",
        "the lab's own queue got no events"
    );
}

#[wasm_bindgen_test]
async fn without_a_long_transaction_vacuum_keeps_up_and_the_rotation_queue_truncates() {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    Lab::setup(&db).await.unwrap();
    let r = run(&db, false).await;
    assert_eq!(r.rounds.len(), 3);
    for round in &r.rounds {
        let (p, j) = (&round.pgq, &round.jobs);
        assert_eq!(
            p.delivered,
            2 * u64::from(N),
            "fan-out: both consumers got every event"
        );
        // Each tick cut one batch of a page's worth, and each receive took one batch whole:
        // N / page receives per consumer, and one more that finds nothing.
        assert_eq!(
            p.receives,
            2 * (N / 100 + 1),
            "round {}: whole batches, one per tick",
            round.round
        );
        assert_eq!(
            p.dead, 0,
            "round {}: event tables never hold dead tuples",
            round.round
        );
        assert_eq!(j.done, u64::from(N), "every job claimed once and deleted");
        // Each job leaves two dead versions: the claim's UPDATE and the DELETE.
        assert!(
            j.dead_before_vacuum >= i64::from(N),
            "round {}: the DELETEs left dead tuples ({})",
            round.round,
            j.dead_before_vacuum
        );
        assert_eq!(j.dead, 0, "round {}: VACUUM removed them all", round.round);
    }
    assert!(
        r.rounds
            .iter()
            .any(|x| x.pgq.truncated.is_some_and(|n| n >= i64::from(N))),
        "a rotation TRUNCATEd a finished table: {:?}",
        r.rounds.iter().map(|x| &x.pgq).collect::<Vec<_>>()
    );
    assert!(r.released.is_none());
    assert_lab_restored(&db).await;
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_pinned_xmin_piles_dead_tuples_on_the_skip_locked_queue_and_none_on_the_rotation_queue() {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    Lab::setup(&db).await.unwrap();
    let r = run(&db, true).await;
    let mut last_dead = 0;
    let mut last_size = 0;
    let mut last_pages = 0;
    for round in &r.rounds {
        let (p, j) = (&round.pgq, &round.jobs);
        assert_eq!(
            p.dead, 0,
            "round {}: no dead tuples in event tables",
            round.round
        );
        // The switch made before the transaction began may still go (it truncates the empty
        // next table); no table holding events is truncated while the transaction is open.
        assert_eq!(
            p.truncated.unwrap_or(0),
            0,
            "round {}: no events truncated under the pin",
            round.round
        );
        if round.round > 1 {
            assert!(
                p.truncated.is_none() && p.waiting.is_some(),
                "round {}: maint() waits and says why: {p:?}",
                round.round
            );
        }
        // Each job left two dead versions (the claim's UPDATE, the DELETE); VACUUM may
        // remove only the one aborted version of the EXPLAIN that was rolled back.
        assert!(
            j.dead >= 2 * i64::from(N) * i64::from(round.round),
            "round {}: VACUUM removed what the claims and DELETEs left ({} → {})",
            round.round,
            j.dead_before_vacuum,
            j.dead
        );
        assert!(
            j.dead >= last_dead + i64::from(N),
            "round {}: dead tuples pile up ({last_dead} → {})",
            round.round,
            j.dead
        );
        assert!(
            j.bytes > last_size,
            "round {}: the table grows",
            round.round
        );
        // The dead index entries stay in front of the new jobs: the claim reads more pages.
        assert!(
            j.claim_pages > last_pages,
            "round {}: the claim reads more pages ({last_pages} → {})",
            round.round,
            j.claim_pages
        );
        last_dead = j.dead;
        last_size = j.bytes;
        last_pages = j.claim_pages;
    }
    let released = r
        .released
        .clone()
        .expect("a pinned run reports the release");
    assert_eq!(
        released.jobs_dead, 0,
        "after the release VACUUM removes everything"
    );
    assert!(
        released.truncated >= i64::from(N),
        "held-back rotations TRUNCATE after the release: {released:?}"
    );
    assert_lab_restored(&db).await;

    // And the run can go again at once (its queue and schema are recreated).
    let again = run(&db, false).await;
    assert_eq!(again.rounds.len(), 3);
    let healthy = again.rounds.last().unwrap().jobs.claim_pages;
    assert!(
        last_pages > 2 * healthy,
        "under the pin the last claim read {last_pages} pages; with VACUUM keeping up, {healthy}"
    );
    db.close().await;
}

#[wasm_bindgen_test]
async fn cancel_stops_between_pages_and_still_ends_the_long_transaction() {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    Lab::setup(&db).await.unwrap();
    let cancel = Cell::new(false);
    let s = Settings {
        events: 2_000,
        rounds: 5,
        page: 100,
        pinned: true,
    };
    let r = compare::run(&db, s, &cancel, &|r: &Report| {
        if !r.rounds.is_empty() {
            cancel.set(true);
        }
    })
    .await
    .unwrap();
    assert!(r.cancelled);
    assert!(
        r.rounds.len() < 5,
        "stopped early: {} rounds",
        r.rounds.len()
    );
    assert_lab_restored(&db).await;
    db.close().await;
}
