//! The SQL labs' subcommands held to a real PostgreSQL server: `pgcheck jobs` (L1's
//! must-show scenarios), `pgcheck vacuum` (L3's rounds) and `pgcheck pgq` (L4's side by side)
//! must show on the server what the lab shows in PGlite, clean up after themselves, and refuse
//! a schema that holds someone's data. Figures differ from PGlite's: only invariants are
//! asserted.
//!
//! Needs `QUEUE_LAB_PG_URL`, like `real_server.rs` (start a local server with
//! `scripts/pg-local.sh start`); without it every test here fails with that reason, on
//! purpose, rather than passing without checking. The tests take turns (they share the
//! schema `lab`; the subcommands also wait for each other through an advisory lock).

use std::sync::{Mutex, MutexGuard};

use pgcheck::{jobs, pgq, target, vacuum};

static TURN: Mutex<()> = Mutex::new(());

fn url() -> String {
    std::env::var("QUEUE_LAB_PG_URL").unwrap_or_else(|_| {
        panic!(
            "QUEUE_LAB_PG_URL is not set, so the SQL labs cannot be checked against a real \
             server. Start one with `scripts/pg-local.sh start` and run again with \
             QUEUE_LAB_PG_URL set to the URL it prints, e.g. \
             QUEUE_LAB_PG_URL=$(scripts/pg-local.sh start) cargo test -p pgcheck"
        )
    })
}

/// This test's turn on the server (the tests share its schemas: one at a time), and its URL.
fn turn() -> (MutexGuard<'static, ()>, String) {
    (TURN.lock().unwrap_or_else(|e| e.into_inner()), url())
}

/// The schemas a subcommand may touch that are left on the server.
fn leftovers(url: &str) -> Vec<String> {
    let mut c = target::connect(url).expect("connect");
    c.query(
        "select nspname::text from pg_namespace
          where nspname = any(array['lab', 'jobs_lab', 'vacuum_lab', 'pgq_lab', 'pgque',
                                    'pgq_compare', 'vac_keep', 'vac_delete',
                                    'vac_delete_vacuum', 'vac_rotate', 'vac_partition',
                                    'vac_plan'])
          order by 1",
        &[],
    )
    .expect("list schemas")
    .iter()
    .map(|r| r.get(0))
    .collect()
}

#[test]
fn jobs_subcommand_shows_every_l1_scenario_on_the_server_and_leaves_nothing() {
    let (_turn, url) = turn();
    let report = jobs::run(&url).expect("pgcheck jobs");
    println!("{}", report.table());
    for name in [
        jobs::TRANSACTIONAL,
        jobs::SKIP_LOCKED,
        jobs::LEASE,
        jobs::RETRIES,
        jobs::NOTIFY_NAME,
        jobs::PER_KEY,
        jobs::DELETE_ON_COMPLETE,
        jobs::DUAL_WRITE,
        jobs::IDEMPOTENCY,
    ] {
        let s = report
            .get(name)
            .unwrap_or_else(|| panic!("scenario {name:?} did not run"));
        assert!(s.passed, "{name}: {}", s.observed);
    }
    assert_eq!(leftovers(&url), Vec::<String>::new());
}

