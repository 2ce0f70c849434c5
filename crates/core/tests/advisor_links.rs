//! The links the advisor offers into the other labs: L3 (`vacuum`) always, with the
//! workload's long-transaction switch carried over; L4 (`pgq`) from two consumers of the same
//! events, with their number.

mod common;

use common::*;
use queue_lab_core::advisor::Workload;

fn link(w: &Workload, lab: &str) -> Option<String> {
    ok(w)
        .lab_links
        .iter()
        .find(|l| l.lab == lab)
        .map(|l| l.query())
}

#[test]
fn the_vacuum_link_carries_the_long_transaction_switch() {
    let off = Workload {
        long_transactions: false,
        ..at_rate(10.0)
    };
    let on = Workload {
        long_transactions: true,
        ..at_rate(10.0)
    };
    assert_eq!(link(&off, "vacuum").as_deref(), Some("longtx=0"));
    assert_eq!(link(&on, "vacuum").as_deref(), Some("longtx=1"));
}

#[test]
fn the_pgq_link_appears_from_two_consumers_with_their_number() {
    let consumers = |n: f64| Workload {
        fan_out_consumers: n,
        ..at_rate(10.0)
    };
    assert_eq!(link(&consumers(1.0), "pgq"), None);
    assert_eq!(link(&consumers(2.0), "pgq").as_deref(), Some("consumers=2"));
    assert_eq!(link(&consumers(3.0), "pgq").as_deref(), Some("consumers=3"));
}
