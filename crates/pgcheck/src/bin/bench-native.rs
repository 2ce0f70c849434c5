//! `bench-native`: the SQL workloads of L1 and L3, exactly as the browser lab runs them
//! (the same files, `include_str!`-ed from `src/sql/`), timed on a native PostgreSQL server,
//! so `./lab bench` can print PGlite-in-the-tab beside native. Prints one JSON object.
//!
//! For: `bench/run.mjs`. Not for: load testing (one connection, one statement at a time,
//! as the lab runs them).
//!
//! Run: `cargo run --release -p pgcheck --bin bench-native -- --database-url URL [--runs N]`
//!
//! Each run starts from fresh tables in its own schema set (dropped at the end) and
//! installs the lab's virtual clock (`src/sql/lab/clock_install.sql`), so `now()` is
//! `lab.now()` and the SQL runs unchanged. One difference, on purpose: autovacuum is turned
//! off on L3's tables (`autovacuum_enabled = off`), because PGlite has no autovacuum and the
//! workload must be the same on both sides.

use std::time::Instant;

use pgcheck::vacuum::Strategy;
use postgres::types::Type;
use postgres::{Client, Statement};

macro_rules! lab_sql {
    ($path:literal) => {
        include_str!(concat!("../../../../src/sql/", $path))
    };
}

const CLOCK_INSTALL: &str = lab_sql!("lab/clock_install.sql");
const CLOCK_NOW: &str = lab_sql!("lab/clock_now.sql");

mod jobs {
    pub const SCHEMA: &str = lab_sql!("jobs/schema.sql");
    pub const RESET: &str = lab_sql!("jobs/reset.sql");
    pub const ENQUEUE: &str = lab_sql!("jobs/enqueue.sql");
    pub const NOTIFY: &str = lab_sql!("jobs/notify.sql");
    pub const REAP: &str = lab_sql!("jobs/reap.sql");
    pub const CLAIM: &str = lab_sql!("jobs/claim.sql");
    pub const COMPLETE: &str = lab_sql!("jobs/complete.sql");
    pub const FAIL: &str = lab_sql!("jobs/fail.sql");
    pub const SNAPSHOT: &str = lab_sql!("jobs/snapshot.sql");
}

mod vacuum {
    pub const SETUP_EXTENSIONS: &str = lab_sql!("vacuum/setup_extensions.sql");
    // The one jobs DDL, then the script that calls it (as the app's `sql::SETUP_TABLES`).
    pub const SETUP_TABLES: &str = concat!(
        lab_sql!("vacuum/jobs_table.sql"),
        lab_sql!("vacuum/setup_tables.sql")
    );
    pub const SETUP_HELPERS: &str = lab_sql!("vacuum/setup_helpers.sql");
    pub const TEARDOWN: &str = lab_sql!("vacuum/teardown.sql");
    pub const USE_STRATEGY: &str = lab_sql!("vacuum/use_strategy.sql");
    pub const RESET_SEARCH_PATH: &str = lab_sql!("vacuum/reset_search_path.sql");
    pub const ENQUEUE: &str = lab_sql!("vacuum/enqueue.sql");
    pub const ENQUEUE_PARTITION: &str = lab_sql!("vacuum/enqueue_partition.sql");
    pub const PARTITION_OPEN: &str = lab_sql!("vacuum/partition_open.sql");
    pub const PARTITION_DROP: &str = lab_sql!("vacuum/partition_drop.sql");
    pub const CLAIM_BATCH: &str = lab_sql!("vacuum/claim_batch.sql");
    pub const COMPLETE_DONE: &str = lab_sql!("vacuum/complete_done.sql");
    pub const COMPLETE_DELETE: &str = lab_sql!("vacuum/complete_delete.sql");
    pub const ROTATE_TRUNCATE: &str = lab_sql!("vacuum/rotate_truncate.sql");
    pub const FLUSH_STATS: &str = lab_sql!("vacuum/flush_stats.sql");
    pub const VACUUM: &str = lab_sql!("vacuum/vacuum.sql");
    pub const MEASURE_TABLE: &str = lab_sql!("vacuum/measure_table.sql");
    pub const MEASURE_INDEXES: &str = lab_sql!("vacuum/measure_indexes.sql");
    pub use pgcheck::vacuum::{EXPLAIN_ARTICLE, PLAN_SUMMARY};
}

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn json_list(xs: &[f64]) -> String {
    let v: Vec<String> = xs.iter().map(|x| format!("{x:.3}")).collect();
    format!("[{}]", v.join(","))
}

