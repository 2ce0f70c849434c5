//! The database layer against real PGlite in headless Chromium.

use queue_lab::clock;
use queue_lab::db::{Db, Listener, Param};
use serde::Deserialize;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

async fn db() -> Db {
    queue_lab::testing::fresh_db().await.expect("PGlite opens")
}

#[derive(Deserialize)]
struct N {
    n: i64,
}

/// The `n` of the first row `sql` returns.
async fn number(db: &Db, sql: &str) -> i64 {
    db.query::<N>(sql, &[]).await.unwrap().first().unwrap().n
}

/// A listener on `channel`, and the payloads it has received so far.
async fn listening(db: &Db, channel: &str) -> (Rc<RefCell<Vec<String>>>, Listener) {
    let got = Rc::new(RefCell::new(Vec::new()));
    let sink = got.clone();
    let listener = db
        .listen(channel, move |p| sink.borrow_mut().push(p))
        .await
        .unwrap();
    (got, listener)
}

/// `pg_notify('jobs', payload)` in a transaction that then commits, or rolls back.
async fn notify_in_tx(db: &Db, payload: &str, commit: bool) {
    let tx = db.begin().await.unwrap();
    tx.query::<serde_json::Value>("select pg_notify('jobs', $1)", &[payload.into()])
        .await
        .unwrap();
    if commit {
        tx.commit().await.unwrap();
    } else {
        tx.rollback().await.unwrap();
    }
}

/// Lets queued worker messages (notifications) arrive.
async fn settle(db: &Db) {
    db.query::<serde_json::Value>("select 1", &[])
        .await
        .expect("select 1");
    gloo_timers::future::TimeoutFuture::new(50).await;
}

/// The L1 lab reads its inbox right after COMMIT without waiting: that relies on PGlite
/// calling listeners while it reads the COMMIT's reply, and on the worker posting the
/// notification before the reply.
#[wasm_bindgen_test]
async fn a_committed_notify_reaches_the_listener_before_commit_returns() {
    let db = db().await;
    let (got, _listener) = listening(&db, "jobs").await;
    for n in 0..5 {
        notify_in_tx(&db, &n.to_string(), true).await;
        assert_eq!(
            got.borrow().len(),
            n + 1,
            "notification {n} not there when commit returned"
        );
    }
    db.exec("notify jobs, 'autocommit'").await.unwrap();
    assert_eq!(got.borrow().last().map(String::as_str), Some("autocommit"));
    db.close().await;
}

#[wasm_bindgen_test]
async fn boots_and_reports_postgresql_18() {
    #[derive(Deserialize)]
    struct V {
        server_version_num: String,
    }
    let db = db().await;
    let v = db
        .query::<V>(
            "select current_setting('server_version_num') as server_version_num",
            &[],
        )
        .await
        .unwrap();
    let num: u32 = v.first().unwrap().server_version_num.parse().unwrap();
    assert!(
        (180000..190000).contains(&num),
        "expected PostgreSQL 18, got {num}"
    );
    db.close().await;
}

#[wasm_bindgen_test]
async fn parameters_round_trip_every_type_the_labs_use() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct R {
        i: i32,
        b: serde_json::Value,
        t: String,
        j: serde_json::Value,
        ts: String,
        n: Option<String>,
    }
    let db = db().await;
    let big = 9_007_199_254_740_993i64; // 2^53 + 1: not exactly representable as a JS number
    let r = db
        .query::<R>(
            "select $1::int as i, $2::bigint + 1 as b, $3::text as t, $4::jsonb as j, \
             $5::timestamptz as ts, $6::text as n",
            &[
                42.into(),
                Param::Int(big - 1),
                "it's 'quoted'; drop table x; --".into(),
                json!({"email": "a@b.c", "n": [1, 2]}).into(),
                "2026-01-05 09:00:00+00".into(),
                Param::Null,
            ],
        )
        .await
        .unwrap();
    let row = r.first().unwrap();
    assert_eq!(row.i, 42);
    // A bigint beyond 2^53 comes back as text rather than silently rounded.
    assert_eq!(row.b, json!("9007199254740993"));
    assert_eq!(row.t, "it's 'quoted'; drop table x; --");
    assert_eq!(row.j, json!({"email": "a@b.c", "n": [1, 2]}));
    assert_eq!(row.ts, "2026-01-05 09:00:00+00");
    assert_eq!(row.n, None);
    #[derive(Deserialize)]
    struct Big {
        b: String,
    }
    let big_back = db
        .query::<Big>("select ($1::bigint + 1)::text as b", &[Param::Int(big - 1)])
        .await
        .unwrap();
    assert_eq!(big_back.first().unwrap().b, big.to_string());
    db.close().await;
}