#[test]
fn vacuum_subcommand_bloats_without_vacuum_and_a_pinned_horizon_keeps_dead_tuples() {
    let (_turn, url) = turn();
    let s = vacuum::Settings {
        jobs: 2_000,
        rounds: 2,
        batch: 500,
    };
    let report = vacuum::run(&url, s, &mut |t| println!("{t}")).expect("pgcheck vacuum");
    use vacuum::{Step, Strategy};
    let (free, pinned) = (&report.free, &report.pinned);
    let dead = |run: &vacuum::Run, st, round, step| {
        run.find(st, round, step)
            .unwrap_or_else(|| panic!("no record {st:?} {round} {step:?}"))
            .dead
    };
    // Without VACUUM, completed jobs leave dead tuples; VACUUM removes them only when no
    // transaction still needs them.
    assert!(dead(free, Strategy::Delete, 2, Step::AfterRound) > 0);
    assert_eq!(dead(free, Strategy::DeleteVacuum, 1, Step::AfterVacuum), 0);
    assert!(dead(pinned, Strategy::DeleteVacuum, 1, Step::AfterVacuum) > 0);
    // Rotation never bloats: TRUNCATE leaves an empty file, pinned horizon or not.
    for run in [free, pinned] {
        let t = run
            .find(Strategy::Rotate, 2, Step::AfterTruncate)
            .expect("rotation record");
        assert_eq!((t.heap_pages, t.dead), (0, 0));
    }
    // Rotation by partitions: each round bloats its own partition, then DETACH + DROP
    // takes it away whole (only the next round's partition, empty, is left), and the claim
    // reads no more pages in the second round than in the first.
    for run in [free, pinned] {
        for round in 1..=2 {
            let after = run
                .find(Strategy::Partition, round, Step::AfterRound)
                .expect("partition round record");
            assert!(after.dead > 0, "round {round}: {after:?}");
            assert_eq!(after.partitions, vec![format!("jobs_r{round}")]);
            let dropped = run
                .find(Strategy::Partition, round, Step::AfterDrop)
                .expect("partition drop record");
            assert_eq!((dropped.heap_pages, dropped.dead, dropped.live), (0, 0, 0));
            assert_eq!(dropped.partitions, vec![format!("jobs_r{}", round + 1)]);
            // The indexes are the new partition's, empty: as small as after TRUNCATE.
            let truncated = run
                .find(Strategy::Rotate, round, Step::AfterTruncate)
                .expect("rotation record");
            assert_eq!(dropped.indexes, truncated.indexes);
        }
        // The pages the claim read after round `round` on strategy `st`'s table.
        let pages = |st, round| {
            run.find(st, round, Step::AfterRound)
                .map(|r| r.claim_pages)
                .unwrap_or_else(|| panic!("no round record {st:?} {round}"))
        };
        let claim = |round| pages(Strategy::Partition, round);
        assert!(claim(2) <= claim(1) + 2, "{} then {}", claim(1), claim(2));
        let keep = pages(Strategy::Keep, 2);
        assert!(keep > claim(2), "keep {keep} partition {}", claim(2));
    }
    // Every other invariant the lab shows (see vacuum::Report::problems).
    assert_eq!(report.problems(), Vec::<String>::new());
    assert_eq!(leftovers(&url), Vec::<String>::new());
}

#[test]
fn pgq_subcommand_rotation_queue_never_bloats_while_skip_locked_piles_up_dead_tuples() {
    let (_turn, url) = turn();
    let s = pgq::Settings {
        events: 1_000,
        // Three rounds: the third rotation truncates the first round's events (the first
        // two switch onto empty tables).
        rounds: 3,
        page: 200,
    };
    let report = pgq::run(&url, s, &mut |t| println!("{t}")).expect("pgcheck pgq");
    for r in report.free.rounds.iter().chain(&report.pinned.rounds) {
        assert_eq!(r.pgq_dead, 0, "rotation queue, round {}", r.round);
        // Five batches of 200 (a tick after every 200 sent), each received whole by each
        // consumer: every event twice (fan-out), one receive per batch plus the empty last.
        assert_eq!(
            (r.batches, r.receives, r.delivered, r.unfinished_acks),
            (5, 12, 2_000, 0),
            "round {}",
            r.round
        );
    }
    let truncated: i64 = report.free.rounds.iter().filter_map(|r| r.truncated).sum();
    assert!(truncated > 0, "free: no event was ever truncated");
    let last = report.pinned.rounds.last().expect("pinned rounds");
    assert!(last.jobs_dead > 0, "pinned: VACUUM removed everything");
    assert!(last.waiting.is_some(), "pinned: maint() rotated");
    assert_eq!(report.problems(), Vec::<String>::new());
    assert_eq!(leftovers(&url), Vec::<String>::new());
}

