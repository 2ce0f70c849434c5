//! `pgcheck`: run Queue Lab's L2 experiment on a real PostgreSQL server and print the
//! simulator's results table for it, then the simulator's own table at matching inputs
//! (`pgcheck [workers] …`); or, with `jobs`, `vacuum` or `pgq`, run an SQL lab's own SQL
//! there and print the lab's table (see `subcommand.rs`).
//!
//! For: someone who outgrew the browser lab and wants the identical experiment on their own
//! server. Not for: load testing.

use std::process::ExitCode;

mod subcommand;

use pgcheck::{matching_params, measure_round_trip, redact, run_strategy, Config, TABLE};
use queue_sim::{format_table, simulate, Strategy, MAX_JOBS, MAX_KEYS, MAX_WORKERS};

const USAGE: &str = "\
usage: pgcheck [workers] --database-url postgres://USER@HOST:PORT/DB [options]
       pgcheck jobs    --database-url URL
       pgcheck vacuum  --database-url URL [--jobs N] [--rounds R] [--batch B]
       pgcheck pgq     --database-url URL [--events N] [--rounds R] [--page P]
       pgcheck pgq     --database-url URL --against-pgq | --against-pgque DIR

jobs, vacuum and pgq run L1's must-show scenarios, L3's rounds and L4's side by side with
the lab's own SQL files; each prints the server's version, works only in the lab's schemas
(lab, jobs_lab, vacuum_lab, pgq_lab, and vac_* or pgque, pgq_compare), refuses to run when
one of them holds anything, and drops them at the end (pgq --against-pgque works in
databases of its own, contract_*, instead). `pgcheck SUBCOMMAND --help` for more.

workers (the default):

Runs the four claim strategies of Queue Lab's many-workers lab with real concurrent
connections, on a table of its own (queue_lab_pgcheck_jobs, dropped at the end), and
prints the same table as the simulator, followed by the simulator at matching inputs.

options:
  --database-url URL   the server to use (required)
  --workers N          concurrent connections, one thread each (default 4, at most 64)
  --jobs N             ready jobs at the start (default 20000, at most 200000)
  --executions N       stop after this many job executions in all (default 4000)
  --strategy ID        naive | for-update | skip-locked-tx | skip-locked-lease | all (default all),
                       or split-queues | per-key | ordering (lease and both remedies)
  --keys N             distinct job keys, the simulator's draw (default 8)
  --job-us N           work per job, a sleep, in microseconds (default 1000)
  --gap-us N           naive: pause between SELECT and UPDATE, in microseconds (default 100)
  --no-sim             skip the simulator's table
  --help               this text

A local server for trying it: scripts/pg-local.sh start (prints the URL).";

struct Args {
    config: Config,
    strategies: Vec<Strategy>,
    sim: bool,
}

enum Parsed {
    Run(Args),
    Help,
}

fn number<T: std::str::FromStr>(flag: &str, value: Option<String>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    value
        .parse()
        .map_err(|_| format!("{flag}: {value:?} is not a non-negative whole number"))
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Parsed, String> {
    let mut config = Config::default();
    let mut strategies = Strategy::ALL.to_vec();
    let mut sim = true;
    let mut url = None;
    let mut args = args.peekable();
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--database-url" => {
                url = Some(args.next().ok_or("--database-url needs a value")?);
            }
            "--workers" => config.workers = number(&flag, args.next())?,
            "--jobs" => config.jobs = number(&flag, args.next())?,
            "--executions" => config.executions = number(&flag, args.next())?,
            "--job-us" => config.job_us = number(&flag, args.next())?,
            "--gap-us" => config.gap_us = number(&flag, args.next())?,
            "--keys" => config.keys = number(&flag, args.next())?,
            "--strategy" => {
                let id = args.next().ok_or("--strategy needs a value")?;
                strategies = if id == "all" {
                    Strategy::ALL.to_vec()
                } else if id == "ordering" {
                    Strategy::ORDERING.to_vec()
                } else {
                    vec![Strategy::parse(&id).ok_or_else(|| {
                        format!("--strategy: unknown {id:?} (naive, for-update, skip-locked-tx, skip-locked-lease, split-queues, per-key, all, ordering)")
                    })?]
                };
            }
            "--no-sim" => sim = false,
            "--help" | "-h" => return Ok(Parsed::Help),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    config.database_url = url.ok_or(
        "refusing to run without --database-url: pgcheck creates and drops a table \
         (queue_lab_pgcheck_jobs) in the database you name, so it never guesses one. \
         For a local throwaway server: scripts/pg-local.sh start",
    )?;
    if !(1..=MAX_WORKERS).contains(&config.workers) {
        return Err(format!("--workers must be between 1 and {MAX_WORKERS}"));
    }
    if !(1..=MAX_JOBS).contains(&config.jobs) {
        return Err(format!("--jobs must be between 1 and {MAX_JOBS}"));
    }
    if !(1..=MAX_KEYS).contains(&config.keys) {
        return Err(format!("--keys must be between 1 and {MAX_KEYS}"));
    }
    if config.executions == 0 || config.executions > 1_000_000 {
        return Err("--executions must be between 1 and 1000000".into());
    }
    if config.job_us > 10_000_000 || config.gap_us > 1_000_000 {
        return Err("--job-us must be at most 10000000 and --gap-us at most 1000000".into());
    }
    Ok(Parsed::Run(Args {
        config,
        strategies,
        sim,
    }))
}

