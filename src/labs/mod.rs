//! The labs, in the order the site shows them.
//!
//! Each lab is a folder, `labs/<slug>/`, of one shape: `lab.tsv` with its descriptor as data
//! (slug, tag, titles, schema, tour length, first screen, whether it saves; see
//! [`crate::descriptor::Descriptor`]), `mod.rs` (its modules, and its descriptor as Rust, which `build.rs`
//! writes from `lab.tsv`), `model.rs` (state and actions, SQL calls, no UI), `view/`
//! (components); a lab on PostgreSQL also `sql.rs` and `rows.rs`; maybe `share.rs` and
//! `tour.rs`; nothing else at the top (the rule and its test: `src/house/skeleton.rs`). Its
//! texts are `assets/i18n/<slug>.tsv`. Adding a lab is that folder, its catalog, and its line
//! in `labs/ORDER`: `build.rs` (`build/labs.rs`) writes the lab's `pub mod`, its place in
//! [`ALL`] and its keeper from them, and `scripts/labs.mjs` reads the same files for the
//! first screen, the embedding kit and the e2e page list.

pub mod challenge;
pub mod common;
pub mod frame;
pub mod guide;
pub mod harness;
pub mod share;

pub use crate::descriptor::{Descriptor, LabId};

// Each lab's module, `ALL` and `keeper`, written by build.rs from `ORDER` and the `lab.tsv`s.
include!(concat!(env!("OUT_DIR"), "/labs.rs"));

/// The lab with this slug (`jobs`), as routes and embed URLs name it.
pub fn find(slug: &str) -> Option<LabId> {
    ALL.iter().copied().find(|l| l.slug == slug)
}