/// One fresh connection with the lab's clock installed (as the app does at start-up).
fn lab_session(url: &str) -> Res<Client> {
    let mut client = pgcheck::connect(url)?;
    client.batch_execute(CLOCK_INSTALL)?;
    Ok(client)
}

// ---------------------------------------------------------------------------------------
// L1: what one button of the job-queue lab runs (src/labs/jobs/model.rs), followed by the
// table refresh every action ends with (`snapshot`).

struct L1 {
    enqueue: Statement,
    notify: Statement,
    reap: Statement,
    claim: Statement,
    complete: Statement,
    fail: Statement,
    now: Statement,
    snapshot: Statement,
}

impl L1 {
    fn prepare(c: &mut Client) -> Res<L1> {
        Ok(L1 {
            // Typed as the app sends them: the payload is text cast by the statement.
            enqueue: c.prepare_typed(
                jobs::ENQUEUE,
                &[Type::TEXT, Type::TEXT, Type::INT4, Type::FLOAT8, Type::INT4],
            )?,
            notify: c.prepare_typed(jobs::NOTIFY, &[Type::TEXT])?,
            reap: c.prepare(jobs::REAP)?,
            claim: c.prepare(jobs::CLAIM)?,
            complete: c.prepare_typed(jobs::COMPLETE, &[Type::INT8, Type::INT4])?,
            fail: c.prepare_typed(jobs::FAIL, &[Type::INT8, Type::INT4, Type::TEXT])?,
            now: c.prepare(CLOCK_NOW)?,
            snapshot: c.prepare_typed(jobs::SNAPSHOT, &[Type::INT8, Type::TEXT])?,
        })
    }

    fn snapshot(&self, c: &mut Client) -> Res<()> {
        // The app's read: the newest 50 jobs. The app also passes the ids of held or just-changed
        // jobs; here none, one or two index lookups fewer.
        c.query(&self.snapshot, &[&50i64, &"{}"])?;
        Ok(())
    }

    fn enqueue(&self, c: &mut Client) -> Res<()> {
        let mut tx = c.transaction()?;
        let row = tx.query_one(
            &self.enqueue,
            &[
                &"default",
                &r#"{"to": "kim@example.com"}"#,
                &0i32,
                &0f64,
                &5i32,
            ],
        )?;
        let id: i64 = row.get("id");
        tx.query(&self.notify, &[&id.to_string()])?;
        tx.commit()?;
        // The clock read that stamps the notification (it has arrived with the COMMIT).
        c.query(&self.now, &[])?;
        Ok(())
    }

    /// `action`, then the table refresh it ends with, as one button does: their time goes
    /// into `times`.
    fn timed<T>(
        &self,
        c: &mut Client,
        times: &mut Vec<f64>,
        action: impl FnOnce(&mut Client) -> Res<T>,
    ) -> Res<T> {
        let t = Instant::now();
        let out = action(c)?;
        self.snapshot(c)?;
        times.push(ms_since(t));
        Ok(out)
    }

    /// Returns (id, attempts) of the claimed job.
    fn claim(&self, c: &mut Client) -> Res<(i64, i32)> {
        c.execute(&self.reap, &[])?;
        let row = c.query_one(&self.claim, &[])?;
        Ok((row.get("id"), row.get("attempts")))
    }
}

fn l1_run(url: &str, cycles: usize) -> Res<[Vec<f64>; 4]> {
    let mut c = lab_session(url)?;
    // As in the app, `jobs` and `orders` land in the first schema of the search path (lab).
    c.batch_execute(jobs::RESET)?;
    c.batch_execute(jobs::SCHEMA)?;
    // The same 1,000 jobs the browser bench types into the SQL console.
    c.batch_execute("insert into jobs (payload) select jsonb_build_object('n', g) from generate_series(1, 1000) g")?;
    let l1 = L1::prepare(&mut c)?;
    let (mut enq, mut claim, mut complete, mut fail) = (vec![], vec![], vec![], vec![]);
    for _ in 0..cycles {
        l1.timed(&mut c, &mut enq, |c| l1.enqueue(c))?;
        let (id, attempts) = l1.timed(&mut c, &mut claim, |c| l1.claim(c))?;
        l1.timed(&mut c, &mut complete, |c| {
            Ok(c.execute(&l1.complete, &[&id, &attempts])?)
        })?;
        let (id, attempts) = l1.timed(&mut c, &mut claim, |c| l1.claim(c))?;
        l1.timed(&mut c, &mut fail, |c| {
            let error = format!("smtp timeout (worker A, attempt {attempts})");
            Ok(c.query(&l1.fail, &[&id, &attempts, &error])?)
        })?;
    }
    c.batch_execute(jobs::RESET)?;
    Ok([enq, claim, complete, fail])
}

