//! Translations: one mechanism for every string the UI shows, in Korean and English.
//!
//! Strings live in tab-separated files (`assets/i18n/*.tsv`: `key<TAB>en<TAB>ko`), one per
//! lab plus the shell's, so each lab's wording sits beside its own keys. Placeholders are
//! `{name}` and are filled by `Msg::arg`. Code names a key by the constant each crate's
//! `build.rs` generates for it ([`Key`]), so a key no catalog has does not compile.
//! Not for: formatting numbers or dates beyond plain substitution.

use std::collections::HashMap;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    Ko,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
        }
    }

    pub fn parse(code: &str) -> Option<Lang> {
        match code.trim().to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "ko" => Some(Lang::Ko),
            _ => None,
        }
    }

    /// The language a browser's `navigator.language` (e.g. `ko-KR`) asks for.
    pub fn from_browser(tag: &str) -> Lang {
        if tag.to_ascii_lowercase().starts_with("ko") {
            Lang::Ko
        } else {
            Lang::En
        }
    }
}

/// A message key of a catalog (`assets/i18n/*.tsv`) and its English text. Code names one by
/// its generated constant (`keys::JOBS_OUT_ENQUEUED`, one per catalog key, written by the
/// crate's `build.rs` from the catalogs), so a misspelt key does not compile and a key nothing
/// names is a constant nothing uses (dead code, which clippy's `-D warnings` fails).
///
/// The English text travels with the key: a text is in the code that names it, so the
/// release split by lab carries each lab's texts in that lab's module (the splitter places
/// data beside the code that reads it), and no table of every text is parsed at start.
/// Another language's texts are looked up by [`Key::as_str`].
///
/// Keys compare by name and text; the one key a catalog defines has one text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    key: &'static str,
    english: &'static str,
}

impl Key {
    /// For tests that need a key no catalog has: its English text is the key itself, as a
    /// lookup of a missing key shows. A key in a source as a string literal fails the build
    /// (`build/i18n_keys.rs`).
    pub const fn new(key: &'static str) -> Key {
        Key { key, english: key }
    }

    /// For the generated `keys` modules: the key and its English text, `\n` already a line
    /// break.
    pub const fn with_english(key: &'static str, english: &'static str) -> Key {
        Key { key, english }
    }

    pub const fn as_str(self) -> &'static str {
        self.key
    }

    /// The English text (the key itself for a [`Key::new`]).
    pub const fn english(self) -> &'static str {
        self.english
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key({:?})", self.key)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key)
    }
}

/// Tests compare a message's key with the text of a key (`msg.key == "jobs.out.enqueued"`).
impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.key == *other
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        self.key == other
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        self.key == other
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        *self == other.key
    }
}

/// Every key with its English and Korean text.
#[derive(Default)]
pub struct Catalog {
    entries: HashMap<String, (String, String)>,
}

/// A problem in a translation file: where and what.
#[derive(Debug, PartialEq)]
pub struct CatalogError {
    pub file: String,
    pub line: usize,
    pub problem: String,
}

impl Catalog {
    /// Reads `(file name, tsv text)` pairs. Blank lines and lines starting with `#` are skipped.
    pub fn parse(files: &[(&str, &str)]) -> Result<Catalog, CatalogError> {
        let mut entries = HashMap::new();
        for (file, text) in files {
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() || line.starts_with('#') {
                    continue;
                }
                let err = |problem: String| CatalogError {
                    file: (*file).to_owned(),
                    line: i + 1,
                    problem,
                };
                let mut cols = line.split('\t');
                let (Some(key), Some(en), Some(ko)) = (cols.next(), cols.next(), cols.next())
                else {
                    return Err(err("expected key<TAB>en<TAB>ko".into()));
                };
                if cols.next().is_some() {
                    return Err(err("more than three columns".into()));
                }
                if en.trim().is_empty() || ko.trim().is_empty() {
                    return Err(err(format!("{key}: a language is empty")));
                }
                let unescape = |s: &str| s.replace("\\n", "\n");
                if entries
                    .insert(key.trim().to_owned(), (unescape(en), unescape(ko)))
                    .is_some()
                {
                    return Err(err(format!("{key} is defined twice")));
                }
            }
        }
        Ok(Catalog { entries })
    }

    /// The text for `key` in `lang` (the key itself if it is missing).
    pub fn get(&self, lang: Lang, key: Key) -> &str {
        self.text(lang, key.as_str())
    }

    /// The same by the key's text (for a key read from a file, not named in code).
    pub fn text<'a>(&'a self, lang: Lang, key: &'a str) -> &'a str {
        match self.entries.get(key) {
            Some((en, ko)) => match lang {
                Lang::En => en,
                Lang::Ko => ko,
            },
            None => key,
        }
    }

    pub fn has(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// The message in `lang` with its placeholders filled.
    ///
    /// Besides `{name}`, a template may choose a word by a count: `{name|job|jobs}` is
    /// `job` when the value of `name` is 1 and `jobs` otherwise (English; Korean needs none).
    pub fn render(&self, lang: Lang, msg: &Msg) -> String {
        let mut text = fill(self.get(lang, msg.key), msg);
        for (name, inner) in &msg.nested {
            text = text.replace(&format!("{{{name}}}"), &self.render(lang, inner));
        }
        text
    }
}

