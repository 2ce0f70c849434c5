//! L4's must-show behaviours, against real PGlite in headless Chromium, through the lab's
//! own model (the same code the buttons run) and the PL/pgSQL engine in src/sql/pgq.

use queue_lab::db::{Db, DbError};
use queue_lab::labs::pgq::model::{self, Action, Lab, Outcome};
use serde::Deserialize;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const BILLING: &str = "billing";
const EMAIL: &str = "email";

async fn lab() -> (Db, Lab) {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    let lab = Lab::setup(&db).await.expect("pgq lab sets up");
    (db, lab)
}

async fn run(lab: &mut Lab, db: &Db, a: Action) -> Outcome {
    lab.run(db, a.clone())
        .await
        .unwrap_or_else(|e| panic!("{a:?} failed: {e}"))
}

fn receive(c: &str, max: i64) -> Action {
    Action::Receive {
        consumer: c.into(),
        max,
    }
}

fn arg(o: &Outcome, name: &str) -> String {
    o.msg
        .args
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| panic!("{o:?} has no {name}"))
}

/// Receives and acks until nothing is left; returns (msg_id, payload, retry_count) in order.
async fn drain(lab: &mut Lab, db: &Db, c: &str, max: i64) -> Vec<(i64, String, i32)> {
    let mut got = Vec::new();
    for _ in 0..1000 {
        run(lab, db, receive(c, max)).await;
        let page = lab.batch(c).to_vec();
        let Some(first) = page.first() else {
            return got;
        };
        got.extend(
            page.iter()
                .map(|e| (e.msg_id, e.payload.clone(), e.retry_count)),
        );
        run(
            lab,
            db,
            Action::Ack {
                consumer: c.into(),
                batch: first.batch_id,
            },
        )
        .await;
    }
    panic!("{c} never ran dry");
}

fn payloads(got: &[(i64, String, i32)]) -> Vec<String> {
    got.iter().map(|(_, p, _)| p.clone()).collect()
}

#[derive(Deserialize)]
struct Text {
    t: Option<String>,
}

/// Everything the engine keeps, as one comparable text.
async fn engine_state(db: &Db) -> String {
    let mut out = String::new();
    for sql in [
        "select json_agg(x order by x.queue_id)::text as t from pgq.queue x",
        "select json_agg(x order by x.tick_id)::text as t from pgq.tick x",
        "select json_agg(x order by x.sub_id)::text as t from pgq.subscription x",
        "select json_agg(x order by x.rq_id)::text as t from pgq.retry_queue x",
        "select json_agg(x order by x.dl_id)::text as t from pgq.dead_letter x",
    ] {
        let rows = db.query::<Text>(sql, &[]).await.expect("state reads");
        out.push_str(&rows.first().and_then(|r| r.t).unwrap_or_default());
        out.push('\n');
    }
    for t in model::snapshot(db).await.expect("snapshot").tables {
        out.push_str(&format!(
            "{} {} {:?}-{:?}\n",
            t.table_name, t.events, t.min_msg_id, t.max_msg_id
        ));
    }
    out
}

fn code(e: &DbError) -> &str {
    e.code.as_deref().unwrap_or("none")
}

