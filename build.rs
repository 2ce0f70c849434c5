//! Lists the message catalogs for the app (`assets/i18n/*.tsv`, compiled in by
//! `ui::i18n`), and fails the build when the sources name a message key that no catalog
//! defines, so a misspelt key is a compile error, not a raw key on the page. See
//! `build/i18n_keys.rs`.

#[path = "build/i18n_keys.rs"]
#[allow(dead_code)] // `unused` is for the test in src/ui/i18n.rs
mod i18n_keys;

fn main() {
    let root =
        std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    for dir in i18n_keys::SOURCES {
        println!("cargo:rerun-if-changed={dir}");
    }
    for script in i18n_keys::SCRIPTS {
        println!("cargo:rerun-if-changed={script}");
    }
    println!("cargo:rerun-if-changed={}", i18n_keys::CATALOG_DIR);
    let names = i18n_keys::catalogs(&root);
    let mut list = String::from(
        "/// Every catalog: its file name and text.\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for name in &names {
        let path = root.join(i18n_keys::CATALOG_DIR).join(name);
        println!("cargo:rerun-if-changed={}", path.display());
        // A test-only lab's catalog (first line `# test-only: <feature>`) ships only in a
        // build with that feature.
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if let Some(feature) = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# test-only: "))
        {
            let var = format!(
                "CARGO_FEATURE_{}",
                feature.trim().to_uppercase().replace('-', "_")
            );
            if std::env::var_os(var).is_none() {
                continue;
            }
        }
        list.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    list.push_str("];\n");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("catalogs.rs"), list).expect("OUT_DIR is writable");
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
