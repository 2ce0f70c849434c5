//! What a learner types in L1, checked before anything runs: an enqueue's fields and an
//! ordering key. A bad field is refused with the reason, per field.

use crate::keys;
use queue_lab_core::i18n::Msg;
use queue_lab_core::input::{whole_in, Refused};

/// Longest ordering key, in characters.
pub const KEY_MAX_CHARS: usize = 20;

/// An ordering key as typed: trimmed, 1 to 20 letters, digits, `-` or `_`.
pub fn parse_key(text: &str) -> Result<String, Msg> {
    let key = text.trim();
    let ok = !key.is_empty()
        && key.chars().count() <= KEY_MAX_CHARS
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(key.to_owned())
    } else {
        Err(Msg::new(keys::JOBS_ERR_KEY).arg("max", KEY_MAX_CHARS))
    }
}

pub const PRIORITY_RANGE: (i32, i32) = (-100, 100);
pub const DELAY_RANGE: (i64, i64) = (0, 86_400);
pub const MAX_ATTEMPTS_RANGE: (i32, i32) = (1, 20);

/// What a learner typed to enqueue a job, checked before anything runs.
#[derive(Clone, Debug, PartialEq)]
pub struct EnqueueInput {
    pub queue: String,
    pub payload: serde_json::Value,
    pub priority: i32,
    pub delay_seconds: i64,
    pub max_attempts: i32,
}

impl EnqueueInput {
    /// Parses the enqueue form. Each problem names its field; nothing runs on any problem.
    pub fn parse(
        queue: &str,
        payload: &str,
        priority: &str,
        delay: &str,
        max_attempts: &str,
    ) -> Result<EnqueueInput, Vec<(&'static str, Msg)>> {
        let mut problems = Vec::new();
        let queue = queue.trim();
        if queue.is_empty() || queue.chars().count() > 40 {
            problems.push(("queue", Msg::new(keys::JOBS_ERR_QUEUE)));
        }
        let payload = match serde_json::from_str::<serde_json::Value>(payload) {
            Ok(v) => Some(v),
            Err(e) => {
                problems.push(("payload", Msg::new(keys::JOBS_ERR_PAYLOAD).arg("why", e)));
                None
            }
        };
        let priority = int_in(
            priority,
            PRIORITY_RANGE.0.into(),
            PRIORITY_RANGE.1.into(),
            "priority",
            &mut problems,
        );
        let delay = int_in(delay, DELAY_RANGE.0, DELAY_RANGE.1, "delay", &mut problems);
        let max_attempts = int_in(
            max_attempts,
            MAX_ATTEMPTS_RANGE.0.into(),
            MAX_ATTEMPTS_RANGE.1.into(),
            "max_attempts",
            &mut problems,
        );
        match (payload, priority, delay, max_attempts) {
            (Some(payload), Some(priority), Some(delay_seconds), Some(max_attempts))
                if problems.is_empty() =>
            {
                Ok(EnqueueInput {
                    queue: queue.to_owned(),
                    payload,
                    priority: priority as i32,
                    delay_seconds,
                    max_attempts: max_attempts as i32,
                })
            }
            _ => Err(problems),
        }
    }
}

impl Default for EnqueueInput {
    fn default() -> Self {
        EnqueueInput {
            queue: "default".into(),
            payload: serde_json::json!({"kind": "receipt_email"}),
            priority: 0,
            delay_seconds: 0,
            max_attempts: 5,
        }
    }
}

fn int_in(
    text: &str,
    min: i64,
    max: i64,
    field: &'static str,
    problems: &mut Vec<(&'static str, Msg)>,
) -> Option<i64> {
    match whole_in(text, min, max) {
        Ok(n) => Some(n),
        Err(Refused::OutOfRange(n)) => {
            problems.push((
                field,
                Msg::new(keys::JOBS_ERR_RANGE)
                    .arg("min", min)
                    .arg("max", max)
                    .arg("n", n),
            ));
            None
        }
        Err(Refused::NotANumber(typed)) => {
            problems.push((field, Msg::new(keys::JOBS_ERR_NUMBER).arg("text", typed)));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enqueue_input_refuses_each_bad_field_with_a_reason() {
        let err = EnqueueInput::parse("default", "{not json", "0", "0", "5").unwrap_err();
        assert_eq!(
            err.iter().map(|(f, m)| (*f, m.key)).collect::<Vec<_>>(),
            [("payload", keys::JOBS_ERR_PAYLOAD)]
        );
        let err = EnqueueInput::parse("default", "{}", "-101", "-1", "ten").unwrap_err();
        let fields: Vec<_> = err.iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, ["priority", "delay", "max_attempts"]);
        assert!(EnqueueInput::parse("", "{}", "0", "0", "5").is_err());
        let ok = EnqueueInput::parse(" mail ", r#"{"to":"a@b"}"#, "10", "30", "3").unwrap();
        assert_eq!(
            (
                ok.queue.as_str(),
                ok.priority,
                ok.delay_seconds,
                ok.max_attempts
            ),
            ("mail", 10, 30, 3)
        );
    }
}
