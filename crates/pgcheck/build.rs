//! Writes `keys.rs`: one constant per key of the app's catalogs (pgcheck prints the labs'
//! tables with the labs' own column names and captions). Fails the build on a key a source of
//! this crate writes as a string literal. See `build/i18n_keys.rs`.
//!
//! And `contract_files.rs`: the contract suite (`tests/contract/pgque/*.sql`, in name order),
//! each file's name and text, so that `pgcheck pgq --against-pgque` carries the suite.

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
    write_contract_files(&root);
}

/// `contract_files.rs`: `FILES`, each contract file's name and `include_str!` of it.
fn write_contract_files(root: &std::path::Path) {
    let dir = root.join("tests/contract/pgque");
    println!("cargo:rerun-if-changed=../../tests/contract/pgque");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".sql"))
        .collect();
    names.sort();
    let mut out = String::from(
        "/// The contract files, in name order: (file name, text).\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for n in &names {
        let path = dir.join(n).canonicalize().expect("a contract file's path");
        out.push_str(&format!(
            "    ({n:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out_dir.join("contract_files.rs"), out).expect("writing contract_files.rs");
}