/// The registry's data (`build/labs.rs`, which `build.rs` writes the Rust from), for the tests.
#[cfg(test)]
#[path = "../../build/labs.rs"]
#[allow(dead_code)]
mod data;

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

    /// The labs that save are those with a keeper that `ui::keep` reads, and only a lab on
    /// PostgreSQL saves; `descriptor::TAGS` (below the labs' code) names every lab with its tag.
    #[test]
    fn the_labs_that_save_are_the_labs_with_a_keeper() {
        for &lab in ALL {
            let saves = crate::ui::keep::saves(lab);
            assert_eq!(saves, keeper(lab).is_some(), "{}", lab.slug);
            assert!(!saves || lab.needs_postgres(), "{}", lab.slug);
            assert_eq!(crate::descriptor::tag_of(lab.slug), Some(lab.tag));
        }
        assert_eq!(crate::descriptor::TAGS.len(), ALL.len());
        let saving: Vec<&str> = ALL
            .iter()
            .filter(|&&l| crate::ui::keep::saves(l))
            .map(|l| l.slug)
            .collect();
        assert_eq!(saving, ["jobs", "vacuum", "pgq"]);
    }

    /// What the data says is what the site has: every lab of `ORDER` (the test-only ones in
    /// a build with their feature), in order, with its descriptor's fields.
    #[test]
    fn the_registry_is_the_labs_data() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let found: Vec<data::Desc> = data::labs(root)
            .expect("the registry reads")
            .into_iter()
            .filter(|d| d.feature.is_none() || cfg!(feature = "stub-lab"))
            .collect();
        let slugs: Vec<&str> = found.iter().map(|d| d.slug.as_str()).collect();
        assert_eq!(slugs, ALL.iter().map(|l| l.slug).collect::<Vec<_>>());
        for (d, l) in found.iter().zip(ALL) {
            assert_eq!(d.tag, l.tag);
            assert_eq!(d.schema.as_deref(), l.schema, "{}", l.slug);
            assert_eq!(d.keeps_path, l.keeps_path, "{}", l.slug);
            assert_eq!(d.saves, l.saves, "{}", l.slug);
            assert_eq!(d.short, l.short.as_str(), "{}", l.slug);
            assert_eq!(d.blurb, l.blurb.as_str(), "{}", l.slug);
        }
    }

    /// A sample lab made from the template (the stub's descriptor, its slug changed) and one
    /// line of `ORDER` is in the Rust registry `build.rs` writes: its module, its place in
    /// `ALL`, its descriptor. (tests/node/labs_registry.test.mjs does the same for the
    /// JavaScript tools.)
    #[test]
    fn a_sample_lab_from_the_template_is_in_the_rust_registry() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let tmp = std::env::temp_dir().join(format!("queue-lab-registry-{}", std::process::id()));
        let labs = tmp.join(data::LABS_DIR);
        let _ = std::fs::remove_dir_all(&tmp);
        for slug in data::order(root).expect("ORDER reads") {
            std::fs::create_dir_all(labs.join(&slug)).unwrap();
            let from = root.join(data::LABS_DIR).join(&slug).join("lab.tsv");
            std::fs::copy(from, labs.join(&slug).join("lab.tsv")).unwrap();
        }
        let order = std::fs::read_to_string(root.join(data::LABS_DIR).join("ORDER")).unwrap();
        std::fs::write(labs.join("ORDER"), format!("{order}sample\n")).unwrap();
        let stub = std::fs::read_to_string(labs.join("stub/lab.tsv")).unwrap();
        let sample: String = stub
            .lines()
            .filter(|l| !l.starts_with("feature\t"))
            .map(|l| match l.split_once('\t') {
                Some(("slug", _)) => "slug\tsample".to_owned(),
                Some(("tag", _)) => "tag\tL7".to_owned(),
                Some(("view", _)) => "view\tSampleLab".to_owned(),
                Some(("schema", _)) => "schema\tsample_lab".to_owned(),
                _ => l.to_owned(),
            })
            .map(|l| l + "\n")
            .collect();
        std::fs::create_dir_all(labs.join("sample")).unwrap();
        std::fs::write(labs.join("sample/lab.tsv"), sample).unwrap();

        let found = data::labs(&tmp).expect("the registry reads");
        let _ = std::fs::remove_dir_all(&tmp);
        let d = found.last().expect("a lab");
        assert_eq!(
            (d.slug.as_str(), d.schema.as_deref()),
            ("sample", Some("sample_lab"))
        );
        let registry = data::registry(&tmp, &found);
        let module = tmp.join("src/labs/sample/mod.rs").display().to_string();
        assert!(registry.contains(&format!("#[path = {module:?}]\npub mod sample;")));
        let all = &registry[registry.find("pub const ALL").expect("ALL is written")..];
        let all = &all[..all.find("];").expect("ALL ends")];
        assert!(
            all.trim_end()
                .ends_with("#[cfg(feature = \"stub-lab\")] stub::ID,\n    sample::ID,"),
            "ALL ends with the sample, after the stub behind its feature:\n{all}"
        );
        let descriptor = data::descriptor(d);
        assert!(descriptor.contains("slug: \"sample\", tag: \"L7\", schema: Some(\"sample_lab\")"));
        assert!(descriptor.contains("view: SampleLab,"));
    }

    /// `cargo fmt` formats the modules it finds from the crate's roots, and the labs' modules
    /// are declared in the registry `build.rs` writes, out of its sight: each lab folder is
    /// checked here (`rustfmt --edition 2021 src/labs/<slug>/mod.rs` formats one).
    #[test]
    fn the_lab_folders_are_formatted_as_cargo_fmt_would() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut unformatted = Vec::new();
        for slug in data::order(root).expect("ORDER reads") {
            let file = format!("src/labs/{slug}/mod.rs");
            let ran = std::process::Command::new("rustfmt")
                .args(["--check", "--edition", "2021", &file])
                .current_dir(root)
                .output()
                .expect("rustfmt runs");
            if !ran.status.success() {
                unformatted.push(format!("rustfmt --edition 2021 {file}"));
            }
        }
        assert!(
            unformatted.is_empty(),
            "lab folders not formatted; run:\n{}",
            unformatted.join("\n")
        );
    }
}
