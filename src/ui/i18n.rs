//! The app's side of translations: the texts of each language and reactive lookups.
//!
//! English, the fallback, needs no table: each key carries its English text ([`Key`]), so a
//! text is compiled into the code that shows it (and, in the release split by lab, into that
//! lab's module). The Korean texts are a file the site ships (`i18n/ko.tsv`, the catalogs'
//! Korean column, `scripts/language-file.mjs`): a page in Korean fetches it ([`fetch`]; the
//! first screen's script has usually started the request already) and [`load`]s it before it
//! shows a Korean text. Until then, and when it fails, every lookup is English. Native unit
//! tests have Korean loaded from the start; headless tests call `load(Lang::Ko, KOREAN)`.

use queue_lab_core::i18n::{fill, CatalogError, Key, Lang, Msg};
use std::collections::HashMap;
use std::sync::OnceLock;

// `FILES`: every catalog in `assets/i18n/`, both languages (for native tests; nothing the app
// runs reads it, so it is not in the .wasm); `TEXT_COUNT` and `KEYS_HASH`, how many texts a
// language file has and under which keys; `ENGLISH` (native tests) and `KOREAN`, one
// language's texts each (`key<TAB>text`), listed by `build.rs`; and `KOREAN_URL`, where the
// site serves the Korean texts relative to the page (`index.html` copies them there), with a
// hash of their bytes as its version. The first screen's script (`scripts/first-screen.mjs`)
// asks for the same address.
include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));

/// One language's texts by key.
type Texts = HashMap<String, String>;

/// Reads a language file: `key<TAB>text` lines, `#` comments and blank lines skipped, `\n` in
/// a text a line break. `file` names it in an error. With `complete`, the file must have that
/// many texts (this build's [`TEXT_COUNT`]), under this build's keys ([`KEYS_HASH`]): a
/// cut-off file is as broken as a garbled one, and another version's is refused too.
fn parse(file: &str, text: &str, complete: Option<usize>) -> Result<Texts, CatalogError> {
    let mut texts = Texts::new();
    let mut last = 0;
    for (i, line) in text.lines().enumerate() {
        last = i + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |problem: String| CatalogError {
            file: file.to_owned(),
            line: i + 1,
            problem,
        };
        let Some((key, value)) = line.split_once('\t') else {
            return Err(err("expected key<TAB>text".into()));
        };
        if value.contains('\t') {
            return Err(err("more than two columns".into()));
        }
        if value.trim().is_empty() {
            return Err(err(format!("{key}: the text is empty")));
        }
        if texts
            .insert(key.trim().to_owned(), value.replace("\\n", "\n"))
            .is_some()
        {
            return Err(err(format!("{key} is defined twice")));
        }
    }
    match complete {
        Some(all) if texts.len() < all => Err(CatalogError {
            file: file.to_owned(),
            line: last,
            problem: format!(
                "{} of {all} texts missing (the file ends at line {last})",
                all - texts.len()
            ),
        }),
        Some(all) if texts.len() > all || keys_hash(&texts) != KEYS_HASH => Err(CatalogError {
            file: file.to_owned(),
            line: last,
            problem: format!(
                "{} texts, not the {all} keys of this version of the site: a file of another version",
                texts.len()
            ),
        }),
        _ => Ok(texts),
    }
}

/// The sum of the texts' keys' FNV-1a hashes (as `build.rs` makes [`KEYS_HASH`]): no order
/// to sort, so no sorting code in the app.
fn keys_hash(texts: &Texts) -> u32 {
    texts.keys().fold(0u32, |sum, k| {
        sum.wrapping_add(k.bytes().fold(0x811c_9dc5_u32, |h, b| {
            (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
        }))
    })
}

static KO: OnceLock<Texts> = OnceLock::new();

fn korean() -> Option<&'static Texts> {
    #[cfg(test)]
    let _ = load(Lang::Ko, KOREAN);
    KO.get()
}

/// Makes `lang`'s texts (a language file's `text`) the ones lookups in `lang` find, unless it
/// has them already; English needs no file (each key carries its text). `Err` says where the
/// file is broken (nothing is loaded then).
pub fn load(lang: Lang, text: &str) -> Result<(), CatalogError> {
    if lang == Lang::En || KO.get().is_some() {
        return Ok(());
    }
    let texts = parse(KOREAN_URL, text, Some(TEXT_COUNT))?;
    let _ = KO.set(texts);
    Ok(())
}

