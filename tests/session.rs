//! One PostgreSQL, several labs, through the session's one owner (`Runner`), against real
//! PGlite in headless Chromium: the labs in sequence on one database measure what they
//! measure on a fresh one, work runs one piece at a time in order, leaving a lab cancels its
//! work at a safe point, labs wait while the console holds a transaction, and L1's actions
//! interleaved with other labs' work end exactly as they end alone.

use leptos::prelude::GetUntracked;
use queue_lab::db::TxState;
use queue_lab::labs::jobs::model::{self as jobs, Action, EnqueueInput, WorkerId};
use queue_lab::labs::pgq::model as pgq;
use queue_lab::labs::pgq::model::compare::{self, Settings};
use queue_lab::labs::vacuum::model::{self as vacuum, Record, RunEnd, Strategy};
use queue_lab::labs::LabId;
use queue_lab::runner::{Runner, Scope, Work};

const JOBS_LAB: LabId = queue_lab::labs::jobs::ID;
const PGQ_LAB: LabId = queue_lab::labs::pgq::ID;
const VACUUM_LAB: LabId = queue_lab::labs::vacuum::ID;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

async fn open() -> Runner {
    Runner::new(queue_lab::testing::fresh_db().await.expect("PGlite opens"))
}

async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

async fn in_lab<T>(
    runner: &Runner,
    lab: LabId,
    work: impl AsyncFnOnce(&Work) -> Result<T, queue_lab::db::DbError>,
) -> T {
    runner
        .run(Scope::Lab(lab), None, work)
        .await
        .unwrap_or_else(|e| panic!("{lab:?}: {e}"))
}

/// L3 at a size a test can afford: 2,000 jobs, 2 rounds, every strategy.
async fn vacuum_run(runner: &Runner) -> Vec<Record> {
    in_lab(runner, VACUUM_LAB, async |w: &Work| {
        vacuum::setup(w.db()).await?;
        let cfg = vacuum::parse_config("2000", "2", "500", Strategy::ALL.to_vec()).unwrap();
        let records = RefCell::new(Vec::new());
        let record = |r| records.borrow_mut().push(r);
        let hooks = vacuum::Hooks {
            cancel: &Cell::new(false),
            progress: &|_| {},
            record: &record,
            map: None,
        };
        let end = vacuum::run(w.db(), &cfg, 1, &hooks).await?;
        assert!(matches!(end, RunEnd::Finished));
        Ok(records.into_inner())
    })
    .await
}

fn l1_actions() -> Vec<Action> {
    let enqueue = |priority| {
        Action::Enqueue(EnqueueInput {
            priority,
            ..EnqueueInput::default()
        })
    };
    vec![
        enqueue(0),
        enqueue(5),
        Action::OrderWithJob,
        Action::Claim(WorkerId::A),
        Action::Advance(10),
        Action::Claim(WorkerId::B),
    ]
}

#[wasm_bindgen_test]
async fn the_labs_in_sequence_on_one_database_measure_what_a_fresh_database_measures() {
    let runner = open().await;
    // L1: a few actions, kept as the page keeps them.
    let (lab, before) = in_lab(&runner, JOBS_LAB, async |w: &Work| {
        let mut lab = jobs::Lab::setup(w.db()).await?;
        for a in l1_actions() {
            lab.run(w.db(), a).await?;
        }
        let snap = jobs::snapshot(w.db(), &lab.highlighted()).await?;
        Ok((lab, snap))
    })
    .await;
    assert_eq!(before.jobs.len(), 3);

    // L3's run, then L4's engine and its side by side, on the same session.
    let shared = vacuum_run(&runner).await;
    in_lab(&runner, PGQ_LAB, async |w: &Work| {
        pgq::Lab::setup(w.db()).await?;
        let s = Settings {
            events: 1000,
            rounds: 2,
            page: 100,
            pinned: false,
        };
        compare::run(w.db(), s, &Cell::new(false), &|_| {}).await?;
        Ok(())
    })
    .await;

    // Back on L1: the same rows, the same lab time, and it still works.
    let mut lab = lab;
    let after = in_lab(&runner, JOBS_LAB, async |w: &Work| {
        let snap = jobs::snapshot(w.db(), &lab.highlighted()).await?;
        lab.run(w.db(), Action::Complete(WorkerId::A)).await?;
        Ok(snap)
    })
    .await;
    assert_eq!(after, before, "L1's tables and clock are as L1 left them");

    // The same L3 run on a fresh database.
    let fresh = open().await;
    let alone = vacuum_run(&fresh).await;
    assert_eq!(shared.len(), alone.len());
    for (a, b) in shared.iter().zip(&alone) {
        let what = format!("{:?} round {} {:?}", a.strategy, a.round, a.step);
        let (sa, sb) = (&a.measure.stats, &b.measure.stats);
        assert_eq!(sa.n_live_tup, sb.n_live_tup, "{what}: live");
        assert_eq!(sa.n_dead_tup, sb.n_dead_tup, "{what}: dead");
        let close = |x: i64, y: i64| (x - y).abs() <= 2.max(y / 20);
        assert!(
            close(sa.heap_pages, sb.heap_pages),
            "{what}: heap pages {} vs {}",
            sa.heap_pages,
            sb.heap_pages
        );
        let (ca, cb) = (a.measure.claim.pages, b.measure.claim.pages);
        assert!(close(ca, cb), "{what}: claim pages {ca} vs {cb}");
    }
    assert!(alone.iter().any(|r| r.measure.stats.n_dead_tup > 0));
    runner.db().close().await;
    fresh.db().close().await;
}

