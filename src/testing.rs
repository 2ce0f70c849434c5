//! For the headless tests: a fresh database as the shell leaves it at start, and a lab's
//! actions run as its buttons run them.

use crate::db::{Db, DbError};
use crate::labs::harness::{LabModel, Outcome};
use std::fmt::Debug;

/// A fresh PostgreSQL with the lab clock (`lab.now()`) installed, as the labs find it.
pub async fn fresh_db() -> Result<Db, DbError> {
    let db = Db::open_for_tests().await?;
    crate::clock::install(&db).await?;
    Ok(db)
}

/// `lab` runs `action` as its buttons do; the test fails, naming the action, if it fails.
pub async fn run<L: LabModel>(lab: &mut L, db: &Db, action: L::Action) -> L::Outcome
where
    L::Action: Debug,
{
    let named = format!("{action:?}");
    lab.act(db, action)
        .await
        .unwrap_or_else(|e| panic!("{named} failed: {e}"))
}

/// [`run`] for each of `actions`, in order.
pub async fn run_all<L: LabModel>(
    lab: &mut L,
    db: &Db,
    actions: impl IntoIterator<Item = L::Action>,
) where
    L::Action: Debug,
{
    for a in actions {
        run(lab, db, a).await;
    }
}

/// [`run`], and the outcome's message is `key`.
pub async fn run_says<L: LabModel<Outcome = Outcome>>(
    lab: &mut L,
    db: &Db,
    action: L::Action,
    key: &str,
) -> Outcome
where
    L::Action: Debug,
{
    let out = run(lab, db, action).await;
    assert_eq!(out.msg.key, key, "{:?}", out.msg);
    out
}
