//! What one L1 click costs in round trips to the database's worker, counted by the bridge
//! (every call the page sends it: `Db::round_trips`), against real PGlite in headless
//! Chromium. A click runs as the lab's harness runs it (`labs::harness`): one piece of work
//! on the runner, the action and then the snapshot the view shows.
//!
//! The procedure: open a fresh database, set L1 up as its page does (set-up and snapshot in
//! one piece), then count across a click on Enqueue, and across a click on Claim for worker A
//! right after it, and across a Claim that follows a piece of another lab. The numbers are in
//! docs/ARCHITECTURE.md ("What a click costs").

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
    // A piece of another lab in between: the next L1 click sets L1's path and clock again
    // (one statement, which also reads back the other lab's clock).
    runner
        .run(
            Scope::Lab(queue_lab::labs::vacuum::ID),
            None,
            async |_: &Work| Ok::<(), DbError>(()),
        )
        .await
        .expect("the other lab's piece runs");
    let after_other = click(&runner, Some(Action::Claim(WorkerId::B))).await;
    // The set-up: L1's schema and its path and clock (2), then the lab's own set-up and
    // snapshot. Enqueue: BEGIN, the insert, the NOTIFY, COMMIT, lab time for the delivered
    // notification, the snapshot. Claim: the reap and the claim (sent together), the
    // snapshot. The runner adds nothing to a click that follows its own lab's piece.
    assert_eq!(
        (opened, enqueue, claim, again, after_other),
        (10, 6, 3, 6, 4),
        "round trips: the page's set-up, Enqueue, Claim, Enqueue again, Claim after another lab"
    );
}
