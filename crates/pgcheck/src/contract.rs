//! The contract suite (`tests/contract/pgque/*.sql`, see `tests/contract/README.md`) on a
//! server: each file on a database of its own, on the lab's engine (`clock_install.sql`, then
//! `src/sql/pgque/*.sql`, as `pgcheck pgq` installs it) or on real PgQue from a checkout
//! (`DIR/devel/sql/pgque.sql`, else `DIR/sql/pgque.sql`). Every file passes on real PgQue, so
//! a file that fails on the lab's engine is a difference between the two.
//!
//! A run creates a template database (`contract_<pid>_<n>_<engine>_tpl`) with the engine and
//! the prelude, then one database per file from it (`…_<file number>`), and drops each of them
//! when its file is done, the template at the end, also when the run fails. The URL's own
//! database is only where it connects to create and drop them: its role needs CREATEDB.
//!
//! `pgcheck pgq --against-pgque DIR` ([`against_pgque`]) runs every file on both engines and
//! prints one row per file with the first error on each side.

#[path = "contract_split.rs"]
pub mod split;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use postgres::Client;

use crate::target::{self, table, Print};
use crate::{context, pgq, CheckError};
use split::Step;

include!(concat!(env!("OUT_DIR"), "/contract_files.rs"));

/// The assertion helpers, installed after the engine.
pub const PRELUDE: &str = include_str!("../../../tests/contract/prelude.sql");

/// The engine a run installs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// L4's engine, as the lab installs it.
    Lab,
    /// Real PgQue: the install script of a checkout.
    PgQue { sql: PathBuf },
}

impl Engine {
    /// Real PgQue from the checkout `dir`: `devel/sql/pgque.sql` (what PgQue's CI tests), else
    /// `sql/pgque.sql` (a release's build).
    pub fn pgque(dir: &Path) -> Result<Engine, CheckError> {
        ["devel/sql/pgque.sql", "sql/pgque.sql"]
            .iter()
            .map(|p| dir.join(p))
            .find(|p| p.is_file())
            .map(|sql| Engine::PgQue { sql })
            .ok_or_else(|| {
                CheckError(format!(
                    "no PgQue install script in {}: neither devel/sql/pgque.sql nor sql/pgque.sql \
                     (a checkout of PgQue: git clone https://github.com/NikolayS/PgQue)",
                    dir.display()
                ))
            })
    }

    /// The name a file's `-- @engines:` line uses: `lab` or `pgque`.
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Lab => "lab",
            Engine::PgQue { .. } => "pgque",
        }
    }

    /// The column title of its results.
    pub fn title(&self) -> &'static str {
        match self {
            Engine::Lab => "lab engine",
            Engine::PgQue { .. } => "real PgQue",
        }
    }
}

/// Where a file stopped: the statement (or wait) that failed and the server's error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub line: usize,
    pub statement: String,
    /// `SQLSTATE: message`.
    pub error: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    Failed(Failure),
    /// The file's `-- @engines:` line does not name the engine.
    Skipped,
}

/// One contract file on one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRun {
    pub file: &'static str,
    pub contract: String,
    pub outcome: Outcome,
}

impl FileRun {
    /// `tests/contract/pgque/FILE:LINE`, the statement and the error; None unless it failed.
    pub fn failure_text(&self) -> Option<String> {
        match &self.outcome {
            Outcome::Failed(f) => Some(format!(
                "tests/contract/pgque/{}:{}\n{}\n→ {}",
                self.file, f.line, f.statement, f.error
            )),
            _ => None,
        }
    }

    fn cell(&self) -> String {
        match &self.outcome {
            Outcome::Passed => "pass".into(),
            Outcome::Failed(f) => format!("FAIL (line {})", f.line),
            Outcome::Skipped => "skipped".into(),
        }
    }
}

/// The URL with its database replaced by `db` (a URL, or a `key=value` connection string).
pub fn with_database(url: &str, db: &str) -> String {
    if let Some(scheme) = url.find("://") {
        let after = scheme + 3;
        let query = url[after..].find('?').map_or(url.len(), |q| q + after);
        let path = url[after..query].find('/').map_or(query, |p| p + after);
        format!("{}/{db}{}", &url[..path], &url[query..])
    } else {
        format!("{url} dbname={db}")
    }
}

