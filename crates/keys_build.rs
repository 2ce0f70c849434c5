//! What the build scripts of `queue-lab-core` and `pgcheck` share: each includes this file
//! with `#[path]` beside `build/i18n_keys.rs`, picks its catalogs, and calls [`write_keys`].

use std::path::PathBuf;

/// The repository's root, from the crate's folder (`crates/<name>`). Tells cargo to run the
/// build script again when the key scanner or the crate's sources change.
pub fn root() -> PathBuf {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    println!("cargo:rerun-if-changed=../../build/i18n_keys.rs");
    println!("cargo:rerun-if-changed=../keys_build.rs");
    println!("cargo:rerun-if-changed=src");
    crate_dir.join("../..")
}

/// Writes `keys.rs` into `OUT_DIR`: one constant of type `key_type` per key of `catalogs`,
/// then `extra`. Fails the build on a key a file under `src` (from the root) writes as a
/// string literal.
pub fn write_keys(
    root: &std::path::Path,
    catalogs: &[String],
    key_type: &str,
    extra: &str,
    src: &str,
) {
    let keys = super::i18n_keys::constants(root, catalogs, key_type, extra)
        .unwrap_or_else(|e| panic!("{e}"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("keys.rs"), keys).expect("OUT_DIR is writable");
    let written = super::i18n_keys::written_as_text(root, &[src]);
    if !written.is_empty() {
        panic!(
            "{} message key(s) written as text (name a key by its constant, keys::…):\n{}",
            written.len(),
            written.join("\n")
        );
    }
}
