//! Writes `keys.rs`: one constant per key of the app's catalogs (pgcheck prints the labs'
//! tables with the labs' own column names and captions). Fails the build on a key a source of
//! this crate writes as a string literal. See `build/i18n_keys.rs`.

#[path = "../../build/i18n_keys.rs"]
#[allow(dead_code)] // some functions are for the app's build.rs and tests
mod i18n_keys;
#[path = "../keys_build.rs"]
mod keys_build;

fn main() {
    let root = keys_build::root();
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
    keys_build::write_keys(
        &root,
        &catalogs,
        "queue_lab_core::i18n::Key",
        "",
        "crates/pgcheck/src",
    );
}
