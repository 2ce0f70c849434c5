//! Fails the build when the sources name a message key that no catalog defines, so a
//! misspelt key is a compile error, not a raw key on the page. See `build/i18n_keys.rs`.

#[path = "build/i18n_keys.rs"]
#[allow(dead_code)] // `unused` is for the test in src/ui/i18n.rs
mod i18n_keys;

fn main() {
    let root =
        std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    for dir in i18n_keys::SOURCES {
        println!("cargo:rerun-if-changed={dir}");
    }
    for file in i18n_keys::CATALOGS {
        println!("cargo:rerun-if-changed={file}");
    }
    println!("cargo:rerun-if-changed=build/i18n_keys.rs");
    let missing = i18n_keys::missing(&root);
    if !missing.is_empty() {
        for m in &missing {
            println!("cargo:warning=message key in no catalog: {m}");
        }
        panic!(
            "{} message key(s) named in the sources are in no catalog (assets/i18n/*.tsv):\n{}",
            missing.len(),
            missing.join("\n")
        );
    }
}
