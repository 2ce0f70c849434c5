//! L4's challenges, in the tour's format (see [`crate::labs::challenge`]): the texts are
//! `pgq.ch.<name>.*` in `assets/i18n/pgq.tsv`, the checks `src/sql/pgq/challenge/`.

use super::model::{Action, Action::*, DEAD_SECONDS, ROTATION_SECONDS};
use super::tour::{ack, late_event, receive};
use crate::db::sql_file;
use crate::keys;
use crate::labs::challenge::{Challenge, Check};

sql_file!(STALL_SQL, "pgq/challenge/stall.sql");
sql_file!(LATE_EVENT_SQL, "pgq/challenge/late_event.sql");
sql_file!(FAN_OUT_SQL, "pgq/challenge/fan_out.sql");
sql_file!(TAKEOVER_SQL, "pgq/challenge/takeover.sql");

/// Subconsumer `sub` of the group audit receives its batch (the lab passes the dead interval).
fn part(sub: &str) -> Action {
    ReceiveCoop {
        consumer: "audit".into(),
        sub: sub.into(),
        max: 100,
    }
}

fn add_sub(sub: &str) -> Action {
    AddSub {
        consumer: "audit".into(),
        sub: sub.into(),
    }
}

pub const CHALLENGES: [Challenge<Action>; 4] = [
    Challenge {
        id: "pgq-stall",
        goal: keys::PGQ_CH_STALL_GOAL,
        start: Vec::new,
        check: Check::Sql(STALL_SQL),
        hints: &[
            keys::PGQ_CH_STALL_HINT_1,
            keys::PGQ_CH_STALL_HINT_2,
            keys::PGQ_CH_STALL_HINT_3,
        ],
        solution_text: keys::PGQ_CH_STALL_SOLUTION,
        solution: || {
            vec![
                SendOne,
                Tick,
                receive("email"),
                ack("email"),
                Advance(ROTATION_SECONDS + 1),
            ]
        },
        why: keys::PGQ_CH_STALL_WHY,
    },
    Challenge {
        id: "pgq-late-event",
        goal: keys::PGQ_CH_LATE_GOAL,
        start: Vec::new,
        check: Check::Sql(LATE_EVENT_SQL),
        hints: &[
            keys::PGQ_CH_LATE_HINT_1,
            keys::PGQ_CH_LATE_HINT_2,
            keys::PGQ_CH_LATE_HINT_3,
        ],
        solution_text: keys::PGQ_CH_LATE_SOLUTION,
        solution: late_event,
        why: keys::PGQ_CH_LATE_WHY,
    },
    Challenge {
        id: "pgq-fan-out",
        goal: keys::PGQ_CH_FANOUT_GOAL,
        start: Vec::new,
        check: Check::Sql(FAN_OUT_SQL),
        hints: &[
            keys::PGQ_CH_FANOUT_HINT_1,
            keys::PGQ_CH_FANOUT_HINT_2,
            keys::PGQ_CH_FANOUT_HINT_3,
        ],
        solution_text: keys::PGQ_CH_FANOUT_SOLUTION,
        solution: || {
            vec![
                Subscribe("audit".into()),
                SendOne,
                Tick,
                receive("billing"),
                receive("audit"),
            ]
        },
        why: keys::PGQ_CH_FANOUT_WHY,
    },
    Challenge {
        id: "pgq-takeover",
        goal: keys::PGQ_CH_TAKEOVER_GOAL,
        // audit is a cooperative group of two members, with events in two tick intervals.
        start: || {
            vec![
                Subscribe("audit".into()),
                add_sub("w1"),
                add_sub("w2"),
                Burst(3),
                Tick,
                Burst(3),
                Tick,
            ]
        },
        check: Check::Sql(TAKEOVER_SQL),
        hints: &[
            keys::PGQ_CH_TAKEOVER_HINT_1,
            keys::PGQ_CH_TAKEOVER_HINT_2,
            keys::PGQ_CH_TAKEOVER_HINT_3,
        ],
        solution_text: keys::PGQ_CH_TAKEOVER_SOLUTION,
        solution: || {
            vec![
                part("w1"),
                part("w2"),
                Kill {
                    consumer: "audit".into(),
                    sub: "w1".into(),
                },
                AckCoop {
                    consumer: "audit".into(),
                    sub: "w2".into(),
                },
                Advance(DEAD_SECONDS + 1),
                part("w2"),
            ]
        },
        why: keys::PGQ_CH_TAKEOVER_WHY,
    },
];