// ---------------------------------------------------------------------------------------
// L3: the full default run of the bloat lab (src/labs/vacuum/model.rs `run`): per round,
// per strategy, a round (enqueue, claim a batch, complete it, until empty), the measures,
// and DELETE + VACUUM's VACUUM / rotation's TRUNCATE / the partition's DETACH + DROP, each
// measured again.

struct L3 {
    use_strategy: Statement,
    reset_search_path: Statement,
    flush: Statement,
    measure_table: Statement,
    measure_indexes: Statement,
    plan_summary: Statement,
}

impl L3 {
    fn prepare(c: &mut Client) -> Res<L3> {
        Ok(L3 {
            use_strategy: c.prepare_typed(vacuum::USE_STRATEGY, &[Type::TEXT])?,
            reset_search_path: c.prepare(vacuum::RESET_SEARCH_PATH)?,
            flush: c.prepare(vacuum::FLUSH_STATS)?,
            measure_table: c.prepare_typed(vacuum::MEASURE_TABLE, &[Type::TEXT])?,
            measure_indexes: c.prepare_typed(vacuum::MEASURE_INDEXES, &[Type::TEXT])?,
            plan_summary: c.prepare_typed(vacuum::PLAN_SUMMARY, &[Type::TEXT])?,
        })
    }

    fn with_schema<T>(
        &self,
        c: &mut Client,
        s: Strategy,
        body: impl FnOnce(&mut Client) -> Res<T>,
    ) -> Res<T> {
        c.query(&self.use_strategy, &[&s.schema()])?;
        let out = body(c);
        c.query(&self.reset_search_path, &[])?;
        out
    }

    fn round(&self, c: &mut Client, s: Strategy, round: i32, jobs: i32, batch: i64) -> Res<f64> {
        let t = Instant::now();
        if s == Strategy::Partition {
            open_partition(c, round)?;
        }
        // The statements name `jobs` unqualified; with_schema points it at the strategy's.
        // Prepared statements bind their tables at parse time, so the round's statements are
        // parsed again under the strategy's search path, as the app's are.
        self.with_schema(c, s, |c| {
            let claim = c.prepare_typed(vacuum::CLAIM_BATCH, &[Type::INT8])?;
            let complete_sql = if s.deletes_on_complete() {
                vacuum::COMPLETE_DELETE
            } else {
                vacuum::COMPLETE_DONE
            };
            // The app sends the ids as an array literal in a parameter whose type PGlite
            // leaves to the server, which takes it from the statement's cast: bigint[].
            // Prepared as TEXT instead, the cast would run on the server for each row the
            // plan filters: on the partitioned table (no index path chosen) 2,000 ids
            // parsed again for each of 20,000 rows, seconds a batch.
            let complete = c.prepare_typed(complete_sql, &[Type::INT8_ARRAY])?;
            if s == Strategy::Partition {
                let enqueue =
                    c.prepare_typed(vacuum::ENQUEUE_PARTITION, &[Type::INT4, Type::INT4])?;
                c.execute(&enqueue, &[&jobs, &round])?;
            } else {
                let enqueue = c.prepare_typed(vacuum::ENQUEUE, &[Type::INT4])?;
                c.execute(&enqueue, &[&jobs])?;
            }
            loop {
                let rows = c.query(&claim, &[&batch])?;
                if rows.is_empty() {
                    break;
                }
                let ids: Vec<i64> = rows.iter().map(|r| r.get::<_, i64>("id")).collect();
                c.execute(&complete, &[&ids])?;
            }
            Ok(())
        })?;
        Ok(ms_since(t))
    }

    fn measure(&self, c: &mut Client, s: Strategy) -> Res<()> {
        let plan = self.with_schema(c, s, |c| {
            let mut tx = c.transaction()?;
            let mut plan = String::new();
            for m in tx.simple_query(vacuum::EXPLAIN_ARTICLE)? {
                if let postgres::SimpleQueryMessage::Row(r) = m {
                    plan = r.get(0).unwrap_or_default().to_owned();
                }
            }
            tx.rollback()?;
            Ok(plan)
        })?;
        c.query(&self.plan_summary, &[&plan])?;
        c.query(&self.flush, &[])?;
        c.query(&self.measure_table, &[&s.table()])?;
        c.query(&self.measure_indexes, &[&s.table()])?;
        Ok(())
    }
}

/// The partition of `round` (partition_open.sql), autovacuum off on it when it is new, as on
/// the other tables (PGlite runs no autovacuum).
fn open_partition(c: &mut Client, round: i32) -> Res<()> {
    let ran: Option<String> = c
        .query_one(vacuum::PARTITION_OPEN, &[&round])?
        .get("statement");
    if ran.is_some() {
        c.batch_execute(&format!(
            "alter table vac_partition.jobs_r{round} set (autovacuum_enabled = off)"
        ))?;
    }
    Ok(())
}

