//! Writes `keys.rs`: one constant per key of the app's catalogs (pgcheck prints the labs'
//! tables with the labs' own column names and captions). Fails the build on a key a source of
//! this crate writes as a string literal. See `build/i18n_keys.rs`.

#[path = "../../build/i18n_keys.rs"]
#[allow(dead_code)] // some functions are for the app's build.rs and tests
mod i18n_keys;

fn main() {
    let crate_dir =
        std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = crate_dir.join("../..");
    println!("cargo:rerun-if-changed=../../build/i18n_keys.rs");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=../../{}", i18n_keys::CATALOG_DIR);
    // The app's catalogs, but a test-only lab's (first line `# test-only: <feature>`).
    let catalogs: Vec<String> = i18n_keys::catalogs(&root)
        .into_iter()
        .filter(|c| !i18n_keys::CORE_CATALOGS.contains(&c.as_str()))
        .filter(|c| {
            let path = root.join(i18n_keys::CATALOG_DIR).join(c);
            let text = std::fs::read_to_string(path).unwrap_or_default();
            !text.starts_with("# test-only:")
        })
        .collect();
    let keys = i18n_keys::constants(&root, &catalogs, "queue_lab_core::i18n::Key", "")
        .unwrap_or_else(|e| panic!("{e}"));
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("keys.rs"), keys).expect("OUT_DIR is writable");
    let written = i18n_keys::written_as_text(&root, &["crates/pgcheck/src"]);
    if !written.is_empty() {
        panic!(
            "{} message key(s) written as text (name a key by its constant, keys::…):\n{}",
            written.len(),
            written.join("\n")
        );
    }
}
