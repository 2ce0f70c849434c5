//! The reality check for Queue Lab's L2 simulator: the same four claim strategies, run by real
//! threads on real connections against a PostgreSQL server, summarised in the simulator's
//! own results table.
//!
//! For: the `pgcheck` command (point it at your own server) and the native tests that hold
//! the simulator to what PostgreSQL really does. Not for: benchmarking PostgreSQL — sleeps
//! stand in for job work and the numbers depend on the machine — nor for touching any table
//! but its own (`queue_lab_pgcheck_jobs`, dropped at the end).
//!
//! The SQL labs' subcommands live in [`jobs`] (L1), [`vacuum`] (L3) and [`pgq`] (L4) (with
//! [`against_pgq`], L4's engine beside PgQ's C extension, and [`contract`], L4's engine held
//! to real PgQue by the contract suite), over
//! [`target`] (the lab's SQL files, its clock, and the schemas a run reserves and drops).
//!
//! How a run measures what the simulator reports:
//! - executions, distinct jobs, jobs run more than once: every worker records the ids it ran.
//! - transactions: each worker notes when it sent its first statement of a transaction
//!   (BEGIN, or an autocommit statement) and when the reply of the last one (COMMIT) came
//!   back — the same client-side view the simulator takes.
//! - per-key inversions: the jobs carry the simulator's keys ([`queue_sim::job_keys`]), each
//!   `done` write stamps `done_at = clock_timestamp()` on the server, and after the run one
//!   query counts, per key, adjacent completions in `done_at` order whose ids descend — the
//!   simulator's definition, measured by the server's clock rather than the threads'.
//! - lock wait: a monitor connection samples `pg_stat_activity` every millisecond and adds up
//!   sampled workers whose `wait_event_type` is `Lock` (an estimate, ±1 ms per wait).

/// One constant per key of the app's catalogs, written by `build.rs`: pgcheck prints the
/// labs' tables with the labs' own column names. Every key pgcheck names, the app shows too,
/// and the app's `keys` module is where an unused key is dead code; here a misspelt key does
/// not compile, and the rest are allowed to be unused.
#[allow(dead_code)]
mod keys {
    include!(concat!(env!("OUT_DIR"), "/keys.rs"));
}

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use postgres::{Client, NoTls};
use queue_sim::{job_keys, Durations, Params, Strategy, Summary, TxStats};

pub mod against_pgq;
pub mod contract;
pub mod jobs;
pub mod pgq;
pub mod target;
pub mod vacuum;

/// The table every run creates, fills and finally drops.
pub const TABLE: &str = "queue_lab_pgcheck_jobs";
const APP_NAME: &str = "queue-lab-pgcheck";

/// One experiment's inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub database_url: String,
    /// Concurrent workers, each its own connection and thread.
    pub workers: u32,
    /// Ready jobs in the table at the start.
    pub jobs: u32,
    /// Stop claiming after this many executions (all workers together).
    pub executions: u32,
    /// Work per job (a sleep), in µs.
    pub job_us: u64,
    /// Naive only: pause between the SELECT's reply and the UPDATE, in µs.
    pub gap_us: u64,
    /// Distinct job keys; each job's key is the simulator's ([`queue_sim::job_keys`] with
    /// [`SEED`]).
    pub keys: u32,
}

/// The seed of the keys (and of the simulator at matching inputs).
pub const SEED: u64 = 1;

/// Per-key: how long a worker that found no claimable job waits before claiming again, µs.
pub const POLL_US: u64 = 1_000;

impl Default for Config {
    fn default() -> Self {
        Config {
            database_url: String::new(),
            workers: 4,
            jobs: 20_000,
            executions: 4_000,
            job_us: 1_000,
            gap_us: 100,
            keys: 8,
        }
    }
}

/// What went wrong, with what was being done at the time.
#[derive(Debug)]
pub struct CheckError(pub String);

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CheckError {}