#[test]
fn pgq_coop_subconsumers_get_batches_of_their_own_a_dead_members_batch_is_taken_over_and_an_unsubscribed_consumer_stops_holding_rotation(
) {
    let (_turn, url) = turn();
    let coop = pgq::run_coop(&url).expect("pgcheck pgq (cooperative consumers)");
    println!("{}", coop.table());
    // Each member gets a batch of its own: two different batches, disjoint, together what
    // the plain consumer received over the same two ticks.
    assert_eq!(coop.members.len(), 2, "{:?}", coop.members);
    let (a, b) = (&coop.members[0], &coop.members[1]);
    assert_ne!(a.1, b.1, "two batches");
    assert!(!a.2.is_empty() && !b.2.is_empty(), "{a:?} {b:?}");
    assert!(
        a.2.iter().all(|id| !b.2.contains(id)),
        "overlap: {a:?} {b:?}"
    );
    let mut union = [a.2.clone(), b.2.clone()].concat();
    union.sort_unstable();
    assert_eq!(coop.plain.len(), 2, "{:?}", coop.plain);
    assert_eq!(union, coop.plain_events());
    // The group's cursor moves past each batch as it is handed out; each ack finishes one.
    let [before, first, second] = coop.cursor;
    assert!(before < first && first < second, "{:?}", coop.cursor);
    assert_eq!(coop.acks, [1, 1]);
    // A dead member's batch: not taken before the dead interval, then taken whole under a
    // new batch id; the dead member's late ack finishes nothing.
    assert!(!coop.dead.1.is_empty(), "{:?}", coop.dead);
    assert_eq!(coop.early, Vec::<i64>::new());
    assert_eq!(coop.taken.1, coop.dead.1);
    assert_ne!(coop.taken.0, coop.dead.0);
    assert_eq!((coop.late_ack, coop.taker_ack), (0, 1));
    // A consumer that never reads holds rotation back; unsubscribed, it no longer does.
    assert!(!coop.held.iter().any(|x| x == "rotate"), "{:?}", coop.held);
    assert_eq!(
        coop.held_reason
            .as_ref()
            .map(|(r, args)| (r.as_str(), args.first().map(String::as_str))),
        Some(("consumer", Some("email")))
    );
    assert!(
        coop.after_unsubscribe.iter().any(|x| x == "rotate"),
        "{:?}",
        coop.after_unsubscribe
    );
    assert_eq!(coop.problems(), Vec::<String>::new());
    assert_eq!(leftovers(&url), Vec::<String>::new());
}

#[test]
fn a_subcommand_refuses_a_schema_that_holds_data_and_leaves_it_as_it_was() {
    let (_turn, url) = turn();
    let mut c = target::connect(&url).expect("connect");
    c.batch_execute(
        "create schema lab; create table lab.someone_elses (n int); \
         insert into lab.someone_elses values (42);",
    )
    .expect("someone's schema");
    let refused = jobs::run(&url);
    let kept: Result<i32, _> = c
        .query_one("select n from lab.someone_elses", &[])
        .map(|r| r.get(0));
    let others = leftovers(&url);
    c.batch_execute("drop schema lab cascade")
        .expect("drop the test's schema");
    let message = refused
        .expect_err("pgcheck jobs ran in a schema that holds data")
        .0;
    assert!(
        message.contains("refuses") && message.contains("lab.someone_elses"),
        "{message}"
    );
    assert_eq!(kept.ok(), Some(42));
    assert_eq!(others, vec!["lab".to_string()], "the run created schemas");
}

#[test]
fn a_schema_that_existed_empty_is_used_and_left_existing_and_empty() {
    let (_turn, url) = turn();
    let mut c = target::connect(&url).expect("connect");
    c.batch_execute("create schema jobs_lab")
        .expect("an empty schema");
    let ran = jobs::run(&url);
    let objects: Result<i64, _> = c
        .query_one(
            "select count(*) from pg_depend where refobjid = 'jobs_lab'::regnamespace",
            &[],
        )
        .map(|r| r.get(0));
    let others = leftovers(&url);
    c.batch_execute("drop schema if exists jobs_lab cascade")
        .expect("drop the test's schema");
    let report = ran.expect("pgcheck jobs in an empty jobs_lab");
    assert!(report.passed(), "{}", report.table());
    // L1's tables went into jobs_lab (the lab's schema for L1) and were dropped again; the
    // schema itself stays, as it was there before.
    assert_eq!(objects.ok(), Some(0));
    assert_eq!(others, vec!["jobs_lab".to_string()]);
}
