//! L5's page texts: `assets/i18n/leave_ui.tsv`, kept apart from `leave.tsv` because that
//! file must hold exactly the advisor's message keys (checked by a core test). Both are in
//! the one app catalog. The advisor's own sentences go through `render_advice`.

use queue_lab_core::advisor;
use queue_lab_core::i18n::{Lang, Msg};

/// A page text of this lab in `lang` (from `assets/i18n/leave_ui.tsv`, in the app catalog).
pub fn ui(lang: Lang, key: &str) -> String {
    crate::ui::i18n::tr(lang, key)
}

/// A page text with placeholders filled.
pub fn ui_msg(lang: Lang, msg: &Msg) -> String {
    crate::ui::i18n::render(lang, msg)
}

/// A number as the advisor formats it, except that a small non-zero number is never shown
/// as "0" (`format_number(0.001)` is "0", which would make "at least 0.001 s" read "at least 0").
pub fn number(value: f64) -> String {
    let text = advisor::format_number(value);
    if value != 0.0 && value.is_finite() && text.trim_start_matches('-') == "0" {
        format!("{value}")
    } else {
        text
    }
}

/// One of the advisor's sentences in `lang`, numbers formatted by [`number`].
pub fn render_advice(lang: Lang, m: &advisor::Msg) -> String {
    let msg = m
        .args
        .iter()
        .fold(Msg::new(m.key), |x, (n, v)| x.arg(n, number(*v)));
    crate::ui::i18n::render(lang, &msg)
}

/// The app-wide catalog's text for `key` (advisor keys, shell keys).
pub fn app(lang: Lang, key: &str) -> String {
    crate::ui::i18n::tr(lang, key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `"leave.…"` literal in this lab's sources is in the app catalog.
    #[test]
    fn every_key_used_in_the_lab_exists() {
        let app = queue_lab_core::i18n::Catalog::parse(crate::ui::i18n::FILES)
            .expect("app catalog parses");
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/labs/leave");
        let mut missing = Vec::new();
        for entry in std::fs::read_dir(dir).expect("dir").flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            let mut rest = text.as_str();
            while let Some(i) = rest.find("\"leave.") {
                rest = &rest[i + 1..];
                let end = rest.find('"').unwrap_or(0);
                let key = &rest[..end];
                let known = app.has(key);
                let plain = key
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.');
                if plain && !key.ends_with('.') && !known {
                    missing.push(format!("{}: {key}", path.display()));
                }
                rest = &rest[end..];
            }
        }
        assert!(missing.is_empty(), "missing keys:\n{}", missing.join("\n"));
    }

    #[test]
    fn small_numbers_are_not_rounded_to_zero() {
        assert_eq!(number(0.001), "0.001");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(1_600.0), "1,600");
        assert_eq!(number(0.5), "0.5");
    }

    #[test]
    fn advice_is_rendered_with_formatted_numbers_in_both_languages() {
        let m = advisor::Msg::new("leave.dead.created")
            .with("dead_per_s", 1_600.0)
            .with("dead_per_s_peak", 2_400.0);
        let en = render_advice(Lang::En, &m);
        assert!(en.contains("1,600") && en.contains("2,400"), "{en}");
        let ko = render_advice(Lang::Ko, &m);
        assert!(ko.contains("1,600") && !ko.contains('{'), "{ko}");
    }
}
