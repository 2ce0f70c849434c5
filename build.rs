//! Lists the message catalogs for the app (`assets/i18n/*.tsv`), writes each language's
//! texts as a file of their own (`en.tsv`, which native tests read; `ko.tsv`, which the site
//! ships as `i18n/ko.tsv`, written for it by `scripts/language-file.mjs`, and which tests
//! load), and writes `keys.rs`, one constant per key of the app's catalogs (the
//! `keys` module), so a misspelt key is a compile error and an unused one dead code. Fails
//! the build on a key a source writes as a string literal, or a key the first screen's
//! script names that no catalog has. See `build/i18n_keys.rs`. Writes the registry of labs
//! from `src/labs/ORDER` and each lab's `lab.tsv` (`build/labs.rs`).

#[path = "build/labs.rs"]
mod labs;

#[path = "build/i18n_keys.rs"]
#[allow(dead_code)] // some functions are for the other crates' build.rs and the tests
mod i18n_keys;

fn main() {
    split_by_lab();
    let root =
        std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    write_registry(&root);
    for dir in i18n_keys::SOURCES {
        println!("cargo:rerun-if-changed={dir}");
    }
    for script in i18n_keys::SCRIPTS {
        println!("cargo:rerun-if-changed={script}");
    }
    println!("cargo:rerun-if-changed={}", i18n_keys::CATALOG_DIR);
    let names = i18n_keys::catalogs(&root);
    let mut app_catalogs = Vec::new();
    let mut shipped = Vec::new();
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
        shipped.push((name.clone(), text));
        if !i18n_keys::CORE_CATALOGS.contains(&name.as_str()) {
            app_catalogs.push(name.clone());
        }
    }
    list.push_str("];\n");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    for (lang, column, name, what) in [
        (
            "en",
            1,
            "ENGLISH",
            "The English texts as one file (native tests; the app has each in its key).",
        ),
        (
            "ko",
            2,
            "KOREAN",
            "The Korean texts, as the site ships them in `i18n/ko.tsv`.",
        ),
    ] {
        let file = out.join(format!("{lang}.tsv"));
        let text = i18n_keys::language_file(&shipped, column);
        std::fs::write(&file, &text).expect("OUT_DIR is writable");
        if lang == "ko" {
            // A new file is a new address: no browser keeps a copy cached from an older site.
            list.push_str(&format!(
                "/// Where the site serves the Korean texts, versioned by a hash of their bytes\n\
                 /// (`scripts/language-file.mjs`: koreanUrl, the same).\n\
                 pub const KOREAN_URL: &str = \"i18n/ko.tsv?v={:08x}\";\n",
                i18n_keys::fnv1a32(text.as_bytes())
            ));
        }
        if lang == "en" {
            let keys: Vec<&str> = text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .filter_map(|l| l.split_once('\t').map(|(k, _)| k.trim()))
                .collect();
            let count = keys.len();
            let hash = keys.iter().fold(0u32, |sum, k| {
                sum.wrapping_add(i18n_keys::fnv1a32(k.as_bytes()))
            });
            list.push_str(&format!(
                "/// How many texts each language file has (a Korean file with fewer was cut off).\n\
                 pub const TEXT_COUNT: usize = {count};\n\
                 /// The sum of this build's keys' FNV-1a hashes: a language file with other\n\
                 /// keys is another version's (`ui::i18n::keys_hash`).\n\
                 pub const KEYS_HASH: u32 = 0x{hash:08x};\n"
            ));
        }
        // The English file is for native tests only: the app has each English text in its key.
        let only_tests = if lang == "en" { "#[cfg(test)]\n" } else { "" };
        list.push_str(&format!(
            "/// {what}\n{only_tests}pub const {name}: &str = include_str!({:?});\n",
            file.display().to_string()
        ));
    }
    std::fs::write(out.join("catalogs.rs"), list).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed=build/i18n_keys.rs");
    // The keys the first screen's script names count as used: the list names their constants.
    let mut scripts = String::from(
        "/// The keys `scripts/first-screen.mjs` names (it draws the page before the app runs).\n\
         #[allow(dead_code)]\npub const NAMED_BY_SCRIPTS: &[Key] = &[\n",
    );
    let app_keys: std::collections::BTreeSet<String> = i18n_keys::catalog_keys(&root)
        .into_iter()
        .filter(|(_, place)| {
            app_catalogs
                .iter()
                .any(|c| place.starts_with(&format!("{}/{c}:", i18n_keys::CATALOG_DIR)))
        })
        .map(|(k, _)| k)
        .collect();
    for named in i18n_keys::script_keys(&root) {
        if app_keys.contains(&named.key) {
            scripts.push_str(&format!("    {},\n", i18n_keys::const_name(&named.key)));
        }
    }
    scripts.push_str("];\n");
    let keys = i18n_keys::constants(&root, &app_catalogs, "queue_lab_core::i18n::Key", &scripts)
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(out.join("keys.rs"), keys).expect("OUT_DIR is writable");
    let mut problems = i18n_keys::missing_in_scripts(&root);
    problems.extend(i18n_keys::written_as_text(&root, &["src"]));
    if !problems.is_empty() {
        for m in &problems {
            println!("cargo:warning={m}");
        }
        panic!(
            "{} message key(s) a script names are in no catalog, or a Rust source writes as text \
             (name a key by its constant, keys::…):\n{}",
            problems.len(),
            problems.join("\n")
        );
    }
}

/// The registry of labs from their data files (build/labs.rs): `labs.rs` for `src/labs/mod.rs`,
/// `labs/<slug>.rs`, the descriptor each lab's `mod.rs` includes, and `lab_tags.rs`, the
/// slugs and tags `src/descriptor.rs` includes.
fn write_registry(root: &std::path::Path) {
    println!("cargo:rerun-if-changed=build/labs.rs");
    println!("cargo:rerun-if-changed={}/ORDER", labs::LABS_DIR);
    let found = labs::labs(root).unwrap_or_else(|e| panic!("the registry of labs: {e}"));
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    std::fs::create_dir_all(out.join("labs")).expect("OUT_DIR is writable");
    for d in &found {
        println!(
            "cargo:rerun-if-changed={}/{}/lab.tsv",
            labs::LABS_DIR,
            d.slug
        );
        let file = out.join("labs").join(format!("{}.rs", d.slug));
        std::fs::write(file, labs::descriptor(d)).expect("OUT_DIR is writable");
    }
    std::fs::write(out.join("labs.rs"), labs::registry(root, &found)).expect("OUT_DIR is writable");
    std::fs::write(out.join("lab_tags.rs"), labs::tags(&found)).expect("OUT_DIR is writable");
}

/// `QUEUE_LAB_SPLIT=1` (set by ./lab's release build): the app's release split by lab. Each
/// lab's page becomes a split point (`--cfg queue_lab_split`, src/descriptor.rs `Page`), and the
/// app's `.wasm` keeps the linker's relocations, which the splitter reads
/// (scripts/split-release.mjs). Set here, not in RUSTFLAGS: only this crate is built again
/// when it changes, and L2's worker is linked as always.
fn split_by_lab() {
    println!("cargo:rerun-if-env-changed=QUEUE_LAB_SPLIT");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if wasm && std::env::var("QUEUE_LAB_SPLIT").is_ok_and(|v| v == "1") {
        println!("cargo:rustc-cfg=queue_lab_split");
        println!("cargo:rustc-link-arg-bin=queue-lab=--emit-relocs");
    }
}
