//! L4's share link: the lab's actions as text and back.

use super::model::Action;
use super::sql::{MAX_BURST, MAX_DELAY, MAX_RECEIVE, NAMES, SUBS};
use crate::keys;
use crate::labs::share;
use queue_lab_core::i18n::Msg;

/// The actions as a share link's text: one letter per action, values after it, actions
/// joined by `labs::share`'s separator (`s;s;k;vbilling,100;abilling`). Consumer names are
/// the lab's own.
pub fn encode(actions: &[Action]) -> String {
    let flag = |on: &bool| share::flag(*on);
    share::encode(actions, |a| match a {
        Action::SendOne => "s".to_owned(),
        Action::Burst(n) => format!("b{n}"),
        Action::SendRollback => "r".into(),
        Action::Prepare => "p".into(),
        Action::CommitPrepared => "P".into(),
        Action::RollbackPrepared => "R".into(),
        Action::Tick => "k".into(),
        Action::Receive { consumer, max } => format!("v{consumer},{max}"),
        Action::Ack { consumer, batch } => format!("a{consumer},{batch}"),
        Action::AckHeld(consumer) => format!("h{consumer}"),
        Action::Nack {
            consumer,
            batch,
            msg,
            delay,
        } => format!("n{consumer},{batch},{msg},{delay}"),
        Action::Maint => "m".into(),
        Action::RetryEvents => "y".into(),
        Action::Replay(id) => format!("d{id}"),
        Action::Advance(s) => format!("t{s}"),
        Action::Schedule(on) => format!("S{}", flag(on)),
        Action::Subscribe(c) => format!("u{c}"),
        Action::Unsubscribe(c) => format!("U{c}"),
        Action::AddSub { consumer, sub } => format!("g{consumer},{sub}"),
        Action::RemoveSub { consumer, sub } => format!("G{consumer},{sub}"),
        Action::ReceiveCoop { consumer, sub, max } => format!("w{consumer},{sub},{max}"),
        Action::AckCoop { consumer, sub } => format!("x{consumer},{sub}"),
        Action::Kill { consumer, sub } => format!("K{consumer},{sub}"),
    })
}

/// Reads [`encode`]'s text back; every value is checked against the lab's limits, so a
/// hand-edited link is refused with the step it could not read. Links made before the one
/// codec (steps joined by `.`) still open.
pub fn decode(text: &str) -> Result<Vec<Action>, Msg> {
    share::decode(text, '.', keys::PGQ_ERR_SHARE, step)
}