/// `SQLSTATE: message` of a server error, else the client's text.
fn error_text(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{}: {}", db.code().code(), db.message()),
        None => {
            let mut s = e.to_string();
            let mut cause = std::error::Error::source(e);
            while let Some(c) = cause {
                s.push_str(&format!(": {c}"));
                cause = c.source();
            }
            s
        }
    }
}

/// The databases of one run, dropped when it ends (also on an error).
struct Databases {
    admin: Client,
    prefix: String,
    made: Vec<String>,
}

impl Databases {
    fn new(url: &str, engine: &Engine) -> Result<Databases, CheckError> {
        static RUNS: AtomicU32 = AtomicU32::new(0);
        let n = RUNS.fetch_add(1, Ordering::Relaxed);
        Ok(Databases {
            admin: target::connect(url)?,
            prefix: format!("contract_{}_{n}_{}", std::process::id(), engine.name()),
            made: Vec::new(),
        })
    }

    /// Creates `<prefix>_<suffix>`, from `template` if given; returns its name.
    fn create(&mut self, suffix: &str, template: Option<&str>) -> Result<String, CheckError> {
        let name = format!("{}_{suffix}", self.prefix);
        let from = template.map_or(String::new(), |t| format!(" template \"{t}\""));
        context(
            self.admin
                .batch_execute(&format!("create database \"{name}\"{from}")),
            &format!("creating database {name} (the role needs CREATEDB)"),
        )?;
        self.made.push(name.clone());
        Ok(name)
    }

    fn drop_one(&mut self, name: &str) -> Result<(), CheckError> {
        self.made.retain(|m| m != name);
        context(
            self.admin
                .batch_execute(&format!("drop database if exists \"{name}\" with (force)")),
            &format!("dropping database {name}"),
        )
    }
}

impl Drop for Databases {
    fn drop(&mut self) {
        for name in std::mem::take(&mut self.made).into_iter().rev() {
            let _ = self
                .admin
                .batch_execute(&format!("drop database if exists \"{name}\" with (force)"));
        }
    }
}

/// Installs `engine` and the prelude on the database at `url`.
fn install(url: &str, engine: &Engine) -> Result<(), CheckError> {
    let mut c = match engine {
        Engine::Lab => pgq::engine_session(url)?,
        Engine::PgQue { sql } => {
            let text = context(
                std::fs::read_to_string(sql),
                &format!("reading {}", sql.display()),
            )?;
            let steps =
                split::split(&text).map_err(|e| CheckError(format!("{}: {e}", sql.display())))?;
            let mut c = target::connect(url)?;
            // As psql -f runs it: one statement at a time, each in autocommit.
            for step in steps {
                if let Step::Sql { sql: stmt, line } = step {
                    c.batch_execute(&stmt).map_err(|e| {
                        CheckError(format!(
                            "installing {}:{line}: {}",
                            sql.display(),
                            error_text(&e)
                        ))
                    })?;
                }
            }
            c
        }
    };
    context(
        c.batch_execute(PRELUDE),
        "installing tests/contract/prelude.sql",
    )
}

/// A session on the database at `url` as a contract file starts it: on the lab's engine with
/// the lab's clock and L4's search path (as the lab runs its SQL).
fn session(url: &str, engine: &Engine) -> Result<Client, CheckError> {
    match engine {
        Engine::Lab => target::lab_session(url, pgq::lab_schema()),
        Engine::PgQue { .. } => target::connect(url),
    }
}

/// Runs the steps of one file on `c` (and `-- @session2` steps on a second session of the
/// database at `url`, opened at the first): Ok, or where it stopped.
fn run_steps(c: &mut Client, url: &str, engine: &Engine, steps: &[Step]) -> Result<(), Failure> {
    let mut second: Option<Client> = None;
    for step in steps {
        match step {
            Step::Session2 { sql, line } => {
                let fail = |error: String| Failure {
                    line: *line,
                    statement: format!("-- @session2 {sql}"),
                    error,
                };
                if second.is_none() {
                    second = Some(session(url, engine).map_err(|e| fail(e.0))?);
                }
                if let Some(s) = second.as_mut() {
                    s.batch_execute(sql).map_err(|e| fail(error_text(&e)))?;
                }
            }
            Step::Sql { sql, line } => {
                c.batch_execute(sql).map_err(|e| Failure {
                    line: *line,
                    statement: sql.clone(),
                    error: error_text(&e),
                })?;
            }
            Step::Wait { seconds, line } => {
                let fail = |error: String| Failure {
                    line: *line,
                    statement: format!("-- @wait {seconds}"),
                    error,
                };
                match engine {
                    Engine::Lab => {
                        target::advance_clock(c, *seconds as f64).map_err(|e| fail(e.0))?
                    }
                    Engine::PgQue { .. } => c
                        .batch_execute(&format!("select pg_sleep({seconds})"))
                        .map_err(|e| fail(error_text(&e)))?,
                }
            }
        }
    }
    Ok(())
}