#[wasm_bindgen_test]
async fn work_runs_one_piece_at_a_time_in_the_order_it_was_asked_for() {
    let runner = open().await;
    let trace = Rc::new(RefCell::new(Vec::<String>::new()));
    let done = Rc::new(Cell::new(0));
    let labs = [JOBS_LAB, PGQ_LAB, VACUUM_LAB, JOBS_LAB, PGQ_LAB];
    for (i, lab) in labs.into_iter().enumerate() {
        let (trace, done) = (trace.clone(), done.clone());
        runner.spawn(Scope::Lab(lab), None, async move |w: &Work| {
            trace.borrow_mut().push(format!("start {i}"));
            // Each piece sees its own lab's search path, whoever ran before it.
            #[derive(serde::Deserialize)]
            struct P {
                p: String,
            }
            let p = w
                .db()
                .query::<P>("select current_setting('search_path') as p", &[])
                .await?;
            assert_eq!(
                p.first().unwrap().p,
                queue_lab::runner::search_path(Some(lab))
            );
            w.db()
                .query::<serde_json::Value>("select pg_sleep(0.02)", &[])
                .await?;
            trace.borrow_mut().push(format!("end {i}"));
            done.set(done.get() + 1);
            Ok(())
        });
    }
    while done.get() < labs.len() {
        sleep(10).await;
    }
    let expected: Vec<String> = (0..labs.len())
        .flat_map(|i| [format!("start {i}"), format!("end {i}")])
        .collect();
    assert_eq!(*trace.borrow(), expected);
    runner.db().close().await;
}

#[wasm_bindgen_test]
async fn leaving_a_lab_drops_its_queued_work_and_stops_its_running_work_at_the_next_safe_point() {
    let runner = open().await;
    let steps = Rc::new(Cell::new(0));
    let ended = Rc::new(RefCell::new(None));
    {
        let (steps, ended) = (steps.clone(), ended.clone());
        let r = runner.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let what = Some(
                queue_lab::Msg::new(queue_lab::Key::new("runner.what.actions")).arg("n", 1000),
            );
            let out = r
                .run(Scope::Lab(JOBS_LAB), what, async |w: &Work| {
                    for _ in 0..1000 {
                        w.check()?;
                        w.db()
                            .query::<serde_json::Value>("select pg_sleep(0.005)", &[])
                            .await?;
                        steps.set(steps.get() + 1);
                    }
                    Ok(())
                })
                .await;
            *ended.borrow_mut() = Some(out);
        });
    }
    // Queued behind it: never starts once the lab is left.
    let queued_ran = Rc::new(Cell::new(false));
    {
        let flag = queued_ran.clone();
        runner.spawn(Scope::Lab(JOBS_LAB), None, async move |_: &Work| {
            flag.set(true);
            Ok(())
        });
    }
    // Another lab's work queued behind both still runs.
    let other_ran = Rc::new(Cell::new(false));
    {
        let flag = other_ran.clone();
        runner.spawn(Scope::Lab(PGQ_LAB), None, async move |_: &Work| {
            flag.set(true);
            Ok(())
        });
    }
    while steps.get() < 5 {
        sleep(5).await;
    }
    runner.cancel(JOBS_LAB);
    while !other_ran.get() {
        sleep(5).await;
    }
    let out = ended.borrow_mut().take().expect("the long work has ended");
    assert!(out.is_err_and(|e| e.cancelled));
    assert!(
        steps.get() < 1000,
        "stopped at a safe point after {} steps",
        steps.get()
    );
    assert!(
        !queued_ran.get(),
        "queued work of the left lab never started"
    );
    assert!(
        runner
            .status()
            .get_untracked()
            .cancelled
            .iter()
            .any(|(l, _)| *l == JOBS_LAB),
        "the lab will say what was cancelled"
    );
    // The lab's next work runs as usual.
    in_lab(&runner, JOBS_LAB, async |_: &Work| Ok(())).await;
    runner.db().close().await;
}

