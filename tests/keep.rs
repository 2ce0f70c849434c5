//! A saved lab, against real PGlite in headless Chromium: L1 saved to a file and opened in a
//! fresh PostgreSQL has the same jobs, clock and workers; a file changed by one byte, cut
//! short, or of another lab is refused before any database is touched, and the lab that
//! was open is as it was.

use queue_lab::db::{DbError, Location};
use queue_lab::labs::jobs::model::{Action, EnqueueInput, Lab, Worker, WorkerId};
use queue_lab::labs::LabId;
use queue_lab::runner::{Runner, Scope, Work};
use queue_lab::ui::keep::{self, Kept};
use queue_lab::Lang;
use serde::Deserialize;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const JOBS: LabId = queue_lab::labs::jobs::ID;

/// `work` run as lab `lab`'s, on `runner`; a failure fails the test.
async fn run_as<T>(
    runner: &Runner,
    lab: LabId,
    work: impl AsyncFnOnce(&Work) -> Result<T, DbError>,
) -> T {
    runner
        .run(Scope::Lab(lab), None, work)
        .await
        .unwrap_or_else(|e| panic!("{}'s work failed: {e}", lab.0.tag))
}

/// L1 on a fresh database: three jobs, A and B claim, time moves 45 s, C dies holding
/// nothing, A fails its job (a retry), time moves again: a state no fresh lab has.
async fn worked_lab() -> Runner {
    let runner = Runner::new(queue_lab::testing::fresh_db().await.expect("PGlite opens"));
    let keeper = runner.clone();
    run_as(&runner, JOBS, async move |w: &Work| {
        let db = w.db();
        let mut lab = Lab::setup(db).await?;
        for priority in [0, 5, 1] {
            let input = EnqueueInput {
                priority,
                ..EnqueueInput::default()
            };
            lab.run(db, Action::Enqueue(input)).await?;
        }
        for a in [
            Action::Claim(WorkerId::A),
            Action::Claim(WorkerId::B),
            Action::Advance(45),
            Action::Die(WorkerId::C),
            Action::Fail(WorkerId::A),
            Action::Advance(7),
        ] {
            lab.run(db, a).await?;
        }
        keeper.set_state(JOBS, lab);
        Ok(())
    })
    .await;
    runner
}

#[derive(Deserialize, Debug, PartialEq)]
struct Seen {
    jobs: String,
    now: String,
}

/// The jobs table (every column, in id order) and lab time, read in L1's scope.
async fn seen(runner: &Runner) -> Seen {
    run_as(runner, JOBS, async |w: &Work| {
        let rows = w
            .db()
            .query::<Seen>(
                "select coalesce((select json_agg(j order by j.id)::text from jobs j), '[]') as jobs, now()::text as now",
                &[],
            )
            .await?;
        Ok(rows.first().expect("one row"))
    })
    .await
}

fn workers(runner: &Runner) -> [Worker; 3] {
    runner.state::<Lab>(JOBS).expect("L1 is kept").workers
}

fn pglite(runner: &Runner) -> String {
    runner
        .db()
        .pglite_version()
        .expect("the worker names PGlite's version")
}

async fn saved(runner: &Runner) -> Vec<u8> {
    keep::save(runner, JOBS, Lang::En)
        .await
        .unwrap_or_else(|m| panic!("save refused: {}", m.key))
}

#[wasm_bindgen_test]
async fn a_saved_lab_opens_in_a_fresh_postgres_with_the_same_jobs_clock_and_workers() {
    let runner = worked_lab().await;
    let before = seen(&runner).await;
    assert_eq!(
        before.now, "2026-01-05 09:00:52+00",
        "the clock moved 45 s + 7 s"
    );
    assert!(before.jobs.contains("\"running\""), "{}", before.jobs);
    let file = saved(&runner).await;
    let checked = keep::check(&file, JOBS, &pglite(&runner))
        .await
        .unwrap_or_else(|m| panic!("refused: {}", m.key));
    // Another PostgreSQL, as a reloaded tab has: the saved one's gone.
    runner.db().close().await;
    let at = Location::tests().await.expect("PGlite's test build");
    let (reopened, version) = keep::restore(&at, &checked, JOBS)
        .await
        .unwrap_or_else(|e| panic!("restore failed: {e}"));
    assert!(version.starts_with("18"), "{version}");
    assert_eq!(seen(&reopened).await, before);
    assert_eq!(workers(&reopened), workers(&runner));
    let kept = runner.state::<Lab>(JOBS).unwrap().saved_state();
    assert_eq!(reopened.state::<Lab>(JOBS).unwrap().saved_state(), kept);
    // The reopened lab goes on: B completes the job it claimed before the save.
    let keeper = reopened.clone();
    let done = run_as(&reopened, JOBS, async move |w: &Work| {
        let mut lab = keeper.state::<Lab>(JOBS).unwrap();
        let out = lab.run(w.db(), Action::Complete(WorkerId::B)).await?;
        keeper.set_state(JOBS, lab);
        Ok(out.msg.key)
    })
    .await;
    assert_eq!(done, "jobs.out.completed");
}

