use super::*;
use crate::params::Durations;

#[path = "../../tests/common/workloads.rs"]
mod workloads;

/// As [`simulate`], with every reply handled as an event of its own at its arrival: the
/// engine before replies were handled ahead, which a run's outputs must not tell apart.
fn simulate_every_reply_an_event(params: &Params) -> Result<Outcome, ParamError> {
    params.validate()?;
    let mut sim = Sim::new(params, false);
    sim.replies_ahead = false;
    sim.run(&mut |_| {});
    Ok(sim.into_outcome())
}

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

/// Replies handled ahead (once recording is over) and statements they send ahead change no
/// output: every field, timeline and span included, for every strategy, with and without an
/// execution limit, at zero latency, and with recording over from the start or part-way.
#[test]
fn replies_handled_ahead_give_the_outputs_of_one_event_per_reply() {
    let mut cases = Vec::new();
    for timeline_limit in [0, 30, 10_000] {
        cases.push(Params {
            jobs: 2_000,
            timeline_limit,
            ..Params::default()
        });
        cases.push(Params {
            timeline_limit,
            ..workloads::long_tail()
        });
        cases.push(workloads::keyed_burst(timeline_limit));
        cases.push(workloads::no_latency(timeline_limit));
        cases.push(Params {
            workers: 12,
            jobs: 1_500,
            max_executions: Some(2_500),
            seed: 11,
            timeline_limit,
            ..Params::default()
        });
    }
    let mut handled_ahead = 0;
    for base in cases {
        for strategy in Strategy::ALL {
            let p = Params {
                strategy,
                ..base.clone()
            };
            let ahead = simulate(&p).expect("valid params");
            let one_by_one = simulate_every_reply_an_event(&p).expect("valid params");
            assert_eq!(ahead, one_by_one, "{strategy}, {p:?}");
            handled_ahead += usize::from(ahead.timeline_truncated);
        }
    }
    assert!(handled_ahead >= 24, "the cases reach the end of recording");
}

/// A row's lock queue serves its waiters in the order they came, whatever leaves it between
/// two arrivals, and the queues of two rows do not mix.
#[test]
fn a_rows_lock_waiters_leave_in_the_order_they_came() {
    let mut q = locks::LockQueues::new(4, 8);
    assert_eq!(q.pop(2), None);
    for w in [5, 1, 7] {
        q.push(2, w);
    }
    q.push(3, 0);
    assert_eq!(q.pop(2), Some(5));
    q.push(2, 4);
    q.push(3, 6);
    let mut order = Vec::new();
    while let Some(w) = q.pop(2) {
        order.push(w);
    }
    assert_eq!(order, [1, 7, 4]);
    assert_eq!([q.pop(3), q.pop(3), q.pop(3)], [Some(0), Some(6), None]);
    // Emptied, a queue starts again from nobody.
    q.push(2, 3);
    assert_eq!([q.pop(2), q.pop(2)], [Some(3), None]);
}