#[wasm_bindgen_test]
async fn lab_work_waits_while_the_console_holds_a_transaction_and_its_rollback_undoes_only_the_console(
) {
    let runner = open().await;
    let mut lab = in_lab(&runner, JOBS_LAB, async |w: &Work| {
        jobs::Lab::setup(w.db()).await
    })
    .await;
    let reply = runner.console(Some(JOBS_LAB), "begin;").await;
    assert_eq!(reply.tx, TxState::Open);
    runner
        .console(
            Some(JOBS_LAB),
            "insert into orders (customer, total) values ('console', 1);",
        )
        .await
        .result()
        .expect("insert in the console's transaction");

    let ran = Rc::new(Cell::new(false));
    let waiting = {
        let ran = ran.clone();
        let r = runner.clone();
        let mut l = lab.clone();
        async move {
            r.run(Scope::Lab(JOBS_LAB), None, async |w: &Work| {
                l.run(w.db(), Action::Enqueue(EnqueueInput::default()))
                    .await?;
                ran.set(true);
                Ok(l)
            })
            .await
        }
    };
    let result = Rc::new(RefCell::new(None));
    {
        let result = result.clone();
        wasm_bindgen_futures::spawn_local(async move {
            *result.borrow_mut() = Some(waiting.await);
        });
    }
    sleep(300).await;
    assert!(
        !ran.get(),
        "the lab's action waits for the console's transaction"
    );
    assert!(runner.pending(JOBS_LAB));
    let reply = runner.console(Some(JOBS_LAB), "rollback;").await;
    assert_eq!(reply.tx, TxState::Idle);
    while result.borrow().is_none() {
        sleep(10).await;
    }
    lab = result
        .borrow_mut()
        .take()
        .unwrap()
        .expect("the action ran after ROLLBACK");
    let snap = in_lab(&runner, JOBS_LAB, async |w: &Work| {
        jobs::snapshot(w.db(), &lab.held()).await
    })
    .await;
    assert_eq!(snap.jobs.len(), 1, "the lab's enqueue stays");
    assert!(
        snap.orders.is_empty(),
        "the console's insert was rolled back"
    );

    // A failed statement inside the transaction: named, and ROLLBACK still gets through.
    runner.console(Some(JOBS_LAB), "begin;").await;
    let failed = runner.console(Some(JOBS_LAB), "select 1/0;").await;
    assert!(failed.result().is_err());
    assert_eq!(failed.tx, TxState::Failed);
    assert_eq!(
        runner.console(Some(JOBS_LAB), "rollback;").await.tx,
        TxState::Idle
    );
    runner.db().close().await;
}

