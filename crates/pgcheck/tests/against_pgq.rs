//! L4's engine held to PgQ's C extension on a real server (`pgcheck pgq --against-pgq`): one
//! script of sends (one transaction left open across ticks), ticks, receives, acks, a retry
//! and rotations runs on both, and each step must give the same batch contents, retry timing
//! and rotation on the lab's engine as on PgQ.
//!
//! Needs `QUEUE_LAB_PG_URL` (start a local server with `scripts/pg-local.sh start`) and PgQ
//! installed on that server (`postgresql-<major>-pgq3`; `./lab setup` installs it); without
//! either every test here fails with the reason, on purpose, rather than passing without
//! checking. The tests share one run (about 5 s: PgQ's side sleeps 4.4 s of real time).

use std::sync::OnceLock;

use pgcheck::against_pgq::{self, Comparison};

fn comparison() -> &'static Comparison {
    static RUN: OnceLock<Result<Comparison, String>> = OnceLock::new();
    let run = RUN.get_or_init(|| {
        let url = std::env::var("QUEUE_LAB_PG_URL").map_err(|_| {
            "QUEUE_LAB_PG_URL is not set, so L4's engine cannot be checked against PgQ. \
             Start a server with `scripts/pg-local.sh start` and run again with \
             QUEUE_LAB_PG_URL set to the URL it prints, e.g. \
             QUEUE_LAB_PG_URL=$(scripts/pg-local.sh start) cargo test -p pgcheck"
                .to_string()
        })?;
        let c = against_pgq::run(&url).map_err(|e| e.to_string())?;
        println!("{}", c.table());
        Ok(c)
    });
    match run {
        Ok(c) => c,
        Err(message) => panic!("{message}"),
    }
}

/// What PgQ 3.5 did at each step of the script (measured), as compared between the engines,
/// up to the part on max_retries.
const PGQ: [(&str, &str); 53] = [
    (
        "set up (create, configure, force a tick, register billing, email)",
        "ready",
    ),
    ("A: send o1 in one transaction, commit", "sent"),
    // One new event, below ticker_max_count (3), and the lag thresholds are an hour.
    ("ticker(queue)", "no tick"),
    ("B: begin; send b1 (left open)", "sent"),
    ("A: send o2, o3 in one transaction, commit", "sent"),
    // Four event ids taken since the last tick (b1's too, though uncommitted): >= 3.
    ("ticker(queue)", "tick"),
    // b1 is in flight when the tick is taken: not in this batch.
    ("billing: receive", "o1, o2, o3"),
    ("billing: ack the batch", "returns 1"),
    ("email: receive", "o1, o2, o3"),
    ("email: ack the batch", "returns 1"),
    ("B: send b2; commit", "committed"),
    ("A: send o4 in one transaction, commit", "sent"),
    ("force the next tick; ticker(queue)", "tick"),
    // The open transaction's events come in the batch of the first tick after its commit,
    // in event id order.
    ("billing: receive", "b1, b2, o4"),
    ("billing: retry o4 after 2 s", "returns 1"),
    ("billing: ack the batch", "returns 1"),
    // billing has acked (its o4 waits in the retry queue, in no event table); email has
    // not acked b1, b2, o4, all in table 0.
    (
        "each consumer's cursor: the table of its oldest un-acked event",
        "billing: caught up; email: table 0",
    ),
    ("email: receive", "b1, b2, o4"),
    ("email: ack the batch", "returns 1"),
    ("1.1 s pass", "waited"),
    // Not due yet: nothing moves back, the next batch is empty.
    ("maint_retry_events()", "0 moved back"),
    ("force the next tick; ticker(queue)", "tick"),
    ("billing: receive", "(no events)"),
    ("billing: ack the batch", "nothing open"),
    ("email: receive", "(no events)"),
    ("email: ack the batch", "nothing open"),
    ("1.1 s pass", "waited"),
    ("maint_retry_events()", "1 moved back"),
    ("force the next tick; ticker(queue)", "tick"),
    // The retry comes back in the first batch after the tick that follows its move, to
    // the consumer that retried it only, with its retry count.
    ("billing: receive", "o4 (retry 1)"),
    ("billing: ack the batch", "returns 1"),
    ("email: receive", "(no events)"),
    ("email: ack the batch", "nothing open"),
    // The rotation period has passed since the queue was made: switch to table 1 (empty).
    ("rotate the event tables", "switch 0 → 1"),
    ("A: send o5 in one transaction, commit", "sent"),
    // o5 went into the new current table, not yet ticked: both cursors are on it.
    (
        "each consumer's cursor: the table of its oldest un-acked event",
        "billing: table 1; email: table 1",
    ),
    ("force the next tick; ticker(queue)", "tick"),
    ("billing: receive", "o5"),
    ("billing: ack the batch", "returns 1"),
    ("email: receive", "o5"),
    ("email: ack the batch", "returns 1"),
    // Less than the rotation period since the last switch.
    ("rotate the event tables", "no switch (current 1)"),
    ("1.1 s pass", "waited"),
    ("rotate the event tables", "switch 1 → 2"),
    ("force the next tick; ticker(queue)", "tick"),
    ("billing: receive", "(no events)"),
    ("billing: ack the batch", "nothing open"),
    ("1.1 s pass", "waited"),
    // email has not read past the last switch: rotation waits for it.
    ("rotate the event tables", "no switch (current 2)"),
    ("email: receive", "(no events)"),
    ("email: ack the batch", "nothing open"),
    // Switching back to table 0 empties it: o1, o2, o3, b1, b2, o4 and o4's retry.
    (
        "rotate the event tables",
        "switch 2 → 0; table 0 emptied (7 events)",
    ),
    ("get_queue_info(queue)", "3 tables, current 0"),
];

