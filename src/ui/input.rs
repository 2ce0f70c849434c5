//! What the learner typed into a field, read or refused in words.

use crate::ui::format::group;
use queue_lab_core::i18n::Msg;
use queue_lab_core::input::whole_in;

/// A whole number typed into a field, refused unless min ≤ n ≤ max: `refused` then says the
/// bounds (`min`, `max`, digits grouped) and what was typed (under the name `typed_as`).
/// Digit grouping is accepted ("20,000", "20_000").
pub fn whole_or_refused(
    text: &str,
    min: i64,
    max: i64,
    refused: Msg,
    typed_as: &'static str,
) -> Result<i64, Msg> {
    whole_in(text, min, max).map_err(|_| {
        refused
            .arg("min", group(min))
            .arg("max", group(max))
            .arg(typed_as, text.trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys;

    #[test]
    fn a_number_out_of_range_is_refused_with_grouped_bounds_and_the_text_as_typed() {
        let refused = || Msg::new(keys::PGQ_ERR_RANGE);
        assert_eq!(
            whole_or_refused(" 20,000 ", 1, 100_000, refused(), "n"),
            Ok(20_000)
        );
        // (text, max, what the text is named) -> the refusal's bounds and text as shown.
        for (text, max, named, max_shown, text_shown) in [
            (" 0 ", 100_000, "n", "100,000", "0"),
            ("ten", 10, "text", "10", "ten"),
        ] {
            let want = refused().arg("min", "1").arg("max", max_shown);
            assert_eq!(
                whole_or_refused(text, 1, max, refused(), named),
                Err(want.arg(named, text_shown))
            );
        }
    }
}
