//! What psql does with typed input before the server sees it, for the SQL console: split it
//! into statements and backslash commands (psql's lexing: quotes, `E''` strings, quoted
//! identifiers, dollar quotes, `--` and nested `/* */` comments, parentheses), read the
//! backslash commands, and put psql variables (`:name`, `:'name'`) into a statement. Unlike
//! psql, a variable's value is never spliced into the SQL text: each becomes a positional
//! parameter (`$1`, `$2`…) bound to the value. Pure: no database, no page.

use queue_lab_core::sql_lex::{self, ident_byte};
use std::collections::BTreeMap;

/// One piece of the console's input, in the order typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A statement without its `;` (comments inside kept), and `\gset`'s prefix when the
    /// statement ended with `\gset [prefix]` (`Some("")` for a bare `\gset`).
    Sql { sql: String, gset: Option<String> },
    /// A backslash command: its name without the backslash (`echo`, `d+`, `i`) and the rest
    /// of its text up to the next backslash command or the end of the line, trimmed.
    Meta { name: String, args: String },
}

/// What a backslash command asks for, as the console answers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Meta {
    /// psql's describe commands (`\d`, `\dt`, `\d name`, `\l`, `\z`…): psql-describe answers,
    /// with psql's text. The whole command as typed.
    Describe(String),
    /// `\echo words…` (and `\qecho`): the words, variables put in.
    Echo(String),
    /// `\set name value…` (the value words joined without spaces, as psql does); `\set` alone
    /// lists the variables.
    Set(Option<(String, String)>),
    /// `\unset name`.
    Unset(String),
    /// A command the lab does not run; what to do instead depends on which.
    Unsupported(Unsupported),
}

/// The psql commands the console answers with a hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// `\i`, `\ir`, `\include`: files (`\i sql/pgque.sql`: the engine is installed already).
    Include,
    /// `\x`, `\pset`, `\a`, `\t`, `\H`, `\f`, `\C`: output format.
    Format,
    /// `\timing`: the SQL log shows each statement's time.
    Timing,
    /// `\q`: nothing to quit.
    Quit,
    /// `\c`, `\connect`, `\conninfo`: one database in the tab.
    Connect,
    /// `\copy`, `\o`, `\w`, `\g file`: no files.
    Files,
    /// `\watch`: the lab clock.
    Watch,
    /// Anything else.
    Other,
}

/// Reads one backslash command (name and arguments as [`Item::Meta`] holds them).
pub fn meta(name: &str, args: &str) -> Meta {
    let describe = matches!(name.chars().next(), Some('d' | 'l' | 'z' | 'h' | '?' | 's'))
        && !matches!(name, "set" | "setenv" | "sf" | "sf+" | "sv" | "sv+");
    match name {
        "echo" | "qecho" | "warn" => Meta::Echo(args.to_owned()),
        "set" => {
            let mut words = args.split_whitespace();
            Meta::Set(
                words
                    .next()
                    .map(|n| (n.to_owned(), words.collect::<String>())),
            )
        }
        "unset" => Meta::Unset(args.split_whitespace().next().unwrap_or("").to_owned()),
        "i" | "ir" | "include" | "include_relative" => Meta::Unsupported(Unsupported::Include),
        "x" | "pset" | "a" | "t" | "H" | "html" | "f" | "C" | "T" => {
            Meta::Unsupported(Unsupported::Format)
        }
        "timing" => Meta::Unsupported(Unsupported::Timing),
        "q" | "quit" => Meta::Unsupported(Unsupported::Quit),
        "c" | "connect" | "conninfo" => Meta::Unsupported(Unsupported::Connect),
        "copy" | "o" | "out" | "w" | "write" | "e" | "edit" | "ef" | "ev" => {
            Meta::Unsupported(Unsupported::Files)
        }
        "watch" => Meta::Unsupported(Unsupported::Watch),
        _ if describe => {
            let text = if args.is_empty() {
                format!("\\{name}")
            } else {
                format!("\\{name} {args}")
            };
            Meta::Describe(text)
        }
        _ => Meta::Unsupported(Unsupported::Other),
    }
}

/// Where the quote, comment or dollar quote starting at `i` ends (the index after it), or
/// `None` when none starts there. Unterminated: the end of `b`.
fn skip_quoted(b: &[u8], i: usize) -> Option<usize> {
    sql_lex::skip(b, i).map(|s| s.end)
}