#[wasm_bindgen_test]
async fn fan_out_every_consumer_receives_every_committed_event_exactly_once() {
    let (db, mut lab) = lab().await;
    let mut billing = Vec::new();
    let mut email = Vec::new();
    for round in 0..3 {
        for _ in 0..3 {
            run(&mut lab, &db, Action::SendOne).await;
        }
        run(&mut lab, &db, Action::Burst(4)).await;
        run(&mut lab, &db, Action::Tick).await;
        // billing keeps up in pages of 2; email only reads every other round, in one page
        billing.extend(drain(&mut lab, &db, BILLING, 2).await);
        if round % 2 == 1 {
            email.extend(drain(&mut lab, &db, EMAIL, 100).await);
        }
    }
    email.extend(drain(&mut lab, &db, EMAIL, 100).await);
    let ids = |got: &[(i64, String, i32)]| {
        let mut v: Vec<i64> = got.iter().map(|g| g.0).collect();
        v.sort_unstable();
        v
    };
    let (b, e) = (ids(&billing), ids(&email));
    assert_eq!(b.len(), 21, "billing got {b:?}");
    let mut unique = b.clone();
    unique.dedup();
    assert_eq!(unique, b, "billing got an event twice");
    assert_eq!(e, b, "email got exactly the events billing got");
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_rolled_back_send_is_never_delivered() {
    let (db, mut lab) = lab().await;
    run(&mut lab, &db, Action::SendOne).await;
    let rolled = run(&mut lab, &db, Action::SendRollback).await;
    assert_eq!(rolled.msg.key, "pgq.out.rolled_back");
    run(&mut lab, &db, Action::SendOne).await;
    run(&mut lab, &db, Action::Tick).await;
    run(&mut lab, &db, Action::Tick).await;
    for c in [BILLING, EMAIL] {
        let got = payloads(&drain(&mut lab, &db, c, 100).await);
        assert_eq!(
            got,
            vec![r#"{"order":1}"#.to_string(), r#"{"order":2}"#.to_string()],
            "{c}"
        );
    }
    db.close().await;
}

#[wasm_bindgen_test]
async fn an_in_flight_prepared_transactions_event_arrives_once_in_a_later_batch_after_commit() {
    let (db, mut lab) = lab().await;
    run(&mut lab, &db, Action::SendOne).await;
    let prepared = run(&mut lab, &db, Action::Prepare).await;
    assert_eq!(prepared.msg.key, "pgq.out.prepared");
    assert!(
        model::snapshot(&db).await.expect("snapshot").inflight_open,
        "the transaction is prepared, not committed"
    );
    run(&mut lab, &db, Action::SendOne).await;
    run(&mut lab, &db, Action::Tick).await;
    run(&mut lab, &db, receive(BILLING, 100)).await;
    let first = lab.batch(BILLING).to_vec();
    assert_eq!(
        payloads(
            &first
                .iter()
                .map(|e| (e.msg_id, e.payload.clone(), 0))
                .collect::<Vec<_>>()
        ),
        [r#"{"order":1}"#, r#"{"order":2}"#]
    );
    run(
        &mut lab,
        &db,
        Action::Ack {
            consumer: BILLING.into(),
            batch: first[0].batch_id,
        },
    )
    .await;
    run(&mut lab, &db, Action::Tick).await;
    run(&mut lab, &db, receive(BILLING, 100)).await;
    assert!(
        lab.batch(BILLING).is_empty(),
        "still open at this tick: not delivered"
    );
    let committed = run(&mut lab, &db, Action::CommitPrepared).await;
    assert_eq!(committed.msg.key, "pgq.out.committed_prepared");
    run(&mut lab, &db, receive(BILLING, 100)).await;
    assert!(
        lab.batch(BILLING).is_empty(),
        "committed after the newest tick: waits for the next"
    );
    run(&mut lab, &db, Action::Tick).await;
    let later = drain(&mut lab, &db, BILLING, 100).await;
    assert_eq!(payloads(&later), [r#"{"order":"in flight"}"#]);
    run(&mut lab, &db, Action::Tick).await;
    assert!(
        drain(&mut lab, &db, BILLING, 100).await.is_empty(),
        "not delivered twice"
    );
    let mut all = payloads(&drain(&mut lab, &db, EMAIL, 100).await);
    all.sort();
    assert_eq!(
        all,
        [
            r#"{"order":"in flight"}"#,
            r#"{"order":1}"#,
            r#"{"order":2}"#
        ],
        "email: each once"
    );
    db.close().await;
}

#[derive(Deserialize)]
struct Scratch {
    n: i64,
}

async fn scratch_rows(db: &Db) -> Vec<i64> {
    db.query::<Scratch>("select n from scratch order by n", &[])
        .await
        .expect("scratch reads")
        .rows
        .iter()
        .map(|r| r.n)
        .collect()
}

/// Set when Prepare's first statement (is one in flight already?) has answered.
fn watch_prepare_start(db: &Db) -> Rc<Cell<bool>> {
    let started = Rc::new(Cell::new(false));
    let flag = started.clone();
    db.log().subscribe(move |e| {
        if e.sql == model::INFLIGHT_FIND_SQL {
            flag.set(true);
        }
    });
    started
}

/// Runs Prepare while another task inserts `rows` into `scratch` one statement at a time,
/// each sent as soon as the one before it answered. Returns the outcome and how many of the
/// inserts were sent after Prepare's first statement answered and before Prepare ended.
async fn prepare_beside_inserts(
    lab: &mut Lab,
    db: &Db,
    started: &Cell<bool>,
    rows: [i64; 4],
) -> (Outcome, usize) {
    started.set(false);
    let done = Cell::new(false);
    let prepare = async {
        let out = run(lab, db, Action::Prepare).await;
        done.set(true);
        out
    };
    let others = async {
        let mut during = 0;
        for n in rows {
            if started.get() && !done.get() {
                during += 1;
            }
            db.query::<serde_json::Value>("insert into scratch (n) values ($1)", &[n.into()])
                .await
                .expect("scratch insert");
        }
        during
    };
    // Both at once on this one thread: each resumes as its own replies come in.
    queue_lab::db::pipelined(prepare, others).await
}

fn text(v: &serde_json::Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

#[wasm_bindgen_test]
async fn a_statement_sent_while_the_producer_prepares_is_not_part_of_the_prepared_transaction() {
    let (db, mut lab) = lab().await;
    db.exec("create table scratch (n int)")
        .await
        .expect("scratch table");
    let started = watch_prepare_start(&db);

    let (prepared, during) = prepare_beside_inserts(&mut lab, &db, &started, [1, 2, 3, 4]).await;
    assert_eq!(prepared.msg.key, "pgq.out.prepared");
    assert!(
        during > 0,
        "no insert was sent while Prepare was under way: the test proves nothing"
    );
    assert!(model::snapshot(&db).await.expect("snapshot").inflight_open);
    assert_eq!(
        scratch_rows(&db).await,
        [1, 2, 3, 4],
        "every insert committed on its own, none is held in the prepared transaction"
    );
    let rolled = run(&mut lab, &db, Action::RollbackPrepared).await;
    assert_eq!(rolled.msg.key, "pgq.out.rolled_back_prepared");
    assert_eq!(
        scratch_rows(&db).await,
        [1, 2, 3, 4],
        "ROLLBACK PREPARED took no insert with it"
    );

    // Again, committed this time: the prepared transaction holds the send, and only it.
    let (prepared, during) = prepare_beside_inserts(&mut lab, &db, &started, [5, 6, 7, 8]).await;
    assert_eq!(prepared.msg.key, "pgq.out.prepared");
    assert!(during > 0, "no insert was sent while Prepare was under way");
    run(&mut lab, &db, Action::Tick).await;
    run(&mut lab, &db, receive(BILLING, 100)).await;
    assert!(
        lab.batch(BILLING).is_empty(),
        "the send is not visible before COMMIT PREPARED"
    );
    let committed = run(&mut lab, &db, Action::CommitPrepared).await;
    assert_eq!(committed.msg.key, "pgq.out.committed_prepared");
    assert_eq!(arg(&committed, "id"), arg(&prepared, "id"));
    run(&mut lab, &db, Action::Tick).await;
    run(&mut lab, &db, receive(BILLING, 100)).await;
    let got: Vec<(String, String, String)> = lab
        .batch(BILLING)
        .iter()
        .map(|e| (e.msg_id.to_string(), text(&e.txid), e.payload.clone()))
        .collect();
    assert_eq!(
        got,
        [(
            arg(&prepared, "id"),
            arg(&prepared, "txid"),
            r#"{"order":"in flight"}"#.to_string()
        )],
        "the committed event is the one Prepare reported, sent by the transaction it reported; \
         the rolled-back one never arrives"
    );
    assert_eq!(scratch_rows(&db).await, [1, 2, 3, 4, 5, 6, 7, 8]);
    db.close().await;
}

#[wasm_bindgen_test]
async fn an_unacked_batch_is_redelivered_with_the_same_events() {
    let (db, mut lab) = lab().await;
    for _ in 0..3 {
        run(&mut lab, &db, Action::SendOne).await;
    }
    run(&mut lab, &db, Action::Tick).await;
    run(&mut lab, &db, receive(BILLING, 100)).await;
    let first = lab.batch(BILLING).to_vec();
    assert_eq!(first.len(), 3);
    let again = run(&mut lab, &db, receive(BILLING, 100)).await;
    assert_eq!(again.msg.key, "pgq.result.received_again");
    assert_eq!(
        lab.batch(BILLING),
        first.as_slice(),
        "same batch, same events"
    );
    let acked = run(
        &mut lab,
        &db,
        Action::Ack {
            consumer: BILLING.into(),
            batch: first[0].batch_id,
        },
    )
    .await;
    assert_eq!(acked.msg.key, "pgq.result.acked");
    run(&mut lab, &db, receive(BILLING, 100)).await;
    assert!(lab.batch(BILLING).is_empty(), "acked: not delivered again");
    db.close().await;
}

/// Nacks billing's event `order 1` until it dies; returns its dead letter id.
async fn nack_until_dead(lab: &mut Lab, db: &Db) -> i64 {
    run(lab, db, Action::SendOne).await;
    run(lab, db, Action::SendOne).await;
    run(lab, db, Action::Tick).await;
    run(lab, db, receive(BILLING, 100)).await;
    let batch = lab.batch(BILLING).to_vec();
    let out = run(
        lab,
        db,
        Action::Nack {
            consumer: BILLING.into(),
            batch: batch[0].batch_id,
            msg: batch[0].msg_id,
            delay: 30,
        },
    )
    .await;
    assert_eq!(out.msg.key, "pgq.result.nack_retry");
    run(
        lab,
        db,
        Action::Ack {
            consumer: BILLING.into(),
            batch: batch[0].batch_id,
        },
    )
    .await;
    run(lab, db, Action::Advance(29)).await;
    let early = run(lab, db, Action::RetryEvents).await;
    assert_eq!(arg(&early, "count"), "0", "not due before its delay");
    run(lab, db, Action::Tick).await;
    run(lab, db, receive(BILLING, 100)).await;
    assert!(lab.batch(BILLING).is_empty(), "no retry at +29 s of 30 s");
    run(lab, db, Action::Advance(1)).await;
    let due = run(lab, db, Action::RetryEvents).await;
    assert_eq!(arg(&due, "count"), "1", "due at +30 s");
    let mut retries = 1;
    loop {
        run(lab, db, Action::Tick).await;
        run(lab, db, receive(BILLING, 100)).await;
        let page = lab.batch(BILLING).to_vec();
        assert_eq!(page.len(), 1, "the retry comes back alone: {page:?}");
        assert_eq!(
            (page[0].payload.as_str(), page[0].retry_count),
            (r#"{"order":1}"#, retries)
        );
        let out = run(
            lab,
            db,
            Action::Nack {
                consumer: BILLING.into(),
                batch: page[0].batch_id,
                msg: page[0].msg_id,
                delay: 0,
            },
        )
        .await;
        run(
            lab,
            db,
            Action::Ack {
                consumer: BILLING.into(),
                batch: page[0].batch_id,
            },
        )
        .await;
        if retries == model::MAX_RETRIES {
            assert_eq!(
                out.msg.key, "pgq.result.nack_dead",
                "past max retries: dead letter"
            );
            break;
        }
        assert_eq!(out.msg.key, "pgq.result.nack_retry");
        run(lab, db, Action::RetryEvents).await;
        retries += 1;
    }
    run(lab, db, Action::RetryEvents).await;
    run(lab, db, Action::Tick).await;
    assert!(
        drain(lab, db, BILLING, 100).await.is_empty(),
        "a dead event is not retried"
    );
    let snap = model::snapshot(db).await.expect("snapshot");
    assert!(snap.retries.is_empty());
    assert_eq!(snap.dead.len(), 1);
    assert_eq!(
        (snap.dead[0].consumer.as_str(), snap.dead[0].retry_count),
        (BILLING, model::MAX_RETRIES)
    );
    snap.dead[0].dl_id
}

#[wasm_bindgen_test]
async fn a_nacked_event_returns_after_its_delay_to_that_consumer_only_and_dies_after_max_retries() {
    let (db, mut lab) = lab().await;
    nack_until_dead(&mut lab, &db).await;
    let email = payloads(&drain(&mut lab, &db, EMAIL, 100).await);
    assert_eq!(
        email,
        [r#"{"order":1}"#, r#"{"order":2}"#],
        "email got each event once, no retries"
    );
    db.close().await;
}

#[wasm_bindgen_test]
async fn dlq_replay_delivers_the_dead_letter_again_to_its_consumer() {
    let (db, mut lab) = lab().await;
    let dl = nack_until_dead(&mut lab, &db).await;
    drain(&mut lab, &db, EMAIL, 100).await;
    let out = run(&mut lab, &db, Action::Replay(dl)).await;
    assert_eq!(out.msg.key, "pgq.result.replayed");
    assert!(model::snapshot(&db)
        .await
        .expect("snapshot")
        .dead
        .is_empty());
    run(&mut lab, &db, Action::Tick).await;
    let again = drain(&mut lab, &db, BILLING, 100).await;
    assert_eq!(
        again
            .iter()
            .map(|(_, p, r)| (p.as_str(), *r))
            .collect::<Vec<_>>(),
        [(r#"{"order":1}"#, 0)]
    );
    assert_eq!(again[0].0.to_string(), arg(&out, "event"));
    assert!(
        drain(&mut lab, &db, EMAIL, 100).await.is_empty(),
        "only the consumer that gave up gets it"
    );
    db.close().await;
}

async fn round(lab: &mut Lab, db: &Db) {
    for _ in 0..4 {
        run(lab, db, Action::SendOne).await;
    }
    run(lab, db, Action::Tick).await;
    run(lab, db, Action::Tick).await;
}

async fn events_per_table(db: &Db) -> Vec<i64> {
    model::snapshot(db)
        .await
        .expect("snapshot")
        .tables
        .iter()
        .map(|t| t.events)
        .collect()
}

async fn cur_table(db: &Db) -> i32 {
    model::snapshot(db)
        .await
        .expect("snapshot")
        .queue
        .expect("queue")
        .cur_table
}

fn maint_did(lab: &Lab, action: &str) -> bool {
    lab.last_maint.iter().any(|r| r.action == action)
}

#[wasm_bindgen_test]
async fn maint_truncates_only_a_table_every_consumer_passed_and_a_lagging_consumer_holds_rotation()
{
    let (db, mut lab) = lab().await;
    round(&mut lab, &db).await; // events 1-4 into table 0
    drain(&mut lab, &db, BILLING, 100).await;
    run(&mut lab, &db, Action::Advance(model::ROTATION_SECONDS + 1)).await;
    run(&mut lab, &db, Action::Maint).await;
    assert!(
        maint_did(&lab, "wait") && !maint_did(&lab, "rotate"),
        "email has not acked: {:?}",
        lab.last_maint
    );
    assert_eq!(cur_table(&db).await, 0);
    let snap = model::snapshot(&db).await.expect("snapshot");
    let holds: Vec<(String, bool)> = snap
        .consumers
        .iter()
        .map(|c| (c.consumer_name.clone(), c.holds_rotation))
        .collect();
    assert_eq!(
        holds,
        [(BILLING.to_string(), false), (EMAIL.to_string(), true)]
    );
    // The reason comes as a code and values, so the page can say it in Korean too.
    let wait = lab
        .last_maint
        .iter()
        .find(|r| r.action == "wait")
        .expect("a wait row");
    assert_eq!(wait.reason.as_deref(), Some("consumer"), "{wait:?}");
    assert_eq!(
        wait.args
            .as_ref()
            .and_then(|a| a.first())
            .map(String::as_str),
        Some(EMAIL)
    );
    let msg = wait.msg();
    assert_eq!(
        msg.nested.first().map(|(_, m)| m.key),
        Some("pgq.reason.consumer")
    );
    let queue = snap.queue.as_ref().expect("queue info");
    assert_eq!(queue.rotation_reason.as_deref(), Some("consumer"));
    assert_eq!(queue.rotation_msg().key, "pgq.reason.consumer");

    drain(&mut lab, &db, EMAIL, 100).await;
    run(&mut lab, &db, Action::Maint).await;
    assert!(maint_did(&lab, "rotate"), "{:?}", lab.last_maint);
    assert_eq!(cur_table(&db).await, 1);

    round(&mut lab, &db).await; // 5-8 into table 1
    drain(&mut lab, &db, BILLING, 100).await;
    drain(&mut lab, &db, EMAIL, 100).await;
    run(&mut lab, &db, Action::Advance(model::ROTATION_SECONDS + 1)).await;
    run(&mut lab, &db, Action::Maint).await;
    assert!(maint_did(&lab, "rotate"), "{:?}", lab.last_maint);
    assert_eq!(events_per_table(&db).await, [4, 4, 0]);

    round(&mut lab, &db).await; // 9-12 into table 2; email stops reading
    drain(&mut lab, &db, BILLING, 100).await;
    run(&mut lab, &db, Action::Advance(model::ROTATION_SECONDS + 1)).await;
    for _ in 0..3 {
        run(&mut lab, &db, Action::Maint).await;
        assert!(
            !maint_did(&lab, "rotate"),
            "email lags: table 0 must not be truncated"
        );
        run(&mut lab, &db, Action::Tick).await;
    }
    assert_eq!(
        events_per_table(&db).await,
        [4, 4, 4],
        "nothing truncated while email lags"
    );

    drain(&mut lab, &db, EMAIL, 100).await;
    run(&mut lab, &db, Action::Maint).await;
    assert!(maint_did(&lab, "rotate"), "{:?}", lab.last_maint);
    assert_eq!(
        events_per_table(&db).await,
        [0, 4, 4],
        "only the table both had passed was truncated"
    );
    db.close().await;
}

#[wasm_bindgen_test]
async fn event_tables_hold_zero_dead_tuples_after_sends_receives_nacks_acks_and_rotations() {
    let (db, mut lab) = lab().await;
    for _ in 0..5 {
        run(&mut lab, &db, Action::Burst(50)).await;
        run(&mut lab, &db, Action::Tick).await;
        run(&mut lab, &db, Action::Tick).await;
        for c in [BILLING, EMAIL] {
            run(&mut lab, &db, receive(c, 1000)).await;
            let page = lab.batch(c).to_vec();
            assert!(page.len() >= 50, "{c} got {} events", page.len());
            run(
                &mut lab,
                &db,
                Action::Nack {
                    consumer: c.into(),
                    batch: page[0].batch_id,
                    msg: page[0].msg_id,
                    delay: 0,
                },
            )
            .await;
            run(
                &mut lab,
                &db,
                Action::Ack {
                    consumer: c.into(),
                    batch: page[0].batch_id,
                },
            )
            .await;
        }
        run(&mut lab, &db, Action::Advance(model::ROTATION_SECONDS + 1)).await;
        run(&mut lab, &db, Action::RetryEvents).await;
        run(&mut lab, &db, Action::Maint).await;
    }
    let tables = model::snapshot(&db).await.expect("snapshot").tables; // flushes statistics first
    assert_eq!(tables.len(), 3);
    for t in &tables {
        assert_eq!(
            (t.dead_tuples, t.tup_upd, t.tup_del),
            (0, 0, 0),
            "{} has dead tuples, updates or deletes",
            t.table_name
        );
    }
    db.close().await;
}

#[wasm_bindgen_test]
async fn bad_calls_raise_pq_errors_with_translations_and_change_nothing() {
    let (db, mut lab) = lab().await;
    run(&mut lab, &db, Action::SendOne).await;
    run(&mut lab, &db, Action::SendOne).await;
    run(&mut lab, &db, Action::Tick).await;
    run(&mut lab, &db, receive(BILLING, 1)).await;
    let first = lab.batch(BILLING)[0].clone();
    let before = engine_state(&db).await;
    let lab_before = lab.clone();

    let unknown_queue = db
        .query::<serde_json::Value>(model::TICK_SQL, &["nope".into()])
        .await
        .expect_err("unknown queue");
    assert_eq!(code(&unknown_queue), "PQ001");
    let unknown_queue = db
        .query::<serde_json::Value>(
            model::RECEIVE_SQL,
            &["nope".into(), BILLING.into(), 10.into()],
        )
        .await
        .expect_err("unknown queue");
    assert_eq!(code(&unknown_queue), "PQ001");
    let bad: Vec<(Action, &str)> = vec![
        (receive("ghost", 10), "PQ002"),
        (
            Action::Ack {
                consumer: BILLING.into(),
                batch: 999,
            },
            "PQ003",
        ),
        (
            Action::Ack {
                consumer: EMAIL.into(),
                batch: first.batch_id,
            },
            "PQ005",
        ),
        (
            Action::Nack {
                consumer: EMAIL.into(),
                batch: first.batch_id,
                msg: first.msg_id,
                delay: 5,
            },
            "PQ005",
        ),
        (
            Action::Nack {
                consumer: BILLING.into(),
                batch: first.batch_id,
                msg: first.msg_id + 1,
                delay: 5,
            },
            "PQ007",
        ),
        (Action::Replay(12345), "PQ008"),
    ];
    for (a, want) in bad {
        let e = lab
            .run(&db, a.clone())
            .await
            .expect_err(&format!("{a:?} must fail"));
        assert_eq!(code(&e), want, "{a:?}: {e}");
        let key = model::error_key(&e).expect("a translated explanation");
        assert_eq!(key, format!("pgq.error.{want}"));
        assert_eq!(
            engine_state(&db).await,
            before,
            "{a:?} changed the engine's state"
        );
        assert_eq!(lab, lab_before, "{a:?} changed the lab's state");
    }

    // finish the batch, then ack it again
    run(
        &mut lab,
        &db,
        Action::Ack {
            consumer: BILLING.into(),
            batch: first.batch_id,
        },
    )
    .await;
    run(&mut lab, &db, receive(BILLING, 1)).await;
    let done = run(
        &mut lab,
        &db,
        Action::Ack {
            consumer: BILLING.into(),
            batch: first.batch_id,
        },
    )
    .await;
    assert_eq!(done.msg.key, "pgq.result.acked");
    let finished = engine_state(&db).await;
    let e = lab
        .run(
            &db,
            Action::Ack {
                consumer: BILLING.into(),
                batch: first.batch_id,
            },
        )
        .await
        .expect_err("second ack");
    assert_eq!(code(&e), "PQ004");
    assert_eq!(
        engine_state(&db).await,
        finished,
        "a second ack changed the engine's state"
    );
    db.close().await;
}

/// Each step of L4's tour runs from a fresh queue and shows what its text says.
#[wasm_bindgen_test]
async fn each_tour_step_runs_and_shows_what_it_says() {
    use queue_lab::labs::pgq::view::TOUR;
    let outcomes = |lab: &Lab| lab.history.len();
    for (i, step) in TOUR.iter().enumerate() {
        let (db, mut lab) = lab().await;
        let mut last = None;
        for a in (step.actions)() {
            last = Some(run(&mut lab, &db, a).await);
        }
        assert_eq!(outcomes(&lab), (step.actions)().len(), "step {}", i + 1);
        let last = last.expect("a step runs actions");
        let snap = model::snapshot(&db).await.expect("snapshot");
        match i {
            // The second receive, after the tick, gets both events in one batch.
            0 => assert_eq!(lab.batch(BILLING).len(), 2, "{:?}", last.msg),
            // email still gets all five after billing acked them.
            1 => assert_eq!(lab.batch(EMAIL).len(), 5, "{:?}", last.msg),
            // maint waits, and names email as the consumer holding rotation.
            2 => {
                let wait = lab.last_maint.iter().find(|r| r.action == "wait");
                let wait = wait.unwrap_or_else(|| panic!("maint waited: {:?}", lab.last_maint));
                assert_eq!(wait.reason.as_deref(), Some("consumer"));
                assert_eq!(
                    wait.args
                        .as_ref()
                        .and_then(|a| a.first())
                        .map(String::as_str),
                    Some(EMAIL)
                );
            }
            // maint rotates, and no event table has a dead tuple.
            3 => {
                assert!(maint_did(&lab, "rotate"), "{:?}", lab.last_maint);
                assert!(
                    snap.tables.iter().all(|t| t.dead_tuples == 0),
                    "{:?}",
                    snap.tables
                );
            }
            // The prepared transaction's event arrives after its commit, in a later batch.
            4 => {
                let got: Vec<String> = lab
                    .batch(BILLING)
                    .iter()
                    .map(|e| e.payload.clone())
                    .collect();
                assert_eq!(got.len(), 1, "{got:?}");
            }
            // w2 takes over the part w1 was killed holding; the group's cursor waited.
            5 => {
                assert_eq!(last.msg.key, "pgq.out.part_taken_over", "{:?}", last.msg);
                assert_eq!(lab.part(GROUP, "w2").len(), 3);
                let audit = snap.consumers.iter().find(|c| c.consumer_name == GROUP);
                assert_eq!(audit.map(|c| c.lag_events), Some(6), "{audit:?}");
            }
            _ => unreachable!("the tour has six steps"),
        }
        db.close().await;
    }
}

// Cooperative consumers and subscribe / unsubscribe (src/sql/pgque/45_coop.sql).

const GROUP: &str = "audit";

fn sub(a: fn(String, String) -> Action, s: &str) -> Action {
    a(GROUP.into(), s.into())
}
fn add(s: &str) -> Action {
    sub(|consumer, sub| Action::AddSub { consumer, sub }, s)
}
fn take(s: &str) -> Action {
    sub(
        |consumer, sub| Action::ReceiveCoop {
            consumer,
            sub,
            max: 100,
        },
        s,
    )
}
fn ack_part(s: &str) -> Action {
    sub(|consumer, sub| Action::AckCoop { consumer, sub }, s)
}
fn ids_of(lab: &Lab, s: &str) -> Vec<i64> {
    lab.part(GROUP, s).iter().map(|e| e.msg_id).collect()
}
async fn group_cursor(db: &Db) -> i64 {
    model::snapshot(db)
        .await
        .expect("snapshot")
        .consumers
        .iter()
        .find(|c| c.consumer_name == GROUP)
        .expect("the group is subscribed")
        .last_tick
}

/// A group `audit` with subconsumers w1 and w2, and one ticked batch of six events; returns
/// the batch's events as billing (a plain consumer over the same ticks) received them.
async fn group_with_a_batch(lab: &mut Lab, db: &Db) -> Vec<i64> {
    run(lab, db, Action::Subscribe(GROUP.into())).await;
    run(lab, db, add("w1")).await;
    run(lab, db, add("w2")).await;
    run(lab, db, Action::Burst(6)).await;
    run(lab, db, Action::Tick).await;
    run(lab, db, receive(BILLING, 100)).await;
    let batch: Vec<i64> = lab.batch(BILLING).iter().map(|e| e.msg_id).collect();
    assert_eq!(batch.len(), 6, "{batch:?}");
    batch
}

#[wasm_bindgen_test]
async fn a_group_of_two_subconsumers_receives_one_batch_as_two_disjoint_parts_whose_union_is_the_batch(
) {
    let (db, mut lab) = lab().await;
    let batch = group_with_a_batch(&mut lab, &db).await;
    let start = group_cursor(&db).await;
    run(&mut lab, &db, take("w1")).await;
    run(&mut lab, &db, take("w2")).await;
    let (a, b) = (ids_of(&lab, "w1"), ids_of(&lab, "w2"));
    assert!(!a.is_empty() && !b.is_empty(), "w1 {a:?}, w2 {b:?}");
    assert!(a.iter().all(|id| !b.contains(id)), "overlap: {a:?} {b:?}");
    let mut union = [a.clone(), b.clone()].concat();
    union.sort_unstable();
    assert_eq!(union, batch, "the parts together are the batch");
    let batch_ids: Vec<i64> = ["w1", "w2"]
        .iter()
        .map(|s| lab.part(GROUP, s)[0].batch_id)
        .collect();
    assert_eq!(batch_ids[0], batch_ids[1], "one batch, two parts");
    // Receiving again hands each the same part, nothing new.
    run(&mut lab, &db, take("w1")).await;
    assert_eq!(ids_of(&lab, "w1"), a);
    // Per-subconsumer info: each one's part, and the group's shared lag.
    let subs = model::snapshot(&db).await.expect("snapshot").subs;
    let held: Vec<(String, Option<i32>, i64)> = subs
        .iter()
        .map(|s| (s.subconsumer_name.clone(), s.part_events, s.lag_events))
        .collect();
    assert_eq!(
        held,
        [
            ("w1".to_string(), Some(a.len() as i32), 6),
            ("w2".to_string(), Some(b.len() as i32), 6)
        ]
    );
    // The shared cursor moves only when both parts are acked.
    let first = run(&mut lab, &db, ack_part("w1")).await;
    assert_eq!(first.msg.key, "pgq.out.part_acked");
    assert_eq!(group_cursor(&db).await, start, "w2's part is not acked yet");
    let last = run(&mut lab, &db, ack_part("w2")).await;
    assert_eq!(last.msg.key, "pgq.out.part_acked_batch_done");
    assert!(group_cursor(&db).await > start);
    // A plain receive on the group is refused: its subconsumers consume for it.
    let e = lab
        .run(&db, receive(GROUP, 100))
        .await
        .expect_err("a group refuses plain receive");
    assert_eq!(code(&e), "PQ009");
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_dead_subconsumers_part_holds_the_cursor_until_another_takes_it_over_after_the_dead_interval(
) {
    let (db, mut lab) = lab().await;
    group_with_a_batch(&mut lab, &db).await;
    let start = group_cursor(&db).await;
    run(&mut lab, &db, take("w1")).await;
    run(&mut lab, &db, take("w2")).await;
    let dead_part = ids_of(&lab, "w1");
    run(
        &mut lab,
        &db,
        sub(|consumer, sub| Action::Kill { consumer, sub }, "w1"),
    )
    .await;
    run(&mut lab, &db, ack_part("w2")).await;
    assert_eq!(group_cursor(&db).await, start, "w1's part is not acked");
    // Not dead yet: w2 gets nothing; the cursor still waits.
    let o = run(&mut lab, &db, take("w2")).await;
    assert_eq!(o.msg.key, "pgq.out.part_nothing", "{o:?}");
    run(&mut lab, &db, Action::Advance(model::DEAD_SECONDS + 1)).await;
    let o = run(&mut lab, &db, take("w2")).await;
    assert_eq!(o.msg.key, "pgq.out.part_taken_over", "{o:?}");
    assert_eq!(ids_of(&lab, "w2"), dead_part, "the same events again");
    assert_eq!(group_cursor(&db).await, start);
    let o = run(&mut lab, &db, ack_part("w2")).await;
    assert_eq!(o.msg.key, "pgq.out.part_acked_batch_done");
    assert!(group_cursor(&db).await > start);
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_removed_subconsumers_part_goes_to_the_next_receive_at_once() {
    let (db, mut lab) = lab().await;
    group_with_a_batch(&mut lab, &db).await;
    run(&mut lab, &db, take("w1")).await;
    run(&mut lab, &db, take("w2")).await;
    let orphan = ids_of(&lab, "w1");
    run(
        &mut lab,
        &db,
        sub(|consumer, sub| Action::RemoveSub { consumer, sub }, "w1"),
    )
    .await;
    run(&mut lab, &db, ack_part("w2")).await;
    let o = run(&mut lab, &db, take("w2")).await;
    assert_eq!(o.msg.key, "pgq.out.part_taken_over", "{o:?}");
    assert_eq!(ids_of(&lab, "w2"), orphan);
    db.close().await;
}

#[wasm_bindgen_test]
async fn an_unsubscribed_consumer_stops_lagging_the_queue_and_maint_rotates_past_it() {
    let (db, mut lab) = lab().await;
    round(&mut lab, &db).await; // events 1-4 into table 0
    drain(&mut lab, &db, BILLING, 100).await;
    run(&mut lab, &db, Action::Advance(model::ROTATION_SECONDS + 1)).await;
    run(&mut lab, &db, Action::Maint).await;
    assert!(
        !maint_did(&lab, "rotate"),
        "email lags and holds rotation back: {:?}",
        lab.last_maint
    );
    let snap = model::snapshot(&db).await.expect("snapshot");
    let queue = snap.queue.expect("queue");
    assert_eq!(queue.rotation_reason.as_deref(), Some("consumer"));
    assert_eq!(
        queue
            .rotation_args
            .unwrap_or_default()
            .first()
            .map(String::as_str),
        Some(EMAIL)
    );
    run(&mut lab, &db, Action::Unsubscribe(EMAIL.into())).await;
    let names: Vec<String> = model::snapshot(&db)
        .await
        .expect("snapshot")
        .consumers
        .into_iter()
        .map(|c| c.consumer_name)
        .collect();
    assert_eq!(names, [BILLING]);
    run(&mut lab, &db, Action::Maint).await;
    assert!(maint_did(&lab, "rotate"), "{:?}", lab.last_maint);
    assert_eq!(cur_table(&db).await, 1);
    // Subscribing again starts from the newest tick: nothing old is delivered.
    run(&mut lab, &db, Action::Subscribe(EMAIL.into())).await;
    assert!(drain(&mut lab, &db, EMAIL, 100).await.is_empty());
    db.close().await;
}
