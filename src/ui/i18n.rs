//! The app's side of translations: the compiled-in catalog and reactive lookups.

use queue_lab_core::i18n::{Catalog, Lang, Msg};
use std::sync::OnceLock;

/// Every translation file, one per lab plus the shell's.
pub const FILES: &[(&str, &str)] = &[
    ("shell.tsv", include_str!("../../assets/i18n/shell.tsv")),
    ("jobs.tsv", include_str!("../../assets/i18n/jobs.tsv")),
    ("workers.tsv", include_str!("../../assets/i18n/workers.tsv")),
    ("vacuum.tsv", include_str!("../../assets/i18n/vacuum.tsv")),
    ("pgq.tsv", include_str!("../../assets/i18n/pgq.tsv")),
    ("leave.tsv", include_str!("../../assets/i18n/leave.tsv")),
    (
        "leave_ui.tsv",
        include_str!("../../assets/i18n/leave_ui.tsv"),
    ),
];

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        // A broken file is caught by the native test `translation_files_parse`; at run time
        // the app still starts and shows keys rather than nothing.
        Catalog::parse(FILES).unwrap_or_default()
    })
}

/// The text for `key` in `lang` (the key itself if it is missing).
pub fn tr(lang: Lang, key: &str) -> String {
    catalog().get(lang, key).to_owned()
}

/// A model's message in `lang`, placeholders filled.
pub fn render(lang: Lang, msg: &Msg) -> String {
    catalog().render(lang, msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translation_files_parse() {
        if let Err(e) = Catalog::parse(FILES) {
            panic!("{}:{}: {}", e.file, e.line, e.problem);
        }
    }

    /// Scans the sources for `tr(..., "key")`, `t("key")` and `Msg::new("key")` and checks
    /// each key is in the catalog, so no learner sees a raw key.
    #[test]
    fn every_key_used_in_src_has_both_languages() {
        let catalog = Catalog::parse(FILES).expect("catalog parses");
        let mut missing = Vec::new();
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut stack = vec![std::path::PathBuf::from(root)];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("src readable").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("source readable");
                    for key in keys_in(&text) {
                        if !catalog.has(&key) {
                            missing.push(format!("{}: {key}", path.display()));
                        }
                    }
                }
            }
        }
        assert!(
            missing.is_empty(),
            "keys without translations:\n{}",
            missing.join("\n")
        );
    }

    fn keys_in(text: &str) -> Vec<String> {
        let mut keys = Vec::new();
        for marker in ["t(\"", "Msg::new(\"", "tr(lang, \"", "tr(l, \""] {
            let mut rest = text;
            while let Some(i) = rest.find(marker) {
                rest = &rest[i + marker.len()..];
                if let Some(end) = rest.find('"') {
                    let key = &rest[..end];
                    if key.contains('.') && !key.contains(' ') && !key.contains('{') {
                        keys.push(key.to_owned());
                    }
                }
            }
        }
        keys
    }
}