fn main() -> ExitCode {
    let mut argv: Vec<String> = std::env::args().skip(1).collect();
    match argv.first().map(String::as_str) {
        Some(cmd @ ("jobs" | "vacuum" | "pgq")) => {
            let cmd = cmd.to_string();
            return subcommand::main(&cmd, argv.split_off(1));
        }
        Some("workers") => {
            argv.remove(0);
        }
        _ => {}
    }
    let args = match parse_args(argv.into_iter()) {
        Ok(Parsed::Run(args)) => args,
        Ok(Parsed::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("pgcheck: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pgcheck: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), pgcheck::CheckError> {
    let cfg = &args.config;
    println!(
        "pgcheck: {} · {} workers · {} ready jobs · {} executions · {} µs work per job · naive gap {} µs",
        redact(&cfg.database_url),
        cfg.workers,
        cfg.jobs,
        cfg.executions,
        cfg.job_us,
        cfg.gap_us
    );
    let rtt_us = measure_round_trip(&cfg.database_url, cfg.jobs)?;
    println!("measured claim round trip (median of 200): {rtt_us} µs; table {TABLE}\n");

    let mut real = Vec::new();
    let mut simulated = Vec::new();
    let mut notes = Vec::new();
    for &strategy in &args.strategies {
        eprintln!("running {strategy} …");
        let run = run_strategy(cfg, strategy)?;
        notes.push(format!(
            "{strategy}: completion-order inversions {} (pg)",
            run.inversions
        ));
        let mut key_note = format!(
            "{strategy}: per-key inversions over {} keys {} (pg)",
            cfg.keys, run.key_inversions
        );
        if args.sim {
            let params = matching_params(cfg, strategy, rtt_us, run.mean_work_us);
            match simulate(&params) {
                Ok(out) => {
                    if let Some(note) = notes.last_mut() {
                        note.push_str(&format!(", {} (sim)", out.inversions));
                    }
                    key_note.push_str(&format!(", {} (sim)", out.key_inversions));
                    simulated.push(out.summary());
                }
                Err(e) => notes.push(format!("{strategy}: simulator refused the inputs: {e}")),
            }
        }
        notes.push(key_note);
        real.push(run.summary);
    }
    println!("real PostgreSQL:\n{}", format_table(&real));
    if args.sim {
        println!(
            "simulator at matching inputs (round trip {rtt_us} µs, measured work per job):\n{}",
            format_table(&simulated)
        );
    }
    for note in notes {
        println!("{note}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Parsed, String> {
        parse_args(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn refuses_to_run_without_a_database_url_and_names_the_flag() {
        let err = parse(&["--workers", "4"]).err().unwrap_or_default();
        assert!(err.contains("--database-url"), "{err}");
        assert!(err.contains("scripts/pg-local.sh start"), "{err}");
    }

    #[test]
    fn reads_every_flag_and_rejects_out_of_range_workers() {
        let Ok(Parsed::Run(args)) = parse(&[
            "--database-url",
            "postgres://u@h/db",
            "--workers",
            "8",
            "--strategy",
            "for-update",
            "--job-us",
            "0",
        ]) else {
            panic!("valid arguments refused");
        };
        assert_eq!(args.config.workers, 8);
        assert_eq!(args.config.job_us, 0);
        assert_eq!(args.strategies, vec![Strategy::ForUpdate]);
        let err = parse(&["--database-url", "x", "--workers", "0"]).err();
        assert!(err.is_some_and(|e| e.contains("--workers")));
        let err = parse(&["--database-url", "x", "--strategy", "fast"]).err();
        assert!(err.is_some_and(|e| e.contains("unknown")));
    }
}
