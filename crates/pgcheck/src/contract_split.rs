//! A contract file (tests/contract/README.md) as the steps a runner takes in order: SQL
//! statements, each run alone in autocommit, and `-- @wait N` and `-- @session2 SQL`
//! directives. A `;` ends a
//! statement only outside single quotes (E'' strings with backslash escapes too), double
//! quotes, dollar quotes (`$$`, `$tag$`), `--` comments and `/* */` comments (nested, as in
//! PostgreSQL): the rules of the Node runner's `tests/contract/split.mjs`, read by the lexing
//! the SQL console shares (`queue_lab_core::sql_lex`).

use queue_lab_core::sql_lex;

/// One step of a contract file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A statement without its `;`; `line` is the 1-based line of its first character.
    Sql { sql: String, line: usize },
    /// `-- @wait N`: the lab clock moves N seconds, or real PgQue sleeps N seconds.
    Wait { seconds: u64, line: usize },
    /// `-- @session2 SQL`: the statement on the rest of the line runs on a second session,
    /// opened at its first use and kept (with any transaction it holds open) to the file's end.
    Session2 { sql: String, line: usize },
}

/// A contract file's first lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The sentence of `-- contract: …`.
    pub contract: String,
    /// `-- @engines: lab` names the engines that run the file; `None`: every engine.
    pub engines: Option<Vec<String>>,
}

impl Header {
    /// Whether the engine named `engine` (`lab` or `pgque`) runs the file.
    pub fn runs_on(&self, engine: &str) -> bool {
        self.engines
            .as_ref()
            .is_none_or(|e| e.iter().any(|x| x == engine))
    }
}

/// The index after the tag of the dollar quote starting at `at`.
fn end_of_tag(b: &[u8], at: usize) -> usize {
    at + sql_lex::dollar_tag(b, at).unwrap_or(1)
}

/// What follows `@name` in a `-- @name …` comment (trimmed), or None for another comment.
fn directive<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let after = comment[2..].trim_start().strip_prefix(name)?;
    let word_goes_on = after
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_');
    (!word_goes_on).then(|| after.trim())
}

/// A `-- @wait N` comment's N; an error for a comment that starts like one but is not.
fn wait_directive(comment: &str) -> Result<Option<u64>, String> {
    let Some(n) = directive(comment, "@wait") else {
        return Ok(None);
    };
    match n.parse::<u64>() {
        Ok(s) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => Ok(Some(s)),
        _ => Err(format!(
            "malformed directive {comment:?} (-- @wait N, N whole seconds)"
        )),
    }
}

/// A `-- @session2 SQL` comment's SQL; an error for one without a statement.
fn session2_directive(comment: &str) -> Result<Option<String>, String> {
    match directive(comment, "@session2") {
        None => Ok(None),
        Some("") => Err(format!(
            "malformed directive {comment:?} (-- @session2 followed by one statement)"
        )),
        Some(sql) => Ok(Some(sql.to_owned())),
    }
}

/// The steps of `text`, in order. Comments between statements are dropped; comments inside a
/// statement stay in its text. Errors: an unterminated quote or comment, `-- @wait` inside a
/// statement, a malformed `-- @wait`; each with its line.
pub fn split(text: &str) -> Result<Vec<Step>, String> {
    let b = text.as_bytes();
    let n = b.len();
    let mut steps = Vec::new();
    let mut line = 1;
    let mut start: Option<(usize, usize)> = None; // (byte, line) where the statement began
    let mut i = 0;
    // Moves `i` to `to`, counting newlines.
    let skip_to = |i: &mut usize, line: &mut usize, to: usize| {
        *line += b[*i..to].iter().filter(|&&c| c == b'\n').count();
        *i = to;
    };
    while i < n {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == b'-' && next == Some(b'-') {
            let end = sql_lex::skip(b, i).map_or(n, |s| s.end);
            let comment = text[i..end].trim_end();
            if let Some(seconds) =
                wait_directive(comment).map_err(|e| format!("line {line}: {e}"))?
            {
                if start.is_some() {
                    return Err(format!("line {line}: -- @wait inside a statement"));
                }
                steps.push(Step::Wait { seconds, line });
            } else if let Some(sql) =
                session2_directive(comment).map_err(|e| format!("line {line}: {e}"))?
            {
                if start.is_some() {
                    return Err(format!("line {line}: -- @session2 inside a statement"));
                }
                steps.push(Step::Session2 { sql, line });
            }
            skip_to(&mut i, &mut line, end);
            continue;
        }
        if c == b'/' && next == Some(b'*') {
            let at = line;
            match sql_lex::skip(b, i) {
                Some(s) if s.closed => skip_to(&mut i, &mut line, s.end),
                _ => return Err(format!("line {at}: unterminated /* comment")),
            }
            continue;
        }
        if c == b';' {
            if let Some((s, l)) = start.take() {
                steps.push(Step::Sql {
                    sql: text[s..i].trim().to_string(),
                    line: l,
                });
            }
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            if c == b'\n' {
                line += 1;
            }
            i += 1;
            continue;
        }
        if start.is_none() {
            start = Some((i, line));
        }
        // A quoted string or identifier, or a dollar quote (comments are read above).
        if let Some(quoted) = sql_lex::skip(b, i) {
            if !quoted.closed {
                let what = match c {
                    b'\'' => "quoted string".to_string(),
                    b'"' => "quoted identifier".to_string(),
                    _ => format!(
                        "dollar quote {}",
                        String::from_utf8_lossy(&b[i..end_of_tag(b, i)])
                    ),
                };
                return Err(format!("line {line}: unterminated {what}"));
            }
            skip_to(&mut i, &mut line, quoted.end);
            continue;
        }
        i += 1;
    }
    if let Some((s, l)) = start {
        let sql = text[s..].trim();
        if !sql.is_empty() {
            steps.push(Step::Sql {
                sql: sql.to_string(),
                line: l,
            });
        }
    }
    Ok(steps)
}