/// Whether lookups in `lang` find its own texts (English always; Korean once loaded).
pub fn loaded(lang: Lang) -> bool {
    match lang {
        Lang::En => true,
        Lang::Ko => korean().is_some(),
    }
}

/// Why a language's texts could not be had: the address asked and what went wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadFailure {
    pub url: String,
    pub why: Why,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// The server answered with this HTTP status.
    Status(u16),
    /// No answer (offline, refused, blocked): the browser's error.
    Network(String),
    /// The answer is not a complete language file.
    Broken { line: usize, problem: String },
}

impl LoadFailure {
    /// What failed, as a message for the page (`shell.lang_failed`).
    pub fn msg(&self) -> Msg {
        let why = match &self.why {
            Why::Status(status) => {
                Msg::new(crate::keys::SHELL_LANG_WHY_STATUS).arg("status", status)
            }
            Why::Network(error) => {
                Msg::new(crate::keys::SHELL_LANG_WHY_NETWORK).arg("error", error)
            }
            Why::Broken { line, problem } => Msg::new(crate::keys::SHELL_LANG_WHY_BROKEN)
                .arg("line", line)
                .arg("problem", problem),
        };
        Msg::new(crate::keys::SHELL_LANG_FAILED)
            .arg("url", &self.url)
            .arg_msg("why", why)
    }
}

/// Fetches and [`load`]s `lang`'s texts (nothing to do for English or once loaded). Takes
/// over the request the first screen's script started (`window.queueLabKorean`, a promise
/// of the response) when there is one, so the file downloads beside the .wasm.
pub async fn fetch(lang: Lang) -> Result<(), LoadFailure> {
    use wasm_bindgen::JsCast;
    if loaded(lang) {
        return Ok(());
    }
    let window = leptos::prelude::window();
    let url = window
        .location()
        .href()
        .ok()
        .and_then(|page| web_sys::Url::new_with_base(KOREAN_URL, &page).ok())
        .map_or_else(|| KOREAN_URL.to_owned(), |u| u.href());
    let failed = |why: Why| LoadFailure {
        url: url.clone(),
        why,
    };
    let network = |e: wasm_bindgen::JsValue| {
        let text = e
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.to_string()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| format!("{e:?}"));
        failed(Why::Network(text))
    };
    let started = js_sys::Reflect::get(&window, &PREFETCHED.into())
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    // Taken once: a retry asks again.
    let _ = js_sys::Reflect::delete_property(&window, &PREFETCHED.into());
    let request = started.unwrap_or_else(|| window.fetch_with_str(&url));
    let response: web_sys::Response = wasm_bindgen_futures::JsFuture::from(request)
        .await
        .map_err(network)?
        .unchecked_into();
    if !response.ok() {
        return Err(failed(Why::Status(response.status())));
    }
    let text = wasm_bindgen_futures::JsFuture::from(response.text().map_err(network)?)
        .await
        .map_err(network)?
        .as_string()
        .unwrap_or_default();
    load(lang, &text).map_err(|e| {
        failed(Why::Broken {
            line: e.line,
            problem: e.problem,
        })
    })
}

/// The property of `window` where the first screen's script leaves its request for the
/// Korean texts.
const PREFETCHED: &str = "queueLabKorean";

/// The text for `key` in `lang` (English while `lang`'s texts are not loaded; the key itself
/// if no catalog has it): the one way code looks up a text (`Ctx::t` is this, tracked by
/// the language signal).
pub fn tr(lang: Lang, key: Key) -> String {
    text(lang, key).to_owned()
}

fn text(lang: Lang, key: Key) -> &'static str {
    match lang {
        Lang::En => None,
        Lang::Ko => korean().and_then(|t| t.get(key.as_str())),
    }
    .map_or(key.english(), String::as_str)
}

/// A model's message in `lang`, placeholders filled (a nested message in the same language).
pub fn render(lang: Lang, msg: &Msg) -> String {
    let mut text = fill(self::text(lang, msg.key), msg);
    for (name, inner) in &msg.nested {
        text = text.replace(&format!("{{{name}}}"), &render(lang, inner));
    }
    text
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
mod tests;
