//! Take a lab to a real server: "Download as SQL" (the lab's schemas and rows, by PGlite's
//! build of pg_dump in the worker, made to load with `psql -f` on PostgreSQL 15–18) and
//! "Download as script" (every statement the lab ran, in order, its parameters as literals,
//! after the lab's own setup: runnable with `psql -f` on an empty database).
//! What it is not for: reading the lab's state (the SQL does, in the tab) or building a
//! lab's statements (they are the SQL log's, verbatim).
//! In the release split by lab, what makes a download's text is fetched on the first click,
//! with saving and opening a lab (`ui::keep::flows`, the module `Keep`).

use crate::clock;
use crate::db::{DbError, ScriptStep};
use crate::descriptor::LabId;
use crate::runner::{Runner, Scope, Work};
use queue_lab_core::sql_lex;

/// The schemas a lab's export holds: the lab clock's (`lab`), the lab's own, and the ones its
/// statements make beside it (L3's strategy tables, L4's PgQue engine and side by side).
pub fn schemas(lab: LabId) -> Vec<&'static str> {
    let mut out = vec!["lab"];
    out.extend(lab.schema);
    out.extend_from_slice(match lab.slug {
        "vacuum" => &["vac_*"][..],
        "pgq" => &["pgque", "pgq_compare"][..],
        _ => &[][..],
    });
    out
}

/// The dump with a header saying what it is and how to load it.
pub fn sql_file(lab: LabId, server: &str, clock: &str, schemas: &[String], dump: &str) -> String {
    format!(
        "-- Queue Lab {app}: {tag} {slug}, its schemas and rows ({list}), dumped in the tab from\n\
         -- PostgreSQL {server} (PGlite) by pg_dump (PGlite's build, @electric-sql/pglite-tools),\n\
         -- with the two lines older servers refuse left out (SET transaction_timeout, and\n\
         -- PGlite's pg_attver column option). Loads into an empty database on PostgreSQL 15-18:\n\
         --   psql -v ON_ERROR_STOP=1 -f this-file.sql\n\
         -- lab.now() reads the session setting lab.clock (lab time; the tab's was {clock}):\n\
         --   set lab.clock = '{clock}';\n\
         -- in a session before anything that calls now() on the lab's search path:\n\
         --   set search_path = {path};\n\n{dump}",
        app = env!("CARGO_PKG_VERSION"),
        tag = lab.tag,
        slug = lab.slug,
        list = schemas.join(", "),
        path = lab.search_path(),
    )
}

/// `sql` with each `$n` outside quotes, quoted identifiers, comments and dollar-quoted bodies
/// replaced by `literals[n - 1]` (a `$n` with no literal stays).
pub fn with_literals(sql: &str, literals: &[String]) -> String {
    let b = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        match b[i] {
            b'$' if sql_lex::after_ident(b, i) => i += 1,
            b'$' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                let start = i;
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let n: usize = sql[start + 1..i].parse().unwrap_or(0);
                if let Some(lit) = n.checked_sub(1).and_then(|k| literals.get(k)) {
                    out.push_str(&sql[copied..start]);
                    out.push_str(lit);
                    copied = i;
                }
            }
            _ => i = sql_lex::skip(b, i).map_or(i + 1, |s| s.end),
        }
    }
    out.push_str(&sql[copied.min(sql.len())..]);
    out
}

/// A text as SQL comment lines (`-- ` before each).
fn commented(text: &str) -> String {
    text.lines().map(|l| format!("-- {l}\n")).collect()
}