/// Wraps an error with what was being done, keeping its causes (a `postgres::Error` alone
/// says only "db error"; the server's message is its source).
pub(crate) fn context<T, E: std::error::Error>(
    r: Result<T, E>,
    doing: &str,
) -> Result<T, CheckError> {
    r.map_err(|e| {
        let mut message = format!("{doing}: {e}");
        let mut cause = e.source();
        while let Some(c) = cause {
            message.push_str(&format!(": {c}"));
            cause = c.source();
        }
        CheckError(message)
    })
}

/// Opens one connection, tagged so the monitor can find the workers in `pg_stat_activity`.
pub fn connect(url: &str) -> Result<Client, CheckError> {
    let mut config = context(postgres::Config::from_str(url), "reading --database-url")?;
    config.application_name(APP_NAME);
    config.connect_timeout(Duration::from_secs(10));
    context(
        config.connect(NoTls),
        &format!("connecting to {}", redact(url)),
    )
}

/// The URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.find(':') {
                Some(colon) => format!(
                    "{}{}:***{}",
                    &url[..scheme + 3],
                    &userinfo[..colon],
                    &url[at..]
                ),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// Drops and recreates the job table with `jobs` ready rows, a partial index on the ready
/// ones (the shape of the article's `jobs_ready` index, keyed on id because every claim here
/// takes the lowest id), and each job's key (`keys` of them, the simulator's draw). The
/// per-key claim's index is made by [`run_strategy`] for that claim only, so the other
/// strategies' updates maintain the same indexes as before keys existed.
pub fn reset_table(client: &mut Client, jobs: u32, keys: u32) -> Result<(), CheckError> {
    let sql = format!(
        "drop table if exists {TABLE};
         create table {TABLE} (
           id           bigint primary key,
           status       text not null default 'ready',
           attempts     int  not null default 0,
           locked_until timestamptz,
           key          int  not null,
           done_at      timestamptz
         );"
    );
    context(
        client.batch_execute(&sql),
        &format!("creating table {TABLE}"),
    )?;
    let drawn: Vec<i32> = job_keys(&Params {
        jobs,
        keys,
        seed: SEED,
        ..Params::default()
    })
    .into_iter()
    .map(|k| k as i32)
    .collect();
    context(
        client.execute(
            &format!(
                "insert into {TABLE} (id, key) \
                 select g, k from unnest($1::int[]) with ordinality as u(k, g)"
            ),
            &[&drawn],
        ),
        &format!("filling table {TABLE}"),
    )?;
    context(
        client.batch_execute(&format!(
            "create index {TABLE}_ready on {TABLE} (id) where status = 'ready';"
        )),
        &format!("indexing table {TABLE}"),
    )?;
    // VACUUM cannot run inside the implicit transaction of a multi-statement batch.
    context(
        client.batch_execute(&format!("vacuum analyze {TABLE}")),
        &format!("vacuuming table {TABLE}"),
    )
}

/// Drops the job table.
pub fn drop_table(client: &mut Client) -> Result<(), CheckError> {
    context(
        client.batch_execute(&format!("drop table if exists {TABLE}")),
        &format!("dropping table {TABLE}"),
    )
}

/// Median round trip, in µs, of the naive claim's SELECT on a fresh table: the latency the
/// simulator is given when it runs at matching inputs.
pub fn measure_round_trip(url: &str, jobs: u32) -> Result<u64, CheckError> {
    let mut client = connect(url)?;
    reset_table(&mut client, jobs, 1)?;
    let sql = format!("select id from {TABLE} where status = 'ready' order by id limit 1");
    let stmt = context(client.prepare(&sql), "preparing the round-trip probe")?;
    let mut samples = Vec::with_capacity(200);
    for _ in 0..200 {
        let t = Instant::now();
        context(client.query_opt(&stmt, &[]), "probing the round trip")?;
        samples.push(t.elapsed().as_micros() as u64);
    }
    samples.sort_unstable();
    Ok(samples[samples.len() / 2])
}

