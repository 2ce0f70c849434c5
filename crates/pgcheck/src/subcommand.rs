//! The SQL labs' subcommands: `pgcheck jobs | vacuum | pgq --database-url URL [options]`.

use std::process::ExitCode;

use pgcheck::{against_pgq, contract, jobs, pgq, vacuum, CheckError};

const JOBS_USAGE: &str = "\
usage: pgcheck jobs --database-url URL

L1's must-show scenarios on your server, with real connections and L1's own SQL files:
transactional enqueue rolled back, SKIP LOCKED between two connections, lease expiry,
retries then dead letter, LISTEN/NOTIFY on commit only, and the per-key claim.
Exits 1 if a scenario does not behave as in the lab.";

const VACUUM_USAGE: &str = "\
usage: pgcheck vacuum --database-url URL [--jobs N] [--rounds R] [--batch B]

L3's rounds with L3's own SQL files on four tables (keep rows, DELETE, DELETE + VACUUM each
round, rotation by TRUNCATE), without and then with the xmin horizon pinned by a second
connection holding a transaction open. Prints the lab's results table for each.
  --jobs N     jobs per round (default 20000, 100..50000)
  --rounds R   rounds (default 3, 1..5)
  --batch B    jobs per claim statement (default 2000, 1..5000)
Autovacuum is turned off on the four tables (PGlite has none, so the lab runs without it).";

const PGQ_USAGE: &str = "\
usage: pgcheck pgq --database-url URL [--events N] [--rounds R] [--page P]
       pgcheck pgq --against-pgq --database-url URL
       pgcheck pgq --against-pgque DIR --database-url URL