/// The console's input as psql reads it: statements end at `;` (outside quotes, comments,
/// dollar quotes and parentheses), at `\g`, `\gx` or `\gset`; a backslash outside those
/// starts a backslash command that runs to the next backslash command or the end of its
/// line (`\\` only separates). A statement left without `;` at the end runs too (psql
/// would wait for more). Blank statements (only whitespace and comments) are dropped.
pub fn parse(input: &str) -> Vec<Item> {
    let b = input.as_bytes();
    let n = b.len();
    let mut items = Vec::new();
    let mut buf = String::new();
    let mut depth = 0i32;
    let mut i = 0;
    let mut copied = 0;
    let flush = |buf: &mut String, items: &mut Vec<Item>, gset: Option<String>| {
        let sql = buf.trim().to_owned();
        buf.clear();
        if !blank(&sql) {
            items.push(Item::Sql { sql, gset });
        }
    };
    while i < n {
        if let Some(end) = skip_quoted(b, i) {
            i = end.max(i + 1);
            continue;
        }
        match b[i] {
            b'(' => depth += 1,
            b')' => depth = (depth - 1).max(0),
            b';' if depth == 0 => {
                buf.push_str(&input[copied..i]);
                flush(&mut buf, &mut items, None);
                copied = i + 1;
            }
            b'\\' => {
                buf.push_str(&input[copied..i]);
                let line_end = b[i..].iter().position(|&c| c == b'\n').map_or(n, |p| i + p);
                // `at` is at a backslash: one command per turn, its name, then its
                // arguments up to the next backslash outside quotes.
                let mut at = i;
                while at < line_end && b[at] == b'\\' {
                    if b.get(at + 1) == Some(&b'\\') {
                        // `\\`: only separates.
                        at += 2;
                        while at < line_end && b[at].is_ascii_whitespace() {
                            at += 1;
                        }
                        continue;
                    }
                    let name_end = b[at + 1..line_end]
                        .iter()
                        .position(|c| c.is_ascii_whitespace() || *c == b'\\')
                        .map_or(line_end, |p| at + 1 + p);
                    let name = &input[at + 1..name_end];
                    let mut j = name_end;
                    let mut quote = None;
                    while j < line_end {
                        match (quote, b[j]) {
                            (None, q @ (b'\'' | b'"' | b'`')) => quote = Some(q),
                            (Some(q), c) if c == q => quote = None,
                            (None, b'\\') => break,
                            _ => {}
                        }
                        j += 1;
                    }
                    let args = input[name_end..j].trim().to_owned();
                    match name {
                        "" => {}
                        "g" | "gx" | ";" => flush(&mut buf, &mut items, None),
                        "gset" => flush(&mut buf, &mut items, Some(args)),
                        _ => items.push(Item::Meta {
                            name: name.to_owned(),
                            args,
                        }),
                    }
                    at = j;
                }
                depth = 0;
                // Text after a `\\` that is no command goes on as SQL.
                i = at;
                copied = at;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    buf.push_str(&input[copied.min(n)..]);
    flush(&mut buf, &mut items, None);
    items
}

/// Whether `sql` holds nothing but whitespace and comments.
fn blank(sql: &str) -> bool {
    let b = sql.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
        } else if matches!(b[i], b'-' | b'/') {
            match skip_quoted(b, i) {
                Some(end) if end > i => i = end,
                _ => return false,
            }
        } else {
            return false;
        }
    }
    true
}

/// The console's psql variables: name → value (psql's are text).
pub type Vars = BTreeMap<String, String>;

/// Why a statement could not take its variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindError {
    /// `:"name"`: an identifier cannot be a bound parameter.
    Identifier(String),
}