#[wasm_bindgen_test]
async fn bad_sql_gives_sqlstate_and_position_and_the_next_query_works() {
    let db = db().await;
    let err = db
        .query::<serde_json::Value>("select id from no_such_table", &[])
        .await
        .unwrap_err();
    assert_eq!(err.code.as_deref(), Some("42P01"));
    assert_eq!(err.position, Some(16));
    assert!(err.message.contains("no_such_table"), "{}", err.message);
    assert_eq!(err.line_and_column(), Some((1, 16)));
    let syntax = db.exec("select 1;\nselect * frm x").await.unwrap_err();
    assert_eq!(syntax.code.as_deref(), Some("42601"));
    assert_eq!(syntax.line_and_column().map(|(l, _)| l), Some(2));
    #[derive(Deserialize)]
    struct One {
        one: i32,
    }
    let ok = db.query::<One>("select 1 as one", &[]).await.unwrap();
    assert_eq!(ok.first().unwrap().one, 1);
    db.close().await;
}

#[wasm_bindgen_test]
async fn rollback_discards_and_commit_keeps() {
    let db = db().await;
    db.exec("create table t (x int)").await.unwrap();
    let tx = db.begin().await.unwrap();
    let ins = tx
        .query::<serde_json::Value>("insert into t values ($1)", &[1.into()])
        .await
        .unwrap();
    assert_eq!(ins.affected, 1);
    tx.rollback().await.unwrap();
    let tx = db.begin().await.unwrap();
    tx.query::<serde_json::Value>("insert into t values ($1)", &[2.into()])
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(number(&db, "select count(*) as n from t").await, 1);
    assert_eq!(number(&db, "select x::bigint as n from t").await, 2);
    db.close().await;
}

/// `Db::transaction`: work that fails is rolled back (its row is absent and its error is
/// returned), work that succeeds is committed (its row stays); the SQL log shows BEGIN and
/// then ROLLBACK or COMMIT around the work, as when they are written by hand.
#[wasm_bindgen_test]
async fn a_transaction_rolls_back_when_its_work_fails_and_commits_when_it_succeeds() {
    let db = db().await;
    db.exec("create table t (x int)").await.unwrap();
    let seen = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = seen.clone();
    db.log()
        .subscribe(move |e| sink.borrow_mut().push(e.sql.clone()));
    let failed = db
        .transaction(async |tx| {
            tx.query::<serde_json::Value>("insert into t values ($1)", &[1.into()])
                .await?;
            Err::<(), _>(queue_lab::db::DbError::other(
                "the work failed after writing",
            ))
        })
        .await;
    assert!(
        failed
            .as_ref()
            .is_err_and(|e| e.to_string().contains("the work failed after writing")),
        "the work's own error comes back: {failed:?}"
    );
    let kept = db
        .transaction(async |tx| {
            tx.query::<serde_json::Value>("insert into t values ($1)", &[2.into()])
                .await?;
            Ok(7)
        })
        .await;
    assert_eq!(kept.unwrap(), 7, "the work's value comes back");
    let rows = db
        .query::<N>("select x::bigint as n from t order by x", &[])
        .await
        .unwrap();
    let xs: Vec<i64> = rows.rows.iter().map(|r| r.n).collect();
    assert_eq!(
        xs,
        [2],
        "the failed work's row is absent, the committed one stays"
    );
    let log = seen.borrow().clone();
    assert_eq!(
        log[..6],
        [
            "BEGIN",
            "insert into t values ($1)",
            "ROLLBACK",
            "BEGIN",
            "insert into t values ($1)",
            "COMMIT"
        ],
        "{log:?}"
    );
    db.close().await;
}