L4's side by side with L4's own SQL files: the rotation queue (the lab's pgque engine) beside
a SKIP LOCKED queue with DELETE and VACUUM, without and then with a long transaction (a
second connection holding a transaction id). Prints the lab's table for each. Then L4's
cooperative consumers (two subconsumers each receive a batch of their own; a dead one's batch
is taken over after the dead interval) and unsubscribe (a lagging consumer holds rotation
back until it is unsubscribed).
  --events N   events per round (default 20000, 100..20000)
  --rounds R   rounds (default 3, 1..5)
  --page P     events per batch (received whole) / jobs per claim (default 500, 10..1000)

--against-pgq: L4's engine held to PgQ itself. One script (sends in transactions, one left
open across ticks on a second connection, ticks, receives, acks, a retry whose delay passes,
rotation, then one event retried past the lab's max_retries) runs on PgQ's C extension
(create extension pgq; Debian: postgresql-<major>-pgq3) and on the lab's engine in the same
database, printed side by side. Exits 1 when a step differs, except the steps marked \"by
design\". PgQ reads real time, so the run sleeps about 4.4 s; the lab's clock moves as much.

--against-pgque DIR: L4's engine held to real PgQue by the contract suite
(tests/contract/pgque/*.sql, built into pgcheck). Every file runs on the lab's engine
(clock_install.sql, then src/sql/pgque/*.sql) and on real PgQue installed from the checkout DIR
(DIR/devel/sql/pgque.sql, else DIR/sql/pgque.sql), each file on a database of its own
(contract_*, created from a template and dropped after: the role needs CREATEDB). Prints one
row per file: file | lab engine | real PgQue | first difference (the error). Exits 1 when a
file fails on either engine. Real PgQue sleeps where a file waits: about 25 s in all.";

fn usage(cmd: &str) -> &'static str {
    match cmd {
        "jobs" => JOBS_USAGE,
        "vacuum" => VACUUM_USAGE,
        _ => PGQ_USAGE,
    }
}

/// The database URL and each allowed flag's value, if given; `None` for `--help`.
type Parsed = Option<(String, Vec<Option<u32>>)>;

/// `--flag value` pairs; `allowed` names each flag with its bounds.
fn parse(cmd: &str, args: Vec<String>, allowed: &[(&str, u32, u32)]) -> Result<Parsed, String> {
    let mut url = None;
    let mut values = vec![None; allowed.len()];
    let mut it = args.into_iter();
    while let Some(flag) = it.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        if flag == "--database-url" {
            url = Some(it.next().ok_or("--database-url needs a value")?);
            continue;
        }
        let Some(i) = allowed.iter().position(|a| a.0 == flag) else {
            return Err(format!("pgcheck {cmd}: unknown argument {flag:?}"));
        };
        let (_, lo, hi) = allowed[i];
        let v = it.next().ok_or(format!("{flag} needs a value"))?;
        match v.parse::<u32>() {
            Ok(n) if (lo..=hi).contains(&n) => values[i] = Some(n),
            _ => {
                return Err(format!(
                    "{flag} must be a whole number from {lo} to {hi}, not {v:?}"
                ))
            }
        }
    }
    let url = url.ok_or(format!(
        "refusing to run without --database-url: pgcheck {cmd} creates and drops schemas in \
         the database you name, so it never guesses one. For a local throwaway server: \
         scripts/pg-local.sh start"
    ))?;
    Ok(Some((url, values)))
}

/// Prints each failure as `FAILED: …`; true when there is none.
fn none_failed(failures: Vec<String>) -> bool {
    for f in &failures {
        println!("FAILED: {f}");
    }
    failures.is_empty()
}

/// `--against-pgque DIR` (pgq only: the contract suite on the lab's engine and real PgQue)
/// taken out of `args`: the directory, if given, and the other arguments.
fn take_pgque_dir(cmd: &str, args: Vec<String>) -> Result<(Option<String>, Vec<String>), String> {
    let mut dir = None;
    let mut rest = Vec::with_capacity(args.len());
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if cmd == "pgq" && a == "--against-pgque" {
            dir = Some(
                it.next()
                    .ok_or("--against-pgque needs a value (a checkout of PgQue)")?,
            );
        } else {
            rest.push(a);
        }
    }
    Ok((dir, rest))
}

pub fn main(cmd: &str, args: Vec<String>) -> ExitCode {
    let (pgque_dir, args) = match take_pgque_dir(cmd, args) {
        Ok(taken) => taken,
        Err(message) => {
            eprintln!("pgcheck: {message}\n\n{}", usage(cmd));
            return ExitCode::from(2);
        }
    };
    let against = cmd == "pgq" && args.iter().any(|a| a == "--against-pgq");
    if against && pgque_dir.is_some() {
        eprintln!(
            "pgcheck: --against-pgq and --against-pgque are two runs; give one\n\n{}",
            usage(cmd)
        );
        return ExitCode::from(2);
    }
    let args: Vec<String> = args.into_iter().filter(|a| a != "--against-pgq").collect();
    let allowed: &[(&str, u32, u32)] = match cmd {
        _ if against || pgque_dir.is_some() => &[],
        "jobs" => &[],
        "vacuum" => &[
            ("--jobs", 100, 50_000),
            ("--rounds", 1, 5),
            ("--batch", 1, 5_000),
        ],
        _ => &[
            ("--events", 100, 20_000),
            ("--rounds", 1, 5),
            ("--page", 10, 1_000),
        ],
    };
    let (url, v) = match parse(cmd, args, allowed) {
        Ok(Some(p)) => p,
        Ok(None) => {
            println!("{}", usage(cmd));
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("pgcheck: {message}\n\n{}", usage(cmd));
            return ExitCode::from(2);
        }
    };
    let out: Result<bool, CheckError> = match cmd {
        _ if pgque_dir.is_some() => {
            let dir = std::path::PathBuf::from(pgque_dir.as_deref().unwrap_or_default());
            contract::against_pgque(&url, &dir, &mut |line| println!("{line}")).map(|c| {
                println!("\n{}", c.table());
                none_failed(c.differences())
            })
        }
        _ if against => against_pgq::run(&url).map(|c| {
            println!("\n{}", c.table());
            none_failed(c.differences())
        }),
        "jobs" => jobs::run(&url).map(|r| {
            println!("\nL1 on a real server:\n{}", r.table());
            r.passed()
        }),
        "vacuum" => {
            let d = vacuum::Settings::default();
            let s = vacuum::Settings {
                jobs: v[0].unwrap_or(d.jobs),
                rounds: v[1].unwrap_or(d.rounds),
                batch: v[2].unwrap_or(d.batch),
            };
            vacuum::run(&url, s, &mut |part| println!("{part}")).map(|r| none_failed(r.problems()))
        }
        _ => {
            let d = pgq::Settings::default();
            let s = pgq::Settings {
                events: v[0].unwrap_or(d.events),
                rounds: v[1].unwrap_or(d.rounds),
                page: v[2].unwrap_or(d.page),
            };
            pgq::run(&url, s, &mut |part| println!("{part}")).map(|r| none_failed(r.problems()))
        }
    };
    match out {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) if pgque_dir.is_some() => {
            eprintln!(
                "pgcheck pgq --against-pgque: contract files fail on the lab's engine or on real \
                 PgQue (FAILED above)"
            );
            ExitCode::FAILURE
        }
        Ok(false) if against => {
            eprintln!("pgcheck pgq --against-pgq: the lab's engine and PgQ differ (FAILED above)");
            ExitCode::FAILURE
        }
        Ok(false) => {
            eprintln!("pgcheck {cmd}: the server did not behave as the lab shows (FAILED above)");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("pgcheck {cmd}: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VACUUM: &[(&str, u32, u32)] = &[("--jobs", 100, 50_000), ("--rounds", 1, 5)];

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_the_url_and_bounded_flags_and_refuses_the_rest_with_a_reason() {
        let Ok(Some((url, v))) = parse(
            "vacuum",
            args(&["--database-url", "postgres://u@h/db", "--rounds", "2"]),
            VACUUM,
        ) else {
            panic!("valid arguments refused");
        };
        assert_eq!(
            (url.as_str(), v),
            ("postgres://u@h/db", vec![None, Some(2)])
        );
        let no_url = parse("vacuum", args(&["--rounds", "2"]), VACUUM).unwrap_err();
        assert!(
            no_url.contains("--database-url") && no_url.contains("pg-local.sh"),
            "{no_url}"
        );
        let big = parse(
            "vacuum",
            args(&["--database-url", "x", "--jobs", "60000"]),
            VACUUM,
        );
        assert!(big.unwrap_err().contains("100 to 50000"));
        let unknown = parse(
            "vacuum",
            args(&["--database-url", "x", "--page", "5"]),
            VACUUM,
        );
        assert!(unknown.unwrap_err().contains("unknown argument"));
        assert!(matches!(parse("jobs", args(&["--help"]), &[]), Ok(None)));
    }

    #[test]
    fn takes_the_pgque_checkout_out_of_pgqs_arguments_only() {
        let (dir, rest) = take_pgque_dir(
            "pgq",
            args(&["--against-pgque", "/src/PgQue", "--database-url", "u"]),
        )
        .unwrap();
        assert_eq!(
            (dir.as_deref(), rest),
            (Some("/src/PgQue"), args(&["--database-url", "u"]))
        );
        let (dir, rest) = take_pgque_dir("vacuum", args(&["--against-pgque", "d"])).unwrap();
        assert_eq!((dir, rest), (None, args(&["--against-pgque", "d"])));
        let missing = take_pgque_dir("pgq", args(&["--against-pgque"])).unwrap_err();
        assert!(missing.contains("needs a value"), "{missing}");
    }
}
