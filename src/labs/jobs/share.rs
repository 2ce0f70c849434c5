//! L1's share text: its actions as a compact string for the URL, and back.

use super::model::{parse_key, EnqueueInput};
use super::model::{Action, WorkerId, BURST_RANGE};
use crate::clock;
use crate::keys;
use crate::labs::share;
use queue_lab_core::i18n::Msg;

/// Actions as a compact text for the share URL, e.g. `o;r;cA;xA;t31` (see `labs::share`).
pub fn encode(actions: &[Action]) -> String {
    share::encode(actions, |a| match a {
        Action::Enqueue(i) => format!(
            "e{},{},{},{}",
            i.priority,
            i.delay_seconds,
            i.max_attempts,
            queue_lab_core::url::encode_token(&serde_json::json!([i.queue, i.payload]).to_string())
        ),
        Action::OrderWithJob => "o".into(),
        Action::OrderWithJobFails => "r".into(),
        Action::Claim(w) => format!("c{}", w.letter()),
        Action::Complete(w) => format!("d{}", w.letter()),
        Action::Fail(w) => format!("f{}", w.letter()),
        Action::Die(w) => format!("x{}", w.letter()),
        Action::Heartbeat(w) => format!("h{}", w.letter()),
        Action::Advance(s) => format!("t{s}"),
        Action::Requeue(id) => format!("q{id}"),
        Action::Disconnect => "u".into(),
        Action::Reconnect => "l".into(),
        Action::NotifyBytes(n) => format!("n{n}"),
        Action::EnqueueKeyed(k) => format!("k{}", queue_lab_core::url::encode_token(k)),
        Action::PerKeyClaim(on) => format!("s{}", share::flag(*on)),
        Action::DeleteOnComplete(on) => format!("g{}", share::flag(*on)),
        Action::DualWriteLost => "b".into(),
        Action::DualWriteGhost => "p".into(),
        Action::Effect(w) => format!("i{}", w.letter()),
        Action::NotifyBurst(n) => format!("z{n}"),
    })
}

/// The inverse of `encode`; an unreadable step is refused with its position. Links made
/// before the one codec (steps joined by `.`) still open.
pub fn decode(text: &str) -> Result<Vec<Action>, Msg> {
    share::decode(text, '.', keys::JOBS_ERR_SHARE, step)
}

/// One step of the text, or `None`.
fn step(s: &share::Step) -> Option<Action> {
    let rest = s.rest;
    let worker = || {
        rest.chars()
            .next()
            .and_then(WorkerId::parse)
            .filter(|_| rest.len() == 1)
    };
    Some(match s.kind {
        'o' => s.bare().map(|()| Action::OrderWithJob)?,
        'r' => s.bare().map(|()| Action::OrderWithJobFails)?,
        'u' => s.bare().map(|()| Action::Disconnect)?,
        'l' => s.bare().map(|()| Action::Reconnect)?,
        'b' => s.bare().map(|()| Action::DualWriteLost)?,
        'p' => s.bare().map(|()| Action::DualWriteGhost)?,
        'i' => Action::Effect(worker()?),
        'z' => Action::NotifyBurst(
            rest.parse::<u32>()
                .ok()
                .filter(|n| (BURST_RANGE.0..=BURST_RANGE.1).contains(n))?,
        ),
        'c' => Action::Claim(worker()?),
        'd' => Action::Complete(worker()?),
        'f' => Action::Fail(worker()?),
        'x' => Action::Die(worker()?),
        'h' => Action::Heartbeat(worker()?),
        't' => Action::Advance(
            rest.parse::<i64>()
                .ok()
                .filter(|s| (1..=clock::MAX_STEP_SECONDS).contains(s))?,
        ),
        'q' => Action::Requeue(rest.parse().ok()?),
        'k' => Action::EnqueueKeyed(
            queue_lab_core::url::decode_token(rest).and_then(|k| parse_key(&k).ok())?,
        ),
        's' => Action::PerKeyClaim(share::read_flag(rest)?),
        'g' => Action::DeleteOnComplete(share::read_flag(rest)?),
        'n' => Action::NotifyBytes(rest.parse::<usize>().ok().filter(|n| *n <= 100_000)?),
        'e' => {
            let [p, d, m, t] = rest.splitn(4, ',').collect::<Vec<_>>()[..] else {
                return None;
            };
            let text = queue_lab_core::url::decode_token(t)?;
            let pair: (String, serde_json::Value) = serde_json::from_str(&text).ok()?;
            let input = EnqueueInput::parse(&pair.0, &pair.1.to_string(), p, d, m).ok()?;
            Action::Enqueue(input)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_text_round_trips_every_action() {
        let actions = vec![
            Action::Enqueue(
                EnqueueInput::parse("q 1", r#"{"a":"é ~.,"}"#, "-3", "5", "2").unwrap(),
            ),
            Action::OrderWithJob,
            Action::OrderWithJobFails,
            Action::Claim(WorkerId::A),
            Action::Complete(WorkerId::B),
            Action::Fail(WorkerId::C),
            Action::Die(WorkerId::A),
            Action::Heartbeat(WorkerId::B),
            Action::Advance(31),
            Action::Requeue(7),
            Action::Disconnect,
            Action::Reconnect,
            Action::NotifyBytes(8000),
            Action::EnqueueKeyed("k-1".into()),
            Action::PerKeyClaim(true),
            Action::PerKeyClaim(false),
            Action::DeleteOnComplete(true),
            Action::DeleteOnComplete(false),
            Action::DualWriteLost,
            Action::DualWriteGhost,
            Action::Effect(WorkerId::C),
            Action::NotifyBurst(1000),
        ];
        let text = encode(&actions);
        assert!(
            text.chars()
                .all(|c| c.is_ascii_alphanumeric() || ";,~-".contains(c)),
            "{text}"
        );
        assert_eq!(decode(&text), Ok(actions));
    }

    #[test]
    fn a_link_made_before_the_one_codec_still_opens() {
        let old = "o.r.cA.xA.t31";
        let want = vec![
            Action::OrderWithJob,
            Action::OrderWithJobFails,
            Action::Claim(WorkerId::A),
            Action::Die(WorkerId::A),
            Action::Advance(31),
        ];
        assert_eq!(decode(old), Ok(want.clone()));
        assert_eq!(encode(&want), "o;r;cA;xA;t31");
    }

    #[test]
    fn share_text_refuses_garbage_with_the_step_number() {
        assert_eq!(
            decode("o;cZ").map_err(|m| m.args[0].1.clone()),
            Err("2".to_string())
        );
        assert_eq!(
            decode("o.cZ").map_err(|m| m.args[0].1.clone()),
            Err("2".to_string())
        );
        assert!(decode("t0").is_err());
        assert!(decode("e1,2").is_err());
        assert!(decode("w").is_err());
        assert!(decode("g2").is_err());
        assert!(decode("g").is_err());
        assert!(decode("z0").is_err());
        assert!(decode("z10001").is_err());
        assert!(decode("iD").is_err());
    }
}
