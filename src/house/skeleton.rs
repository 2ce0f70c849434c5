//! One shape for every lab: the files a lab folder `src/labs/<slug>/` holds, stated once here
//! (docs/ARCHITECTURE.md, "A lab's folder", says the same in words). A newcomer who has read one lab
//! knows where everything is in the next.
//!
//! - Every lab: `lab.tsv` (its descriptor, as data: build.rs writes the Rust registry from
//!   it), `mod.rs` (its modules and the descriptor as Rust), `model.rs` (state and actions, no UI) and
//!   `view/mod.rs` (its components; the view's parts beside it in `view/`).
//! - A lab on PostgreSQL (`needs_postgres`) also: `sql.rs` (its statements) and `rows.rs`
//!   (the rows they return).
//! - A lab may also hold `share.rs` (its share link, through the one codec `labs::share`) and `tour.rs`
//!   (its guided tour's steps, a `labs::guide::Tour`) and `challenges.rs` (its challenges, in
//!   the tour's format, `labs::challenge::Challenge`).
//! - Nothing else at the top. Anything more goes in a folder named after the file it belongs
//!   to (`model/` for `model.rs`'s child modules, `tour/` for `tour.rs`'s tests, …) or in `view/`.

use std::path::Path;

/// What every lab folder holds.
const REQUIRED: &[&str] = &["lab.tsv", "mod.rs", "model.rs", "view/mod.rs"];
/// What a lab that needs PostgreSQL holds as well.
const REQUIRED_WITH_POSTGRES: &[&str] = &["sql.rs", "rows.rs"];
/// What a lab may hold besides.
const ALLOWED: &[&str] = &["share.rs", "tour.rs", "challenges.rs"];

/// What is wrong with the lab folder `dir` against the skeleton (empty: nothing).
fn skeleton_problems(dir: &Path, needs_postgres: bool) -> Vec<String> {
    let shown = dir.display();
    let mut problems = Vec::new();
    let required: Vec<&str> = REQUIRED
        .iter()
        .chain(if needs_postgres {
            REQUIRED_WITH_POSTGRES
        } else {
            &[]
        })
        .copied()
        .collect();
    for file in &required {
        if !dir.join(file).is_file() {
            problems.push(format!("{shown}: missing {file}"));
        }
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        problems.push(format!("{shown}: not a folder"));
        return problems;
    };
    let mut names: Vec<(String, bool)> = entries
        .map(|e| {
            let path = e.expect("dir entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
            (name.to_owned(), path.is_dir())
        })
        .collect();
    names.sort();
    let is_file_here = |name: &str| {
        required.contains(&name) || ALLOWED.contains(&name) && dir.join(name).is_file()
    };
    for (name, is_dir) in names {
        let fits = if is_dir {
            name == "view" || is_file_here(&format!("{name}.rs"))
        } else {
            required.contains(&name.as_str()) || ALLOWED.contains(&name.as_str())
        };
        if !fits {
            let what = if is_dir { "folder" } else { "file" };
            problems.push(format!(
                "{shown}: {what} {name} is not part of a lab's skeleton \
                 (move it under model/ or view/, see src/house/skeleton.rs)"
            ));
        }
    }
    problems
}

#[test]
fn every_lab_folder_has_the_one_skeleton_and_nothing_else() {
    let labs = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/labs");
    let mut problems = Vec::new();
    for lab in crate::labs::ALL {
        problems.extend(skeleton_problems(
            &labs.join(lab.slug),
            lab.needs_postgres(),
        ));
    }
    for entry in std::fs::read_dir(&labs).expect("src/labs readable") {
        let path = entry.expect("dir entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        // The test-only stub lab (feature `stub-lab`) keeps the skeleton in every build.
        if path.is_dir() && name == "stub" && !cfg!(feature = "stub-lab") {
            problems.extend(skeleton_problems(&path, true));
            continue;
        }
        if path.is_dir() && crate::labs::find(name).is_none() {
            problems.push(format!(
                "src/labs/{name}: a folder that is no lab in labs::ALL"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The check itself, on a planted folder: a missing required file and a stray top-level
/// file are both reported; a child folder of an existing file is not.
#[test]
fn a_lab_folder_missing_a_file_or_holding_a_stray_one_is_reported() {
    let dir = std::env::temp_dir().join(format!("queue-lab-skeleton-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for file in [
        "lab.tsv",
        "mod.rs",
        "model.rs",
        "model/extra.rs",
        "view/mod.rs",
        "sql.rs",
        "stray.rs",
    ] {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "").unwrap();
    }
    std::fs::create_dir_all(dir.join("orphan")).unwrap();
    let problems = skeleton_problems(&dir, true);
    let _ = std::fs::remove_dir_all(&dir);
    let said = |what: &str| problems.iter().any(|p| p.contains(what));
    assert!(said("missing rows.rs"), "{problems:?}");
    assert!(said("file stray.rs"), "{problems:?}");
    assert!(said("folder orphan"), "{problems:?}");
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(skeleton_problems(&dir, false)
        .iter()
        .any(|p| p.contains("not a folder")));
}
