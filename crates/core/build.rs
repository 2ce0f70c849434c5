//! Writes `keys.rs`: one constant per key of the advisor's catalog (`assets/i18n/leave.tsv`),
//! the crate's public `keys` module, and `ALL`, every one of them. Fails the build on a key
//! a source of this crate writes as a string literal. See `build/i18n_keys.rs`.

#[path = "../../build/i18n_keys.rs"]
#[allow(dead_code)] // some functions are for the app's build.rs and tests
mod i18n_keys;

fn main() {
    let crate_dir =
        std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = crate_dir.join("../..");
    println!("cargo:rerun-if-changed=../../build/i18n_keys.rs");
    println!("cargo:rerun-if-changed=src");
    let catalogs: Vec<String> = i18n_keys::CORE_CATALOGS
        .iter()
        .map(|c| (*c).to_owned())
        .collect();
    let mut all = String::from(
        "/// Every key of the advisor's catalog (a test checks each is emitted).\npub const ALL: &[Key] = &[\n",
    );
    for c in &catalogs {
        println!(
            "cargo:rerun-if-changed=../../{}/{c}",
            i18n_keys::CATALOG_DIR
        );
        let place = format!("{}/{c}:", i18n_keys::CATALOG_DIR);
        for (key, _) in i18n_keys::catalog_keys(&root)
            .into_iter()
            .filter(|(_, p)| p.starts_with(&place))
        {
            all.push_str(&format!("    {},\n", i18n_keys::const_name(&key)));
        }
    }
    all.push_str("];\n");
    let keys = i18n_keys::constants(&root, &catalogs, "crate::i18n::Key", &all)
        .unwrap_or_else(|e| panic!("{e}"));
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("keys.rs"), keys).expect("OUT_DIR is writable");
    let written = i18n_keys::written_as_text(&root, &["crates/core/src"]);
    if !written.is_empty() {
        panic!(
            "{} message key(s) written as text (name a key by its constant, keys::…):\n{}",
            written.len(),
            written.join("\n")
        );
    }
}
