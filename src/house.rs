//! Size limits that keep the code holdable: no source file outside tests over
//! [`FILE_LINES`] lines, no `#[component]` over [`COMPONENT_LINES`]. A file or component that
//! grows past them is split by concern before it lands. And no import circle between the
//! files of `src/`.

use std::path::{Path, PathBuf};

mod layers;
mod skeleton;
mod spawn;

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

/// The module path of a source file under `src/` (`labs/pgq/view.rs` → `labs::pgq::view`;
/// `lib.rs` and a folder's `mod.rs` name the folder).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The paths a source names through `crate::` or `super::` (in `use` lines and inline), each
/// resolved against `module` (the file's module) and with `{…}` groups expanded. Code after
/// `#[cfg(test)]` is left out: a test module may use whatever it tests.
fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let code: String = code
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        let mut at = 0;
        while let Some(i) = code[at..].find(start).map(|i| i + at) {
            at = i + start.len();
            let before = if i == 0 { b' ' } else { bytes[i - 1] };
            if before.is_ascii_alphanumeric() || matches!(before, b'_' | b'$' | b':') {
                continue;
            }
            let base: Vec<String> = if start == "crate::" {
                Vec::new()
            } else {
                // `super` of a file module is its parent; of a folder's mod.rs, the folder's.
                let mut b = module.to_vec();
                b.pop();
                b
            };
            let (tree, _) = path_tree(&code[at..]);
            for p in tree {
                let mut full = base.clone();
                let mut p = p.into_iter().peekable();
                while p.next_if(|s| s == "super").is_some() {
                    full.pop();
                }
                full.extend(p);
                out.push(full);
            }
        }
    }
    out
}

/// The paths of a `use` tree written at the start of `text` (`a::b`, `a::{b, c::d}`, `{a, b}`),
/// and how many bytes it took.
fn path_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let b = text.as_bytes();
    let mut prefix = Vec::new();
    let mut i = 0;
    loop {
        let word: String = text[i..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        i += word.len();
        let lower = word.chars().next().is_some_and(|c| c.is_lowercase());
        if !word.is_empty() {
            prefix.push(word);
        }
        let group = if text[i..].starts_with("::{") {
            Some(3)
        } else {
            (prefix.is_empty() && text[i..].starts_with('{')).then_some(1)
        };
        if let Some(skip) = group {
            i += skip;
            let mut all = Vec::new();
            loop {
                while i < b.len() && (b[i] as char).is_whitespace() {
                    i += 1;
                }
                if i >= b.len() || b[i] == b'}' {
                    i += 1;
                    break;
                }
                let (sub, used) = path_tree(&text[i..]);
                i += used;
                for s in sub {
                    let mut p = prefix.clone();
                    p.extend(s);
                    all.push(p);
                }
                while i < b.len() && b[i] != b',' && b[i] != b'}' {
                    i += 1;
                }
                if i < b.len() && b[i] == b',' {
                    i += 1;
                }
            }
            return (all, i);
        }
        if text[i..].starts_with("::") && lower {
            i += 2;
            continue;
        }
        return (vec![prefix], i);
    }
}