/// `sql` with each `:name` and `:'name'` outside quotes, comments and dollar quotes whose
/// variable is set replaced by a positional parameter (`$k`, numbered after any `$n` the
/// statement has already), and the values in parameter order; the same variable twice is
/// the same parameter. A variable that is not set stays as typed (psql's rule: the server
/// then reports the `:`), as does `::` (a cast).
pub fn bind(sql: &str, vars: &Vars) -> Result<(String, Vec<String>), BindError> {
    let b = sql.as_bytes();
    let n = b.len();
    // Parameters the statement numbers itself.
    let mut taken = 0usize;
    let mut i = 0;
    while i < n {
        if let Some(end) = skip_quoted(b, i) {
            i = end.max(i + 1);
            continue;
        }
        if b[i] == b'$' && (i == 0 || !ident_byte(b[i - 1])) {
            let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if let Ok(k) = sql[i + 1..i + 1 + digits].parse::<usize>() {
                taken = taken.max(k);
            }
            i += 1 + digits;
            continue;
        }
        i += 1;
    }
    let mut out = String::with_capacity(n);
    let mut params: Vec<String> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    let mut copied = 0;
    let mut i = 0;
    while i < n {
        if b[i] != b':' {
            if let Some(end) = skip_quoted(b, i) {
                i = end.max(i + 1);
                continue;
            }
            i += 1;
            continue;
        }
        if b.get(i + 1) == Some(&b':') {
            i += 2;
            continue;
        }
        let (name, end, ident) = match b.get(i + 1) {
            Some(&q @ (b'\'' | b'"')) => {
                let close = b[i + 2..].iter().position(|&c| c == q).map(|p| i + 2 + p);
                match close {
                    Some(c) if c > i + 2 => (&sql[i + 2..c], c + 1, q == b'"'),
                    _ => {
                        i += 1;
                        continue;
                    }
                }
            }
            _ => {
                let len = b[i + 1..].iter().take_while(|&&c| ident_byte(c)).count();
                if len == 0 {
                    i += 1;
                    continue;
                }
                (&sql[i + 1..i + 1 + len], i + 1 + len, false)
            }
        };
        let Some(value) = vars.get(name) else {
            i = end;
            continue;
        };
        if ident {
            return Err(BindError::Identifier(name.to_owned()));
        }
        let k = match names.iter().position(|x| *x == name) {
            Some(p) => p,
            None => {
                names.push(name);
                params.push(value.clone());
                params.len() - 1
            }
        };
        out.push_str(&sql[copied..i]);
        out.push_str(&format!("${}", taken + k + 1));
        copied = end;
        i = end;
    }
    out.push_str(&sql[copied..]);
    Ok((out, params))
}

/// The words of `\echo`'s arguments with variables put in, as psql prints them: words
/// separated by one space, `'quoted words'` without their quotes, `:name` and `:'name'`
/// replaced by the value (`:'name'` quoted as a literal), an unset variable left as typed.
pub fn echo(args: &str, vars: &Vars) -> String {
    let mut words = Vec::new();
    let mut chars = args.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut word = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() {
                break;
            }
            chars.next();
            if c == '\'' {
                while let Some(c) = chars.next() {
                    if c == '\'' {
                        if chars.peek() == Some(&'\'') {
                            chars.next();
                            word.push('\'');
                            continue;
                        }
                        break;
                    }
                    word.push(c);
                }
            } else if c == ':' {
                let quote = chars.peek().copied().filter(|q| *q == '\'' || *q == '"');
                let mut name = String::new();
                if let Some(q) = quote {
                    chars.next();
                    for c in chars.by_ref() {
                        if c == q {
                            break;
                        }
                        name.push(c);
                    }
                } else {
                    while let Some(&c) = chars.peek() {
                        if c.is_alphanumeric() || c == '_' {
                            name.push(c);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                }
                match (vars.get(&name), quote) {
                    (Some(v), None) => word.push_str(v),
                    (Some(v), Some('\'')) => word.push_str(&format!("'{}'", v.replace('\'', "''"))),
                    (Some(v), Some(_)) => word.push_str(&format!("\"{}\"", v.replace('"', "\"\""))),
                    (None, Some(q)) => word.push_str(&format!(":{q}{name}{q}")),
                    (None, None) => {
                        word.push(':');
                        word.push_str(&name);
                    }
                }
            } else {
                word.push(c);
            }
        }
        words.push(word);
    }
    words.join(" ")
}

/// A result cell as psql's text (`None`: NULL): text as text, anything else as JSON.
pub fn cell(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// Why `\gset` stored nothing, in psql's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GsetError {
    NoRows,
    MoreThanOne,
    BadName(String),
}

impl std::fmt::Display for GsetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GsetError::NoRows => f.write_str("no rows returned for \\gset"),
            GsetError::MoreThanOne => f.write_str("more than one row returned for \\gset"),
            GsetError::BadName(name) => write!(f, "could not set variable \"{name}\""),
        }
    }
}

/// Whether `name` is a name psql takes for a variable (letters, digits, underscores).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// `\gset prefix`: psql's rules. Exactly one row, else an error; each column becomes the
/// variable `prefix` + its name, a NULL unsets it. `values` are the row's cells as text
/// (`None`: NULL).
pub fn gset(
    vars: &mut Vars,
    prefix: &str,
    fields: &[String],
    rows: &[Vec<Option<String>>],
) -> Result<(), GsetError> {
    let row = match rows {
        [] => return Err(GsetError::NoRows),
        [row] => row,
        _ => return Err(GsetError::MoreThanOne),
    };
    for (field, value) in fields.iter().zip(row) {
        let name = format!("{prefix}{field}");
        if !valid_name(&name) {
            return Err(GsetError::BadName(name));
        }
        match value {
            Some(v) => vars.insert(name, v.clone()),
            None => vars.remove(&name),
        };
    }
    Ok(())
}