/// `Db::rolled_back`: what the work wrote is gone even though it succeeded, and what it
/// returned comes back.
#[wasm_bindgen_test]
async fn rolled_back_work_leaves_nothing_behind_and_returns_its_value() {
    let db = db().await;
    db.exec("create table t (x int)").await.unwrap();
    let inserted = db
        .rolled_back(async |tx| {
            let r = tx
                .query::<N>(
                    "insert into t values ($1) returning x::bigint as n",
                    &[3.into()],
                )
                .await?;
            r.one()
        })
        .await
        .unwrap();
    assert_eq!(inserted.n, 3);
    let n = db
        .query::<N>("select count(*) as n from t", &[])
        .await
        .unwrap()
        .one()
        .unwrap();
    assert_eq!(n.n, 0, "the rolled-back row is absent");
    db.close().await;
}

#[wasm_bindgen_test]
async fn committed_notify_reaches_a_listener_and_a_rolled_back_one_does_not() {
    let db = db().await;
    let (got, listener) = listening(&db, "jobs").await;
    notify_in_tx(&db, "rolled back", false).await;
    settle(&db).await;
    assert!(
        got.borrow().is_empty(),
        "a rolled-back NOTIFY was delivered: {:?}",
        got.borrow()
    );
    notify_in_tx(&db, "committed", true).await;
    settle(&db).await;
    assert_eq!(*got.borrow(), vec!["committed".to_string()]);
    listener.unlisten().await.unwrap();
    db.exec("notify jobs, 'after unlisten'").await.unwrap();
    settle(&db).await;
    assert_eq!(got.borrow().len(), 1, "delivered after unlisten");
    db.close().await;
}

#[wasm_bindgen_test]
async fn default_now_reads_the_lab_clock_and_moves_only_when_advanced() {
    #[derive(Deserialize)]
    struct Row {
        at: String,
    }
    let db = db().await;
    let start = clock::now(&db).await.unwrap();
    assert_eq!(start, "2026-01-05 09:00:00+00");
    db.exec("create table e (id int, at timestamptz not null default now())")
        .await
        .unwrap();
    db.query::<serde_json::Value>("insert into e (id) values ($1)", &[1.into()])
        .await
        .unwrap();
    let moved = clock::advance(&db, 30).await.unwrap();
    assert_eq!(moved, "2026-01-05 09:00:30+00");
    db.query::<serde_json::Value>("insert into e (id) values ($1)", &[2.into()])
        .await
        .unwrap();
    let rows = db
        .query::<Row>("select at::text as at from e order by id", &[])
        .await
        .unwrap();
    let at: Vec<_> = rows.rows.into_iter().map(|r| r.at).collect();
    assert_eq!(at, ["2026-01-05 09:00:00+00", "2026-01-05 09:00:30+00"]);
    // Wall-clock time passing changes nothing.
    gloo_timers::future::TimeoutFuture::new(1100).await;
    assert_eq!(clock::now(&db).await.unwrap(), "2026-01-05 09:00:30+00");
    assert!(clock::advance(&db, 0).await.is_err());
    db.close().await;
}

#[wasm_bindgen_test]
async fn prepare_transaction_works_and_can_be_rolled_back() {
    let db = db().await;
    db.exec("create table p (x int)").await.unwrap();
    db.exec("begin; insert into p values (1); prepare transaction 'lab_test'")
        .await
        .unwrap();
    let prepared = db
        .query::<N>(
            "select count(*) as n from pg_prepared_xacts where gid = $1",
            &["lab_test".into()],
        )
        .await
        .unwrap();
    assert_eq!(prepared.first().unwrap().n, 1);
    db.exec("rollback prepared 'lab_test'").await.unwrap();
    assert_eq!(number(&db, "select count(*) as n from p").await, 0);
    assert_eq!(
        number(&db, "select count(*) as n from pg_prepared_xacts").await,
        0
    );
    db.close().await;
}