#[wasm_bindgen_test]
async fn a_changed_cut_or_foreign_file_is_refused_and_the_open_lab_is_unchanged() {
    let runner = worked_lab().await;
    let before = seen(&runner).await;
    let workers_before = workers(&runner);
    let file = saved(&runner).await;
    let version = pglite(&runner);
    let refused = async |bytes: &[u8], lab: LabId| match keep::check(bytes, lab, &version).await {
        Ok(_) => panic!("a file that should be refused was accepted"),
        Err(m) => m.key,
    };
    // One byte of the dump changed, in its middle.
    let mut tampered = file.clone();
    let at = tampered.len() - (tampered.len() - 200) / 2;
    tampered[at] ^= 0x01;
    assert_eq!(refused(&tampered, JOBS).await, "keep.err.checksum");
    // The manifest's clock changed: the checksum covers it too.
    let text = String::from_utf8_lossy(&file[..200]).into_owned();
    let at = text.find("09:00:52").expect("the clock is in the manifest") + 3;
    let mut moved = file.clone();
    moved[at] = b'1';
    assert_eq!(refused(&moved, JOBS).await, "keep.err.checksum");
    assert_eq!(
        refused(&file[..file.len() - 10], JOBS).await,
        "keep.err.truncated"
    );
    assert_eq!(
        refused(b"not a lab\n", JOBS).await,
        "keep.err.not_saved_lab"
    );
    // L1's file, opened on L4's page.
    assert_eq!(
        refused(&file, queue_lab::labs::pgq::ID).await,
        "keep.err.other_lab"
    );
    assert_eq!(
        keep::check(&file, JOBS, "0.0.1")
            .await
            .err()
            .map(|m| m.key.as_str()),
        Some("keep.err.pglite")
    );
    // Nothing above touched the lab that was open.
    assert_eq!(seen(&runner).await, before);
    assert_eq!(workers(&runner), workers_before);
}

#[wasm_bindgen_test]
async fn save_is_refused_while_the_console_holds_a_transaction() {
    let runner = worked_lab().await;
    runner.console(Some(JOBS), "begin").await;
    let refusal = keep::save(&runner, JOBS, Lang::En)
        .await
        .err()
        .map(|m| m.key.as_str());
    assert_eq!(refusal, Some("keep.err.console_tx"));
    runner.console(Some(JOBS), "rollback").await;
    assert!(keep::save(&runner, JOBS, Lang::En).await.is_ok());
}

const PGQ: LabId = queue_lab::labs::pgq::ID;

#[wasm_bindgen_test]
async fn a_saved_l4_opens_with_its_held_batch_prepared_transaction_and_clock() {
    use queue_lab::labs::harness::LabModel;
    use queue_lab::labs::pgq::model::{self as pgq, Action as P};
    let runner = Runner::new(queue_lab::testing::fresh_db().await.expect("PGlite opens"));
    let consumer = pgq::CONSUMERS[0].to_owned();
    let keeper = runner.clone();
    let c = consumer.clone();
    run_as(&runner, PGQ, async move |w: &Work| {
        let db = w.db();
        let mut lab = pgq::Lab::setup(db).await?;
        for a in [
            P::SendOne,
            P::SendOne,
            P::Tick,
            P::Prepare,
            P::Advance(5),
            P::Receive {
                consumer: c,
                max: 10,
            },
        ] {
            lab.run(db, a).await?;
        }
        keeper.set_state(PGQ, lab);
        Ok(())
    })
    .await;
    let snap = async |runner: &Runner| {
        let keeper = runner.clone();
        run_as(runner, PGQ, async move |w: &Work| {
            let lab = keeper.state::<pgq::Lab>(PGQ).expect("L4 is kept");
            let now = queue_lab::clock::now(w.db()).await?;
            Ok((lab.snapshot(w.db()).await?, now))
        })
        .await
    };
    let before = snap(&runner).await;
    let lab = runner.state::<pgq::Lab>(PGQ).unwrap();
    assert!(lab.inflight.is_some(), "the prepared transaction is open");
    assert!(
        !lab.batches[&consumer].is_empty(),
        "{consumer} holds a batch"
    );
    let file = keep::save(&runner, PGQ, Lang::Ko)
        .await
        .unwrap_or_else(|m| panic!("save refused: {}", m.key));
    let checked = keep::check(&file, PGQ, &pglite(&runner)).await.unwrap();
    assert_eq!(
        keep::check(&file, JOBS, &pglite(&runner))
            .await
            .err()
            .map(|m| m.key.as_str()),
        Some("keep.err.other_lab")
    );
    runner.db().close().await;
    let at = Location::tests().await.unwrap();
    let (reopened, _) = keep::restore(&at, &checked, PGQ)
        .await
        .unwrap_or_else(|e| panic!("restore failed: {e}"));
    assert_eq!(snap(&reopened).await, before);
    assert_eq!(reopened.state::<pgq::Lab>(PGQ).unwrap(), lab);
    // The reopened lab goes on: the held batch is acked, the prepared transaction commits.
    let keeper = reopened.clone();
    run_as(&reopened, PGQ, async move |w: &Work| {
        let mut lab = keeper.state::<pgq::Lab>(PGQ).unwrap();
        lab.run(w.db(), P::AckHeld(consumer)).await?;
        lab.run(w.db(), P::CommitPrepared).await?;
        assert!(lab.inflight.is_none());
        Ok(())
    })
    .await;
}