/// Edges between the files of `src/`: file → the files whose items it names through
/// `crate::` or `super::` (the longest module prefix of each path that is a file).
fn import_edges(
    root: &Path,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let src = root.join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut by_module = std::collections::BTreeMap::new();
    for path in &files {
        let rel = path.strip_prefix(&src).expect("under src");
        by_module.insert(module_of(rel), rel.display().to_string());
    }
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        std::collections::BTreeMap::new();
    for path in &files {
        let rel = path.strip_prefix(&src).expect("under src");
        let module = module_of(rel);
        let text = std::fs::read_to_string(path).expect("source readable");
        let from = rel.display().to_string();
        for p in named_paths(&text, &module) {
            let target = (0..=p.len())
                .rev()
                .find_map(|n| by_module.get(&p[..n]))
                .cloned();
            if let Some(to) = target {
                if to != from {
                    edges.entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
    edges
}

/// Import edges written out (`from`, `to`), for the tests of the measures.
fn edges_of(
    pairs: &[(&str, &str)],
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut edges = std::collections::BTreeMap::<String, std::collections::BTreeSet<String>>::new();
    for (a, b) in pairs {
        edges
            .entry((*a).to_owned())
            .or_default()
            .insert((*b).to_owned());
    }
    edges
}

/// The import circles in `edges`: each strongly connected set of two or more files, printed
/// as one circle through it (`a → b → a`), sorted.
fn import_circles(
    edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Vec<String> {
    let nodes: Vec<&String> = edges.keys().collect();
    let reach = |from: &String| {
        let mut seen = std::collections::BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for m in edges.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    todo.push(m.clone());
                }
            }
        }
        seen
    };
    let reaches: std::collections::BTreeMap<&String, _> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut done = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for n in &nodes {
        if done.contains(*n) || !reaches[n].contains(*n) {
            continue;
        }
        let set: Vec<&String> = nodes
            .iter()
            .copied()
            .filter(|m| reaches[n].contains(*m) && reaches.get(m).is_some_and(|r| r.contains(*n)))
            .collect();
        done.extend(set.iter().map(|s| (*s).clone()));
        // One circle through the set: the shortest way back from its first file.
        let first = set[0];
        let mut prev = std::collections::BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([first.clone()]);
        let mut back = None;
        while let Some(x) = queue.pop_front() {
            for y in edges.get(&x).into_iter().flatten() {
                if y == first {
                    back = Some(x.clone());
                    queue.clear();
                    break;
                }
                if set.contains(&y) && !prev.contains_key(y) {
                    prev.insert(y.clone(), x.clone());
                    queue.push_back(y.clone());
                }
            }
        }
        let mut circle = vec![first.clone()];
        let mut at = back.expect("a circle returns");
        while &at != first {
            circle.push(at.clone());
            at = prev[&at].clone();
        }
        circle.push(first.clone());
        let last = circle.len() - 1;
        circle[1..last].reverse();
        out.push(circle.join(" → "));
    }
    out.sort();
    out
}

/// No file of `src/` imports, through `crate::` or `super::`, a file that imports it back
/// (directly or around a longer circle): what two files share lives in a module below both.
#[test]
fn no_import_circle_between_the_files_of_src() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let edges = import_edges(root);
    assert!(
        edges.len() > 40,
        "found imports in only {} files",
        edges.len()
    );
    let circles = import_circles(&edges);
    assert!(
        circles.is_empty(),
        "import circles (move what both sides share to a module below them):\n{}",
        circles.join("\n")
    );
}

/// The measure itself: `use` groups and `super::` resolve to files, and a circle is found
/// and printed the way round it goes.
#[test]
fn import_edges_follow_use_groups_and_super_and_circles_print_their_way_round() {
    let module = |s: &str| s.split("::").map(str::to_owned).collect::<Vec<_>>();
    let text = "use crate::{db::{Db, Tx}, descriptor::LabId};\nuse super::super::ctx::use_ctx;\n\
                fn f() { crate::ui::i18n::tr(); } // crate::not_this\n#[cfg(test)]\nuse crate::late;";
    let paths = named_paths(text, &module("labs::jobs::view"));
    let shown: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        shown,
        [
            "db::Db",
            "db::Tx",
            "descriptor::LabId",
            "ui::i18n::tr",
            "labs::ctx::use_ctx"
        ]
    );
    let edges = edges_of(&[
        ("a.rs", "b.rs"),
        ("b.rs", "c.rs"),
        ("c.rs", "a.rs"),
        ("c.rs", "d.rs"),
    ]);
    assert_eq!(import_circles(&edges), ["a.rs → b.rs → c.rs → a.rs"]);
}
