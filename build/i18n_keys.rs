// Message keys: which the catalogs define and which the sources name. Shared by `build.rs`
// (it also lists the catalogs for the app; a key named in the sources that no catalog has
// fails the build) and the unused-key test
// in `src/ui/i18n.rs` (a catalog key that no source names fails the test).
//
// A key is a string literal such as `"jobs.out.claimed"`: words joined by dots,
// whose first word is a namespace the catalogs use. Wherever it stands (`t("…")`,
// `Msg::new("…")`, a struct field, a `match` arm, a `let`), it counts. A literal that ends
// in a dot, alone or before a `format!` placeholder (`"guide."`, `"pgq.error.{code}"`),
// names a family: every catalog key under that prefix counts as used.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The folder of the catalogs: every `.tsv` in it but [`FIGURES`] and [`GLOSSARY`] is one (a lab's texts are
/// `<slug>.tsv`; the shell's are `shell.tsv`).
pub const CATALOG_DIR: &str = "assets/i18n";

/// The list of figures the texts state and their sources (not a catalog).
pub const FIGURES: &str = "figures.tsv";

/// The Korean glossary: one Korean word per idea (not a catalog).
pub const GLOSSARY: &str = "glossary.tsv";

/// The catalogs' file names, sorted.
pub fn catalogs(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root.join(CATALOG_DIR))
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n.ends_with(".tsv") && n != FIGURES && n != GLOSSARY)
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The sources that name keys, relative to the crate root (`pgcheck` prints the labs'
/// tables with the labs' column names).
pub const SOURCES: [&str; 3] = ["src", "crates/core/src", "crates/pgcheck/src"];

/// Files outside [`SOURCES`] that name keys: the static first screen's generator (its keys in
/// double quotes).
pub const SCRIPTS: [&str; 1] = ["scripts/first-screen.mjs"];

/// Every key a catalog defines, with `file:line`.
pub fn catalog_keys(root: &Path) -> Vec<(String, String)> {
    let mut keys = Vec::new();
    for name in catalogs(root) {
        let file = format!("{CATALOG_DIR}/{name}");
        let text = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(key) = line.split('\t').next() {
                keys.push((key.to_owned(), format!("{file}:{}", n + 1)));
            }
        }
    }
    keys
}

/// The first words of the catalogs' keys (`jobs`, `shell`, …).
pub fn namespaces(keys: &[(String, String)]) -> BTreeSet<String> {
    keys.iter()
        .filter_map(|(k, _)| k.split('.').next())
        .map(str::to_owned)
        .collect()
}

/// A key named in a source file.
pub struct Named {
    pub key: String,
    /// `key` is a prefix (`"pgq.reason."`): it names every key under it.
    pub family: bool,
    pub place: String,
}

/// Every `.rs` file under the source folders, and the [`SCRIPTS`].
pub fn source_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> = SOURCES.iter().map(|s| root.join(s)).collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.extend(SCRIPTS.iter().map(|s| root.join(s)));
    files.sort();
    files
}

fn is_word(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// File endings: `"jobs.tsv"` is a file name, not a key.
const FILE_ENDINGS: [&str; 7] = ["tsv", "sql", "rs", "js", "mjs", "json", "wasm"];

/// The keys a source text names, with their line numbers.
pub fn named_in(text: &str, namespaces: &BTreeSet<String>) -> Vec<(String, bool, usize)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(open) = rest.find('"') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('"') else {
                break;
            };
            let literal = &after[..close];
            rest = &after[close + 1..];
            // `"pgq.error.{code}"` (a `format!` template) names the family `pgq.error.`.
            let stem = literal.split('{').next().unwrap_or(literal);
            let (body, family) = match stem.strip_suffix('.') {
                Some(body) => (body, true),
                None if stem.len() < literal.len() => continue,
                None => (literal, false),
            };
            let words: Vec<&str> = body.split('.').collect();
            if (words.len() < 2 && !family)
                || !words.iter().all(|w| is_word(w))
                || !namespaces.contains(words[0])
                || (!family && words.len() == 2 && FILE_ENDINGS.contains(&words[1]))
            {
                continue;
            }
            let key = if family {
                format!("{body}.")
            } else {
                body.to_owned()
            };
            out.push((key, family, n + 1));
        }
    }
    out
}

/// Every key the sources name, with `file:line`.
pub fn named_keys(root: &Path, namespaces: &BTreeSet<String>) -> Vec<Named> {
    let mut out = Vec::new();
    for path in source_files(root) {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (key, family, line) in named_in(&text, namespaces) {
            out.push(Named {
                key,
                family,
                place: format!("{shown}:{line}"),
            });
        }
    }
    out
}

/// Keys the sources name that no catalog defines (a family counts when a key is under it).
pub fn missing(root: &Path) -> Vec<String> {
    let keys = catalog_keys(root);
    let spaces = namespaces(&keys);
    let defined: BTreeSet<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    named_keys(root, &spaces)
        .into_iter()
        .filter(|n| {
            if n.family {
                !defined.iter().any(|k| k.starts_with(&n.key))
            } else {
                !defined.contains(n.key.as_str())
            }
        })
        .map(|n| format!("{}: \"{}\"", n.place, n.key))
        .collect()
}

/// Catalog keys that no source names, as `file:line key`.
pub fn unused(root: &Path) -> Vec<String> {
    let keys = catalog_keys(root);
    let spaces = namespaces(&keys);
    let named = named_keys(root, &spaces);
    let exact: BTreeSet<&str> = named
        .iter()
        .filter(|n| !n.family)
        .map(|n| n.key.as_str())
        .collect();
    let families: Vec<&str> = named
        .iter()
        .filter(|n| n.family)
        .map(|n| n.key.as_str())
        .collect();
    keys.iter()
        .filter(|(k, _)| !exact.contains(k.as_str()) && !families.iter().any(|f| k.starts_with(f)))
        .map(|(k, place)| format!("{place} {k}"))
        .collect()
}
