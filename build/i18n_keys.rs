// Message keys: which the catalogs define, the constants named after them, and which keys
// the sources still write as text. Shared by the `build.rs` of the app, of `crates/core` and
// of `crates/pgcheck` (each writes a `keys.rs` into its OUT_DIR: one constant per catalog
// key, `pub const JOBS_OUT_ENQUEUED: Key = Key::new("jobs.out.enqueued");`, included by the
// crate's `keys` module) and by the tests in `src/ui/i18n.rs`.
//
// Code names a key by its constant, so a misspelt key does not compile; a constant nothing
// uses is dead code (the app's `keys` module is private; clippy runs with `-D warnings`).
// A key written as a string literal in a source (`"jobs.out.claimed"`: words joined by
// dots, whose first word is a namespace the catalogs use) fails the build: it would escape
// both checks. The first screen's generator (a script) names keys in double quotes; those
// must be in a catalog, and the app's `keys.rs` lists them (`NAMED_BY_SCRIPTS`), so they
// count as used.

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

/// The first line of a language file (`en.tsv`, `ko.tsv`: one language's texts, derived from
/// the catalogs by [`language_file`] and by `scripts/language-file.mjs`, byte for byte).
pub const LANGUAGE_FILE_HEADER: &str =
    "# Generated from assets/i18n/*.tsv: key<TAB>text, one language. Do not edit.";

/// FNV-1a, 32 bits, of `bytes` (`scripts/language-file.mjs`: fnv1a32, the same): the Korean
/// file's version in the address the page asks for it by.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5_u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// One language's texts of `catalogs` (file name and text, in the order given): the header,
/// then `key<TAB>text` for each entry, `column` 1 for English, 2 for Korean, written as the
/// catalog writes it (its `\n` escapes kept).
pub fn language_file(catalogs: &[(String, String)], column: usize) -> String {
    let mut out = format!("{LANGUAGE_FILE_HEADER}\n");
    for (_, text) in catalogs {
        for line in text.lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            out.push_str(cols[0]);
            out.push('\t');
            out.push_str(cols.get(column).copied().unwrap_or_default());
            out.push('\n');
        }
    }
    out
}

/// The sources that name keys, relative to the workspace root (`pgcheck` prints the labs'
/// tables with the labs' column names).
pub const SOURCES: [&str; 3] = ["src", "crates/core/src", "crates/pgcheck/src"];

/// The catalogs whose keys `crates/core` (the L5 advisor) names: its `keys` module is
/// generated from these, the app's and pgcheck's from the others.
pub const CORE_CATALOGS: [&str; 1] = ["leave.tsv"];

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
    /// `key` is a prefix (`"pgq.reason."`, or a template `"pgq.error.{code}"`): a family of
    /// keys chosen at run time. No longer allowed in a source: an enum or a `match` returns
    /// the constants.
    pub family: bool,
    pub place: String,
}

/// Every `.rs` file under the `dirs` (relative to `root`).
pub fn rust_files(root: &Path, dirs: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.iter().map(|s| root.join(s)).collect();
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

/// Every key the `files` name as text, with `file:line`.
pub fn named_keys(root: &Path, files: &[PathBuf], namespaces: &BTreeSet<String>) -> Vec<Named> {
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let shown = path
            .strip_prefix(root)
            .unwrap_or(path)
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

/// The keys the [`SCRIPTS`] name (in double quotes), each with `file:line`.
pub fn script_keys(root: &Path) -> Vec<Named> {
    let keys = catalog_keys(root);
    let spaces = namespaces(&keys);
    let files: Vec<PathBuf> = SCRIPTS.iter().map(|s| root.join(s)).collect();
    named_keys(root, &files, &spaces)
}

/// Keys the [`SCRIPTS`] name that no catalog defines, as `file:line: "key"`.
pub fn missing_in_scripts(root: &Path) -> Vec<String> {
    let defined: BTreeSet<String> = catalog_keys(root).into_iter().map(|(k, _)| k).collect();
    script_keys(root)
        .into_iter()
        .filter(|n| n.family || !defined.contains(&n.key))
        .map(|n| format!("{}: \"{}\"", n.place, n.key))
        .collect()
}

/// Keys the Rust sources under `dirs` write as string literals (or as a family), as
/// `file:line: "key" (write keys::CONST)`: each one fails the build.
pub fn written_as_text(root: &Path, dirs: &[&str]) -> Vec<String> {
    let keys = catalog_keys(root);
    let spaces = namespaces(&keys);
    named_keys(root, &rust_files(root, dirs), &spaces)
        .into_iter()
        .map(|n| {
            if n.family {
                format!(
                    "{}: \"{}\" names a family of keys: return the constants from a match or an enum",
                    n.place, n.key
                )
            } else {
                format!("{}: \"{}\": write keys::{}", n.place, n.key, const_name(&n.key))
            }
        })
        .collect()
}

/// The constant named after `key`: `jobs.tour.1.title` is `JOBS_TOUR_1_TITLE`.
pub fn const_name(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// The text of a `keys.rs`: one constant per key of the `catalogs` (file names), each with
/// the key's English text as its doc and as the text it carries (`Key::with_english`), and
/// `extra` after them. `key_type` is the path of `Key` as the including module sees it.
/// Fails on two keys with one constant name.
pub fn constants(
    root: &Path,
    catalogs: &[String],
    key_type: &str,
    extra: &str,
) -> Result<String, String> {
    let mut out = format!(
        "// Generated by build.rs from assets/i18n (build/i18n_keys.rs): one constant per catalog key.\n\
         #[allow(unused_imports)]\nuse {key_type};\n"
    );
    let mut seen: std::collections::BTreeMap<String, String> = Default::default();
    for name in catalogs {
        let file = format!("{CATALOG_DIR}/{name}");
        let text = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut cols = line.split('\t');
            let key = cols.next().unwrap_or_default().trim();
            let english = cols.next().unwrap_or_default();
            let constant = const_name(key);
            if let Some(other) = seen.insert(constant.clone(), key.to_owned()) {
                return Err(format!(
                    "{file}:{}: keys {other:?} and {key:?} are both the constant {constant}",
                    n + 1
                ));
            }
            let doc: String = english.chars().take(100).collect();
            // The English text as the app shows it (`\n` a line break), carried by the key.
            let text = english.replace("\\n", "\n");
            out.push_str(&format!(
                "/// {}\npub const {constant}: Key = Key::with_english({key:?}, {text:?});\n",
                doc.replace('\n', " ")
            ));
        }
    }
    out.push_str(extra);
    Ok(out)
}
