//! The app's side of translations: the compiled-in catalog and reactive lookups.

use queue_lab_core::i18n::{Catalog, Lang, Msg};
use std::sync::OnceLock;

// `FILES`: every catalog in `assets/i18n/`, listed by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));

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

/// A text's parts: `(is_code, text)`. A catalog text marks SQL and identifiers it quotes
/// with backticks, `like this`; an unmatched backtick is kept as text.
pub fn code_spans(text: &str) -> Vec<(bool, &str)> {
    let parts: Vec<&str> = text.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return vec![(false, text)];
    }
    parts
        .into_iter()
        .enumerate()
        .filter(|(_, p)| !p.is_empty())
        .map(|(i, p)| (i % 2 == 1, p))
        .collect()
}

/// A catalog text as a view, its `quoted` parts as `<code>`.
pub fn rich(text: &str) -> leptos::prelude::AnyView {
    use leptos::prelude::*;
    code_spans(text)
        .into_iter()
        .map(|(code, part)| {
            let part = part.to_owned();
            if code {
                view! { <code>{part}</code> }.into_any()
            } else {
                part.into_any()
            }
        })
        .collect_view()
        .into_any()
}

#[cfg(test)]
#[path = "../../build/i18n_keys.rs"]
#[allow(dead_code)]
mod i18n_keys;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every catalog key is named somewhere in the sources (a misspelt or missing one
    /// already fails the build, in `build.rs`): a key no code shows is dead text that
    /// translators would keep up for nothing.
    #[test]
    fn every_catalog_key_is_used() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let unused = super::i18n_keys::unused(root);
        assert!(
            unused.is_empty(),
            "{} catalog keys no source names (drop them, or name them where they are shown):\n{}",
            unused.len(),
            unused.join("\n")
        );
    }

    #[test]
    fn translation_files_parse() {
        if let Err(e) = Catalog::parse(FILES) {
            panic!("{}:{}: {}", e.file, e.line, e.problem);
        }
    }

    /// Every number a text states, in either language, is listed in `figures.tsv` for its
    /// key with its source; a `code` source must still be true of the code. A figure typed
    /// into a text without a source, or a setting changed in code but not in the text it
    /// names, fails here.
    #[test]
    fn every_number_in_the_texts_has_a_source() {
        let root = env!("CARGO_MANIFEST_DIR");
        let figures = std::fs::read_to_string(format!("{root}/assets/i18n/figures.tsv"))
            .expect("figures.tsv readable");
        let mut listed: Vec<(f64, Vec<&str>, &str)> = Vec::new();
        let mut problems = Vec::new();
        for (n, line) in figures.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let [figure, keys, source] = cols[..] else {
                problems.push(format!("figures.tsv:{}: three columns expected", n + 1));
                continue;
            };
            let Ok(value) = figure.parse::<f64>() else {
                problems.push(format!("figures.tsv:{}: {figure:?} is not a number", n + 1));
                continue;
            };
            if let Some(code) = source.strip_prefix("code ") {
                let (path, snippet) = code.split_once(": ").expect("code <path>: <snippet>");
                let text = std::fs::read_to_string(format!("{root}/{path}")).unwrap_or_default();
                let digits: String = snippet.chars().filter(|c| *c != '_').collect();
                if !text.contains(snippet) {
                    problems.push(format!(
                        "figures.tsv:{}: {path} no longer has {snippet:?}",
                        n + 1
                    ));
                } else if !digits.contains(figure) {
                    problems.push(format!(
                        "figures.tsv:{}: {snippet:?} does not say {figure}",
                        n + 1
                    ));
                }
            }
            listed.push((value, keys.split(',').map(str::trim).collect(), source));
        }
        let matches = |pattern: &str, key: &str| match pattern.strip_suffix('*') {
            Some(prefix) => key.starts_with(prefix),
            None => pattern == key,
        };
        let mut used = vec![false; listed.len()];
        for (file, text) in FILES {
            for line in text.lines() {
                let cols: Vec<&str> = line.split('\t').collect();
                if line.starts_with('#') || cols.len() < 3 {
                    continue;
                }
                let key = cols[0];
                for (lang, text) in [("en", cols[1]), ("ko", cols[2])] {
                    for (shown, value) in numbers_in(text) {
                        if value == 0.0 || value == 1.0 {
                            continue;
                        }
                        let found = listed.iter().position(|(v, keys, _)| {
                            *v == value && keys.iter().any(|p| matches(p, key))
                        });
                        match found {
                            Some(i) => used[i] = true,
                            None => problems.push(format!(
                                "{file}: {key} ({lang}) states {shown} with no source in figures.tsv"
                            )),
                        }
                    }
                }
            }
        }
        for (i, (value, keys, _)) in listed.iter().enumerate() {
            if !used[i] {
                problems.push(format!(
                    "figures.tsv: {value} for {keys:?} is stated by no text"
                ));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// Korean chooses a particle by the sound before it (이/가, 은/는, 을/를, 과/와, 으로/로),
    /// so one typed after a placeholder is wrong for some names and numbers ("w1가",
    /// "billing가", "2을"). Every Korean text, its placeholders filled with a Latin name
    /// ending in a digit, must have none of these right after a filled name. Placeholders
    /// filled with another message (`arg_msg`, Korean in Korean mode) are filled with a Korean
    /// word instead.
    #[test]
    fn no_particle_follows_a_name_in_korean() {
        // Latin, ending in a digit, and in no text itself (the texts' own fixed names, such
        // as L4's tour's "w1과 w2가", are read as they sound and may take a fixed particle).
        const NAME: &str = "Zx9";
        const PARTICLES: [char; 9] = ['가', '이', '는', '은', '를', '을', '와', '과', '로'];
        let root = env!("CARGO_MANIFEST_DIR");
        let nested = messages_filled_with_messages(std::path::Path::new(&format!("{root}/src")));
        let mut problems = Vec::new();
        for (file, text) in FILES {
            for line in text.lines() {
                let cols: Vec<&str> = line.split('\t').collect();
                if line.starts_with('#') || cols.len() < 3 {
                    continue;
                }
                let rendered = fill_placeholders(cols[2], NAME, &nested);
                let mut rest = rendered.as_str();
                while let Some(i) = rest.find(NAME) {
                    rest = &rest[i + NAME.len()..];
                    if rest.chars().next().is_some_and(|c| PARTICLES.contains(&c)) {
                        let shown: String = rest.chars().take(6).collect();
                        problems.push(format!("{file}: {}: \"{NAME}{shown}…\"", cols[0]));
                    }
                }
            }
        }
        assert!(
            problems.is_empty(),
            "a particle right after a name reads wrong for some names; rephrase:\n{}",
            problems.join("\n")
        );
    }

    /// `text` with each `{name}` filled: `name_value`, or a Korean word for a placeholder in
    /// `nested`; `{name|one|other}` (a word chosen by a count) becomes `other`.
    fn fill_placeholders(text: &str, name_value: &str, nested: &[String]) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            let inner = &rest[open + 1..open + close];
            match inner.split('|').collect::<Vec<_>>()[..] {
                [name] if nested.iter().any(|n| n == name) => out.push_str("작업"),
                [_] => out.push_str(name_value),
                [.., other] => out.push_str(other),
                [] => {}
            }
            rest = &rest[open + close + 1..];
        }
        out.push_str(rest);
        out
    }

    /// The placeholder names the sources fill with a message: `arg_msg("name", …)`.
    fn messages_filled_with_messages(dir: &std::path::Path) -> Vec<String> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(dir).expect("src readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                names.extend(messages_filled_with_messages(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                for part in text.split("arg_msg(\"").skip(1) {
                    if let Some((name, _)) = part.split_once('"') {
                        names.push(name.to_owned());
                    }
                }
            }
        }
        names
    }

    #[test]
    fn a_latin_name_is_caught_before_a_particle() {
        let nested = vec!["what".to_owned()];
        assert_eq!(
            fill_placeholders("워커 {w}가 {what}를 {n|번|번}", "w1", &nested),
            "워커 w1가 작업를 번"
        );
    }

    #[test]
    fn quoted_parts_are_code() {
        assert_eq!(
            code_spans("run `select 1` now"),
            [(false, "run "), (true, "select 1"), (false, " now")]
        );
        assert_eq!(code_spans("a ` stray"), [(false, "a ` stray")]);
    }

    #[test]
    fn numbers_are_read_as_a_reader_reads_them() {
        let got = |t: &str| {
            numbers_in(t)
                .into_iter()
                .map(|(_, v)| v)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            got("read 723 pages (1.9 ms), L3 and §6, event_1_0, {n} rows"),
            [723.0, 1.9]
        );
        assert_eq!(
            got("20,000 jobs, 20 million a day"),
            [20_000.0, 20_000_000.0]
        );
        assert_eq!(got("작업 2만 건, 1억 행"), [20_000.0, 100_000_000.0]);
    }

    /// The numbers a text states outside its `{placeholders}`: (as written, value). Digits
    /// inside a word (L3, event_1_0, §6) are names, not figures; "20 million", "2만" and
    /// "1억" are read as their value.
    fn numbers_in(text: &str) -> Vec<(String, f64)> {
        let mut plain = String::new();
        let mut depth = 0;
        for c in text.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth > 0 => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let chars: Vec<char> = plain.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let starts = chars[i].is_ascii_digit()
                && (i == 0
                    || !(chars[i - 1].is_ascii_alphanumeric() || "_§.".contains(chars[i - 1])));
            if !starts {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_ascii_digit()
                    || (",.".contains(chars[j])
                        && chars.get(j + 1).is_some_and(char::is_ascii_digit)))
            {
                j += 1;
            }
            let shown: String = chars[i..j].iter().collect();
            let mut value: f64 = shown.replace(',', "").parse().unwrap_or(f64::NAN);
            let rest: String = chars[j..].iter().take(8).collect();
            if rest.starts_with(" million") {
                value *= 1e6;
            } else if rest.starts_with('만') {
                value *= 1e4;
            } else if rest.starts_with('억') {
                value *= 1e8;
            } else if rest.starts_with('천') {
                value *= 1e3;
            }
            out.push((shown, value));
            i = j;
        }
        out
    }
}