/// Every contract file on `engine`, each on a fresh database of the server at `url`, in name
/// order; `progress` sees each file as it ends. Err only when the run itself cannot go on
/// (no server, no CREATEDB, the engine does not install).
pub fn run(
    url: &str,
    engine: &Engine,
    progress: &mut dyn FnMut(&FileRun),
) -> Result<Vec<FileRun>, CheckError> {
    let mut dbs = Databases::new(url, engine)?;
    let template = dbs.create("tpl", None)?;
    install(&with_database(url, &template), engine)?;
    let mut runs = Vec::with_capacity(FILES.len());
    for (n, (file, text)) in FILES.iter().enumerate() {
        let bad = |e: String| CheckError(format!("tests/contract/pgque/{file}: {e}"));
        let header = split::header(text).map_err(bad)?;
        let steps = split::split(text).map_err(bad)?;
        let outcome = if header.runs_on(engine.name()) {
            let db = dbs.create(&format!("{:02}", n + 1), Some(&template))?;
            let db_url = with_database(url, &db);
            let mut c = session(&db_url, engine)?;
            let out = run_steps(&mut c, &db_url, engine, &steps);
            drop(c);
            dbs.drop_one(&db)?;
            match out {
                Ok(()) => Outcome::Passed,
                Err(f) => Outcome::Failed(f),
            }
        } else {
            Outcome::Skipped
        };
        let run = FileRun {
            file,
            contract: header.contract,
            outcome,
        };
        progress(&run);
        runs.push(run);
    }
    Ok(runs)
}

/// Every file on the lab's engine and on real PgQue.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub lab: Vec<FileRun>,
    pub pgque: Vec<FileRun>,
}

impl Comparison {
    /// Files that do not pass on both engines (a skip is not a failure), with each side's
    /// first error.
    pub fn differences(&self) -> Vec<String> {
        self.lab
            .iter()
            .zip(&self.pgque)
            .filter_map(|(l, p)| {
                let sides: Vec<String> = [(l, "lab engine"), (p, "real PgQue")]
                    .iter()
                    .filter_map(|(r, who)| r.failure_text().map(|t| format!("on the {who}: {t}")))
                    .collect();
                (!sides.is_empty()).then(|| format!("{}\n{}", l.file, sides.join("\n")))
            })
            .collect()
    }