/// What one worker thread saw.
#[derive(Default)]
struct WorkerLog {
    /// Job ids in the order this worker ran them.
    ran: Vec<i64>,
    /// `(completed at µs, job id)`.
    completed: Vec<(u64, i64)>,
    /// Transactions, `(start µs, end µs)` from the common origin.
    tx: Vec<(u64, u64)>,
    /// Time spent in job work, µs.
    work_us: u64,
    /// When this worker stopped, µs from the origin.
    stopped_us: u64,
}

/// A finished real run.
#[derive(Debug, Clone)]
pub struct RealRun {
    pub summary: Summary,
    /// Adjacent pairs of completions with descending ids.
    pub inversions: u64,
    /// Per key, adjacent completions (by the server's `done_at`) with descending ids, summed.
    pub key_inversions: u64,
    /// Mean measured work per execution (the sleep as it really took), µs.
    pub mean_work_us: u64,
}

struct Shared {
    origin: Instant,
    claims: AtomicU32,
}

impl Shared {
    fn now_us(&self) -> u64 {
        self.origin.elapsed().as_micros() as u64
    }
}

/// Runs one strategy with `cfg.workers` real connections on a freshly filled table.
pub fn run_strategy(cfg: &Config, strategy: Strategy) -> Result<RealRun, CheckError> {
    let mut admin = connect(&cfg.database_url)?;
    reset_table(&mut admin, cfg.jobs, cfg.keys)?;
    if strategy == Strategy::PerKey {
        // The look-back for an earlier unfinished job of the same key: one index probe.
        context(
            admin.batch_execute(&format!(
                "create index {TABLE}_unfinished on {TABLE} (key, id) where status <> 'done';
                 analyze {TABLE}"
            )),
            "indexing the unfinished jobs by key",
        )?;
    }

    let mut clients = Vec::with_capacity(cfg.workers as usize);
    for _ in 0..cfg.workers {
        clients.push(connect(&cfg.database_url)?);
    }
    let monitor_client = connect(&cfg.database_url)?;

    let barrier = Arc::new(Barrier::new(cfg.workers as usize + 2));
    let stop_monitor = Arc::new(AtomicBool::new(false));
    // The origin is fixed before anyone starts; the barrier releases everyone together.
    let shared = Arc::new(Shared {
        origin: Instant::now(),
        claims: AtomicU32::new(0),
    });

    let monitor = {
        let barrier = Arc::clone(&barrier);
        let stop = Arc::clone(&stop_monitor);
        thread::spawn(move || sample_lock_waits(monitor_client, &barrier, &stop))
    };

    let mut handles = Vec::with_capacity(clients.len());
    for (me, client) in clients.into_iter().enumerate() {
        let barrier = Arc::clone(&barrier);
        let shared = Arc::clone(&shared);
        let cfg = cfg.clone();
        handles.push(thread::spawn(move || {
            barrier.wait();
            work_loop(client, &cfg, strategy, me as i32, &shared)
        }));
    }
    barrier.wait();
    let start_us = shared.now_us();

    let mut logs = Vec::with_capacity(handles.len());
    let mut failure = None;
    for h in handles {
        match h.join() {
            Ok(Ok(log)) => logs.push(log),
            Ok(Err(e)) => failure = failure.or(Some(e)),
            Err(_) => failure = failure.or(Some(CheckError("a worker thread panicked".into()))),
        }
    }
    stop_monitor.store(true, Ordering::Relaxed);
    let lock_wait_us = match monitor.join() {
        Ok(r) => r?,
        Err(_) => return Err(CheckError("the lock-wait monitor panicked".into())),
    };
    if let Some(e) = failure {
        return Err(e);
    }
    let key_inversions = count_key_inversions(&mut admin)?;
    drop_table(&mut admin)?;
    let mut run = summarise(cfg, strategy, logs, start_us, lock_wait_us);
    run.key_inversions = key_inversions;
    Ok(run)
}

