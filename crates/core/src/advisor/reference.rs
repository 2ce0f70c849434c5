//! Reference data from the article: the small queue interface §8 advises to keep the queue
//! behind ([`INTERFACE`]) and the throughput figures it cites ([`REFERENCES`]).

use super::messages::Msg;
use super::SECONDS_PER_DAY;
use crate::i18n::Key;
use crate::keys;

/// One operation of the small interface §8 advises to keep the queue behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterfaceOp {
    /// `enqueue`, `dequeue`, `ack` or `fail`.
    pub op: &'static str,
    /// What it does on Postgres, and what it becomes on SQS and on a log.
    pub key: Key,
}

/// The sentence above the interface list.
pub const INTERFACE_INTRO_KEY: Key = keys::LEAVE_INTERFACE_INTRO;

pub const INTERFACE: [InterfaceOp; 4] = [
    InterfaceOp {
        op: "enqueue",
        key: keys::LEAVE_INTERFACE_ENQUEUE,
    },
    InterfaceOp {
        op: "dequeue",
        key: keys::LEAVE_INTERFACE_DEQUEUE,
    },
    InterfaceOp {
        op: "ack",
        key: keys::LEAVE_INTERFACE_ACK,
    },
    InterfaceOp {
        op: "fail",
        key: keys::LEAVE_INTERFACE_FAIL,
    },
];

/// A throughput figure the article cites (§7, §8), per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReferenceFigure {
    pub id: &'static str,
    /// The sentence, with `{low}` and `{high}`.
    pub key: Key,
    pub low_per_s: f64,
    /// Equal to `low_per_s` for a single figure.
    pub high_per_s: f64,
    /// Measured on PostgreSQL (Solid Queue's figure is on MySQL; SQS is not a database).
    pub on_postgres: bool,
}

impl ReferenceFigure {
    pub fn msg(&self) -> Msg {
        Msg::new(self.key)
            .num("low", self.low_per_s)
            .num("high", self.high_per_s)
    }
}

/// The article's reference figures, in the order §8 gives them.
pub const REFERENCES: [ReferenceFigure; 7] = [
    ReferenceFigure {
        id: "graphile_worker",
        key: keys::LEAVE_REF_GRAPHILE_WORKER,
        low_per_s: 180_000.0,
        high_per_s: 180_000.0,
        on_postgres: true,
    },
    ReferenceFigure {
        id: "river",
        key: keys::LEAVE_REF_RIVER,
        low_per_s: 46_000.0,
        high_per_s: 46_000.0,
        on_postgres: true,
    },
    ReferenceFigure {
        id: "hatchet",
        key: keys::LEAVE_REF_HATCHET,
        low_per_s: 10_000.0,
        high_per_s: 10_000.0,
        on_postgres: true,
    },
    ReferenceFigure {
        id: "sqs_fifo",
        key: keys::LEAVE_REF_SQS_FIFO,
        low_per_s: 300.0,
        high_per_s: 300.0,
        on_postgres: false,
    },
    ReferenceFigure {
        id: "sqs_fifo_batched",
        key: keys::LEAVE_REF_SQS_FIFO_BATCHED,
        low_per_s: 3_000.0,
        high_per_s: 3_000.0,
        on_postgres: false,
    },
    ReferenceFigure {
        id: "sqs_fifo_high_throughput",
        key: keys::LEAVE_REF_SQS_FIFO_HIGH_THROUGHPUT,
        low_per_s: 9_000.0,
        high_per_s: 70_000.0,
        on_postgres: false,
    },
    ReferenceFigure {
        id: "solid_queue",
        key: keys::LEAVE_REF_SOLID_QUEUE,
        low_per_s: 20_000_000.0 / SECONDS_PER_DAY,
        high_per_s: 20_000_000.0 / SECONDS_PER_DAY,
        on_postgres: false,
    },
];