/// "The lab as a script": the lab clock's setup and the lab's schema, then every statement
/// the lab ran since the database opened (or the last Reset database), in order, each `$n` a
/// literal. A statement that failed in the tab is kept as a comment; so is a psql describe
/// command (it changes nothing). When a statement set the search path, the script sets the
/// lab's again where the tab's runner did (at the start of the lab's next piece of work).
pub fn script_file(lab: LabId, server: &str, steps: &[ScriptStep]) -> String {
    let path = lab.search_path();
    let set_path = format!(
        "select set_config('search_path', '{}', false);\n",
        path.replace('\'', "''")
    );
    let mut out = format!(
        "-- Queue Lab {app}: {tag} {slug} as a script: the statements the lab ran in the tab\n\
         -- (PostgreSQL {server}, PGlite), in order, with its clock's moves; each bound parameter\n\
         -- written in its place as a literal. Run it on an empty database:\n\
         --   psql -v ON_ERROR_STOP=1 -f this-file.sql\n\
         -- It begins with the lab's own setup, the lab clock (the app's clock_install.sql) and\n\
         -- the lab's schema, as the tab did before the lab's first statement.\n\
         -- Statements that failed in the tab are kept as comments.\n\n\
         \\set ON_ERROR_STOP on\n\n\
         -- The lab clock (clock_install.sql)\n{install}\n;\n\
         select lab.create_schema('{schema}');\n\
         select set_config('search_path', '{path_q}', false), set_config('lab.clock', '{start}', false);\n\n",
        app = env!("CARGO_PKG_VERSION"),
        tag = lab.tag,
        slug = lab.slug,
        install = clock::INSTALL_SQL.trim_end(),
        schema = lab.schema.unwrap_or("public"),
        path_q = path.replace('\'', "''"),
        start = clock::START,
    );
    // A setting PostgreSQL 17 added (L1's NOTIFY queue, §5): older servers stop there.
    if steps.iter().any(|s| matches!(s, ScriptStep::Ran(e) if e.error.is_none() && e.sql.contains("max_notify_queue_pages"))) {
        out.insert_str(
            out.find("\n\n").map_or(0, |i| i + 1),
            "-- Needs PostgreSQL 17 or newer: it reads max_notify_queue_pages (L1's NOTIFY queue).\n",
        );
    }
    let mut path_moved = false;
    for step in steps {
        match step {
            ScriptStep::Enter => {
                if path_moved {
                    out.push_str(&set_path);
                    path_moved = false;
                }
            }
            ScriptStep::Ran(e) => {
                let sql = with_literals(e.sql.trim_end(), &e.literals);
                if let Some(error) = &e.error {
                    out.push_str(&format!(
                        "-- failed in the tab: {}\n",
                        error.lines().next().unwrap_or_default()
                    ));
                    out.push_str(&commented(&sql));
                } else if sql.trim_start().starts_with('\\') {
                    out.push_str(&commented(&sql));
                } else {
                    if sql.to_ascii_lowercase().contains("search_path") {
                        path_moved = true;
                    }
                    // On a line of its own: the statement may end in a comment.
                    out.push_str(&sql);
                    out.push_str("\n;\n");
                }
            }
        }
    }
    out
}

/// Which download a button makes.
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Sql,
    Script,
}

/// A download's text being made ([`make`]).
pub type Making = std::pin::Pin<Box<dyn std::future::Future<Output = Result<String, DbError>>>>;

/// The text of `kind` for `lab`: its schemas and rows dumped (after the lab's running work,
/// in its turn), or the statements it ran. Called through the flows of taking a lab home
/// (`ui::keep::flows`), so in the release split by lab it is in their module.
pub async fn make(
    runner: Runner,
    lab: LabId,
    kind: Kind,
    server: String,
) -> Result<String, DbError> {
    match kind {
        Kind::Sql => {
            let names = schemas(lab);
            runner
                .run(Scope::Lab(lab), None, async move |w: &Work| {
                    let (dump, held) = w.db().dump(&names).await?;
                    let clock = clock::now(w.db()).await?;
                    Ok(sql_file(lab, &server, &clock, &held, &dump))
                })
                .await
        }
        Kind::Script => runner
            .db()
            .log()
            .script(lab.slug)
            .map(|steps| script_file(lab, &server, &steps))
            .ok_or_else(|| DbError::other("script too long")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn parameters_become_literals_only_where_they_are_parameters() {
        let sql = "select $1, '$1', \"$1\", E'\\'$2', $$ $1 $$, $f$ $2 $f$, a$1 -- $1\n, /* $2 /* $1 */ */ $2::jsonb, $10";
        let out = with_literals(sql, &lits(&["'x'", "'{\"a\": \"it''s\"}'"]));
        assert_eq!(
            out,
            "select 'x', '$1', \"$1\", E'\\'$2', $$ $1 $$, $f$ $2 $f$, a$1 -- $1\n, /* $2 /* $1 */ */ '{\"a\": \"it''s\"}'::jsonb, $10"
        );
    }

    #[test]
    fn values_of_every_kind_are_quoted_for_psql() {
        use crate::db::Param;
        assert_eq!(Param::Null.literal(), "NULL");
        assert_eq!(Param::Text("it's".into()).literal(), "'it''s'");
        assert_eq!(Param::Int(-5).literal(), "'-5'");
        assert_eq!(Param::Float(0.5).literal(), "'0.5'");
        assert_eq!(Param::Bool(true).literal(), "'true'");
        assert_eq!(Param::ids(&[1, 2]).literal(), "'{1,2}'");
        assert_eq!(
            Param::Json(serde_json::json!({"to": "o'neil"})).literal(),
            "'{\"to\":\"o''neil\"}'"
        );
        assert_eq!(
            Param::Text("2026-01-05 09:00:00+00".into()).literal(),
            "'2026-01-05 09:00:00+00'"
        );
    }
}