/// Per key, adjacent completions in `done_at` order whose ids descend, summed over keys.
pub fn count_key_inversions(client: &mut Client) -> Result<u64, CheckError> {
    let sql = format!(
        "select count(*) from (
           select id, lag(id) over (partition by key order by done_at, id) as before
             from {TABLE} where done_at is not null
         ) c where id < before"
    );
    let row = context(client.query_one(&sql, &[]), "counting per-key inversions")?;
    Ok(row.get::<_, i64>(0).max(0) as u64)
}

fn summarise(
    cfg: &Config,
    strategy: Strategy,
    logs: Vec<WorkerLog>,
    start_us: u64,
    lock_wait_us: u64,
) -> RealRun {
    let mut runs: HashMap<i64, u32> = HashMap::new();
    let mut spans = Vec::new();
    let mut completed = Vec::new();
    let mut end_us = start_us;
    let mut work_us = 0;
    for log in &logs {
        for &id in &log.ran {
            *runs.entry(id).or_insert(0) += 1;
        }
        spans.extend(
            log.tx
                .iter()
                .map(|&(s, e)| (s.saturating_sub(start_us), e.saturating_sub(start_us))),
        );
        completed.extend_from_slice(&log.completed);
        end_us = end_us.max(log.stopped_us);
        work_us += log.work_us;
    }
    let elapsed_us = end_us - start_us;
    let executions: u64 = runs.values().map(|&n| u64::from(n)).sum();
    let distinct = runs.len() as u64;
    let duplicates = runs.values().filter(|&&n| n > 1).count() as u64;
    let tx = TxStats::from_spans(&spans, elapsed_us);
    completed.sort_unstable();
    let inversions = completed.windows(2).filter(|p| p[1].1 < p[0].1).count() as u64;
    let secs = elapsed_us as f64 / 1e6;
    RealRun {
        summary: Summary {
            label: format!("{strategy} (pg)"),
            strategy,
            workers: cfg.workers,
            executions,
            distinct_jobs: distinct,
            jobs_run_more_than_once: duplicates,
            lock_wait_us,
            elapsed_us,
            jobs_per_s: if secs > 0.0 {
                distinct as f64 / secs
            } else {
                0.0
            },
            max_in_tx: tx.max_in_tx,
            mean_in_tx: tx.mean_in_tx,
            longest_tx_us: tx.longest_tx_us,
        },
        inversions,
        key_inversions: 0,
        mean_work_us: work_us.checked_div(executions).unwrap_or(0),
    }
}

/// Adds up, every millisecond, how many of our workers wait on a lock.
fn sample_lock_waits(
    mut client: Client,
    barrier: &Barrier,
    stop: &AtomicBool,
) -> Result<u64, CheckError> {
    let sql = "select count(*) from pg_stat_activity \
               where application_name = $1 and wait_event_type = 'Lock'";
    let stmt = client.prepare(sql);
    barrier.wait();
    let stmt = context(stmt, "preparing the lock-wait sampler")?;
    let mut total_us = 0u64;
    let mut last = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        // Each sample's count stands for the time since the previous sample.
        let row = context(
            client.query_one(&stmt, &[&APP_NAME]),
            "sampling pg_stat_activity",
        )?;
        let waiting: i64 = row.get(0);
        let now = Instant::now();
        total_us += waiting.max(0) as u64 * now.duration_since(last).as_micros() as u64;
        last = now;
        thread::sleep(Duration::from_millis(1));
    }
    Ok(total_us)
}

