//! L5's page texts: `assets/i18n/leave_ui.tsv`, kept apart from `leave.tsv` because that
//! file must hold exactly the advisor's message keys (checked by a core test). Both are in
//! the one app catalog. The advisor's sentences are `Msg`s like any other and go through `ui_msg`.

use queue_lab_core::i18n::{Lang, Msg};

/// A page text of this lab in `lang` (from `assets/i18n/leave_ui.tsv`, in the app catalog).
pub fn ui(lang: Lang, key: &str) -> String {
    crate::ui::i18n::tr(lang, key)
}

/// A page text with placeholders filled.
pub fn ui_msg(lang: Lang, msg: &Msg) -> String {
    crate::ui::i18n::render(lang, msg)
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
    fn advice_is_rendered_with_formatted_numbers_in_both_languages() {
        let m = Msg::new("leave.dead.created")
            .num("dead_per_s", 1_600.0)
            .num("dead_per_s_peak", 2_400.0);
        let en = ui_msg(Lang::En, &m);
        assert!(en.contains("1,600") && en.contains("2,400"), "{en}");
        let ko = ui_msg(Lang::Ko, &m);
        assert!(ko.contains("1,600") && !ko.contains('{'), "{ko}");
    }
}
