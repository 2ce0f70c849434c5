//! Size limits that keep the code holdable: no source file outside tests over
//! [`FILE_LINES`] lines, no `#[component]` over [`COMPONENT_LINES`]. A file or component that
//! grows past them is split by concern before it lands.

use std::path::{Path, PathBuf};

mod skeleton;

const FILE_LINES: usize = 800;
const COMPONENT_LINES: usize = 150;

/// Rust sources under `dir`, test files (`tests.rs`, `tests/`) left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source dir readable") {
        let path = entry.expect("dir entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" && name != "target" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// Each `#[component]` in `text`, with its length in lines: from the attribute to the
/// closing brace at the indentation of its `fn`.
fn components(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        if line.trim() != "#[component]" {
            continue;
        }
        let Some(f) = (start..lines.len()).find(|&i| lines[i].contains("fn ")) else {
            continue;
        };
        let name = lines[f]
            .split("fn ")
            .nth(1)
            .and_then(|r| r.split(['(', '<']).next())
            .unwrap_or("?")
            .to_owned();
        let end = (f + 1..lines.len())
            .find(|&i| {
                lines[i].trim_start().starts_with('}') && indent(lines[i]) == indent(lines[f])
            })
            .unwrap_or(lines.len() - 1);
        out.push((name, end - start + 1));
    }
    out
}

#[test]
fn no_source_file_or_component_is_too_long_to_hold() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "crates", "build"] {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "found only {} sources", files.len());
    let mut problems = Vec::new();
    let mut seen_components = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("source readable");
        let shown = path.strip_prefix(root).unwrap_or(path).display();
        let n = text.lines().count();
        if n > FILE_LINES {
            problems.push(format!("{shown}: {n} lines (limit {FILE_LINES})"));
        }
        for (name, n) in components(&text) {
            seen_components += 1;
            if n > COMPONENT_LINES {
                problems.push(format!(
                    "{shown}: component {name} is {n} lines (limit {COMPONENT_LINES})"
                ));
            }
        }
    }
    assert!(
        seen_components > 30,
        "found only {seen_components} components"
    );
    assert!(
        problems.is_empty(),
        "split these by concern:\n{}",
        problems.join("\n")
    );
}

/// The measure itself: a component's length counts from its attribute to its closing brace.
#[test]
fn a_component_is_measured_from_its_attribute_to_its_closing_brace() {
    let text =
        "#[component]\npub fn Panel(x: u8) -> impl IntoView {\n    view! {}\n}\n\nfn other() {}\n";
    assert_eq!(components(text), vec![("Panel".to_owned(), 4)]);
}
