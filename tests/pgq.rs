//! L4's must-show behaviours, against real PGlite in headless Chromium, through the lab's
//! own model (the same code the buttons run) and the PL/pgSQL engine in src/sql/pgque
//! (PgQue's API: a batch is one tick interval, `ack(batch_id)` finishes the whole batch).

use queue_lab::db::{Db, DbError};
use queue_lab::labs::pgq::model::{self, Action, Event, Lab, Outcome};
use queue_lab::labs::pgq::rows::MaintRow;
use queue_lab::testing::{run, run_all, run_says};
use serde::Deserialize;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use Action::*;

const BILLING: &str = "billing";
const EMAIL: &str = "email";

async fn lab() -> (Db, Lab) {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    let lab = Lab::setup(&db).await.expect("pgq lab sets up");
    (db, lab)
}

fn receive(c: &str, max: i64) -> Action {
    Receive {
        consumer: c.into(),
        max,
    }
}

fn ack(c: &str, batch: i64) -> Action {
    Ack {
        consumer: c.into(),
        batch,
    }
}

fn nack(c: &str, e: &Event, delay: i64) -> Action {
    Nack {
        consumer: c.into(),
        batch: e.batch_id,
        msg: e.msg_id,
        delay,
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

/// Receives `c`'s next batch that holds events for it. A batch with nothing for `c` is
/// finished by receive at once, which then says more ticks wait: receive again then.
/// Returns the last receive's outcome and the events `c` holds (none: no batch left).
async fn next_batch(lab: &mut Lab, db: &Db, c: &str, max: i64) -> (Outcome, Vec<Event>) {
    for _ in 0..1000 {
        let o = run(lab, db, receive(c, max)).await;
        if o.msg.key != "pgq.out.empty_batch" {
            return (o, lab.batch(c).to_vec());
        }
    }
    panic!("{c}: empty batches without end");
}

/// Receives whole batches and acks each until no tick is left; returns the events in order.
async fn drain(lab: &mut Lab, db: &Db, c: &str) -> Vec<Event> {
    let mut got = Vec::new();
    for _ in 0..1000 {
        let (o, batch) = next_batch(lab, db, c, model::MAX_RECEIVE).await;
        let Some(first) = batch.first() else {
            return got;
        };
        assert_eq!(o.msg.key, "pgq.out.received", "{c} receives whole batches");
        let acked = run(lab, db, ack(c, first.batch_id)).await;
        assert_eq!(acked.msg.key, "pgq.result.acked", "{acked:?}");
        got.extend(batch);
    }
    panic!("{c} never ran dry");
}

fn payloads(got: &[Event]) -> Vec<String> {
    got.iter()
        .map(|e| e.payload.clone().unwrap_or_default())
        .collect()
}

fn ids(got: &[Event]) -> Vec<i64> {
    got.iter().map(|e| e.msg_id).collect()
}

fn joined(ids: &[i64]) -> String {
    ids.iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Deserialize)]
struct Text {
    t: Option<String>,
}

/// Everything the engine keeps, as one comparable text.
async fn engine_state(db: &Db) -> String {
    let mut out = String::new();
    for sql in [
        "select json_agg(x order by x.queue_id)::text as t from pgque.queue x",
        "select json_agg(x order by x.tick_queue, x.tick_id)::text as t from pgque.tick x",
        "select json_agg(x order by x.sub_id)::text as t from pgque.subscription x",
        "select json_agg(x order by x.ev_owner, x.ev_id)::text as t from pgque.retry_queue x",
        "select json_agg(x order by x.dl_id)::text as t from pgque.dead_letter x",
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

async fn queue_info(db: &Db) -> model::QueueInfo {
    model::snapshot(db)
        .await
        .expect("snapshot")
        .queue
        .expect("the queue exists")
}

async fn consumer_info(db: &Db, c: &str) -> model::ConsumerInfo {
    model::snapshot(db)
        .await
        .expect("snapshot")
        .consumers
        .into_iter()
        .find(|x| x.consumer_name == c)
        .unwrap_or_else(|| panic!("{c} is subscribed"))
}

#[wasm_bindgen_test]
async fn fan_out_every_consumer_receives_every_committed_event_exactly_once_one_tick_interval_per_batch(
) {
    let (db, mut lab) = lab().await;
    let mut billing = Vec::new();
    let mut email = Vec::new();
    for round in 0..3 {
        for _ in 0..3 {
            run(&mut lab, &db, SendOne).await;
        }
        run_all(&mut lab, &db, [Burst(4), Tick]).await;
        // billing keeps up; email reads every other round, two ticks behind
        billing.extend(drain(&mut lab, &db, BILLING).await);
        if round % 2 == 1 {
            let got = drain(&mut lab, &db, EMAIL).await;
            let mut batches: Vec<i64> = got.iter().map(|e| e.batch_id).collect();
            batches.dedup();
            assert_eq!(
                (got.len(), batches.len()),
                (14, 2),
                "two ticks behind: two batches of 7, one per tick interval"
            );
            email.extend(got);
        }
    }
    email.extend(drain(&mut lab, &db, EMAIL).await);
    let sorted = |got: &[Event]| {
        let mut v = ids(got);
        v.sort_unstable();
        v
    };
    let (b, e) = (sorted(&billing), sorted(&email));
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
    run(&mut lab, &db, SendOne).await;
    run_says(&mut lab, &db, SendRollback, "pgq.out.rolled_back").await;
    run_all(&mut lab, &db, [SendOne, Tick, Tick]).await;
    for c in [BILLING, EMAIL] {
        let got = payloads(&drain(&mut lab, &db, c).await);
        assert_eq!(got, [r#"{"order":1}"#, r#"{"order":2}"#], "{c}");
    }
    db.close().await;
}

#[wasm_bindgen_test]
async fn an_in_flight_prepared_transactions_event_arrives_once_in_a_later_batch_after_commit() {
    let (db, mut lab) = lab().await;
    run(&mut lab, &db, SendOne).await;
    run_says(&mut lab, &db, Prepare, "pgq.out.prepared").await;
    assert!(
        model::snapshot(&db).await.expect("snapshot").inflight_open,
        "the transaction is prepared, not committed"
    );
    run_all(&mut lab, &db, [SendOne, Tick]).await;
    let (_, first) = next_batch(&mut lab, &db, BILLING, 100).await;
    assert_eq!(payloads(&first), [r#"{"order":1}"#, r#"{"order":2}"#]);
    run_all(
        &mut lab,
        &db,
        [ack(BILLING, first[0].batch_id), Tick, receive(BILLING, 100)],
    )
    .await;
    assert!(
        lab.batch(BILLING).is_empty(),
        "still open at this tick: not delivered"
    );
    run_says(&mut lab, &db, CommitPrepared, "pgq.out.committed_prepared").await;
    run(&mut lab, &db, receive(BILLING, 100)).await;
    assert!(
        lab.batch(BILLING).is_empty(),
        "committed after the newest tick: waits for the next"
    );
    run(&mut lab, &db, Tick).await;
    let later = drain(&mut lab, &db, BILLING).await;
    assert_eq!(payloads(&later), [r#"{"order":"in flight"}"#]);
    run(&mut lab, &db, Tick).await;
    assert!(
        drain(&mut lab, &db, BILLING).await.is_empty(),
        "not delivered twice"
    );
    let mut all = payloads(&drain(&mut lab, &db, EMAIL).await);
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
        let out = run(lab, db, Prepare).await;
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
    run_says(
        &mut lab,
        &db,
        RollbackPrepared,
        "pgq.out.rolled_back_prepared",
    )
    .await;
    assert_eq!(
        scratch_rows(&db).await,
        [1, 2, 3, 4],
        "ROLLBACK PREPARED took no insert with it"
    );

    // Again, committed this time: the prepared transaction holds the send, and only it.
    let (prepared, during) = prepare_beside_inserts(&mut lab, &db, &started, [5, 6, 7, 8]).await;
    assert_eq!(prepared.msg.key, "pgq.out.prepared");
    assert!(during > 0, "no insert was sent while Prepare was under way");
    run_all(&mut lab, &db, [Tick, receive(BILLING, 100)]).await;
    assert!(
        lab.batch(BILLING).is_empty(),
        "the send is not visible before COMMIT PREPARED"
    );
    let committed = run_says(&mut lab, &db, CommitPrepared, "pgq.out.committed_prepared").await;
    assert_eq!(arg(&committed, "id"), arg(&prepared, "id"));
    run(&mut lab, &db, Tick).await;
    let (_, got) = next_batch(&mut lab, &db, BILLING, 100).await;
    // The event's transaction, as the batch has it (PgQ's get_batch_events).
    let mut sent_by = Vec::new();
    for e in &got {
        let row = db
            .query::<Text>(
                "select ev_txid::text as t from pgque.get_batch_events($1) where ev_id = $2",
                &[e.batch_id.into(), e.msg_id.into()],
            )
            .await
            .expect("the batch reads")
            .first();
        sent_by.push(row.and_then(|r| r.t).unwrap_or_default());
    }
    let got: Vec<(String, String, String)> = got
        .iter()
        .zip(sent_by)
        .map(|(e, txid)| {
            (
                e.msg_id.to_string(),
                txid,
                e.payload.clone().unwrap_or_default(),
            )
        })
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
async fn receive_with_a_limit_at_least_the_batch_size_returns_the_whole_batch_and_ack_finishes_it()
{
    let (db, mut lab) = lab().await;
    for _ in 0..3 {
        run(&mut lab, &db, SendOne).await;
    }
    run(&mut lab, &db, Tick).await;
    let got = run_says(&mut lab, &db, receive(BILLING, 3), "pgq.out.received").await;
    assert_eq!(arg(&got, "count"), "3");
    let batch = lab.batch(BILLING).to_vec();
    assert_eq!(
        payloads(&batch),
        [r#"{"order":1}"#, r#"{"order":2}"#, r#"{"order":3}"#]
    );
    assert!(batch.iter().all(|e| e.batch_id == batch[0].batch_id));
    assert!(
        batch.iter().all(|e| e.retry_count.is_none()),
        "a first delivery has no retry count, as in PgQue"
    );
    assert_eq!(
        consumer_info(&db, BILLING).await.batch_id,
        Some(batch[0].batch_id),
        "the batch is open"
    );
    let acked = run_says(
        &mut lab,
        &db,
        ack(BILLING, batch[0].batch_id),
        "pgq.result.acked",
    )
    .await;
    let newest = queue_info(&db).await.last_tick;
    assert_eq!(arg(&acked, "tick"), newest.to_string());
    let info = consumer_info(&db, BILLING).await;
    assert_eq!(
        (info.batch_id, info.last_tick, info.lag_events),
        (None, newest, 0),
        "finished: the cursor is at the batch's end tick"
    );
    run_says(&mut lab, &db, receive(BILLING, 3), "pgq.result.nothing").await;
    assert!(lab.batch(BILLING).is_empty());
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_receive_limit_below_the_batch_size_makes_ack_skip_the_rest_for_that_consumer_for_good() {
    let (db, mut lab) = lab().await;
    run_all(&mut lab, &db, [Burst(5), Tick]).await;
    let part = run_says(&mut lab, &db, receive(BILLING, 2), "pgq.out.received_part").await;
    assert_eq!(
        (
            arg(&part, "count"),
            arg(&part, "size"),
            arg(&part, "skipped")
        ),
        ("2".into(), "5".into(), "3".into())
    );
    let held = ids(lab.batch(BILLING));
    assert_eq!(held.len(), 2);
    let batch = lab.batch(BILLING)[0].batch_id;
    let acked = run_says(
        &mut lab,
        &db,
        ack(BILLING, batch),
        "pgq.result.acked_skipped",
    )
    .await;
    // email reads the same batch whole: the three billing never received.
    let whole = ids(&drain(&mut lab, &db, EMAIL).await);
    assert_eq!(whole.len(), 5);
    let skipped: Vec<i64> = whole
        .iter()
        .copied()
        .filter(|id| !held.contains(id))
        .collect();
    assert_eq!(skipped.len(), 3);
    assert_eq!(arg(&acked, "count"), "3");
    assert_eq!(arg(&acked, "ids"), joined(&skipped), "the ack names them");
    assert_eq!(
        consumer_info(&db, BILLING).await.lag_events,
        0,
        "the whole batch is finished for billing"
    );
    // Later batches never bring them to billing.
    run_all(&mut lab, &db, [SendOne, Tick, Tick]).await;
    let later = drain(&mut lab, &db, BILLING).await;
    assert_eq!(payloads(&later), [r#"{"order":1}"#]);
    assert!(
        later.iter().all(|e| !skipped.contains(&e.msg_id)),
        "{later:?}"
    );
    db.close().await;
}

#[wasm_bindgen_test]
async fn an_unacked_batch_comes_back_after_a_restart_with_the_same_id_and_events() {
    let (db, mut lab) = lab().await;
    for _ in 0..3 {
        run(&mut lab, &db, SendOne).await;
    }
    run_all(&mut lab, &db, [Tick, receive(BILLING, 100)]).await;
    let first = lab.batch(BILLING).to_vec();
    assert_eq!(first.len(), 3);
    // billing crashed before its ack: it starts again and receives.
    let again = run_says(
        &mut lab,
        &db,
        receive(BILLING, 100),
        "pgq.result.received_again",
    )
    .await;
    assert_eq!(arg(&again, "id"), first[0].batch_id.to_string());
    assert_eq!(
        lab.batch(BILLING),
        first.as_slice(),
        "same batch, same events"
    );
    // The database keeps the batch open, not the page: a consumer that forgot what it held
    // is handed the same batch too.
    let mut forgot = Lab::default();
    run(&mut forgot, &db, receive(BILLING, 100)).await;
    assert_eq!(forgot.batch(BILLING), first.as_slice());
    run_says(
        &mut lab,
        &db,
        ack(BILLING, first[0].batch_id),
        "pgq.result.acked",
    )
    .await;
    run_all(&mut lab, &db, [SendOne, Tick]).await;
    let (_, next) = next_batch(&mut lab, &db, BILLING, 100).await;
    assert_eq!(
        payloads(&next),
        [r#"{"order":4}"#],
        "acked: not delivered again"
    );
    assert_ne!(next[0].batch_id, first[0].batch_id);
    db.close().await;
}

#[wasm_bindgen_test]
async fn pgques_schedule_on_the_lab_clock_ticks_a_send_and_brings_a_nack_back_within_the_retry_jobs_30_s_and_a_tick(
) {
    let (db, mut lab) = lab().await;
    run_says(&mut lab, &db, Schedule(true), "pgq.out.schedule_on").await;
    let start = queue_info(&db).await.last_tick;
    run(&mut lab, &db, SendOne).await;
    let moved = run_says(&mut lab, &db, Advance(1), "pgq.out.advanced_jobs").await;
    assert_ne!(arg(&moved, "ticks"), "0", "the ticker job ticked the send");
    assert!(queue_info(&db).await.last_tick > start);
    let (_, batch) = next_batch(&mut lab, &db, BILLING, 100).await;
    assert_eq!(payloads(&batch), [r#"{"order":1}"#]);
    run(&mut lab, &db, nack(BILLING, &batch[0], 0)).await;
    run(&mut lab, &db, ack(BILLING, batch[0].batch_id)).await;
    let early = run_says(&mut lab, &db, Advance(28), "pgq.out.advanced_jobs").await;
    assert_eq!(
        arg(&early, "retries"),
        "0",
        "the retry job first runs 30 s after start()"
    );
    let due = run_says(&mut lab, &db, Advance(2), "pgq.out.advanced_jobs").await;
    assert_eq!(
        arg(&due, "retries"),
        "1",
        "the retry job put the nacked event back at 30 s"
    );
    let back = drain(&mut lab, &db, BILLING).await;
    assert_eq!(
        back.iter().map(|e| e.retry_count).collect::<Vec<_>>(),
        [Some(1)],
        "back in a batch after a tick, its retry count 1"
    );
    let jobs = model::jobs(&db).await.expect("jobs");
    assert_eq!(
        jobs.iter()
            .map(|j| (j.job_name.as_str(), j.every_s))
            .collect::<Vec<_>>(),
        [
            ("pgque_ticker", 1),
            ("pgque_retry_events", 30),
            ("pgque_maint", 30),
            ("pgque_rotate_step2", 10)
        ],
        "PgQue's four jobs and periods"
    );
    run_says(&mut lab, &db, Schedule(false), "pgq.out.schedule_off").await;
    let ticks = queue_info(&db).await.last_tick;
    run(&mut lab, &db, SendOne).await;
    run_says(&mut lab, &db, Advance(60), "pgq.out.advanced").await;
    assert_eq!(
        queue_info(&db).await.last_tick,
        ticks,
        "stopped: nothing ticks"
    );
    db.close().await;
}

/// Nacks billing's event `order 1` until it dies; returns its dead letter id.
async fn nack_until_dead(lab: &mut Lab, db: &Db) -> i64 {
    let max = queue_info(db).await.max_retries;
    assert_eq!(max, 5, "PgQue's default max_retries");
    run(lab, db, SendOne).await;
    run(lab, db, SendOne).await;
    run(lab, db, Tick).await;
    let (_, batch) = next_batch(lab, db, BILLING, 100).await;
    let original = batch[0].clone();
    assert_eq!(original.retry_count, None, "first delivery");
    let out = run(lab, db, nack(BILLING, &original, 30)).await;
    assert_eq!(out.msg.key, "pgq.result.nack_retry");
    run(lab, db, ack(BILLING, original.batch_id)).await;
    run(lab, db, Advance(29)).await;
    let early = run(lab, db, RetryEvents).await;
    assert_eq!(arg(&early, "count"), "0", "not due before its delay");
    run(lab, db, Tick).await;
    let (_, none) = next_batch(lab, db, BILLING, 100).await;
    assert!(none.is_empty(), "no retry at +29 s of 30 s");
    run(lab, db, Advance(1)).await;
    let due = run(lab, db, RetryEvents).await;
    assert_eq!(arg(&due, "count"), "1", "due at +30 s");
    let mut retries = 1;
    loop {
        run(lab, db, Tick).await;
        let (_, page) = next_batch(lab, db, BILLING, 100).await;
        assert_eq!(page.len(), 1, "the retry comes back alone: {page:?}");
        assert_eq!(
            (
                page[0].msg_id,
                page[0].payload.as_deref(),
                page[0].retry_count
            ),
            (original.msg_id, Some(r#"{"order":1}"#), Some(retries)),
            "the same event, its retry count one higher"
        );
        let out = run(lab, db, nack(BILLING, &page[0], 0)).await;
        run(lab, db, ack(BILLING, page[0].batch_id)).await;
        if retries == max {
            assert_eq!(
                out.msg.key, "pgq.result.nack_dead",
                "after max_retries retries: dead letter"
            );
            break;
        }
        assert_eq!(out.msg.key, "pgq.result.nack_retry");
        run(lab, db, RetryEvents).await;
        retries += 1;
    }
    run(lab, db, RetryEvents).await;
    run(lab, db, Tick).await;
    assert!(
        drain(lab, db, BILLING).await.is_empty(),
        "a dead event is not retried"
    );
    let snap = model::snapshot(db).await.expect("snapshot");
    assert!(snap.retries.is_empty());
    assert_eq!(snap.dead.len(), 1);
    let dead = &snap.dead[0];
    assert_eq!(
        (dead.consumer.as_str(), dead.msg_id, dead.retry_count),
        (BILLING, original.msg_id, Some(max))
    );
    dead.dl_id
}

#[wasm_bindgen_test]
async fn a_nacked_event_returns_after_its_delay_to_that_consumer_only_and_dies_after_max_retries() {
    let (db, mut lab) = lab().await;
    nack_until_dead(&mut lab, &db).await;
    let email = drain(&mut lab, &db, EMAIL).await;
    assert_eq!(
        payloads(&email),
        [r#"{"order":1}"#, r#"{"order":2}"#],
        "email got each event once, no retries"
    );
    assert!(email.iter().all(|e| e.retry_count.is_none()));
    db.close().await;
}

/// The page's snapshot is one statement after the statistics flush (snapshot.sql), and it
/// reads exactly what each part's own statement reads: a queue with a dead letter, a retry
/// waiting, a cooperative group whose member holds a batch, a rolled-back send's dead
/// tuple, the in-flight demo prepared and PgQue's jobs scheduled.
#[wasm_bindgen_test]
async fn the_snapshot_is_one_statement_after_the_flush_and_reads_what_each_parts_statement_reads() {
    let (db, mut lab) = lab().await;
    nack_until_dead(&mut lab, &db).await;
    run(&mut lab, &db, Subscribe("audit".into())).await;
    run_all(&mut lab, &db, [SendOne, SendOne, Tick]).await;
    let (_, held) = next_batch(&mut lab, &db, BILLING, 100).await;
    run(&mut lab, &db, nack(BILLING, &held[0], 60)).await;
    run(&mut lab, &db, ack(BILLING, held[0].batch_id)).await;
    run_all(
        &mut lab,
        &db,
        [
            AddSub {
                consumer: "audit".into(),
                sub: "w1".into(),
            },
            Burst(3),
            Tick,
            ReceiveCoop {
                consumer: "audit".into(),
                sub: "w1".into(),
                max: 100,
            },
            SendRollback,
            Prepare,
            Schedule(true),
        ],
    )
    .await;
    let before = db.log().count();
    let snap = model::snapshot(&db).await.expect("snapshot");
    assert_eq!(
        db.log().count() - before,
        2,
        "flush_stats.sql, then snapshot.sql"
    );
    let q = model::QUEUE;
    let parts = model::Snapshot {
        now: queue_lab::clock::now(&db).await.expect("now"),
        queue: model::queue_info(&db, q).await.expect("queue_info"),
        consumers: model::consumer_info(&db, q).await.expect("consumer_info"),
        subs: model::subconsumer_info(&db, q)
            .await
            .expect("subconsumer_info"),
        tables: model::table_info(&db, q).await.expect("table_info"),
        cursors: model::cursor_info(&db, q).await.expect("cursor_info"),
        retries: model::retry_list(&db, q).await.expect("retry_list"),
        dead: model::dlq_inspect(
            &db,
            model::DlqInspect {
                queue: q,
                limit: model::DLQ_LIMIT,
            },
        )
        .await
        .expect("dlq_inspect"),
        inflight_open: model::inflight_open(&db).await.expect("inflight_find"),
        jobs: model::jobs(&db).await.expect("jobs"),
        uninstalled: false,
    };
    assert_eq!(snap, parts);
    // What the comparison covers is there to compare.
    assert!(snap
        .queue
        .as_ref()
        .is_some_and(|i| i.last_tick_time.is_some()));
    assert_eq!(
        (snap.dead.len(), snap.retries.len(), snap.subs.len()),
        (1, 1, 1)
    );
    assert!(snap.subs[0].batch_id.is_some() && snap.inflight_open);
    assert!(
        snap.tables.iter().any(|t| t.dead_tuples > 0),
        "{:?}",
        snap.tables
    );
    assert!(snap
        .jobs
        .iter()
        .all(|j| j.scheduled && j.next_run.is_some()));
    db.close().await;
}

#[wasm_bindgen_test]
async fn dlq_replay_sends_the_dead_letter_again_as_a_new_event_to_every_consumer() {
    let (db, mut lab) = lab().await;
    let dl = nack_until_dead(&mut lab, &db).await;
    drain(&mut lab, &db, EMAIL).await;
    let out = run_says(&mut lab, &db, Replay(dl), "pgq.result.replayed").await;
    assert_eq!(arg(&out, "consumer"), BILLING);
    assert!(model::snapshot(&db)
        .await
        .expect("snapshot")
        .dead
        .is_empty());
    run(&mut lab, &db, Tick).await;
    for c in [BILLING, EMAIL] {
        let again = drain(&mut lab, &db, c).await;
        assert_eq!(
            again
                .iter()
                .map(|e| (e.msg_id.to_string(), e.payload.as_deref(), e.retry_count))
                .collect::<Vec<_>>(),
            [(arg(&out, "event"), Some(r#"{"order":1}"#), None)],
            "{c}: a new event, as PgQue's dlq_replay sends it"
        );
    }
    db.close().await;
}

async fn round(lab: &mut Lab, db: &Db) {
    for _ in 0..4 {
        run(lab, db, SendOne).await;
    }
    run(lab, db, Tick).await;
    run(lab, db, Tick).await;
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
    queue_info(db).await.cur_table
}

fn maint_did(lab: &Lab, action: &str) -> bool {
    lab.last_maint.iter().any(|r| r.action == action)
}

/// A maint row's first value (a wait's: the consumer that holds rotation).
fn first_arg(row: &MaintRow) -> Option<&str> {
    row.args
        .as_ref()
        .and_then(|a| a.first())
        .map(String::as_str)
}

/// Events 1-4 into table 0, billing drains them, the rotation period passes, maint runs:
/// email has acked nothing.
async fn maint_with_email_lagging(lab: &mut Lab, db: &Db) {
    round(lab, db).await;
    drain(lab, db, BILLING).await;
    run(lab, db, Advance(model::ROTATION_SECONDS + 1)).await;
    run(lab, db, Maint).await;
}
#[wasm_bindgen_test]
async fn maint_truncates_only_a_table_every_consumer_passed_and_a_lagging_consumer_holds_rotation()
{
    let (db, mut lab) = lab().await;
    maint_with_email_lagging(&mut lab, &db).await;
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
    assert_eq!(first_arg(wait), Some(EMAIL));
    let msg = wait.msg();
    assert_eq!(
        msg.nested.first().map(|(_, m)| m.key.as_str()),
        Some("pgq.reason.consumer")
    );
    let queue = snap.queue.as_ref().expect("queue info");
    assert_eq!(queue.rotation_reason.as_deref(), Some("consumer"));
    assert_eq!(queue.rotation_msg().key, "pgq.reason.consumer");

    drain(&mut lab, &db, EMAIL).await;
    run(&mut lab, &db, Maint).await;
    assert!(maint_did(&lab, "rotate"), "{:?}", lab.last_maint);
    assert_eq!(cur_table(&db).await, 1);

    round(&mut lab, &db).await; // 5-8 into table 1
    drain(&mut lab, &db, BILLING).await;
    drain(&mut lab, &db, EMAIL).await;
    run_all(&mut lab, &db, [Advance(model::ROTATION_SECONDS + 1), Maint]).await;
    assert!(maint_did(&lab, "rotate"), "{:?}", lab.last_maint);
    assert_eq!(events_per_table(&db).await, [4, 4, 0]);

    round(&mut lab, &db).await; // 9-12 into table 2; email stops reading
    drain(&mut lab, &db, BILLING).await;
    run(&mut lab, &db, Advance(model::ROTATION_SECONDS + 1)).await;
    for _ in 0..3 {
        run(&mut lab, &db, Maint).await;
        assert!(
            !maint_did(&lab, "rotate"),
            "email lags: table 0 must not be truncated"
        );
        run(&mut lab, &db, Tick).await;
    }
    assert_eq!(
        events_per_table(&db).await,
        [4, 4, 4],
        "nothing truncated while email lags"
    );

    drain(&mut lab, &db, EMAIL).await;
    run(&mut lab, &db, Maint).await;
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
    let mut rotations = 0;
    for _ in 0..5 {
        run_all(&mut lab, &db, [Burst(50), Tick, Tick]).await;
        for c in [BILLING, EMAIL] {
            let (_, page) = next_batch(&mut lab, &db, c, 1000).await;
            assert!(page.len() >= 50, "{c} got {} events", page.len());
            run_all(
                &mut lab,
                &db,
                [nack(c, &page[0], 0), ack(c, page[0].batch_id)],
            )
            .await;
        }
        run_all(
            &mut lab,
            &db,
            [Advance(model::ROTATION_SECONDS + 1), RetryEvents, Maint],
        )
        .await;
        rotations += usize::from(maint_did(&lab, "rotate"));
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
    assert!(rotations > 0, "no rotation ran: the test proves nothing");
    db.close().await;
}

#[wasm_bindgen_test]
async fn bad_calls_raise_pgques_errors_with_translations_and_change_nothing() {
    let (db, mut lab) = lab().await;
    run_all(&mut lab, &db, [SendOne, SendOne, Tick, receive(BILLING, 1)]).await;
    let first = lab.batch(BILLING)[0].clone();
    let before = engine_state(&db).await;
    let lab_before = lab.clone();

    let unknown_queue = db
        .query::<serde_json::Value>(model::TICK_SQL, &["nope".into()])
        .await
        .expect_err("unknown queue");
    assert_eq!(
        (code(&unknown_queue), unknown_queue.message.as_str()),
        ("P0001", "no such queue"),
        "PgQue's ticker words it so"
    );
    let unknown_queue = db
        .query::<serde_json::Value>(
            model::RECEIVE_SQL,
            &["nope".into(), BILLING.into(), 10.into()],
        )
        .await
        .expect_err("unknown queue");
    assert_eq!(
        (code(&unknown_queue), unknown_queue.message.as_str()),
        ("P0001", "Not subscriber to queue: nope/billing"),
        "PgQue's receive words it so"
    );
    let not_open = Event {
        batch_id: 999,
        ..first.clone()
    };
    let not_in_batch = Event {
        msg_id: first.msg_id + 100,
        ..first.clone()
    };
    // Each refusal as PgQue words it (P0001), and the explanation the page shows for it.
    let bad: Vec<(Action, &str, &str)> = vec![
        (
            receive("ghost", 10),
            "Not subscriber to queue: orders/ghost",
            "PQ002",
        ),
        (nack(BILLING, &not_open, 5), "batch not found: 999", "PQ003"),
        (nack(BILLING, &not_in_batch, 5), "msg_id ", "PQ007"),
        (Replay(12345), "dead letter entry not found: 12345", "PQ008"),
        // a plain consumer is not made a group by a receive_coop
        (
            ReceiveCoop {
                consumer: BILLING.into(),
                sub: "w1".into(),
                max: 10,
            },
            "consumer billing on queue orders is already a normal consumer",
            "PQ009",
        ),
    ];
    for (a, words, explained) in bad {
        let e = lab
            .run(&db, a.clone())
            .await
            .expect_err(&format!("{a:?} must fail"));
        assert_eq!(code(&e), "P0001", "{a:?}: {e}");
        assert!(e.message.starts_with(words), "{a:?}: {e}");
        let key = model::error_key(&e).expect("a translated explanation");
        assert_eq!(key, format!("pgq.error.{explained}"));
        assert_eq!(
            engine_state(&db).await,
            before,
            "{a:?} changed the engine's state"
        );
        assert_eq!(lab, lab_before, "{a:?} changed the lab's state");
    }
    // A subconsumer that is not registered: PgQue's unregister_subconsumer returns 0, and the
    // page says there is no such subconsumer.
    let mut lab_w9 = lab.clone();
    run_says(
        &mut lab_w9,
        &db,
        RemoveSub {
            consumer: BILLING.into(),
            sub: "w9".into(),
        },
        "pgq.error.PQ010",
    )
    .await;
    assert_eq!(engine_state(&db).await, before);

    // ack of a batch that is not open returns 0: said so, nothing changed.
    run_says(&mut lab, &db, ack(BILLING, 999), "pgq.result.ack_not_open").await;
    assert_eq!(engine_state(&db).await, before);
    let mut unchanged = lab.clone();
    unchanged.history.pop();
    assert_eq!(unchanged, lab_before, "the lab still holds billing's batch");

    // finish the batch, then ack it again
    run_says(
        &mut lab,
        &db,
        ack(BILLING, first.batch_id),
        "pgq.result.acked_skipped",
    )
    .await;
    let finished = engine_state(&db).await;
    run_says(
        &mut lab,
        &db,
        ack(BILLING, first.batch_id),
        "pgq.result.ack_not_open",
    )
    .await;
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
    use queue_lab::labs::pgq::tour::TOUR;
    assert_eq!(TOUR.len(), 8);
    for (i, step) in TOUR.iter().enumerate() {
        let (db, mut lab) = lab().await;
        // The outcome of each action, and the lab after it.
        let mut outs = Vec::new();
        let mut states = Vec::new();
        for a in (step.actions)() {
            outs.push(run(&mut lab, &db, a).await);
            states.push(lab.clone());
        }
        assert_eq!(lab.history.len(), (step.actions)().len(), "step {}", i + 1);
        let key = |n: usize| outs[n].msg.key;
        let last = outs.last().expect("a step runs actions").clone();
        let snap = model::snapshot(&db).await.expect("snapshot");
        match i {
            // Before a tick nothing arrives; after it, both events in one batch.
            0 => {
                assert_eq!(key(2), "pgq.out.waiting_tick", "{:?}", outs[2]);
                assert_eq!(arg(&outs[2], "count"), "2");
                assert_eq!(last.msg.key, "pgq.out.received", "{last:?}");
                assert_eq!(lab.batch(BILLING).len(), 2);
            }
            // billing acks; email still gets all five.
            1 => {
                assert_eq!(key(3), "pgq.result.acked", "{:?}", outs[3]);
                assert_eq!(lab.batch(EMAIL).len(), 5, "{last:?}");
            }
            // maint waits, and names email as the consumer holding rotation.
            2 => {
                let wait = lab.last_maint.iter().find(|r| r.action == "wait");
                let wait = wait.unwrap_or_else(|| panic!("maint waited: {:?}", lab.last_maint));
                assert_eq!(wait.reason.as_deref(), Some("consumer"));
                assert_eq!(first_arg(wait), Some(EMAIL));
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
            // The tick's batch holds only the committed event; the prepared transaction's
            // event arrives after its commit, in a later batch.
            4 => {
                assert_eq!(payloads(states[3].batch(BILLING)), [r#"{"order":1}"#]);
                assert_eq!(payloads(lab.batch(BILLING)), [r#"{"order":"in flight"}"#]);
            }
            // w1 and w2 get a batch each; w1 is killed; after the dead interval w2 takes
            // w1's batch over under a new batch id: the same events again.
            5 => {
                let (w1, w2) = (states[7].part(GROUP, "w1"), states[8].part(GROUP, "w2"));
                assert_eq!((w1.len(), w2.len()), (3, 3), "{w1:?} {w2:?}");
                assert_ne!(w1[0].batch_id, w2[0].batch_id, "a batch each");
                assert!(ids(w1).iter().all(|id| !ids(w2).contains(id)));
                assert_eq!(key(10), "pgq.out.part_acked", "{:?}", outs[10]);
                assert_eq!(last.msg.key, "pgq.out.part_taken_over", "{last:?}");
                assert_eq!(arg(&last, "dead"), "w1");
                let taken = lab.part(GROUP, "w2");
                assert_eq!(ids(taken), ids(w1), "the same events");
                assert_ne!(taken[0].batch_id, w1[0].batch_id, "under a new batch id");
            }
            // billing receives 2 of the batch's 5; email, with a limit at least the batch
            // size, gets all 5; billing's ack, the outcome the page shows, skips the other 3
            // and names them.
            6 => {
                assert_eq!(key(2), "pgq.out.received_part", "{:?}", outs[2]);
                let held = ids(states[2].batch(BILLING));
                assert_eq!(held.len(), 2);
                assert_eq!(key(3), "pgq.out.received", "{:?}", outs[3]);
                let whole = ids(lab.batch(EMAIL));
                assert_eq!(whole.len(), 5, "email's card shows the whole batch");
                let skipped: Vec<i64> = whole
                    .iter()
                    .copied()
                    .filter(|id| !held.contains(id))
                    .collect();
                assert_eq!(last.msg.key, "pgq.result.acked_skipped", "{last:?}");
                assert_eq!(arg(&last, "consumer"), BILLING);
                assert_eq!(arg(&last, "ids"), joined(&skipped));
                // skipped for billing for good
                run(&mut lab, &db, Tick).await;
                assert!(drain(&mut lab, &db, BILLING).await.is_empty());
            }
            // No ack: the same batch again, same id, same events; then the ack finishes it.
            7 => {
                let first = states[2].batch(BILLING);
                assert_eq!(first.len(), 3);
                assert_eq!(key(3), "pgq.result.received_again", "{:?}", outs[3]);
                assert_eq!(states[3].batch(BILLING), first);
                assert_eq!(last.msg.key, "pgq.result.acked", "{last:?}");
            }
            _ => unreachable!("the tour has eight steps"),
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
    sub(|consumer, sub| AddSub { consumer, sub }, s)
}
fn take(s: &str) -> Action {
    sub(
        |consumer, sub| ReceiveCoop {
            consumer,
            sub,
            max: 100,
        },
        s,
    )
}
fn ack_coop(s: &str) -> Action {
    sub(|consumer, sub| AckCoop { consumer, sub }, s)
}
fn ids_of(lab: &Lab, s: &str) -> Vec<i64> {
    ids(lab.part(GROUP, s))
}
fn batch_of(lab: &Lab, s: &str) -> i64 {
    lab.part(GROUP, s)
        .first()
        .unwrap_or_else(|| panic!("{s} holds a batch"))
        .batch_id
}
async fn group_cursor(db: &Db) -> i64 {
    consumer_info(db, GROUP).await.last_tick
}

/// A group `audit` with subconsumers w1 and w2, and two ticked batches of three events each;
/// returns the events as billing (a plain consumer over the same ticks) received them.
async fn group_with_two_batches(lab: &mut Lab, db: &Db) -> Vec<i64> {
    run(lab, db, Subscribe(GROUP.into())).await;
    run(lab, db, add("w1")).await;
    run(lab, db, add("w2")).await;
    for _ in 0..2 {
        run(lab, db, Burst(3)).await;
        run(lab, db, Tick).await;
    }
    let all = ids(&drain(lab, db, BILLING).await);
    assert_eq!(all.len(), 6, "{all:?}");
    all
}

#[wasm_bindgen_test]
async fn receive_coop_gives_two_members_two_different_batches_and_the_group_cursor_moves_past_each()
{
    let (db, mut lab) = lab().await;
    let all = group_with_two_batches(&mut lab, &db).await;
    let start = group_cursor(&db).await;
    run_says(&mut lab, &db, take("w1"), "pgq.out.part_received").await;
    assert_eq!(
        group_cursor(&db).await,
        start + 1,
        "handed out: the cursor moves"
    );
    run(&mut lab, &db, take("w2")).await;
    assert_eq!(group_cursor(&db).await, start + 2);
    let (a, b) = (ids_of(&lab, "w1"), ids_of(&lab, "w2"));
    assert_eq!((a.as_slice(), b.as_slice()), (&all[..3], &all[3..]));
    let (ba, bb) = (batch_of(&lab, "w1"), batch_of(&lab, "w2"));
    assert_ne!(ba, bb, "a batch each");
    // Receiving again hands w1 the same batch; nothing new.
    run(&mut lab, &db, take("w1")).await;
    assert_eq!((ids_of(&lab, "w1"), batch_of(&lab, "w1")), (a.clone(), ba));
    // Per-member info: each one's batch and its size.
    let held = |snap: &model::Snapshot| -> Vec<(String, Option<i64>, i32)> {
        snap.subs
            .iter()
            .map(|s| (s.subconsumer_name.clone(), s.batch_id, s.batch_events))
            .collect()
    };
    let snap = model::snapshot(&db).await.expect("snapshot");
    assert_eq!(
        held(&snap),
        [
            ("w1".to_string(), Some(ba), 3),
            ("w2".to_string(), Some(bb), 3)
        ]
    );
    for s in ["w1", "w2"] {
        run_says(&mut lab, &db, ack_coop(s), "pgq.out.part_acked").await;
    }
    let snap = model::snapshot(&db).await.expect("snapshot");
    assert_eq!(
        held(&snap),
        [("w1".to_string(), None, 0), ("w2".to_string(), None, 0)]
    );
    run_says(&mut lab, &db, take("w1"), "pgq.out.part_nothing").await;
    // A plain receive on the group is refused: its subconsumers consume for it.
    let e = lab
        .run(&db, receive(GROUP, 100))
        .await
        .expect_err("a group refuses plain receive");
    assert_eq!(code(&e), "P0001");
    assert!(e.message.contains("is a cooperative main consumer"), "{e}");
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_killed_members_batch_is_taken_over_after_the_dead_interval_under_a_new_batch_id() {
    let (db, mut lab) = lab().await;
    group_with_two_batches(&mut lab, &db).await;
    run_all(&mut lab, &db, [take("w1"), take("w2")]).await;
    let (dead_ids, dead_batch) = (ids_of(&lab, "w1"), batch_of(&lab, "w1"));
    let killed = run(
        &mut lab,
        &db,
        sub(|consumer, sub| Kill { consumer, sub }, "w1"),
    )
    .await;
    assert_eq!(killed.msg.key, "pgq.out.killed");
    let stopped = run(&mut lab, &db, take("w1")).await;
    assert_eq!(
        stopped.msg.key, "pgq.out.stopped",
        "a killed member does nothing"
    );
    run(&mut lab, &db, ack_coop("w2")).await;
    // Not silent long enough yet: w2 gets nothing (no tick is left for the group).
    run(&mut lab, &db, Advance(model::DEAD_SECONDS - 1)).await;
    run_says(&mut lab, &db, take("w2"), "pgq.out.part_nothing").await;
    run(&mut lab, &db, Advance(2)).await;
    let o = run_says(&mut lab, &db, take("w2"), "pgq.out.part_taken_over").await;
    assert_eq!(arg(&o, "dead"), "w1");
    assert_eq!(ids_of(&lab, "w2"), dead_ids, "the same events again");
    let new_batch = batch_of(&lab, "w2");
    assert_ne!(new_batch, dead_batch, "under a new batch id");
    assert_eq!(arg(&o, "batch"), new_batch.to_string());
    // The dead member's late ack (had it only been slow) finishes nothing.
    #[derive(Deserialize)]
    struct Finished {
        finished: i32,
    }
    let late = db
        .query::<Finished>(model::ACK_SQL, &[dead_batch.into()])
        .await
        .expect("ack runs")
        .first()
        .map(|f| f.finished);
    assert_eq!(late, Some(0));
    run_says(&mut lab, &db, ack_coop("w2"), "pgq.out.part_acked").await;
    let subs = model::snapshot(&db).await.expect("snapshot").subs;
    assert!(subs.iter().all(|s| s.batch_id.is_none()), "{subs:?}");
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_member_only_silent_past_the_dead_interval_loses_its_batch_too_and_the_page_says_so() {
    let (db, mut lab) = lab().await;
    group_with_two_batches(&mut lab, &db).await;
    run_all(&mut lab, &db, [take("w1"), take("w2")]).await;
    let slow = ids_of(&lab, "w1");
    run_all(
        &mut lab,
        &db,
        [ack_coop("w2"), Advance(model::DEAD_SECONDS + 1)],
    )
    .await;
    let o = run_says(&mut lab, &db, take("w2"), "pgq.out.part_taken_over").await;
    assert_eq!(arg(&o, "dead"), "w1");
    assert_eq!(ids_of(&lab, "w2"), slow);
    // w1 no longer holds it, in the database and on the page.
    let subs = model::snapshot(&db).await.expect("snapshot").subs;
    let w1 = subs.iter().find(|s| s.subconsumer_name == "w1");
    assert_eq!(w1.map(|s| s.batch_id), Some(None), "{subs:?}");
    assert!(lab.part(GROUP, "w1").is_empty());
    run_says(&mut lab, &db, ack_coop("w1"), "pgq.out.nothing_held").await;
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_member_holding_a_batch_is_not_removed_and_without_members_the_group_is_a_plain_consumer_again(
) {
    let (db, mut lab) = lab().await;
    let all = group_with_two_batches(&mut lab, &db).await;
    run(&mut lab, &db, take("w1")).await;
    let remove = |s: &str| sub(|consumer, sub| RemoveSub { consumer, sub }, s);
    let before = lab.clone();
    let e = lab
        .run(&db, remove("w1"))
        .await
        .expect_err("w1 holds a batch");
    assert_eq!(code(&e), "P0001");
    assert!(
        e.message
            .contains("cannot unregister active cooperative subconsumer"),
        "{e}"
    );
    assert_eq!(lab, before, "refused: nothing changed");
    run(&mut lab, &db, ack_coop("w1")).await;
    for s in ["w1", "w2"] {
        run_says(&mut lab, &db, remove(s), "pgq.out.sub_removed").await;
    }
    assert_eq!(consumer_info(&db, GROUP).await.subconsumers, 0);
    // A plain consumer again, with the group's cursor: the batch w1 did not take.
    let got = ids(&drain(&mut lab, &db, GROUP).await);
    assert_eq!(got.as_slice(), &all[3..]);
    db.close().await;
}

#[wasm_bindgen_test]
async fn an_unsubscribed_consumer_stops_lagging_the_queue_and_maint_rotates_past_it() {
    let (db, mut lab) = lab().await;
    maint_with_email_lagging(&mut lab, &db).await;
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
    run(&mut lab, &db, Unsubscribe(EMAIL.into())).await;
    let names: Vec<String> = model::snapshot(&db)
        .await
        .expect("snapshot")
        .consumers
        .into_iter()
        .map(|c| c.consumer_name)
        .collect();
    assert_eq!(names, [BILLING]);
    run(&mut lab, &db, Maint).await;
    assert!(maint_did(&lab, "rotate"), "{:?}", lab.last_maint);
    assert_eq!(cur_table(&db).await, 1);
    // Subscribing again starts from the newest tick: nothing old is delivered.
    run(&mut lab, &db, Subscribe(EMAIL.into())).await;
    assert!(drain(&mut lab, &db, EMAIL).await.is_empty());
    db.close().await;
}

/// A consumer's cursor as the snapshot reads it (cursor_info.sql): the table its oldest
/// un-acked event is in (None: caught up), how many it has not acked, and every table
/// holding them.
async fn cursor(db: &Db, c: &str) -> (Option<i32>, i64, Vec<i32>) {
    let snap = model::snapshot(db).await.expect("snapshot");
    let x = snap
        .cursors
        .into_iter()
        .find(|x| x.consumer_name == c)
        .unwrap_or_else(|| panic!("{c} has a cursor"));
    (x.table_no, x.unread, x.tables)
}

#[wasm_bindgen_test]
async fn the_cursor_query_puts_a_consumer_on_the_table_of_its_oldest_unacked_event_before_and_after_receive_ack_and_rotations(
) {
    let (db, mut lab) = lab().await;
    assert_eq!(
        cursor(&db, BILLING).await,
        (None, 0, vec![]),
        "nothing sent"
    );
    for _ in 0..3 {
        run(&mut lab, &db, SendOne).await;
    }
    // Committed, not ticked yet: unread all the same, in the current table.
    assert_eq!(cursor(&db, BILLING).await, (Some(0), 3, vec![0]));
    run_all(&mut lab, &db, [Tick, receive(BILLING, model::MAX_RECEIVE)]).await;
    assert_eq!(
        cursor(&db, BILLING).await,
        (Some(0), 3, vec![0]),
        "received, not acked: the cursor has not moved"
    );
    run(&mut lab, &db, AckHeld(BILLING.into())).await;
    assert_eq!(cursor(&db, BILLING).await, (None, 0, vec![]), "acked");
    assert_eq!(cursor(&db, EMAIL).await, (Some(0), 3, vec![0]));
    assert_eq!(
        consumer_info(&db, EMAIL).await.lag_events,
        3,
        "the same count as consumer_report's"
    );

    // email reads them too; the period passes; maint switches to table 1.
    drain(&mut lab, &db, EMAIL).await;
    run_all(&mut lab, &db, [Advance(model::ROTATION_SECONDS + 1), Maint]).await;
    assert!(maint_did(&lab, "rotate"), "{:?}", lab.last_maint);
    assert_eq!(cur_table(&db).await, 1);
    run(&mut lab, &db, SendOne).await; // event 4, into table 1
    assert_eq!(cursor(&db, EMAIL).await, (Some(1), 1, vec![1]));

    // Both read event 4 past step 2; event 5 (table 1) only billing acks; the next rotation
    // leaves email's cursor on table 1, behind the new current table 2.
    run_all(&mut lab, &db, [Tick, Tick]).await;
    drain(&mut lab, &db, BILLING).await;
    drain(&mut lab, &db, EMAIL).await;
    run(&mut lab, &db, SendOne).await;
    // Event ids are PgQue's: each Tick (force_next_tick) moved the sequence ahead, so event
    // 5's id is read, not counted.
    let fifth = db
        .query::<serde_json::Value>("select max(ev_id)::int as id from pgque.event_1", &[])
        .await
        .expect("the newest event id")
        .first()
        .and_then(|r| r["id"].as_i64())
        .expect("an id");
    assert!(fifth > 5, "a forced tick moved the sequence ahead: {fifth}");
    run(&mut lab, &db, Tick).await;
    drain(&mut lab, &db, BILLING).await;
    run_all(&mut lab, &db, [Advance(model::ROTATION_SECONDS + 1), Maint]).await;
    assert!(maint_did(&lab, "rotate"), "{:?}", lab.last_maint);
    assert_eq!(cur_table(&db).await, 2);
    run(&mut lab, &db, SendOne).await; // event 6, into table 2
    assert_eq!(cursor(&db, BILLING).await, (Some(2), 1, vec![2]));
    assert_eq!(
        cursor(&db, EMAIL).await,
        (Some(1), 2, vec![1, 2]),
        "email: event 5 in table 1, then event 6 in table 2"
    );
    let snap = model::snapshot(&db).await.expect("snapshot");
    let email = snap
        .cursors
        .iter()
        .find(|c| c.consumer_name == EMAIL)
        .expect("email");
    assert_eq!(
        (email.next_msg_id, email.table_name.as_deref()),
        (Some(fifth), Some("pgque.event_1_1"))
    );
    db.close().await;
}

/// PgQue's tutorial ends with `drop_queue('orders', true)`, typed into the SQL console: the
/// lab's own queue is gone. The page still reads (no queue, the jobs), an action is refused
/// with PgQue's words and an explanation that says to reset, and Reset makes the queue again.
#[wasm_bindgen_test]
async fn the_lab_survives_its_queue_dropped_from_the_console_and_reset_makes_it_again() {
    let (db, snap, e) = typed_in_the_console("select pgque.drop_queue('orders', true)").await;
    assert!(snap.queue.is_none() && snap.consumers.is_empty());
    assert_eq!(snap.jobs.len(), 4, "the schedule's jobs are still listed");
    assert_eq!(
        (code(&e), e.message.as_str()),
        ("P0001", "queue not found: orders")
    );
    assert_eq!(
        model::error_key(&e).map(|k| k.to_string()),
        Some("pgq.error.PQ001".to_string())
    );
    reset_sends_and_delivers_again(db).await;
}

/// PgQue's `uninstall()`, typed into the SQL console, drops schema pgque: the page still
/// reads and says the engine is gone, an action's error is explained by the same words,
/// and Reset installs the engine and the lab's queue again.
#[wasm_bindgen_test]
async fn the_lab_survives_pgque_uninstalled_from_the_console_and_reset_installs_it_again() {
    let (db, snap, e) = typed_in_the_console("select pgque.uninstall()").await;
    assert!(snap.uninstalled && snap.queue.is_none() && snap.jobs.is_empty());
    assert_eq!(code(&e), "3F000", "{}", e.message);
    assert_eq!(
        model::error_key(&e).map(|k| k.to_string()),
        Some("pgq.engine_gone".to_string())
    );
    reset_sends_and_delivers_again(db).await;
}

/// A lab that has sent and ticked once, then `sql` typed into the SQL console: the snapshot
/// the page then reads, and the error a Send gets.
async fn typed_in_the_console(sql: &str) -> (Db, model::Snapshot, DbError) {
    let (db, mut lab) = lab().await;
    run_all(&mut lab, &db, [SendOne, Tick]).await;
    db.query::<serde_json::Value>(sql, &[])
        .await
        .unwrap_or_else(|e| panic!("{sql}: {}", e.message));
    let snap = model::snapshot(&db).await.expect("the page still reads");
    let e = lab
        .run(&db, SendOne)
        .await
        .expect_err("a Send after the console's statement fails");
    (db, snap, e)
}

/// Reset (the lab set up again) installs the engine and the queue where they are gone, and
/// the first event sent is delivered.
async fn reset_sends_and_delivers_again(db: Db) {
    let mut lab = Lab::setup(&db).await.expect("Reset sets the lab up again");
    let snap = model::snapshot(&db).await.expect("reads");
    assert!(!snap.uninstalled && snap.queue.is_some());
    run_all(&mut lab, &db, [SendOne, Tick]).await;
    let (_, batch) = next_batch(&mut lab, &db, BILLING, 100).await;
    assert_eq!(payloads(&batch), [r#"{"order":1}"#]);
    db.close().await;
}