/// Whether the statement calls pg_cron's scheduling functions (`cron.schedule`,
/// `cron.unschedule`, `cron.schedule_in_database`, `cron.alter_job`) outside quotes and
/// comments: a tab has no pg_cron.
pub fn calls_pg_cron(sql: &str) -> bool {
    let b = sql.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if let Some(end) = skip_quoted(b, i) {
            i = end.max(i + 1);
            continue;
        }
        if (i == 0 || !ident_byte(b[i - 1])) && b[i..].len() >= 5 {
            let word = &sql[i..];
            if word.len() >= 5 && word[..5].eq_ignore_ascii_case("cron.") {
                let rest: String = word[5..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
                    .to_ascii_lowercase();
                if matches!(
                    rest.as_str(),
                    "schedule" | "unschedule" | "schedule_in_database" | "alter_job"
                ) {
                    return true;
                }
            }
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sql(s: &str) -> Item {
        Item::Sql {
            sql: s.into(),
            gset: None,
        }
    }

    fn vars(pairs: &[(&str, &str)]) -> Vars {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn splits_on_semicolons_outside_quotes_comments_dollar_quotes_and_parentheses() {
        let input = "select 1; select ';' as a, \"x;y\" from t -- c;\n; \
                     do $$ begin raise notice 'a;b'; end $$; select $tag$;$tag$; \
                     create rule r as on insert to t do (select 1; select 2); /* a; /* b; */ c; */ select 2";
        assert_eq!(
            parse(input),
            vec![
                sql("select 1"),
                sql("select ';' as a, \"x;y\" from t -- c;"),
                sql("do $$ begin raise notice 'a;b'; end $$"),
                sql("select $tag$;$tag$"),
                sql("create rule r as on insert to t do (select 1; select 2)"),
                sql("/* a; /* b; */ c; */ select 2"),
            ]
        );
    }

    #[test]
    fn e_strings_take_backslash_escapes_and_standard_strings_do_not() {
        assert_eq!(
            parse(r"select E'a\';b'; select 'c\'; select 2"),
            vec![
                sql(r"select E'a\';b'"),
                sql(r"select 'c\'"),
                sql("select 2")
            ]
        );
    }

    #[test]
    fn blank_statements_and_lone_comments_are_dropped() {
        assert_eq!(parse(" ;; -- only a comment\n ; /* x */"), vec![]);
        assert_eq!(parse("select 1;;"), vec![sql("select 1")]);
    }

    #[test]
    fn gset_ends_its_statement_and_takes_a_prefix() {
        assert_eq!(
            parse("select batch_id from pgque.receive('orders', 'processor', 100) limit 1 \\gset\nselect pgque.ack(:batch_id);"),
            vec![
                Item::Sql {
                    sql: "select batch_id from pgque.receive('orders', 'processor', 100) limit 1".into(),
                    gset: Some(String::new()),
                },
                sql("select pgque.ack(:batch_id)"),
            ]
        );
        assert_eq!(
            parse("select 1 as x \\gset p_ \\echo :p_x"),
            vec![
                Item::Sql {
                    sql: "select 1 as x".into(),
                    gset: Some("p_".into()),
                },
                Item::Meta {
                    name: "echo".into(),
                    args: ":p_x".into(),
                },
            ]
        );
        assert_eq!(
            parse("select 7 \\g\nselect 8"),
            vec![sql("select 7"), sql("select 8")]
        );
    }

    #[test]
    fn backslash_commands_run_to_the_end_of_their_line_and_a_quoted_backslash_is_no_command() {
        assert_eq!(
            parse("begin;\n\\i sql/pgque.sql\ncommit;\nselect '\\x' as s; \\x"),
            vec![
                sql("begin"),
                Item::Meta {
                    name: "i".into(),
                    args: "sql/pgque.sql".into(),
                },
                sql("commit"),
                sql("select '\\x' as s"),
                Item::Meta {
                    name: "x".into(),
                    args: String::new(),
                },
            ]
        );
        assert_eq!(
            parse("\\echo 'a \\ b' :x \\\\ \\set y 2"),
            vec![
                Item::Meta {
                    name: "echo".into(),
                    args: "'a \\ b' :x".into(),
                },
                Item::Meta {
                    name: "set".into(),
                    args: "y 2".into(),
                },
            ]
        );
    }

    #[test]
    fn backslash_commands_are_read_as_psql_reads_them() {
        use Unsupported::*;
        let describe = |t: &str| Meta::Describe(t.into());
        for (name, args, want) in [
            ("d", "jobs", describe("\\d jobs")),
            ("dt", "", describe("\\dt")),
            ("d+", "t", describe("\\d+ t")),
            ("set", "n 4 2", Meta::Set(Some(("n".into(), "42".into())))),
            ("set", "", Meta::Set(None)),
            ("unset", "n", Meta::Unset("n".into())),
            ("echo", ":n", Meta::Echo(":n".into())),
            ("i", "sql/pgque.sql", Meta::Unsupported(Include)),
            ("x", "", Meta::Unsupported(Format)),
            ("timing", "on", Meta::Unsupported(Timing)),
            ("q", "", Meta::Unsupported(Quit)),
            ("c", "mydb", Meta::Unsupported(Connect)),
            ("copy", "t to 'f'", Meta::Unsupported(Files)),
            ("watch", "1", Meta::Unsupported(Watch)),
            ("bogus", "", Meta::Unsupported(Other)),
            ("sf", "f", Meta::Unsupported(Other)),
        ] {
            assert_eq!(meta(name, args), want, "\\{name} {args}");
        }
    }

    #[test]
    fn variables_become_bound_parameters_never_text() {
        let v = vars(&[("batch_id", "7"), ("name", "it's; drop table x")]);
        assert_eq!(
            bind("select pgque.ack(:batch_id)", &v),
            Ok(("select pgque.ack($1)".into(), vec!["7".into()]))
        );
        assert_eq!(
            bind("select :'name', :batch_id + :batch_id, :name", &v),
            Ok((
                "select $1, $2 + $2, $1".into(),
                vec!["it's; drop table x".into(), "7".into()]
            ))
        );
    }

    #[test]
    fn variables_inside_quotes_comments_and_dollar_quotes_and_casts_stay() {
        let v = vars(&[("x", "1"), ("int", "2")]);
        let same = |s: &str| assert_eq!(bind(s, &v), Ok((s.to_owned(), vec![])), "{s}");
        same("select ':x', \":x\", 1::int -- :x");
        same("select /* :x */ $$ :x $$, $q$:x$q$");
        same("select :unset, a[1:2]");
        assert_eq!(
            bind("select $1, :x::int", &v),
            Ok(("select $1, $2::int".into(), vec!["1".into()]))
        );
    }

    #[test]
    fn an_identifier_variable_is_refused_rather_than_spliced() {
        let v = vars(&[("t", "jobs")]);
        assert_eq!(
            bind("select * from :\"t\"", &v),
            Err(BindError::Identifier("t".into()))
        );
    }

    #[test]
    fn gset_stores_one_row_as_psql_does() {
        let mut v = vars(&[("b", "old")]);
        let fields = vec!["a".to_string(), "b".to_string()];
        assert_eq!(
            gset(&mut v, "", &fields, &[vec![Some("1".into()), None]]),
            Ok(())
        );
        assert_eq!(v, vars(&[("a", "1")]), "a NULL unsets");
        assert_eq!(gset(&mut v, "", &fields, &[]), Err(GsetError::NoRows));
        let two = vec![vec![Some("1".into()), None], vec![None, None]];
        assert_eq!(gset(&mut v, "", &fields, &two), Err(GsetError::MoreThanOne));
        assert_eq!(
            GsetError::MoreThanOne.to_string(),
            "more than one row returned for \\gset"
        );
        assert_eq!(GsetError::NoRows.to_string(), "no rows returned for \\gset");
        let bad = vec!["bad name".to_string()];
        assert_eq!(
            gset(&mut v, "", &bad, &[vec![Some("1".into())]]),
            Err(GsetError::BadName("bad name".into()))
        );
        gset(&mut v, "p_", &fields[..1], &[vec![Some("9".into())]]).unwrap();
        assert_eq!(v.get("p_a").map(String::as_str), Some("9"));
    }

    #[test]
    fn echo_prints_words_with_variables() {
        let v = vars(&[("n", "42"), ("s", "it's")]);
        assert_eq!(echo(":n", &v), "42");
        assert_eq!(echo("'n is'   :n :'s' :none", &v), "n is 42 'it''s' :none");
    }

    #[test]
    fn pg_cron_calls_are_found_outside_quotes_only() {
        assert!(calls_pg_cron(
            "select cron.schedule('daily_report', '0 9 * * *', $$select 1$$)"
        ));
        assert!(calls_pg_cron("SELECT CRON.UNSCHEDULE('x')"));
        assert!(!calls_pg_cron("select 'cron.schedule'"));
        assert!(!calls_pg_cron("select mycron.schedule()"));
        assert!(!calls_pg_cron("select pgque.start()"));
    }
}
