//! L1's share text: its actions as a compact string for the URL, and back.

use super::model::{parse_key, EnqueueInput};
use super::model::{Action, WorkerId, BURST_RANGE};
use crate::clock;
use queue_lab_core::i18n::Msg;

/// Actions as a compact text for the share URL, e.g. `o.r.c.A.x.A.t31`.
pub fn encode(actions: &[Action]) -> String {
    actions
        .iter()
        .map(|a| match a {
            Action::Enqueue(i) => format!(
                "e{},{},{},{}",
                i.priority,
                i.delay_seconds,
                i.max_attempts,
                queue_lab_core::url::encode_token(
                    &serde_json::json!([i.queue, i.payload]).to_string()
                )
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
            Action::PerKeyClaim(on) => format!("s{}", u8::from(*on)),
            Action::DeleteOnComplete(on) => format!("g{}", u8::from(*on)),
            Action::DualWriteLost => "b".into(),
            Action::DualWriteGhost => "p".into(),
            Action::Effect(w) => format!("i{}", w.letter()),
            Action::NotifyBurst(n) => format!("z{n}"),
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The inverse of `encode`; an unreadable step is refused with its position.
pub fn decode(text: &str) -> Result<Vec<Action>, Msg> {
    let mut actions = Vec::new();
    for (i, step) in text.split('.').filter(|s| !s.is_empty()).enumerate() {
        let bad = || Msg::new("jobs.err.share").arg("n", i + 1).arg("step", step);
        let mut chars = step.chars();
        let kind = chars.next().ok_or_else(bad)?;
        let rest: String = chars.collect();
        let worker = || {
            rest.chars()
                .next()
                .and_then(WorkerId::parse)
                .filter(|_| rest.len() == 1)
                .ok_or_else(bad)
        };
        let action = match kind {
            'o' if rest.is_empty() => Action::OrderWithJob,
            'r' if rest.is_empty() => Action::OrderWithJobFails,
            'u' if rest.is_empty() => Action::Disconnect,
            'l' if rest.is_empty() => Action::Reconnect,
            'b' if rest.is_empty() => Action::DualWriteLost,
            'p' if rest.is_empty() => Action::DualWriteGhost,
            'i' => Action::Effect(worker()?),
            'z' => Action::NotifyBurst(
                rest.parse::<u32>()
                    .ok()
                    .filter(|n| (BURST_RANGE.0..=BURST_RANGE.1).contains(n))
                    .ok_or_else(bad)?,
            ),
            'c' => Action::Claim(worker()?),
            'd' => Action::Complete(worker()?),
            'f' => Action::Fail(worker()?),
            'x' => Action::Die(worker()?),
            'h' => Action::Heartbeat(worker()?),
            't' => {
                let s: i64 = rest.parse().map_err(|_| bad())?;
                if !(1..=clock::MAX_STEP_SECONDS).contains(&s) {
                    return Err(bad());
                }
                Action::Advance(s)
            }
            'q' => Action::Requeue(rest.parse().map_err(|_| bad())?),
            'k' => Action::EnqueueKeyed(
                queue_lab_core::url::decode_token(&rest)
                    .and_then(|k| parse_key(&k).ok())
                    .ok_or_else(bad)?,
            ),
            's' if rest == "1" => Action::PerKeyClaim(true),
            's' if rest == "0" => Action::PerKeyClaim(false),
            'g' if rest == "1" => Action::DeleteOnComplete(true),
            'g' if rest == "0" => Action::DeleteOnComplete(false),
            'n' => Action::NotifyBytes(
                rest.parse::<usize>()
                    .ok()
                    .filter(|n| *n <= 100_000)
                    .ok_or_else(bad)?,
            ),
            'e' => {
                let mut parts = rest.splitn(4, ',');
                let (Some(p), Some(d), Some(m), Some(t)) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(bad());
                };
                let text = queue_lab_core::url::decode_token(t).ok_or_else(bad)?;
                let pair: (String, serde_json::Value) =
                    serde_json::from_str(&text).map_err(|_| bad())?;
                let input = EnqueueInput::parse(&pair.0, &pair.1.to_string(), p, d, m)
                    .map_err(|_| bad())?;
                Action::Enqueue(input)
            }
            _ => return Err(bad()),
        };
        actions.push(action);
    }
    Ok(actions)
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
                .all(|c| c.is_ascii_alphanumeric() || ".,~-".contains(c)),
            "{text}"
        );
        assert_eq!(decode(&text), Ok(actions));
    }

    #[test]
    fn share_text_refuses_garbage_with_the_step_number() {
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