#[wasm_bindgen_test]
async fn reset_brings_the_clock_and_the_labs_back_after_the_console_broke_the_session() {
    let runner = open().await;
    in_lab(&runner, JOBS_LAB, async |w: &Work| {
        jobs::Lab::setup(w.db()).await.map(|_| ())
    })
    .await;
    runner
        .console(Some(JOBS_LAB), "drop schema lab cascade;")
        .await;
    assert!(runner.status().get_untracked().clock_missing);
    runner
        .console(Some(JOBS_LAB), "set search_path = public; begin;")
        .await;
    runner.reset().await.expect("reset");
    let status = runner.status().get_untracked();
    assert!(!status.clock_missing && status.tx == TxState::Idle);
    assert_eq!(
        status.generation, 1,
        "labs built before it set themselves up again"
    );
    assert!(runner.state::<jobs::Lab>(JOBS_LAB).is_none());
    let now = in_lab(&runner, JOBS_LAB, async |w: &Work| {
        let mut lab = jobs::Lab::setup(w.db()).await?;
        lab.run(w.db(), Action::Advance(31)).await?;
        queue_lab::clock::now(w.db()).await
    })
    .await;
    assert_eq!(
        now, "2026-01-05 09:00:31+00",
        "lab time again, not the wall clock"
    );
    runner.db().close().await;
}

/// The schema a table named `schema_probe` resolves to in the lab's search path.
const PROBE_SCHEMA_SQL: &str = "select n.nspname::text as schema from pg_class c \
     join pg_namespace n on n.oid = c.relnamespace where c.oid = 'schema_probe'::regclass";

/// Where an unqualified `create table` of `lab` lands.
async fn probe_schema(runner: &Runner, lab: LabId) -> String {
    #[derive(serde::Deserialize)]
    struct Probe {
        schema: String,
    }
    in_lab(runner, lab, async |w: &Work| {
        w.db().exec("create table schema_probe (id int)").await?;
        let at = w.db().query::<Probe>(PROBE_SCHEMA_SQL, &[]).await?;
        w.db().exec("drop table schema_probe").await?;
        Ok(at.first().map(|p| p.schema).unwrap_or_default())
    })
    .await
}

#[wasm_bindgen_test]
async fn each_labs_tables_land_in_the_schema_its_descriptor_names_which_the_runner_makes() {
    let runner = open().await;
    let sql_labs: Vec<(LabId, &str)> = queue_lab::labs::ALL
        .iter()
        .filter_map(|&l| l.schema.map(|s| (l, s)))
        .collect();
    assert!(sql_labs.len() >= 3, "L1, L3 and L4 run SQL: {sql_labs:?}");
    for &(lab, schema) in &sql_labs {
        assert_eq!(probe_schema(&runner, lab).await, schema, "{lab:?}");
    }
    // Dropped by the console, made again after Reset, before the lab's first statement.
    let (lab, schema) = sql_labs[0];
    runner
        .console(Some(lab), &format!("drop schema {schema} cascade"))
        .await;
    runner.reset().await.expect("reset");
    assert_eq!(
        probe_schema(&runner, lab).await,
        schema,
        "{lab:?} after Reset"
    );
    runner.db().close().await;
}

/// L1's actions for one seed.
fn seeded_actions(seed: u64) -> Vec<Action> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let w = |i: u64| WorkerId::ALL[i as usize];
    (0..14)
        .map(|_| match next(9) {
            0 | 1 => Action::Enqueue(EnqueueInput {
                priority: next(3) as i32,
                max_attempts: 1 + next(3) as i32,
                ..EnqueueInput::default()
            }),
            2 => Action::OrderWithJob,
            3 => Action::OrderWithJobFails,
            4 => Action::Claim(w(next(3))),
            5 => Action::Complete(w(next(3))),
            6 => Action::Fail(w(next(3))),
            7 => Action::Die(w(next(3))),
            _ => Action::Advance([1, 10, 31][next(3) as usize]),
        })
        .collect()
}

