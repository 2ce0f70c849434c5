//! The layers of `src/`, top to bottom, and the rule that a file imports only from its own
//! layer or the ones below it (through `crate::` or `super::`, as `house::import_edges` reads
//! them):
//!
//! | layer | files |
//! |---|---|
//! | app (the shell) | `main.rs`, `app.rs` |
//! | labs | `labs/**` (the registry, each lab, what labs share) |
//! | ui | `ui/**`, `ctx.rs` (what every component reads) |
//! | runner | `runner.rs`, `runner/**`, `descriptor.rs` (a lab's descriptor), `clock.rs`, `psql.rs` |
//! | db | `db/**` but the bridge's two files |
//! | bridge | `db/bridge.rs` (the one Rust file over the JavaScript bridge, with the types it speaks in: where PGlite is, its manifest, boot, progress) and `db/error.rs` (the error it reports) |
//!
//! `lib.rs` (the crate's root: the `keys` module, re-exports) and `task.rs` (the one place a
//! task is started, `house/spawn.rs`) are below every layer; test
//! support (`testing.rs`, `house/**`) and test files are in none.

use std::path::Path;

/// The layers, top first, each with the files in it (a path under `src/`, or a folder's
/// prefix ending in `/`).
const LAYERS: &[(&str, &[&str])] = &[
    ("app", &["main.rs", "app.rs"]),
    ("labs", &["labs/"]),
    ("ui", &["ui/", "ctx.rs"]),
    (
        "runner",
        &[
            "runner.rs",
            "runner/",
            "descriptor.rs",
            "clock.rs",
            "psql.rs",
        ],
    ),
    ("db", &["db/"]),
    ("bridge", &["db/bridge.rs", "db/error.rs"]),
];

/// Imports up a layer that stay, each with why: the test fails on any other, and on one of
/// these that is gone (take it off the list).
const KNOWN: &[(&str, &str)] = &[(
    "ui/keep.rs → labs/mod.rs (ui → labs)",
    "the keepers of Save/Open (`labs::keeper`) are reached only from the flows of taking a \
     lab home, so the release split by lab keeps them in the module `Keep`; handed down in the \
     descriptors they were in the main module, +224 KB",
)];

/// The layer of a file under `src/` (0 is the top), by its longest matching entry; `None` for
/// a file in no layer.
fn layer_of(file: &str) -> Option<usize> {
    LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, files))| files.iter().map(move |f| (i, *f)))
        .filter(|(_, f)| {
            if f.ends_with('/') {
                file.starts_with(f)
            } else {
                file == *f
            }
        })
        .max_by_key(|(_, f)| f.len())
        .map(|(i, _)| i)
}

/// Each import from a lower layer up to a higher one: `from → to (lower layer → higher)`.
fn upward_imports(
    edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (from, tos) in edges {
        let Some(a) = layer_of(from) else { continue };
        for to in tos {
            let Some(b) = layer_of(to) else { continue };
            if b < a {
                out.push(format!("{from} → {to} ({} → {})", LAYERS[a].0, LAYERS[b].0));
            }
        }
    }
    out
}

/// No file imports from a layer above its own: `ui/` names no lab, the runner no component,
/// the database no runner. What a lower layer needs of a higher one it is handed (a value,
/// a trait object, a function), never imports.
#[test]
fn no_file_imports_from_a_layer_above_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let edges = super::import_edges(root);
    let mut unplaced: Vec<&String> = edges
        .keys()
        .filter(|f| layer_of(f).is_none())
        .filter(|f| !matches!(f.as_str(), "lib.rs" | "task.rs" | "testing.rs" | "house.rs"))
        .filter(|f| !f.starts_with("house/"))
        .collect();
    unplaced.dedup();
    assert!(
        unplaced.is_empty(),
        "files in no layer (add them to LAYERS in src/house/layers.rs): {unplaced:?}"
    );
    let upward = upward_imports(&edges);
    let new: Vec<&String> = upward
        .iter()
        .filter(|u| !KNOWN.iter().any(|(k, _)| k == u))
        .collect();
    assert!(
        new.is_empty(),
        "{} import(s) from a layer above the file's own:\n{}",
        new.len(),
        new.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let gone: Vec<&str> = KNOWN
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| !upward.iter().any(|u| u == k))
        .collect();
    assert!(
        gone.is_empty(),
        "no longer imported, take off KNOWN: {gone:?}"
    );
}

/// The measure itself: a file's layer is its longest entry, and only an import up is reported.
#[test]
fn an_import_up_a_layer_is_reported_and_one_down_is_not() {
    assert_eq!(layer_of("db/bridge.rs"), Some(5));
    assert_eq!(layer_of("db/tx.rs"), Some(4));
    assert_eq!(layer_of("labs/jobs/view/mod.rs"), Some(1));
    assert_eq!(layer_of("testing.rs"), None);
    let edges = super::edges_of(&[
        ("ui/keep.rs", "labs/mod.rs"),
        ("labs/mod.rs", "ui/keep.rs"),
        ("db/mod.rs", "db/bridge.rs"),
        ("db/bridge.rs", "runner.rs"),
        ("testing.rs", "app.rs"),
    ]);
    assert_eq!(
        upward_imports(&edges),
        [
            "db/bridge.rs → runner.rs (bridge → runner)",
            "ui/keep.rs → labs/mod.rs (ui → labs)"
        ]
    );
}
