//! What every SQL-lab subcommand (`jobs`, `vacuum`, `pgq`) shares: the lab's SQL files, the
//! lab's virtual clock, the server's version, and the schemas a run works in — refused when
//! they hold anything, and dropped (or emptied) at the end, also when the run fails.
//!
//! The lab's SQL names its schemas itself (`clock_install.sql` makes `lab`; each SQL lab's
//! descriptor names its own schema, read here by [`lab_schema!`]; L3's tables live in
//! `vac_*`, L4's engine in `pgque` and its side by side in `pgq_compare`), so the
//! subcommands use those names and run the files unchanged.

use std::str::FromStr;
use std::time::Duration;

use postgres::{Client, NoTls};

use crate::{context, redact, CheckError};

/// A file of the lab's SQL, exactly as the browser lab runs it.
macro_rules! lab_sql {
    ($path:literal) => {
        include_str!(concat!("../../../src/sql/", $path))
    };
    // The lab's EXPLAIN of the statement in `$path` (the app's `db::sql_file!` does the same).
    (explain $path:literal) => {
        concat!(
            include_str!("../../../src/sql/vacuum/explain.sql"),
            include_str!(concat!("../../../src/sql/", $path))
        )
    };
    // The lab's reading of a plan: the walk over its nodes, then `$path` (db::sql_file!'s `plan`).
    (plan $path:literal) => {
        concat!(
            include_str!("../../../src/sql/vacuum/plan_walk.sql"),
            include_str!(concat!("../../../src/sql/", $path))
        )
    };
}
pub(crate) use lab_sql;

pub const CLOCK_INSTALL: &str = lab_sql!("lab/clock_install.sql");
pub const CLOCK_ADVANCE: &str = lab_sql!("lab/clock_advance.sql");
pub const CLOCK_RESET: &str = lab_sql!("lab/clock_reset.sql");

/// The schema `clock_install.sql` creates.
pub const CLOCK_SCHEMA: &str = "lab";

/// A lab's own schema, as its descriptor (`src/labs/<slug>/lab.tsv`, the line `schema<TAB>…`)
/// names it: the app's runner creates it and puts it first on the lab's search path.
macro_rules! lab_schema {
    ($slug:literal) => {
        $crate::target::schema_of(
            $slug,
            include_str!(concat!("../../../src/labs/", $slug, "/lab.tsv")),
        )
    };
}
pub(crate) use lab_schema;