#[wasm_bindgen_test]
async fn every_statement_is_recorded_in_the_sql_log() {
    let db = db().await;
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = seen.clone();
    db.log().subscribe(move |e| {
        sink.borrow_mut().push((
            e.sql.clone(),
            e.params.clone(),
            e.affected,
            e.error.is_some(),
        ))
    });
    db.exec("create table l (x int)").await.unwrap();
    db.query::<serde_json::Value>("insert into l values ($1), ($2)", &[1.into(), 2.into()])
        .await
        .unwrap();
    let _ = db.query::<serde_json::Value>("select nope", &[]).await;
    let sink_count = seen.clone();
    let seen = seen.borrow().clone();
    assert_eq!(seen.len(), 3);
    assert_eq!(seen[1].1, vec!["1".to_string(), "2".to_string()]);
    assert_eq!(seen[1].2, Some(2));
    assert!(seen[2].3, "the failed statement is logged as failed");

    // Held (as a lab holds it for one action): nothing is told until the last hold ends,
    // then everything, in order, failures included.
    let before = db.log().count();
    let outer = db.log().hold();
    let inner = db.log().hold();
    db.exec("insert into l values (3)").await.unwrap();
    let _ = db
        .query::<serde_json::Value>("select nope_again", &[])
        .await;
    drop(inner);
    db.query::<serde_json::Value>("select count(*) from l", &[])
        .await
        .unwrap();
    assert_eq!(sink_count.borrow().len(), 3, "told while held");
    assert_eq!(db.log().count(), before + 3, "counted while held");
    drop(outer);
    let after = sink_count.borrow().clone();
    assert_eq!(after.len(), 6);
    assert_eq!(after[3].0, "insert into l values (3)");
    assert!(after[4].3);
    assert_eq!(after[5].0, "select count(*) from l");
    db.close().await;
}