/// One worker: claim, work, complete, until the execution budget is spent or no job is left.
fn work_loop(
    mut client: Client,
    cfg: &Config,
    strategy: Strategy,
    me: i32,
    shared: &Shared,
) -> Result<WorkerLog, CheckError> {
    let q = Queries::prepare(&mut client, strategy)?;
    // Split queues: this worker's group among all of them.
    let group = [cfg.workers as i32, me];
    let mut log = WorkerLog::default();
    let work = Duration::from_micros(cfg.job_us);
    let gap = Duration::from_micros(cfg.gap_us);
    loop {
        if shared.claims.fetch_add(1, Ordering::SeqCst) >= cfg.executions {
            break;
        }
        let Some(id) = claim(&mut client, &q, strategy, gap, group, shared, &mut log)? else {
            break;
        };
        log.ran.push(id);
        let t = Instant::now();
        thread::sleep(work);
        log.work_us += t.elapsed().as_micros() as u64;
        complete(&mut client, &q, strategy, id, shared, &mut log)?;
    }
    log.stopped_us = shared.now_us();
    Ok(log)
}

/// The statements of one strategy, prepared once per connection.
struct Queries {
    claim: postgres::Statement,
    mark_running: Option<postgres::Statement>,
    mark_done: postgres::Statement,
    any_ready: postgres::Statement,
}

impl Queries {
    fn prepare(client: &mut Client, strategy: Strategy) -> Result<Self, CheckError> {
        let head = format!("select id from {TABLE} where status = 'ready' order by id limit 1");
        let lease = |pick: &str| {
            format!(
                "update {TABLE} set status = 'running', attempts = attempts + 1, \
                        locked_until = now() + interval '30 seconds' \
                  where id = ({pick}) \
                 returning id"
            )
        };
        let claim = match strategy {
            Strategy::Naive => head,
            Strategy::ForUpdate => format!("{head} for update"),
            Strategy::SkipLockedTx => format!("{head} for update skip locked"),
            Strategy::SkipLockedLease => lease(&format!("{head} for update skip locked")),
            // Each worker claims from its own key group only ($1 workers, $2 this one).
            Strategy::SplitQueues => lease(&format!(
                "select id from {TABLE} where status = 'ready' and key % $1 = $2 \
                  order by id limit 1 for update skip locked"
            )),
            // Only a job whose earlier jobs of the same key are all done. A snapshot older
            // than a concurrent claim can only see fewer jobs done (status only moves
            // forward), so it can only hold back more, never let a second job of a key in.
            Strategy::PerKey => lease(&format!(
                "select j.id from {TABLE} j where j.status = 'ready' \
                    and not exists (select 1 from {TABLE} e \
                                     where e.key = j.key and e.id < j.id and e.status <> 'done') \
                  order by j.id limit 1 for update skip locked"
            )),
        };
        let mark_running = (strategy == Strategy::Naive).then(|| {
            format!("update {TABLE} set status = 'running', attempts = attempts + 1 where id = $1")
        });
        let mark_done = if strategy.holds_transaction_during_job() {
            format!(
                "update {TABLE} set status = 'done', attempts = attempts + 1, \
                        done_at = clock_timestamp() where id = $1"
            )
        } else {
            format!(
                "update {TABLE} set status = 'done', locked_until = null, \
                        done_at = clock_timestamp() where id = $1"
            )
        };
        let any_ready = format!("select exists (select 1 from {TABLE} where status = 'ready')");
        let prep = |client: &mut Client, sql: &str| {
            context(client.prepare(sql), &format!("preparing `{sql}`"))
        };
        Ok(Queries {
            claim: prep(client, &claim)?,
            mark_running: match mark_running {
                Some(sql) => Some(prep(client, &sql)?),
                None => None,
            },
            mark_done: prep(client, &mark_done)?,
            any_ready: prep(client, &any_ready)?,
        })
    }
}

/// Runs `sql` as one autocommit statement and records it as a transaction.
fn timed<T>(
    shared: &Shared,
    log: &mut WorkerLog,
    what: &str,
    f: impl FnOnce() -> Result<T, postgres::Error>,
) -> Result<T, CheckError> {
    let start = shared.now_us();
    let r = context(f(), what)?;
    log.tx.push((start, shared.now_us()));
    Ok(r)
}

