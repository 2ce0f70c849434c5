//! Writes `keys.rs`: one constant per key of the advisor's catalog (`assets/i18n/leave.tsv`),
//! the crate's public `keys` module, and `ALL`, every one of them. Fails the build on a key
//! a source of this crate writes as a string literal. See `build/i18n_keys.rs`.

#[path = "../../build/i18n_keys.rs"]
#[allow(dead_code)] // some functions are for the app's build.rs and tests
mod i18n_keys;
#[path = "../keys_build.rs"]
mod keys_build;

fn main() {
    let root = keys_build::root();
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
    keys_build::write_keys(
        &root,
        &catalogs,
        "crate::i18n::Key",
        &all,
        "crates/core/src",
    );
}
