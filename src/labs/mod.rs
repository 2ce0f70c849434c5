//! The labs, in the order the site shows them.
//!
//! Each lab is a folder, `labs/<slug>/`, of one shape: `mod.rs` with its descriptor (`LAB`,
//! `ID`; see [`crate::lab::Lab`]), `model.rs` (state and actions, SQL calls, no UI), `view/`
//! (components); a lab on PostgreSQL also `sql.rs` and `rows.rs`; maybe `share.rs` and
//! `tour.rs`; nothing else at the top (the rule and its test: `src/house/skeleton.rs`). Its
//! texts are `assets/i18n/<slug>.tsv`. Adding a lab is that folder, its catalog, and one
//! entry in [`ALL`] (with its `pub mod` line).

pub mod common;
pub mod guide;
pub mod jobs;
pub mod leave;
pub mod pgq;
pub mod session;
pub mod share;
pub mod vacuum;
pub mod workers;

pub use crate::lab::{Lab, LabId};

/// Every lab, in order: routes, the header, the home page and embed validation read this.
pub const ALL: [LabId; 5] = [jobs::ID, workers::ID, vacuum::ID, pgq::ID, leave::ID];

/// The lab with this slug (`jobs`), as routes and embed URLs name it.
pub fn find(slug: &str) -> Option<LabId> {
    ALL.into_iter().find(|l| l.slug == slug)
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
            assert_eq!(l.title, format!("lab.{}.title", l.slug));
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
        let slugs: Vec<&str> = ALL.iter().map(|l| l.slug).collect();
        assert_eq!(kit_labs, slugs, "queue-lab.js LABS");
        assert_eq!(page_labs, slugs, "embed/index.html DESCRIPTIONS");
        for l in ALL {
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