fn claim(
    client: &mut Client,
    q: &Queries,
    strategy: Strategy,
    gap: Duration,
    group: [i32; 2],
    shared: &Shared,
    log: &mut WorkerLog,
) -> Result<Option<i64>, CheckError> {
    loop {
        let id = match strategy {
            Strategy::Naive => {
                let row = timed(shared, log, "naive SELECT", || {
                    client.query_opt(&q.claim, &[])
                })?;
                match row {
                    Some(row) => {
                        let id: i64 = row.get(0);
                        thread::sleep(gap);
                        if let Some(mark) = &q.mark_running {
                            timed(shared, log, "naive UPDATE", || client.execute(mark, &[&id]))?;
                        }
                        Some(id)
                    }
                    None => None,
                }
            }
            Strategy::SkipLockedLease | Strategy::PerKey => {
                let row = timed(shared, log, "lease claim", || {
                    client.query_opt(&q.claim, &[])
                })?;
                row.map(|r| r.get::<_, i64>(0))
            }
            Strategy::SplitQueues => {
                let row = timed(shared, log, "split-queue claim", || {
                    client.query_opt(&q.claim, &[&group[0], &group[1]])
                })?;
                // Its own group is empty: other groups' jobs are not this worker's.
                return Ok(row.map(|r| r.get::<_, i64>(0)));
            }
            Strategy::ForUpdate | Strategy::SkipLockedTx => {
                // The transaction stays open through the job; `complete` commits it.
                log.tx.push((shared.now_us(), u64::MAX));
                context(client.batch_execute("begin"), "BEGIN")?;
                let row = context(client.query_opt(&q.claim, &[]), "claim SELECT")?;
                match row {
                    Some(row) => Some(row.get::<_, i64>(0)),
                    None => {
                        context(client.batch_execute("commit"), "COMMIT")?;
                        close_tx(shared, log);
                        None
                    }
                }
            }
        };
        if id.is_some() {
            return Ok(id);
        }
        // FOR UPDATE under READ COMMITTED can come back empty when the row it waited for
        // no longer matched; only stop when the table really has no ready job.
        let row = context(
            client.query_one(&q.any_ready, &[]),
            "checking for ready jobs",
        )?;
        if !row.get::<_, bool>(0) {
            return Ok(None);
        }
        if strategy == Strategy::PerKey {
            // Every ready job waits behind an earlier job of its key: poll again shortly.
            thread::sleep(Duration::from_micros(POLL_US));
        }
    }
}

fn close_tx(shared: &Shared, log: &mut WorkerLog) {
    let now = shared.now_us();
    if let Some(last) = log.tx.last_mut() {
        if last.1 == u64::MAX {
            last.1 = now;
        }
    }
}

fn complete(
    client: &mut Client,
    q: &Queries,
    strategy: Strategy,
    id: i64,
    shared: &Shared,
    log: &mut WorkerLog,
) -> Result<(), CheckError> {
    if strategy.holds_transaction_during_job() {
        context(client.execute(&q.mark_done, &[&id]), "marking the job done")?;
        context(client.batch_execute("commit"), "COMMIT")?;
        close_tx(shared, log);
    } else {
        timed(shared, log, "marking the job done", || {
            client.execute(&q.mark_done, &[&id])
        })?;
    }
    log.completed.push((shared.now_us(), id));
    Ok(())
}

/// The simulator's inputs matching a real run: same workers, jobs and execution budget, the
/// measured round trip as latency, the measured work per job as a fixed duration.
pub fn matching_params(cfg: &Config, strategy: Strategy, rtt_us: u64, work_us: u64) -> Params {
    Params {
        strategy,
        workers: cfg.workers,
        jobs: cfg.jobs,
        durations: Durations::Fixed { us: work_us },
        latency_us: rtt_us,
        gap_us: cfg.gap_us,
        max_executions: Some(cfg.executions),
        seed: SEED,
        keys: cfg.keys,
        timeline_limit: 0,
    }
}