/// `template` with the message's text and number placeholders filled (numbers as
/// [`crate::format::number`] writes them) and its plural choices made. A placeholder the
/// message does not name is left as it is.
pub fn fill(template: &str, msg: &Msg) -> String {
    let mut text = template.to_owned();
    let numbers = msg
        .numbers
        .iter()
        .map(|(name, v)| (*name, crate::format::number(*v)));
    for (name, value) in msg.args.iter().map(|(n, v)| (*n, v.clone())).chain(numbers) {
        text = text.replace(&format!("{{{name}}}"), &value);
        text = choose_plurals(&text, name, &value);
    }
    text
}

/// Replaces each `{name|one|other}` with `one` when `value` is 1, else `other`.
fn choose_plurals(text: &str, name: &str, value: &str) -> String {
    let open = format!("{{{name}|");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(&open) {
        let after = &rest[i + open.len()..];
        let Some(close) = after.find('}') else {
            break;
        };
        let Some((one, other)) = after[..close].split_once('|') else {
            break;
        };
        out.push_str(&rest[..i]);
        out.push_str(if value.trim() == "1" { one } else { other });
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A message to show: a catalog key and the values for its placeholders. Models return
/// these instead of text so the view can show them in the learner's language.
#[derive(Clone, Debug, PartialEq)]
pub struct Msg {
    pub key: Key,
    pub args: Vec<(&'static str, String)>,
    /// Placeholders filled with a number, kept unformatted so a test can read the value;
    /// rendered by [`crate::format::number`].
    pub numbers: Vec<(&'static str, f64)>,
    /// Placeholders filled with another message, rendered in the same language.
    pub nested: Vec<(&'static str, Msg)>,
}

impl Msg {
    pub fn new(key: Key) -> Msg {
        Msg {
            key,
            args: Vec::new(),
            numbers: Vec::new(),
            nested: Vec::new(),
        }
    }

    /// Fills `{name}` with a number, formatted when the message is shown.
    pub fn num(mut self, name: &'static str, value: f64) -> Msg {
        self.numbers.push((name, value));
        self
    }

    /// The number given for `name`, if any.
    pub fn number(&self, name: &str) -> Option<f64> {
        self.numbers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }

    pub fn arg(mut self, name: &'static str, value: impl fmt::Display) -> Msg {
        self.args.push((name, value.to_string()));
        self
    }

    /// Fills `{name}` with `inner`, in whatever language this message is shown in.
    pub fn arg_msg(mut self, name: &'static str, inner: Msg) -> Msg {
        self.nested.push((name, inner));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_fills_placeholders_in_the_chosen_language() {
        let c = Catalog::parse(&[("t.tsv", "a.b\tHello {who}\t{who} 안녕\n")]).unwrap();
        let m = Msg::new(Key::new("a.b")).arg("who", "Kim");
        assert_eq!(c.render(Lang::En, &m), "Hello Kim");
        assert_eq!(c.render(Lang::Ko, &m), "Kim 안녕");
        assert_eq!(c.get(Lang::En, Key::new("missing.key")), "missing.key");
        let c =
            Catalog::parse(&[("t.tsv", "a.b\tHello {who}\t{who} 안녕\nw\tWorld\t세계\n")]).unwrap();
        let nested = Msg::new(Key::new("a.b")).arg_msg("who", Msg::new(Key::new("w")));
        assert_eq!(c.render(Lang::En, &nested), "Hello World");
        assert_eq!(c.render(Lang::Ko, &nested), "세계 안녕");
    }

    #[test]
    fn counts_choose_the_singular_only_for_one() {
        let c = Catalog::parse(&[(
            "t.tsv",
            "a\t{n} {n|row|rows}, {m} {m|step|steps}\t{n}행, {m}단계\n",
        )])
        .unwrap();
        let m = |n: &str, m: &str| Msg::new(Key::new("a")).arg("n", n).arg("m", m);
        assert_eq!(c.render(Lang::En, &m("1", "2")), "1 row, 2 steps");
        assert_eq!(c.render(Lang::En, &m("0", "1")), "0 rows, 1 step");
        assert_eq!(
            c.render(Lang::En, &m("1,000", "11")),
            "1,000 rows, 11 steps"
        );
        assert_eq!(c.render(Lang::Ko, &m("1", "1")), "1행, 1단계");
    }

    #[test]
    fn parse_names_the_file_and_line_of_a_broken_entry() {
        let e = Catalog::parse(&[("x.tsv", "# comment\nok\tA\tB\nbroken\tonly-en\n")]).err();
        assert_eq!(e.map(|e| (e.file, e.line)), Some(("x.tsv".into(), 3)));
        let dup = Catalog::parse(&[("a.tsv", "k\tA\tB\n"), ("b.tsv", "k\tC\tD\n")]).err();
        assert!(dup.is_some_and(|e| e.problem.contains("twice")));
    }

    #[test]
    fn language_codes_round_trip_and_browser_tags_map() {
        assert_eq!(Lang::parse("KO"), Some(Lang::Ko));
        assert_eq!(Lang::parse(Lang::En.code()), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::from_browser("ko-KR"), Lang::Ko);
        assert_eq!(Lang::from_browser("en-US"), Lang::En);
    }
}