struct L3Run {
    total_ms: f64,
    round_ms: Vec<(Strategy, f64)>,
}

fn l3_run(url: &str, jobs: i32, rounds: u32, batch: i64) -> Res<L3Run> {
    let mut c = lab_session(url)?;
    // The page map's extensions: optional in the lab too (only the page map needs them).
    let _ = c.batch_execute(vacuum::SETUP_EXTENSIONS);
    c.batch_execute(vacuum::TEARDOWN)?;
    c.batch_execute(vacuum::SETUP_TABLES)?;
    c.batch_execute(vacuum::SETUP_HELPERS)?;
    // A partitioned table takes no such setting (its partitions live one round each).
    for s in Strategy::ALL
        .into_iter()
        .filter(|s| *s != Strategy::Partition)
    {
        c.batch_execute(&format!(
            "alter table {}.jobs set (autovacuum_enabled = off)",
            s.schema()
        ))?;
    }
    let l3 = L3::prepare(&mut c)?;
    let started = Instant::now();
    let mut round_ms = Vec::new();
    for round in 1..=rounds as i32 {
        for s in Strategy::ALL {
            round_ms.push((s, l3.round(&mut c, s, round, jobs, batch)?));
            l3.measure(&mut c, s)?;
            match s {
                Strategy::DeleteVacuum => {
                    l3.with_schema(&mut c, s, |c| {
                        c.batch_execute(vacuum::FLUSH_STATS)?;
                        c.batch_execute(vacuum::VACUUM)?;
                        Ok(())
                    })?;
                    l3.measure(&mut c, s)?;
                }
                Strategy::Rotate => {
                    l3.with_schema(&mut c, s, |c| Ok(c.batch_execute(vacuum::ROTATE_TRUNCATE)?))?;
                    l3.measure(&mut c, s)?;
                }
                Strategy::Partition => {
                    open_partition(&mut c, round + 1)?;
                    c.query(vacuum::PARTITION_DROP, &[&round])?;
                    l3.measure(&mut c, s)?;
                }
                Strategy::Keep | Strategy::Delete => {}
            }
        }
    }
    let total_ms = ms_since(started);
    c.batch_execute(vacuum::TEARDOWN)?;
    Ok(L3Run { total_ms, round_ms })
}

fn main() {
    let mut url = None;
    let mut runs = 5usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--database-url" => url = args.next(),
            "--runs" => runs = args.next().and_then(|r| r.parse().ok()).unwrap_or(5).max(1),
            _ => {
                eprintln!("usage: bench-native --database-url URL [--runs N]");
                std::process::exit(2);
            }
        }
    }
    let Some(url) = url else {
        eprintln!("usage: bench-native --database-url URL [--runs N]");
        std::process::exit(2);
    };
    if let Err(e) = run(&url, runs) {
        eprintln!("bench-native: {e}");
        std::process::exit(1);
    }
}

fn run(url: &str, runs: usize) -> Res<()> {
    let version: String = lab_session(url)?
        .query_one("select current_setting('server_version')", &[])?
        .get(0);
    let names = ["enqueue", "claim", "complete", "fail"];
    let mut l1: Vec<String> = Vec::new();
    for _ in 0..runs {
        let times = l1_run(url, 10)?;
        let parts: Vec<String> = names
            .iter()
            .zip(times.iter())
            .map(|(n, t)| format!("\"{n}\":{}", json_list(t)))
            .collect();
        l1.push(format!("{{{}}}", parts.join(",")));
    }
    let mut l3: Vec<String> = Vec::new();
    for _ in 0..runs {
        let r = l3_run(url, 20_000, 3, 2_000)?;
        let parts: Vec<String> = Strategy::ALL
            .iter()
            .map(|s| {
                let t: Vec<f64> = r
                    .round_ms
                    .iter()
                    .filter(|(x, _)| x == s)
                    .map(|(_, t)| *t)
                    .collect();
                format!("\"{}\":{}", s.id(), json_list(&t))
            })
            .collect();
        l3.push(format!(
            "{{\"total_ms\":{:.3},\"round_ms\":{{{}}}}}",
            r.total_ms,
            parts.join(",")
        ));
    }
    println!(
        "{{\"server_version\":{version:?},\"l1_cycles\":10,\"l1\":[{}],\"l3\":{{\"jobs\":20000,\"rounds\":3,\"batch\":2000,\"runs\":[{}]}}}}",
        l1.join(","),
        l3.join(",")
    );
    Ok(())
}