const VACUUM: LabId = queue_lab::labs::vacuum::ID;

#[wasm_bindgen_test]
async fn a_saved_l3_opens_with_its_results_tables_and_long_transaction() {
    use queue_lab::labs::harness::LabModel;
    use queue_lab::labs::vacuum::model::{self as vacuum, Action as V, RunConfig, Strategy};
    let runner = Runner::new(queue_lab::testing::fresh_db().await.expect("PGlite opens"));
    let keeper = runner.clone();
    let in_l3 = async |runner: &Runner| {
        let keeper = runner.clone();
        runner
            .run(Scope::Lab(VACUUM), None, async move |w: &Work| {
                let lab = keeper.state::<vacuum::Lab>(VACUUM).expect("L3 is kept");
                Ok((lab.snapshot(w.db()).await?, lab))
            })
            .await
            .unwrap_or_else(|e| panic!("L3's work failed: {e}"))
    };
    runner
        .run(Scope::Lab(VACUUM), None, async move |w: &Work| {
            let db = w.db();
            let mut lab = vacuum::Lab::setup(db).await?;
            let run = RunConfig {
                jobs: 200,
                rounds: 1,
                batch: 10,
                // What the page runs without "DELETE + VACUUM" (the share text's flag).
                strategies: vec![
                    Strategy::Keep,
                    Strategy::Delete,
                    Strategy::Rotate,
                    Strategy::Partition,
                ],
            };
            for a in [V::LongTx(true), V::Run(run), V::Select(Strategy::Delete)] {
                lab.act(db, a).await?;
            }
            keeper.set_state(VACUUM, lab);
            Ok(())
        })
        .await
        .unwrap_or_else(|e| panic!("L3's set-up failed: {e}"));
    let (snap, lab) = in_l3(&runner).await;
    assert!(snap.long_tx.is_some(), "the long transaction is open");
    assert!(!lab.state.records.is_empty());
    let file = keep::save(&runner, VACUUM, Lang::En).await.unwrap();
    let checked = keep::check(&file, VACUUM, &pglite(&runner)).await.unwrap();
    runner.db().close().await;
    let at = Location::tests().await.unwrap();
    let (reopened, _) = keep::restore(&at, &checked, VACUUM)
        .await
        .unwrap_or_else(|e| panic!("restore failed: {e}"));
    let (mut reopened_snap, reopened_lab) = in_l3(&reopened).await;
    assert_eq!(reopened_lab, lab);
    // PostgreSQL's cumulative statistics (pg_stat_*: the autovacuum panel's dead rows and
    // inserts since the last VACUUM) are written to disk only at a clean shutdown, so a
    // running server's data directory starts them from zero, as the opened note says.
    let (mut saved_snap, reopened_av) = (snap, reopened_snap.autovac.take());
    let saved_av = saved_snap.autovac.take();
    assert_eq!(reopened_av.as_ref().map(|(_, a)| a.n_dead_tup), Some(0));
    assert!(saved_av.is_some_and(|(_, a)| a.n_dead_tup > 0));
    assert_eq!(reopened_snap, saved_snap);
}
