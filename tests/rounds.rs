//! What one L1 click costs in round trips to the database's worker, counted by the bridge
//! (every call the page sends it: `Db::round_trips`), against real PGlite in headless
//! Chromium. A click runs as the lab's harness runs it (`labs::harness`): one piece of work
//! on the runner, the action and then the snapshot the view shows.
//!
//! The procedure: open a fresh database, set L1 up as its page does (set-up and snapshot in
//! one piece), then count across a click on Enqueue, and across a click on Claim for worker A
//! right after it. The counts are the numbers in docs/ARCHITECTURE.md ("What a click costs").

use queue_lab::db::DbError;
use queue_lab::labs::harness::LabModel;
use queue_lab::labs::jobs::model::{Action, EnqueueInput, Lab, WorkerId};
use queue_lab::labs::LabId;
use queue_lab::runner::{Runner, Scope, Work};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const JOBS: LabId = queue_lab::labs::jobs::ID;

/// One click as the harness runs it: the action on the runner's state, then the snapshot;
/// returns the round trips it took.
async fn click(runner: &Runner, action: Option<Action>) -> u64 {
    let before = runner.db().round_trips();
    let owner = runner.clone();
    runner
        .run(Scope::Lab(JOBS), None, async move |w: &Work| {
            let db = w.db();
            let mut lab = match &action {
                None => Lab::setup(db).await?,
                Some(_) => owner.state::<Lab>(JOBS).expect("L1 is set up"),
            };
            lab.start_run();
            if let Some(a) = action {
                lab.act(db, a).await?;
            }
            owner.set_state(JOBS, lab.clone());
            lab.snapshot(db).await?;
            Ok::<(), DbError>(())
        })
        .await
        .expect("the click runs");
    runner.db().round_trips() - before
}

#[wasm_bindgen_test]
async fn one_l1_click_costs_the_round_trips_its_sql_needs() {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    let runner = Runner::new(db);
    let opened = click(&runner, None).await;
    let enqueue = click(&runner, Some(Action::Enqueue(EnqueueInput::default()))).await;
    let claim = click(&runner, Some(Action::Claim(WorkerId::A))).await;
    let again = click(&runner, Some(Action::Enqueue(EnqueueInput::default()))).await;
    assert_eq!(
        (opened, enqueue, claim, again),
        (0, 0, 0, 0),
        "round trips: the page's set-up, Enqueue, Claim, Enqueue again"
    );
}