/// Two statements sent together (`pipelined`, as L1's reap and claim are): both wait for their
/// reply at once, the worker runs them in the order given, the second sees what the first
/// did, each gets its own result and its own SQL log entry, and the running one is the
/// first sent.
#[wasm_bindgen_test]
async fn pipelined_statements_are_sent_together_and_run_in_order() {
    let db = db().await;
    db.exec("create table pipe (n int)").await.expect("create");
    let seen = Rc::new(RefCell::new(Vec::new()));
    let watcher = {
        let (db, seen) = (db.clone(), seen.clone());
        async move {
            // While the first sleeps, look at what is waiting for a reply.
            gloo_timers::future::TimeoutFuture::new(100).await;
            seen.borrow_mut().push((
                db.in_flight().waiting(),
                db.in_flight().get().map(|(_, sql)| sql),
            ));
        }
    };
    let times = Rc::new(RefCell::new(Vec::new()));
    {
        let times = times.clone();
        db.log()
            .subscribe(move |e| times.borrow_mut().push((e.sql.clone(), e.ms)));
    }
    let pair = queue_lab::db::pipelined(
        db.query::<serde_json::Value>("insert into pipe select 7 from pg_sleep(0.4)", &[]),
        db.query::<N>("select count(*) as n from pipe", &[]),
    );
    let ((first, second), ()) = queue_lab::db::pipelined(pair, watcher).await;
    first.expect("the insert");
    assert_eq!(
        second.expect("the count").first().map(|r| r.n),
        Some(1),
        "the count ran after the insert"
    );
    let seen = seen.borrow().clone();
    assert_eq!(
        seen[0].0, 2,
        "both statements were sent before the first reply"
    );
    assert!(
        seen[0]
            .1
            .as_deref()
            .is_some_and(|s| s.starts_with("insert into pipe")),
        "the running one is the first sent: {:?}",
        seen[0].1
    );
    assert_eq!(db.in_flight().waiting(), 0);
    // The SQL log gives each its own time: the count's excludes its wait behind the insert.
    let ms = |start: &str| {
        times
            .borrow()
            .iter()
            .find(|(sql, _)| sql.starts_with(start))
            .map(|(_, ms)| *ms)
            .expect("logged")
    };
    assert!(
        ms("insert into pipe") >= 390.0,
        "the insert slept: {:?}",
        times.borrow()
    );
    assert!(
        ms("select count(*)") < 200.0,
        "the count's own time, not its wait behind the insert: {:?}",
        times.borrow()
    );
    // The other way round: a quick first statement is not charged with the slow one behind
    // it (the worker takes its end before the next statement runs).
    let (quick, slow) = queue_lab::db::pipelined(
        db.query::<N>("select 1::bigint as n", &[]),
        db.query::<serde_json::Value>("select pg_sleep(0.3)", &[]),
    )
    .await;
    quick.expect("the quick one");
    slow.expect("the slow one");
    assert!(
        ms("select 1::bigint") < 150.0,
        "the quick one's own time: {:?}",
        times.borrow()
    );
    assert!(ms("select pg_sleep(0.3)") >= 290.0, "{:?}", times.borrow());
    // A failing first statement: the second still runs, and each says how it went.
    let (bad, after) = queue_lab::db::pipelined(
        db.query::<N>("select n from no_such_table", &[]),
        db.query::<N>("select count(*) as n from pipe", &[]),
    )
    .await;
    assert_eq!(bad.err().and_then(|e| e.code).as_deref(), Some("42P01"));
    assert_eq!(after.expect("the count").first().map(|r| r.n), Some(1));
    db.close().await;
}

/// Closes the newest database's worker from inside (`self.close()`): no error event reaches
/// the page, the worker just stops answering.
fn close_worker_from_inside() {
    js_sys::eval("globalThis.queueLabTest.closeWorker()").expect("the test hook is there");
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The heartbeat: a worker that stopped answering is found within seconds, and every call
/// (BEGIN included) fails as `dead` instead of waiting forever.
#[wasm_bindgen_test]
async fn a_worker_closed_from_inside_fails_the_next_call_as_dead_within_seconds() {
    let db = db().await;
    close_worker_from_inside();
    gloo_timers::future::TimeoutFuture::new(100).await;
    let started = now_ms();
    let (begin, query) =
        queue_lab::db::pipelined(db.begin(), db.query::<serde_json::Value>("select 1", &[])).await;
    let waited = now_ms() - started;
    let Err(begin) = begin else {
        panic!("BEGIN on a closed worker fails")
    };
    assert!(begin.dead, "BEGIN fails as dead: {begin:?}");
    assert!(query.unwrap_err().dead);
    assert!(
        (4_500.0..8_000.0).contains(&waited),
        "found after {waited} ms (the watch allows 5 s of silence)"
    );
    assert!(db.dead().is_some_and(|m| m.contains("stopped answering")));
    // Later calls fail at once.
    let t = now_ms();
    assert!(db.exec("select 1").await.unwrap_err().dead);
    assert!(now_ms() - t < 100.0);
}

/// PostgreSQL runs in the worker's one thread, so a long statement holds the heartbeat's
/// ping too: a statement known to be running is "busy", not "stopped".
#[wasm_bindgen_test]
async fn a_statement_that_holds_the_worker_longer_than_the_watch_is_not_taken_for_a_stopped_worker()
{
    let db = db().await;
    let tx = db.begin().await.expect("begin");
    tx.query::<serde_json::Value>("select pg_sleep(7)", &[])
        .await
        .expect("a 7 s statement ends normally");
    tx.commit().await.expect("commit");
    assert!(db.dead().is_none());
    db.query::<serde_json::Value>("select 1", &[])
        .await
        .expect("and the worker answers");
    db.close().await;
}
