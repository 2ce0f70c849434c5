//! What the page shows of the runner's queue: who waits for what.

use super::*;
use crate::labs::{jobs, vacuum};

fn queued(lab: LabId, since: f64) -> Status {
    Status {
        queued: vec![lab],
        queued_since: vec![(lab, since)],
        ..Status::default()
    }
}

fn running(scope: Scope, sql: Option<&str>) -> Option<Running> {
    Some(Running {
        scope,
        what: None,
        sql: sql.map(str::to_owned),
        since: 0.0,
    })
}

#[test]
fn a_lab_queued_behind_the_console_waits_for_the_console_statement_since_it_was_asked() {
    let mut s = queued(jobs::ID, 12.0);
    s.running = running(Scope::Console(Some(jobs::ID)), Some("select pg_sleep(20)"));
    assert_eq!(
        s.waiting(jobs::ID),
        Some(Waiting {
            blocker: Blocker::Console("select pg_sleep(20)".into()),
            since: 12.0
        })
    );
    assert_eq!(
        s.waiting(vacuum::ID),
        None,
        "a lab with nothing queued waits for nothing"
    );
}

#[test]
fn a_lab_behind_its_own_work_waits_for_nothing_else_and_behind_another_lab_names_it() {
    let mut s = queued(jobs::ID, 1.0);
    s.running = running(Scope::Lab(jobs::ID), None);
    assert_eq!(s.waiting(jobs::ID), None);
    s.running = running(Scope::Lab(vacuum::ID), None);
    assert_eq!(
        s.waiting(jobs::ID).map(|w| w.blocker),
        Some(Blocker::Lab(vacuum::ID, None))
    );
    s.running = running(Scope::Admin, None);
    assert_eq!(s.waiting(jobs::ID).map(|w| w.blocker), Some(Blocker::Reset));
    s.running = None;
    s.tx = TxState::Open;
    assert_eq!(
        s.waiting(jobs::ID).map(|w| w.blocker),
        Some(Blocker::ConsoleTx)
    );
}