    /// One row per file: file | lab engine | real PgQue | first difference (the error of the
    /// side that failed, the lab's when both did, cut to [`CELL`] characters).
    pub fn table(&self) -> String {
        let header: Vec<String> = ["file", "lab engine", "real PgQue", "first difference"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let rows: Vec<Vec<String>> = self
            .lab
            .iter()
            .zip(&self.pgque)
            .map(|(l, p)| {
                let first = [(l, "lab"), (p, "PgQue")]
                    .iter()
                    .find_map(|(r, who)| match &r.outcome {
                        Outcome::Failed(f) => {
                            Some(shorten(&format!("{who}: {}", f.error.replace('\n', " "))))
                        }
                        _ => None,
                    })
                    .unwrap_or_default();
                vec![l.file.to_string(), l.cell(), p.cell(), first]
            })
            .collect();
        let both = self
            .lab
            .iter()
            .zip(&self.pgque)
            .filter(|(l, p)| {
                !matches!(l.outcome, Outcome::Failed(_)) && !matches!(p.outcome, Outcome::Failed(_))
            })
            .count();
        format!(
            "{}\n\n{both} of {} contract files pass on both engines.",
            table(&header, &rows, 4),
            self.lab.len()
        )
    }
}

/// `pgcheck pgq --against-pgque DIR`: the suite on the lab's engine, then on real PgQue from
/// the checkout `dir`, on the server at `url`; `print` gets a line per file as it ends.
pub fn against_pgque(url: &str, dir: &Path, print: Print) -> Result<Comparison, CheckError> {
    let pgque = Engine::pgque(dir)?;
    let mut runs = Vec::new();
    for engine in [Engine::Lab, pgque] {
        print(format!("{} ({}):", engine.title(), describe(&engine)));
        let mut line = |r: &FileRun| print(format!("  {:<40} {}", r.file, r.cell()));
        runs.push(run(url, &engine, &mut line)?);
    }
    let pgque = runs.pop().unwrap_or_default();
    let lab = runs.pop().unwrap_or_default();
    Ok(Comparison { lab, pgque })
}

/// A table cell of at most [`CELL`] characters (the whole error follows the table).
fn shorten(text: &str) -> String {
    if text.chars().count() <= CELL {
        return text.to_string();
    }
    let cut: String = text.chars().take(CELL - 1).collect();
    format!("{cut}…")
}

/// The widest "first difference" cell.
const CELL: usize = 160;

fn describe(engine: &Engine) -> String {
    match engine {
        Engine::Lab => "clock_install.sql, then src/sql/pgque/*.sql".into(),
        Engine::PgQue { sql } => sql.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lab_engine_pgcheck_installs_is_every_engine_file_in_name_order() {
        // The Node runner installs src/sql/pgque/*.sql as it finds them; pgcheck installs
        // pgq::ENGINE, a list written out: a file added to the engine must be added there.
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src/sql/pgque");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".sql"))
            .collect();
        on_disk.sort();
        let listed: Vec<&str> = pgq::ENGINE.iter().map(|(name, _)| *name).collect();
        assert_eq!(listed, on_disk, "crates/pgcheck/src/pgq.rs ENGINE");
    }

    #[test]
    fn replaces_the_database_of_a_url() {
        assert_eq!(
            with_database("postgres://u@h:5432/queue_lab", "contract_1"),
            "postgres://u@h:5432/contract_1"
        );
        assert_eq!(
            with_database("postgres://u:p@h/db?sslmode=disable", "x"),
            "postgres://u:p@h/x?sslmode=disable"
        );
        assert_eq!(with_database("postgresql://h", "x"), "postgresql://h/x");
        assert_eq!(
            with_database("host=h user=u dbname=a", "x"),
            "host=h user=u dbname=a dbname=x"
        );
    }

    #[test]
    fn finds_the_install_script_of_a_checkout() {
        let dir = std::env::temp_dir().join(format!("pgcheck-contract-{}", std::process::id()));
        // sql/pgque.sql alone, then devel/sql/pgque.sql beside it, which is preferred.
        for found in ["sql", "devel/sql"] {
            std::fs::create_dir_all(dir.join(found)).unwrap();
            std::fs::write(dir.join(found).join("pgque.sql"), "").unwrap();
            assert_eq!(
                Engine::pgque(&dir).unwrap(),
                Engine::PgQue {
                    sql: dir.join(found).join("pgque.sql")
                }
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(Engine::pgque(&dir)
            .unwrap_err()
            .0
            .contains("devel/sql/pgque.sql"));
    }

    #[test]
    fn the_table_names_each_files_outcome_and_the_first_error() {
        let run = |outcome| FileRun {
            file: "01_x.sql",
            contract: "x".into(),
            outcome,
        };
        let fail = Outcome::Failed(Failure {
            line: 7,
            statement: "select 1".into(),
            error: "P0001: no".into(),
        });
        let c = Comparison {
            lab: vec![run(fail)],
            pgque: vec![run(Outcome::Passed)],
        };
        let t = c.table();
        assert!(
            t.contains("01_x.sql  FAIL (line 7)  pass        lab: P0001: no"),
            "{t}"
        );
        assert!(
            t.ends_with("0 of 1 contract files pass on both engines."),
            "{t}"
        );
        assert_eq!(
            c.differences(),
            ["01_x.sql\non the lab engine: tests/contract/pgque/01_x.sql:7\nselect 1\n→ P0001: no"]
        );
    }
}
