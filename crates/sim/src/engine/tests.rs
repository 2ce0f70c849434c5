use super::*;

/// Replays the lock trace: a row may be acquired only when free, and released only by
/// its holder.
fn assert_one_holder_at_a_time(trace: &[LockEvent]) {
    use std::collections::HashMap;
    let mut holder: HashMap<u32, u16> = HashMap::new();
    for e in trace {
        if e.acquired {
            if let Some(h) = holder.get(&e.row) {
                panic!(
                    "row {} acquired by worker {} at {} µs while worker {h} holds it",
                    e.row, e.worker, e.t
                );
            }
            holder.insert(e.row, e.worker);
        } else {
            assert_eq!(
                holder.remove(&e.row),
                Some(e.worker),
                "row {} released at {} µs by a worker that did not hold it",
                e.row,
                e.t
            );
        }
    }
    assert!(holder.is_empty(), "locks still held at the end: {holder:?}");
}

#[test]
fn a_row_lock_is_held_by_one_transaction_at_a_time() {
    for strategy in [
        Strategy::ForUpdate,
        Strategy::SkipLockedTx,
        Strategy::SkipLockedLease,
    ] {
        for seed in 0..5 {
            let params = Params {
                strategy,
                workers: 8,
                jobs: 300,
                seed,
                ..Params::default()
            };
            let (out, trace) = simulate_traced(&params).expect("valid params");
            assert!(
                trace.len() >= 2 * params.jobs as usize,
                "{strategy}: every job's row must be locked and released"
            );
            assert_one_holder_at_a_time(&trace);
            if strategy == Strategy::ForUpdate {
                assert!(out.lock_waits > 0, "FOR UPDATE workers must queue on locks");
            }
        }
    }
}

#[test]
fn the_lock_check_catches_a_second_holder() {
    let trace = [
        LockEvent {
            t: 0,
            row: 3,
            worker: 0,
            acquired: true,
        },
        LockEvent {
            t: 1,
            row: 3,
            worker: 1,
            acquired: true,
        },
    ];
    let caught = std::panic::catch_unwind(|| assert_one_holder_at_a_time(&trace));
    assert!(caught.is_err());
}

#[test]
fn the_agenda_returns_events_in_time_then_worker_order() {
    let mut agenda = Agenda::new(5);
    agenda.set(3, 10, START);
    agenda.set(4, 5, START);
    agenda.set(1, 5, START);
    agenda.set(0, 7, START);
    let mut order = Vec::new();
    while let Some((t, w)) = agenda.peek() {
        order.push((t, w));
        agenda.clear(w);
    }
    assert_eq!(order, vec![(5, 1), (5, 4), (7, 0), (10, 3)]);
}