/// The schema named by the descriptor `lab.tsv` in `source` (its line `schema<TAB>name`).
pub fn schema_of(slug: &str, source: &'static str) -> &'static str {
    source
        .lines()
        .find_map(|l| l.strip_prefix("schema\t"))
        .map(str::trim)
        .filter(|s| *s != "-")
        .unwrap_or_else(|| panic!("labs/{slug}/lab.tsv names no schema"))
}

/// The comment pgcheck puts on a schema it creates, so a leftover of an interrupted run can be
/// told from someone else's schema.
const MARK: &str = "created by queue-lab pgcheck; dropped when its run ends";

/// Application name of every subcommand connection.
const APP_NAME: &str = "queue-lab-pgcheck";

/// An advisory lock key: one subcommand at a time per database (they share `lab`); a second
/// run waits for the first.
const RUN_LOCK: i64 = 0x5155_4555_4c41_4231; // "QUEULAB1" in ASCII

/// Opens one connection; `statement_timeout`-free, with a lock timeout so that a run that
/// would wait on someone else's lock fails with a message instead of hanging.
pub fn connect(url: &str) -> Result<Client, CheckError> {
    let mut config = context(postgres::Config::from_str(url), "reading --database-url")?;
    config.application_name(APP_NAME);
    config.connect_timeout(Duration::from_secs(10));
    let mut client = context(
        config.connect(NoTls),
        &format!("connecting to {}", redact(url)),
    )?;
    context(
        client.batch_execute("set lock_timeout = '20s'"),
        "setting lock_timeout",
    )?;
    Ok(client)
}

/// The xmin horizon pinned: a second connection holding a transaction that took an id
/// (`begin; select txid_current()`), so that VACUUM keeps every dead row version made since,
/// until [`HorizonPin::release`]. Not the labs' prepared transaction (L3's `long_tx_begin.sql`,
/// L4's `pin.sql`): that needs `max_prepared_transactions` > 0, which servers default to 0.
pub struct HorizonPin(Client);

impl HorizonPin {
    pub fn open(url: &str) -> Result<HorizonPin, CheckError> {
        let mut c = connect(url)?;
        context(
            c.batch_execute("begin; select txid_current();"),
            "opening the transaction that pins the xmin horizon",
        )?;
        Ok(HorizonPin(c))
    }

    /// Ends the transaction: the horizon moves on.
    pub fn release(mut self) -> Result<(), CheckError> {
        context(
            self.0.batch_execute("rollback"),
            "ending the transaction that pins the xmin horizon",
        )
    }
}

/// One lab session: a connection with the lab's clock installed (as the app does at start)
/// and the lab's search path for `lab_schema` (as the app's runner sets it), e.g.
/// `jobs_lab, lab, pg_catalog, public` (the schema: [`lab_schema!`]).
pub fn lab_session(url: &str, lab_schema: &str) -> Result<Client, CheckError> {
    let mut c = connect(url)?;
    context(c.batch_execute(CLOCK_INSTALL), "installing the lab clock")?;
    context(
        c.execute(
            "select set_config('search_path', $1, false)",
            &[&format!("{lab_schema}, lab, pg_catalog, public")],
        ),
        "setting the lab's search path",
    )?;
    Ok(c)
}

/// Where a subcommand sends each part of its report as soon as that part is ready.
pub type Print<'a> = &'a mut dyn FnMut(String);

/// L3's and L4's two runs: `one(false)` with the xmin horizon free, then `one(true)` with it
/// pinned by a second connection; the text each returns beside its run goes to `print` before
/// the next run starts.
pub fn free_then_pinned<R>(
    print: Print,
    mut one: impl FnMut(bool) -> Result<(R, String), CheckError>,
) -> Result<[R; 2], CheckError> {
    let mut run = |pinned| {
        let (run, text) = one(pinned)?;
        print(text);
        Ok::<_, CheckError>(run)
    };
    Ok([run(false)?, run(true)?])
}

/// clock_advance.sql on `c`: lab time moves on by `secs` for that session.
pub fn advance_clock(c: &mut Client, secs: f64) -> Result<(), CheckError> {
    let stmt = context(
        c.prepare_typed(CLOCK_ADVANCE, &[postgres::types::Type::FLOAT8]),
        "clock_advance.sql",
    )?;
    context(c.query(&stmt, &[&secs]), "clock_advance.sql")?;
    Ok(())
}

/// The server's version, e.g. `PostgreSQL 15.14 (Debian 15.14-0+deb12u1) on x86_64-pc-linux-gnu`.
pub fn server_version(c: &mut Client) -> Result<String, CheckError> {
    let row = context(c.query_one("select version()", &[]), "reading version()")?;
    Ok(row.get(0))
}

/// Runs `body` with `schemas` reserved for it: refused if any of them holds an object;
/// created when absent; at the end (error or not) those created are dropped and those that
/// existed empty are emptied again. Prints the server's version first.
///
/// `made_by_sql`: schemas the lab's SQL creates itself with a plain `create schema` (L4's
/// engine makes `pgque`, its side by side `pgq_compare`): those must be absent, are not
/// created here, and are dropped at the end.
pub fn run_in_schemas<T>(
    url: &str,
    command: &str,
    schemas: &[&str],
    made_by_sql: &[&str],
    body: impl FnOnce() -> Result<T, CheckError>,
) -> Result<T, CheckError> {
    let mut admin = connect(url)?;
    println!("server: {}", server_version(&mut admin)?);
    // Another run of a subcommand on this database: they share the schema `lab`, so wait.
    // By polling, not by a blocking pg_advisory_lock: a statement that waits holds a
    // snapshot, and that would pin the xmin horizon under the other run's VACUUM.
    let mut said = false;
    loop {
        let locked: bool = context(
            admin.query_one("select pg_try_advisory_lock($1)", &[&RUN_LOCK]),
            "taking pgcheck's advisory lock",
        )?
        .get(0);
        if locked {
            break;
        }
        if !said {
            eprintln!("pgcheck {command}: waiting for another pgcheck subcommand on this database to end …");
            said = true;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let all: Vec<&str> = schemas.iter().chain(made_by_sql).copied().collect();
    let existed = check_empty(&mut admin, &all)?;
    if let Some(s) = made_by_sql.iter().find(|s| existed.iter().any(|e| e == *s)) {
        return Err(CheckError(format!(
            "refuses to run: schema {s} exists (empty); the lab's SQL \
             creates it itself (`create schema {s}`), so it must be absent. Drop it if it is \
             not yours to keep, or point --database-url at another database."
        )));
    }
    let mut created: Vec<String> = made_by_sql.iter().map(|s| s.to_string()).collect();
    let made = (|| {
        for &s in schemas {
            if !existed.iter().any(|e| e == s) {
                context(
                    admin.batch_execute(&format!(
                        "create schema {s}; comment on schema {s} is '{MARK}'"
                    )),
                    &format!("creating schema {s}"),
                )?;
                created.push(s.to_string());
            }
        }
        Ok(())
    })();
    let out = made.and_then(|()| body());
    let cleaned = clean_up(url, &created, &existed);
    let _ = admin.batch_execute("select pg_advisory_unlock_all()");
    let out = out?;
    cleaned?;
    Ok(out)
}

/// Fails when one of `schemas` holds anything; returns those that exist (empty).
fn check_empty(admin: &mut Client, schemas: &[&str]) -> Result<Vec<String>, CheckError> {
    let names: Vec<String> = schemas.iter().map(|s| s.to_string()).collect();
    // Every object in a schema depends on it (that is how DROP SCHEMA ... CASCADE finds them).
    let rows = context(
        admin.query(
            "select n.nspname::text,
                    count(d.objid),
                    coalesce(string_agg(pg_describe_object(d.classid, d.objid, d.objsubid), ', '
                                        order by d.objid) filter (where d.objid is not null), ''),
                    coalesce(obj_description(n.oid, 'pg_namespace'), '')
               from pg_namespace n
               left join pg_depend d
                 on d.refclassid = 'pg_namespace'::regclass and d.refobjid = n.oid
              where n.nspname = any($1)
              group by n.oid, n.nspname",
            &[&names],
        ),
        "checking the target schemas",
    )?;
    let mut existed = Vec::new();
    let mut full = Vec::new();
    for r in rows {
        let name: String = r.get(0);
        let n: i64 = r.get(1);
        let what: String = r.get(2);
        let comment: String = r.get(3);
        if n == 0 {
            existed.push(name);
            continue;
        }
        let mut shown: Vec<&str> = what.split(", ").take(3).collect();
        if n > 3 {
            shown.push("…");
        }
        let leftover = if comment == MARK {
            format!(
                " It carries pgcheck's mark, so it is a leftover of an interrupted run: \
                 `drop schema {name} cascade` removes it."
            )
        } else {
            String::new()
        };
        full.push(format!(
            "schema {name} holds {n} object(s) ({}).{leftover}",
            shown.join(", ")
        ));
    }
    if !full.is_empty() {
        return Err(CheckError(format!(
            "refuses to run: it works in the schemas {} (the names the lab's \
             SQL uses) and drops them at the end, so each must be absent or empty, and \
             {}\n  {}\nPoint --database-url at another database (createdb …), or empty them \
             if nothing in them is yours.",
            schemas.join(", "),
            if full.len() == 1 {
                "one is not:"
            } else {
                "these are not:"
            },
            full.join("\n  ")
        )));
    }
    Ok(existed)
}

/// Drops the schemas the run created and empties those that existed, on a connection of its
/// own (the run's may be broken or inside a failed transaction).
fn clean_up(url: &str, created: &[String], existed: &[String]) -> Result<(), CheckError> {
    let mut c = connect(url)?;
    for s in created {
        context(
            c.batch_execute(&format!("drop schema if exists {s} cascade")),
            &format!("dropping schema {s}"),
        )?;
    }
    for s in existed {
        // What the run put into a schema that was there, empty, before it.
        let drops = context(
            c.query(
                "select format('drop %s if exists %s cascade', kind, name) from (
                   select case c.relkind when 'v' then 'view' when 'm' then 'materialized view'
                                         when 'S' then 'sequence' when 'f' then 'foreign table'
                                         else 'table' end as kind,
                          c.oid::regclass::text as name, 1 as o
                     from pg_class c
                    where c.relnamespace = $1::text::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
                   union all
                   select case p.prokind when 'p' then 'procedure' when 'a' then 'aggregate'
                                         else 'function' end,
                          p.oid::regprocedure::text, 2
                     from pg_proc p where p.pronamespace = $1::text::regnamespace
                   union all
                   select 'type', t.oid::regtype::text, 3
                     from pg_type t
                    where t.typnamespace = $1::text::regnamespace
                      and (t.typtype in ('e', 'd', 'r')
                           or (t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c'))
                 ) o order by o",
                &[s],
            ),
            &format!("listing what to drop in schema {s}"),
        )?;
        for d in drops {
            let stmt: String = d.get(0);
            context(c.batch_execute(&stmt), &stmt)?;
        }
    }
    Ok(())
}

/// A message of the lab's i18n catalog in English, its placeholders filled as the lab fills
/// them (plural forms included).
pub fn render(catalog: &str, msg: &queue_lab_core::i18n::Msg) -> String {
    queue_lab_core::i18n::Catalog::parse(&[("catalog", catalog)])
        .map(|c| c.render(queue_lab_core::i18n::Lang::En, msg))
        .unwrap_or_else(|_| msg.key.to_string())
}

/// An English text of the lab's i18n catalog (`key \t English \t Korean`), so the tables
/// printed here carry the lab's own column names; the key itself if it is missing.
pub fn en(catalog: &str, key: queue_lab_core::i18n::Key) -> &str {
    catalog
        .lines()
        .find_map(|l| {
            let mut f = l.split('\t');
            (f.next() == Some(key.as_str())).then(|| f.next()).flatten()
        })
        .unwrap_or(key.as_str())
}

/// Lays rows out in columns: the first `left` left-aligned, the rest (figures) right-aligned.
pub fn table(header: &[String], rows: &[Vec<String>], left: usize) -> String {
    let n = header.len();
    let mut width = vec![0; n];
    for r in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        for (i, cell) in r.iter().enumerate().take(n) {
            width[i] = width[i].max(cell.chars().count());
        }
    }
    let line = |r: &[String]| {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = " ".repeat(width[i].saturating_sub(c.chars().count()));
                if i < left {
                    format!("{c}{pad}")
                } else {
                    format!("{pad}{c}")
                }
            })
            .collect();
        cells.join("  ").trim_end().to_string()
    };
    let mut out = line(header);
    out.push('\n');
    out.push_str(
        &width
            .iter()
            .map(|w| "-".repeat(*w))
            .collect::<Vec<_>>()
            .join("  "),
    );
    for r in rows {
        out.push('\n');
        out.push_str(&line(r));
    }
    out
}

pub use queue_lab_core::format::group;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn en_reads_the_english_column_and_falls_back_to_the_key() {
        let cat = "a.b\tHeap pages\t힙 페이지\nc\tX\tY\n";
        assert_eq!(en(cat, queue_lab_core::i18n::Key::new("a.b")), "Heap pages");
        assert_eq!(en(cat, queue_lab_core::i18n::Key::new("zz")), "zz");
    }

    #[test]
    fn table_aligns_columns() {
        let t = table(
            &["s".into(), "n".into()],
            &[
                vec!["keep".into(), "1".into()],
                vec!["x".into(), "20,000".into()],
            ],
            1,
        );
        assert_eq!(t, "s          n\n----  ------\nkeep       1\nx     20,000");
    }
}