/// Every outcome and the final tables of L1's actions, run alone or among other labs' work.
async fn l1_trace(
    runner: &Runner,
    actions: Vec<Action>,
    noise: bool,
) -> (Vec<String>, jobs::Snapshot) {
    let mut lab = in_lab(runner, JOBS_LAB, async |w: &Work| {
        jobs::Lab::setup(w.db()).await
    })
    .await;
    let outcomes = Rc::new(RefCell::new(Vec::new()));
    let pending = Rc::new(Cell::new(0));
    let noise_errors = Rc::new(RefCell::new(Vec::<String>::new()));
    for (i, a) in actions.into_iter().enumerate() {
        // Each action is its own piece of work, as a button press is; between them other
        // labs' work is queued, as another page's would be.
        if noise {
            let p = pending.clone();
            p.set(p.get() + 1);
            let lab = if i % 2 == 0 { PGQ_LAB } else { VACUUM_LAB };
            let errors = noise_errors.clone();
            runner.spawn(Scope::Lab(lab), None, async move |w: &Work| {
                // Statements that would hit L1's tables if they leaked into its schema.
                let out = w.db().exec("create table if not exists jobs (id int); insert into jobs values (1); select set_config('lab.clock', '2030-01-01 00:00:00+00', false);").await;
                if let Err(e) = out {
                    errors.borrow_mut().push(e.to_string());
                }
                p.set(p.get() - 1);
                Ok(())
            });
        }
        let (o, l) = {
            let mut l = lab.clone();
            let o = in_lab(runner, JOBS_LAB, async |w: &Work| {
                let o = l.run(w.db(), a).await;
                Ok(format!("{:?}", o.map(|o| o.msg)))
            })
            .await;
            (o, l)
        };
        lab = l;
        outcomes.borrow_mut().push(o);
    }
    while pending.get() > 0 {
        sleep(5).await;
    }
    assert_eq!(
        *noise_errors.borrow(),
        Vec::<String>::new(),
        "the other labs' work ran in their own schemas"
    );
    let snap = in_lab(runner, JOBS_LAB, async |w: &Work| {
        jobs::snapshot(w.db(), &lab.highlighted()).await
    })
    .await;
    let o = outcomes.borrow().clone();
    (o, snap)
}

#[wasm_bindgen_test]
async fn l1_actions_interleaved_with_other_labs_work_end_exactly_as_they_end_alone() {
    let alone = open().await;
    let mixed = open().await;
    let seeds: u64 = option_env!("QUEUE_LAB_SESSION_SEEDS")
        .and_then(|n| n.parse().ok())
        .unwrap_or(24);
    for seed in 0..seeds {
        let actions = seeded_actions(seed);
        let a = l1_trace(&alone, actions.clone(), false).await;
        let b = l1_trace(&mixed, actions, true).await;
        assert_eq!(a.0, b.0, "seed {seed}: outcomes");
        assert_eq!(a.1, b.1, "seed {seed}: tables and lab time");
    }
    alone.db().close().await;
    mixed.db().close().await;
}

/// The runner reads a lab's clock back lazily (with the next piece of another scope), and
/// sets nothing up for a next piece of the same lab: each piece still sees its own lab's
/// path and the time its lab last left, whatever ran between.
#[wasm_bindgen_test]
async fn each_piece_sees_its_labs_clock_as_the_last_piece_left_it() {
    let runner = open().await;
    let now = async |runner: &Runner, lab: LabId| {
        in_lab(runner, lab, async |w: &Work| {
            queue_lab::clock::now(w.db()).await
        })
        .await
    };
    in_lab(&runner, JOBS_LAB, async |w: &Work| {
        queue_lab::clock::advance(w.db(), 10).await
    })
    .await;
    assert_eq!(now(&runner, JOBS_LAB).await, "2026-01-05 09:00:10+00");
    // The console on L1's page, right after L1's piece: L1's time, not the one kept before.
    let reply = runner
        .console(Some(JOBS_LAB), "select now()::text as now")
        .await;
    let rows = reply.result().expect("console select").rows.clone();
    assert_eq!(rows[0][0], "2026-01-05 09:00:10+00");
    // Another lab moves its own clock; L1's is where L1 left it, and back again.
    in_lab(&runner, PGQ_LAB, async |w: &Work| {
        queue_lab::clock::advance(w.db(), 500).await
    })
    .await;
    assert_eq!(now(&runner, JOBS_LAB).await, "2026-01-05 09:00:10+00");
    in_lab(&runner, JOBS_LAB, async |w: &Work| {
        queue_lab::clock::advance(w.db(), 5).await
    })
    .await;
    assert_eq!(now(&runner, PGQ_LAB).await, "2026-01-05 09:08:20+00");
    assert_eq!(now(&runner, JOBS_LAB).await, "2026-01-05 09:00:15+00");
    // Reset (admin work) after a piece of L1 whose clock was not read back yet.
    in_lab(&runner, JOBS_LAB, async |w: &Work| {
        queue_lab::clock::advance(w.db(), 5).await
    })
    .await;
    runner.reset().await.expect("reset");
    assert_eq!(now(&runner, JOBS_LAB).await, "2026-01-05 09:00:00+00");
    runner.db().close().await;
}