/// The script's last part, where the engines differ by design: billing retries d1 at once,
/// six times. `sixth` is what the sixth cycle gives, `then` the steps after it.
fn max_retries_part(sixth: &str, then: [&str; 2]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = [
        ("A: send d1 in one transaction, commit", "sent"),
        ("force the next tick; ticker(queue)", "tick"),
        ("billing: receive", "d1"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    for cycle in 1..=6 {
        let step = format!(
            "cycle {cycle}: billing retries d1 (0 s), acks; maint_retry_events(); tick; receive"
        );
        let got = if cycle < 6 {
            format!("returns 1; returns 1; 1 moved back; tick; d1 (retry {cycle})")
        } else {
            sixth.to_string()
        };
        out.push((step, got));
    }
    out.push(("billing: ack the batch".into(), then[0].into()));
    out.push(("dead letters (dlq_inspect)".into(), then[1].into()));
    out
}

fn compared(rows: &[against_pgq::Row]) -> Vec<(String, String)> {
    rows.iter()
        .map(|r| (r.step.clone(), r.compared.clone()))
        .collect()
}

#[test]
fn pgq_itself_gives_each_batch_retry_and_rotation_the_script_expects() {
    let c = comparison();
    let mut want: Vec<(String, String)> = PGQ
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    // PgQ has no max_retries: the sixth retry comes back like the others.
    want.extend(max_retries_part(
        "returns 1; returns 1; 1 moved back; tick; d1 (retry 6)",
        ["returns 1", "no dead letter queue"],
    ));
    assert_eq!(compared(&c.pgq), want, "\n{}", c.table());
}

#[test]
fn after_max_retries_the_lab_dead_letters_the_event_where_pgq_retries_it_again() {
    let c = comparison();
    let n = c.lab.len().saturating_sub(11);
    let want = max_retries_part(
        "returns 1; returns 1; 0 moved back; tick; (no events)",
        ["nothing open", "dead letters: 1"],
    );
    assert_eq!(compared(&c.lab[n..]), want, "\n{}", c.table());
    let by_design: Vec<&str> = c
        .pgq
        .iter()
        .filter(|r| r.by_design)
        .map(|r| r.step.as_str())
        .collect();
    assert_eq!(by_design.len(), 3, "{by_design:?}");
}

#[test]
fn the_lab_engine_gives_the_same_batches_retry_timing_and_rotation_as_pgq() {
    let c = comparison();
    let differences = c.differences();
    assert!(
        differences.is_empty(),
        "the lab's engine differs from PgQ:\n  {}\n\n{}",
        differences.join("\n  "),
        c.table()
    );
}

#[test]
fn the_check_leaves_no_pgq_extension_or_engine_schema_behind() {
    comparison();
    let url = std::env::var("QUEUE_LAB_PG_URL").expect("checked by comparison()");
    let mut c = pgcheck::target::connect(&url).expect("connect");
    let left: i64 = c
        .query_one(
            "select (select count(*) from pg_extension where extname = 'pgq')
                  + (select count(*) from pg_namespace where nspname in ('pgq', 'pgque'))",
            &[],
        )
        .expect("query")
        .get(0);
    assert_eq!(
        left, 0,
        "the pgq extension or schema pgq/pgque was left behind"
    );
}
