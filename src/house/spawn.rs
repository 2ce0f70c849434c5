//! One way to start a task: only `src/task.rs` calls the executor's spawn; every other file
//! under `src/` and `crates/` goes through `crate::task::spawn` (or the runner, for work on
//! the database). Comments may name it.

use std::path::{Path, PathBuf};

/// The executor's call, spelt in two halves so this file does not hold it.
const SPAWN: &str = concat!("spawn", "_", "local");

/// The one file allowed to call it, relative to the repository.
const OWNER: &str = "src/task.rs";

/// Every Rust file under `dir`, tests included; build output left out.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("dir entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The lines (1-based) of `text` whose code, comments left out, names the executor's spawn.
fn spawn_lines(text: &str) -> Vec<usize> {
    let mut in_block = false;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut code = String::new();
        let mut rest = line;
        loop {
            if in_block {
                match rest.find("*/") {
                    Some(i) => {
                        rest = &rest[i + 2..];
                        in_block = false;
                    }
                    None => break,
                }
            } else {
                let line_comment = rest.find("//");
                let block = rest.find("/*");
                match (line_comment, block) {
                    (Some(l), b) if b.is_none_or(|b| l < b) => {
                        code.push_str(&rest[..l]);
                        break;
                    }
                    (_, Some(b)) => {
                        code.push_str(&rest[..b]);
                        rest = &rest[b + 2..];
                        in_block = true;
                    }
                    _ => {
                        code.push_str(rest);
                        break;
                    }
                }
            }
        }
        if code.contains(SPAWN) {
            out.push(n + 1);
        }
    }
    out
}

#[test]
fn only_the_task_module_spawns() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "crates"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "found only {} sources", files.len());
    let mut owner_spawns = 0;
    let mut elsewhere = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("source readable");
        let shown = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        let lines = spawn_lines(&text);
        if shown == OWNER {
            owner_spawns = lines.len();
        } else {
            elsewhere.extend(lines.into_iter().map(|n| format!("{shown}:{n}")));
        }
    }
    assert_eq!(owner_spawns, 1, "{OWNER} starts every task, once");
    assert!(
        elsewhere.is_empty(),
        "start tasks with crate::task::spawn (or the runner), not the executor:\n{}",
        elsewhere.join("\n")
    );
}

/// The measure itself: a call in code counts, one in a comment does not.
#[test]
fn a_spawn_in_code_counts_and_one_in_a_comment_does_not() {
    let text = format!(
        "// {SPAWN}(a)\nlet x = 1; // {SPAWN}\n/* {SPAWN}\n{SPAWN} */ f();\nleptos::task::{SPAWN}(b);\n\
         g(); /* c */ wasm_bindgen_futures::{SPAWN}(d);\n"
    );
    assert_eq!(spawn_lines(&text), [5, 6]);
}