/// A contract file's header; an error when its first line is not `-- contract: …`.
pub fn header(text: &str) -> Result<Header, String> {
    let mut lines = text.lines();
    let contract = lines
        .next()
        .and_then(|l| l.trim_end().strip_prefix("-- contract: "))
        .filter(|s| !s.is_empty())
        .ok_or("line 1: a contract file starts with \"-- contract: <what PgQue does>\"")?
        .to_string();
    let mut engines = None;
    for l in lines {
        let l = l.trim();
        if let Some(rest) = l.strip_prefix("--").map(str::trim_start) {
            if let Some(list) = rest.strip_prefix("@engines:") {
                engines = Some(
                    list.split(',')
                        .map(|e| e.trim().to_string())
                        .filter(|e| !e.is_empty())
                        .collect(),
                );
            }
        }
    }
    Ok(Header { contract, engines })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqls(text: &str) -> Vec<String> {
        split(text)
            .unwrap()
            .into_iter()
            .map(|s| match s {
                Step::Sql { sql, .. } => sql,
                Step::Wait { seconds, .. } => format!("@wait {seconds}"),
                Step::Session2 { sql, .. } => format!("@session2 {sql}"),
            })
            .collect()
    }

    #[test]
    fn splits_on_semicolons_and_drops_comments_between_statements() {
        assert_eq!(
            sqls("-- a comment\nselect 1;\n\n/* note */ select 2 ;select 3"),
            ["select 1", "select 2", "select 3"]
        );
    }

    #[test]
    fn a_semicolon_in_quotes_identifiers_dollar_quotes_or_comments_does_not_split() {
        let text = [
            "select 'a;b', 'it''s;', E'\\';', \"x;y\" from t;",
            "do $$ begin perform 1; end $$;",
            "create function f() returns int language sql as $body$ select 1; $body$;",
            "select 1 -- trailing; comment\n + 1;",
            "select /* a; /* nested; */ still; */ 2;",
            "select '日;本', $é$ ; $é$;",
        ]
        .join("\n");
        assert_eq!(
            sqls(&text),
            [
                "select 'a;b', 'it''s;', E'\\';', \"x;y\" from t",
                "do $$ begin perform 1; end $$",
                "create function f() returns int language sql as $body$ select 1; $body$",
                "select 1 -- trailing; comment\n + 1",
                "select /* a; /* nested; */ still; */ 2",
                "select '日;本', $é$ ; $é$",
            ]
        );
    }

    #[test]
    fn parameters_and_identifiers_with_dollars_are_not_dollar_quotes() {
        assert_eq!(
            sqls("select $1, a$b$ from t; select $y$ $x$; $y$;"),
            ["select $1, a$b$ from t", "select $y$ $x$; $y$"]
        );
    }

    #[test]
    fn waits_come_in_order_with_each_statements_first_line() {
        assert_eq!(
            split("select 1;\n-- @wait 2\nselect\n  2;\n").unwrap(),
            [
                Step::Sql {
                    sql: "select 1".into(),
                    line: 1
                },
                Step::Wait {
                    seconds: 2,
                    line: 2
                },
                Step::Sql {
                    sql: "select\n  2".into(),
                    line: 3
                },
            ]
        );
    }

    #[test]
    fn a_second_session_step_carries_its_statement_and_line() {
        assert_eq!(
            split("select 1;\n-- @session2 begin isolation level repeatable read\nselect 2;")
                .unwrap(),
            [
                Step::Sql {
                    sql: "select 1".into(),
                    line: 1
                },
                Step::Session2 {
                    sql: "begin isolation level repeatable read".into(),
                    line: 2
                },
                Step::Sql {
                    sql: "select 2".into(),
                    line: 3
                },
            ]
        );
        assert!(split("-- @session2\nselect 1;")
            .unwrap_err()
            .contains("malformed directive"));
        assert_eq!(
            split("select\n-- @session2 commit\n1;").unwrap_err(),
            "line 2: -- @session2 inside a statement"
        );
    }

    #[test]
    fn refuses_unterminated_quotes_and_misplaced_or_malformed_waits() {
        let err = |t: &str| split(t).unwrap_err();
        assert_eq!(err("select 'open;"), "line 1: unterminated quoted string");
        assert_eq!(
            err("select 1;\ndo $$ begin"),
            "line 2: unterminated dollar quote $$"
        );
        assert_eq!(
            err("select\n-- @wait 1\n1;"),
            "line 2: -- @wait inside a statement"
        );
        assert!(err("-- @wait 1.5\nselect 1;").contains("malformed directive"));
    }

    #[test]
    fn reads_the_header() {
        let h = header("-- contract: it ticks.\nselect 1;").unwrap();
        assert_eq!(h.contract, "it ticks.");
        assert!(h.runs_on("pgque") && h.runs_on("lab"));
        let lab = header("-- contract: x\n-- @engines: lab\n").unwrap();
        assert_eq!(lab.engines, Some(vec!["lab".to_string()]));
        assert!(lab.runs_on("lab") && !lab.runs_on("pgque"));
        assert!(header("select 1;").is_err());
    }

    #[test]
    fn every_contract_file_splits_and_has_a_header() {
        for (name, text) in crate::contract::FILES {
            header(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let steps = split(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!steps.is_empty(), "{name} has no statement");
        }
    }
}
