//! The one share-link codec: a lab's actions as a compact text for the URL (`?s=…`), and back.
//!
//! A text is steps joined by [`SEPARATOR`]; a step is one letter (the action) and its values
//! joined by `,` (`r20000,3,2000,1;v;l1`). Free text inside a value goes through
//! `queue_lab_core::url::encode_token`, which leaves only letters, digits and `~XX`
//! escapes, so it can never hold a separator. Each lab's `share.rs` says only how one action
//! is written and read; splitting, numbering and the refusal are here.
//!
//! Links made before this codec keep opening: a text without [`SEPARATOR`] is split at the
//! lab's old separator (`.` in L1 and L4, `~` in L3). No step of either old or new text holds
//! the other separator, so a text is read one way only.

use queue_lab_core::i18n::Key;
use queue_lab_core::i18n::Msg;

/// Between two steps. Not `.` (L3's scale factors have one), `~` (the token escape), `-`
/// (negative numbers), `_` (strategy ids), nor `+`, `&`, `=` (they mean something in a query).
pub const SEPARATOR: char = ';';

/// One step of a share text: its letter, the text after it, and that text split at `,`.
pub struct Step<'a> {
    pub kind: char,
    pub rest: &'a str,
    pub parts: Vec<&'a str>,
}

impl Step<'_> {
    /// `Some(())` when the step has no values (`v`), for the actions that take none.
    pub fn bare(&self) -> Option<()> {
        self.rest.is_empty().then_some(())
    }
}

/// `0` or `1` as a flag, as [`flag`] writes it.
pub fn read_flag(text: &str) -> Option<bool> {
    match text {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

/// A flag as one digit.
pub fn flag(on: bool) -> u8 {
    u8::from(on)
}

/// The actions as a share text, each written by `step`.
pub fn encode<A>(actions: &[A], step: impl Fn(&A) -> String) -> String {
    actions
        .iter()
        .map(step)
        .collect::<Vec<_>>()
        .join(&SEPARATOR.to_string())
}

/// Reads [`encode`]'s text back, each step by `step` (`None`: it cannot be read). `old`: the
/// lab's separator before this codec, accepted when the text has no [`SEPARATOR`]. A step
/// that cannot be read is refused as `refused` (a catalog key) with its number (`n`, from 1)
/// and its text (`step`).
pub fn decode<A>(
    text: &str,
    old: char,
    refused: Key,
    step: impl Fn(&Step) -> Option<A>,
) -> Result<Vec<A>, Msg> {
    let separator = if text.contains(SEPARATOR) {
        SEPARATOR
    } else {
        old
    };
    text.split(separator)
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, text)| {
            let mut chars = text.chars();
            let read = chars.next().and_then(|kind| {
                let rest = chars.as_str();
                step(&Step {
                    kind,
                    rest,
                    parts: rest.split(',').collect(),
                })
            });
            read.ok_or_else(|| Msg::new(refused).arg("n", i + 1).arg("step", text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small codec of the labs' shape: `v` alone, `r<n>,<flag>`.
    fn read(s: &Step) -> Option<(char, u32, bool)> {
        match (s.kind, s.parts.as_slice()) {
            ('v', _) => s.bare().map(|()| ('v', 0, false)),
            ('r', [n, f]) => Some(('r', n.parse().ok()?, read_flag(f)?)),
            _ => None,
        }
    }

    fn write(a: &(char, u32, bool)) -> String {
        match a {
            ('v', ..) => "v".into(),
            (_, n, f) => format!("r{n},{}", flag(*f)),
        }
    }

    #[test]
    fn steps_are_joined_by_the_one_separator_and_read_back() {
        let actions = vec![('r', 20_000, true), ('v', 0, false), ('r', 5, false)];
        let text = encode(&actions, write);
        assert_eq!(text, "r20000,1;v;r5,0");
        assert_eq!(decode(&text, '.', Key::new("x.err"), read), Ok(actions));
    }

    #[test]
    fn a_link_made_with_the_labs_old_separator_still_opens() {
        let want = vec![('r', 7, true), ('v', 0, false)];
        assert_eq!(
            decode("r7,1.v", '.', Key::new("x.err"), read),
            Ok(want.clone())
        );
        assert_eq!(decode("r7,1~v", '~', Key::new("x.err"), read), Ok(want));
    }

    #[test]
    fn an_unreadable_step_is_refused_with_its_number_and_text() {
        let err = decode("v;r1,2;v", '.', Key::new("x.err"), read).unwrap_err();
        assert_eq!(err.key, Key::new("x.err"));
        assert!(err.args.contains(&("n", "2".into())), "{:?}", err.args);
        assert!(
            err.args.contains(&("step", "r1,2".into())),
            "{:?}",
            err.args
        );
        assert!(decode("vx", '.', Key::new("x.err"), read).is_err());
    }
}