/// One step of the text, or `None`.
fn step(s: &share::Step) -> Option<Action> {
    let int = |p: &str, lo: i64, hi: i64| p.parse::<i64>().ok().filter(|v| (lo..=hi).contains(v));
    let sub = |p: &str| SUBS.iter().find(|c| **c == p).map(|c| (*c).to_owned());
    let consumer = |p: &str| NAMES.iter().find(|c| **c == p).map(|c| (*c).to_owned());
    // An action on one member of a cooperative consumer: the consumer's and the member's names.
    let member = |c: &str, s: &str, action: fn(String, String) -> Action| {
        Some(action(consumer(c)?, sub(s)?))
    };
    Some(match (s.kind, s.parts.as_slice()) {
        ('s', _) => s.bare().map(|()| Action::SendOne)?,
        ('r', _) => s.bare().map(|()| Action::SendRollback)?,
        ('p', _) => s.bare().map(|()| Action::Prepare)?,
        ('P', _) => s.bare().map(|()| Action::CommitPrepared)?,
        ('R', _) => s.bare().map(|()| Action::RollbackPrepared)?,
        ('k', _) => s.bare().map(|()| Action::Tick)?,
        ('m', _) => s.bare().map(|()| Action::Maint)?,
        ('y', _) => s.bare().map(|()| Action::RetryEvents)?,
        ('b', [n]) => Action::Burst(int(n, 1, MAX_BURST)?),
        ('v', [c, max]) => Action::Receive {
            consumer: consumer(c)?,
            max: int(max, 1, MAX_RECEIVE)?,
        },
        ('a', [c, batch]) => Action::Ack {
            consumer: consumer(c)?,
            batch: int(batch, 1, i64::MAX)?,
        },
        ('h', [c]) => Action::AckHeld(consumer(c)?),
        ('n', [c, batch, msg, delay]) => Action::Nack {
            consumer: consumer(c)?,
            batch: int(batch, 1, i64::MAX)?,
            msg: int(msg, 1, i64::MAX)?,
            delay: int(delay, 0, MAX_DELAY)?,
        },
        ('d', [id]) => Action::Replay(int(id, 1, i64::MAX)?),
        ('t', [s]) => Action::Advance(int(s, 1, crate::clock::MAX_STEP_SECONDS)?),
        ('S', [f]) => Action::Schedule(share::read_flag(f)?),
        // Links made before the scheduler: auto-tick (T) and auto-maint (M) switched the
        // ticker and maint on clock moves; PgQue's schedule runs both, so either one switches it.
        ('T' | 'M', [f]) => Action::Schedule(share::read_flag(f)?),
        ('u', [c]) => Action::Subscribe(consumer(c)?),
        ('U', [c]) => Action::Unsubscribe(consumer(c)?),
        ('g', [c, s]) => member(c, s, |consumer, sub| Action::AddSub { consumer, sub })?,
        ('G', [c, s]) => member(c, s, |consumer, sub| Action::RemoveSub { consumer, sub })?,
        ('w', [c, s, max]) => Action::ReceiveCoop {
            consumer: consumer(c)?,
            sub: sub(s)?,
            max: int(max, 1, MAX_RECEIVE)?,
        },
        ('x', [c, s]) => member(c, s, |consumer, sub| Action::AckCoop { consumer, sub })?,
        ('K', [c, s]) => member(c, s, |consumer, sub| Action::Kill { consumer, sub })?,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::model::Action;

    #[test]
    fn a_share_link_round_trips_and_refuses_what_the_lab_would_refuse() {
        let all = vec![
            Action::SendOne,
            Action::Burst(5),
            Action::SendRollback,
            Action::Prepare,
            Action::CommitPrepared,
            Action::RollbackPrepared,
            Action::Tick,
            Action::Receive {
                consumer: "billing".into(),
                max: 100,
            },
            Action::Ack {
                consumer: "email".into(),
                batch: 3,
            },
            Action::AckHeld("billing".into()),
            Action::Nack {
                consumer: "billing".into(),
                batch: 4,
                msg: 2,
                delay: 0,
            },
            Action::Maint,
            Action::RetryEvents,
            Action::Replay(1),
            Action::Advance(31),
            Action::Schedule(true),
            Action::Schedule(false),
            Action::Subscribe("audit".into()),
            Action::AddSub {
                consumer: "audit".into(),
                sub: "w1".into(),
            },
            Action::ReceiveCoop {
                consumer: "audit".into(),
                sub: "w1".into(),
                max: 10,
            },
            Action::AckCoop {
                consumer: "audit".into(),
                sub: "w1".into(),
            },
            Action::Kill {
                consumer: "audit".into(),
                sub: "w2".into(),
            },
            Action::RemoveSub {
                consumer: "audit".into(),
                sub: "w2".into(),
            },
            Action::Unsubscribe("audit".into()),
        ];
        assert_eq!(super::decode(&super::encode(&all)), Ok(all));
        for bad in [
            "x",
            "s1",
            "b0",
            "vnobody,10",
            "vbilling,100000",
            "t0",
            "T2",
            "n,1,1,1",
            "unobody",
            "gaudit,w9",
            "waudit,w1,0",
            "Kaudit",
        ] {
            let err = super::decode(bad).expect_err(bad);
            assert_eq!(err.key, crate::keys::PGQ_ERR_SHARE);
        }
    }

    #[test]
    fn a_link_made_before_the_one_codec_still_opens() {
        let want = vec![
            Action::SendOne,
            Action::Tick,
            Action::Receive {
                consumer: "billing".into(),
                max: 100,
            },
        ];
        assert_eq!(super::decode("s.k.vbilling,100"), Ok(want.clone()));
        assert_eq!(super::encode(&want), "s;k;vbilling,100");
    }
}
