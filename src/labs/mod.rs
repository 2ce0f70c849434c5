//! The labs, in the order the site shows them.
//!
//! Each lab is a folder, `labs/<slug>/`, of one shape: `mod.rs` with its descriptor (`LAB`,
//! `ID`; see [`crate::lab::Lab`]), `model.rs` (state and actions, SQL calls, no UI), `view/`
//! (components); a lab on PostgreSQL also `sql.rs` and `rows.rs`; maybe `share.rs` and
//! `tour.rs`; nothing else at the top (the rule and its test: `src/house/skeleton.rs`). Its
//! texts are `assets/i18n/<slug>.tsv`. Adding a lab is that folder, its catalog, and one
//! entry in [`ALL`] (with its `pub mod` line).

pub mod common;
pub mod frame;
pub mod guide;
pub mod jobs;
pub mod leave;
pub mod pgq;
pub mod session;
pub mod share;
#[cfg(feature = "stub-lab")]
pub mod stub;
pub mod vacuum;
pub mod workers;

pub use crate::lab::{Lab, LabId};

/// Every lab, in order: routes, the header, the home page and embed validation read this.
pub const ALL: &[LabId] = &[
    jobs::ID,
    workers::ID,
    vacuum::ID,
    pgq::ID,
    leave::ID,
    #[cfg(feature = "stub-lab")]
    stub::ID,
];

/// The lab with this slug (`jobs`), as routes and embed URLs name it.
pub fn find(slug: &str) -> Option<LabId> {
    ALL.iter().copied().find(|l| l.slug == slug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_unique_round_trip_and_tags_count_up() {
        for (i, l) in ALL.iter().enumerate() {
            assert_eq!(find(l.slug), Some(*l));
            assert_eq!(l.tag, format!("L{}", i + 1));
            assert!(ALL[..i].iter().all(|o| o.slug != l.slug));
            assert_eq!(l.title.as_str(), ["lab", l.slug, "title"].join("."));
        }
        assert_eq!(find("JOBS"), None);
    }

    /// The embedding kit (`assets/embed/queue-lab.js`) and its snippet page are plain
    /// JavaScript with their own list of labs: they must list exactly these, with the names
    /// the header shows.
    #[test]
    fn the_embedding_kit_lists_exactly_these_labs() {
        let root = env!("CARGO_MANIFEST_DIR");
        let kit = std::fs::read_to_string(format!("{root}/assets/embed/queue-lab.js")).unwrap();
        let page = std::fs::read_to_string(format!("{root}/assets/embed/index.html")).unwrap();
        let kit_labs = js_object_keys(&kit, "var LABS = {");
        let page_labs = js_object_keys(&page, "var DESCRIPTIONS = {");
        let slugs: Vec<&str> = shipped().map(|l| l.slug).collect();
        assert_eq!(kit_labs, slugs, "queue-lab.js LABS");
        assert_eq!(page_labs, slugs, "embed/index.html DESCRIPTIONS");
        for l in shipped() {
            for lang in [crate::Lang::En, crate::Lang::Ko] {
                let name = crate::ui::i18n::tr(lang, l.short);
                let entry = format!("{}: {{ en: ", l.slug);
                let line = kit.lines().find(|x| x.trim_start().starts_with(&entry));
                let quoted = format!("{}: '{}'", lang.code(), name);
                assert!(
                    line.is_some_and(|x| x.contains(&quoted)),
                    "queue-lab.js names {} {quoted:?} as the header does",
                    l.slug
                );
            }
        }
    }

    /// The snippet page describes each lab with its catalog's blurb, word for word in both
    /// languages (its descriptions drifted from the labs when they were written there).
    #[test]
    fn the_snippet_page_describes_each_lab_with_its_catalog_blurb() {
        let page = from_marker("assets/embed/index.html", "var DESCRIPTIONS = {");
        let block = &page[..page.find("};").expect("it ends")];
        for l in shipped() {
            let at = block
                .find(&format!("\n      {}: [", l.slug))
                .unwrap_or_else(|| panic!("embed/index.html describes {}", l.slug));
            let texts = js_strings(&block[at..], 2);
            let want: Vec<String> = [crate::Lang::En, crate::Lang::Ko]
                .into_iter()
                .map(|lang| crate::ui::i18n::tr(lang, l.blurb))
                .collect();
            assert_eq!(
                texts, want,
                "embed/index.html describes {} as {}",
                l.slug, l.blurb
            );
        }
    }

    /// The e2e suites' page list (`tests/e2e/harness.mjs`, `PAGES`) names the home page and
    /// every lab, in the site's order: a lab missing there would be skipped by the Korean
    /// and accessibility scans without a word.
    #[test]
    fn the_e2e_page_list_names_every_lab() {
        let harness = from_marker("tests/e2e/harness.mjs", "const ALL_PAGES = [");
        let names: Vec<&str> = harness
            .lines()
            .take_while(|l| *l != "];")
            .filter_map(|l| {
                let l = l.trim_start();
                let rest = l
                    .strip_prefix("name: '")
                    .or_else(|| l.strip_prefix("{ name: '"))?;
                rest.split('\'').next()
            })
            .collect();
        let mut want = vec!["home"];
        want.extend(ALL.iter().map(|l| l.slug));
        // The test-only stub's page is listed for builds with its feature (`feature:`).
        #[cfg(not(feature = "stub-lab"))]
        want.push("stub");
        assert_eq!(names, want, "harness.mjs ALL_PAGES");
    }

    /// The text of the repository's file `path` from the first `marker` on.
    fn from_marker(path: &str, marker: &str) -> String {
        let root = env!("CARGO_MANIFEST_DIR");
        let text = std::fs::read_to_string(format!("{root}/{path}")).unwrap();
        let from = text
            .find(marker)
            .unwrap_or_else(|| panic!("{path} has {marker}"));
        text[from..].to_owned()
    }

    /// The first `n` JavaScript string literals (single- or double-quoted) in `text`.
    fn js_strings(text: &str, n: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut chars = text.chars();
        while out.len() < n {
            let Some(quote) = chars.by_ref().find(|c| *c == '\'' || *c == '"') else {
                break;
            };
            let mut s = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => s.extend(chars.next()),
                    c if c == quote => break,
                    c => s.push(c),
                }
            }
            out.push(s);
        }
        out
    }

    /// The labs the embedding kit offers to other sites: all but the test-only stub (its
    /// `?lab=stub` works in a build with the feature; the kit is not rebuilt for it).
    fn shipped() -> impl Iterator<Item = LabId> {
        #[cfg(feature = "stub-lab")]
        let stub = Some(stub::ID);
        #[cfg(not(feature = "stub-lab"))]
        let stub: Option<LabId> = None;
        ALL.iter().copied().filter(move |l| Some(*l) != stub)
    }

    /// The keys of the JavaScript object literal that starts at `start`, in order.
    fn js_object_keys(text: &str, start: &str) -> Vec<String> {
        let from = text.find(start).expect("the object is there") + start.len();
        let mut keys = Vec::new();
        let mut depth = 0;
        for line in text[from..].lines() {
            let t = line.trim_start();
            if depth == 0 {
                if t.starts_with('}') {
                    break;
                }
                if let Some((key, _)) = t.split_once(':') {
                    if key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !key.is_empty()
                    {
                        keys.push(key.to_owned());
                    }
                }
            }
            depth += line.matches(['{', '[']).count() as i32;
            depth -= line.matches(['}', ']']).count() as i32;
        }
        keys
    }
}
