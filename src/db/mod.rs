//! The only Rust that talks to PGlite.
//!
//! What it is for: open a database (PostgreSQL 18 in a Web Worker, see `pglite-bridge/`),
//! run statements with bound parameters into typed rows, run transactions, listen for
//! NOTIFY, and record every statement with its rows and time for the SQL log.
//! What it is not for: building SQL. Values reach Postgres as parameters (`Param`), never
//! spliced into statement text; the statements themselves live in `src/sql/`.

mod bridge;
mod error;
mod log;
mod tx;

pub use bridge::{read_file, save_file, sha256_hex, Boot, Location, Manifest, Progress};
pub use error::DbError;
pub use log::{collect as collect_log, now_ms, LogEntries, LogEntry, LogHold, ScriptStep, SqlLog};
pub use tx::{Conn, Tx};

use serde::de::DeserializeOwned;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// `pub const NAME: &str`: the text of `src/sql/<path>`, exactly as the lab runs it and its
/// SQL log shows it. Doc comments written inside the call document the constant.
macro_rules! sql_file {
    ($(#[$doc:meta])* $name:ident, $path:literal) => {
        $(#[$doc])*
        pub const $name: &str =
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/sql/", $path));
    };
    // EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of the statement in `$path`: `vacuum/explain.sql`
    // (its one line and what it returns), then that file, as one statement.
    ($(#[$doc:meta])* $name:ident, explain $path:literal) => {
        $(#[$doc])*
        pub const $name: &str = concat!(
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/sql/vacuum/explain.sql")),
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/sql/", $path))
        );
    };
    // A reading of an EXPLAIN's plan tree: `vacuum/plan_walk.sql` (the walk over its nodes,
    // which `$path` reads) then that file, as one statement.
    ($(#[$doc:meta])* $name:ident, plan $path:literal) => {
        $(#[$doc])*
        pub const $name: &str = concat!(
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/sql/vacuum/plan_walk.sql")),
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/sql/", $path))
        );
    };
}
pub(crate) use sql_file;

/// A value bound to `$n` in a statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
    /// Sent as JSON text; the statement casts it (`$1::jsonb`) or the column type does.
    Json(serde_json::Value),
}

impl Param {
    /// A bigint[] parameter (`$n::bigint[]` in the statement), sent as the array's text form:
    /// `Param::ids(&[1, 2])` binds `'{1,2}'`.
    pub fn ids(ids: &[i64]) -> Param {
        let inner: Vec<String> = ids.iter().map(i64::to_string).collect();
        Param::Text(format!("{{{}}}", inner.join(",")))
    }

    fn to_js(&self) -> JsValue {
        match self {
            Param::Null => JsValue::NULL,
            Param::Bool(b) => JsValue::from_bool(*b),
            // Postgres parses the text form of a bigint exactly; a JS number would not.
            Param::Int(i) if i.unsigned_abs() > (1u64 << 53) => JsValue::from_str(&i.to_string()),
            Param::Int(i) => JsValue::from_f64(*i as f64),
            Param::Float(f) => JsValue::from_f64(*f),
            Param::Text(s) => JsValue::from_str(s),
            Param::Json(v) => JsValue::from_str(&v.to_string()),
        }
    }

    /// The value as a psql literal, in the place of its `$n` in "the lab as a script": every
    /// value but NULL quoted (`'5'`, `'{1,2}'`, `'{"a": "it''s"}'`), so that, like a parameter
    /// PGlite sends, it takes its type from where it stands.
    pub fn literal(&self) -> String {
        let quoted = |s: &str| format!("'{}'", s.replace('\'', "''"));
        match self {
            Param::Null => "NULL".into(),
            Param::Bool(b) => quoted(&b.to_string()),
            Param::Int(i) => quoted(&i.to_string()),
            // Rust writes Infinity as `inf`, which Postgres reads too.
            Param::Float(f) => quoted(&f.to_string()),
            Param::Text(s) => quoted(s),
            Param::Json(v) => quoted(&v.to_string()),
        }
    }

    /// How the SQL log shows the value.
    pub fn display(&self) -> String {
        match self {
            Param::Null => "NULL".into(),
            Param::Bool(b) => b.to_string(),
            Param::Int(i) => i.to_string(),
            Param::Float(f) => f.to_string(),
            Param::Text(s) => format!("'{}'", s.replace('\'', "''")),
            Param::Json(v) => format!("'{v}'"),
        }
    }
}

impl From<i64> for Param {
    fn from(v: i64) -> Self {
        Param::Int(v)
    }
}
impl From<i32> for Param {
    fn from(v: i32) -> Self {
        Param::Int(v.into())
    }
}
impl From<u32> for Param {
    fn from(v: u32) -> Self {
        Param::Int(v.into())
    }
}
impl From<f64> for Param {
    fn from(v: f64) -> Self {
        Param::Float(v)
    }
}
impl From<bool> for Param {
    fn from(v: bool) -> Self {
        Param::Bool(v)
    }
}
impl From<&str> for Param {
    fn from(v: &str) -> Self {
        Param::Text(v.to_owned())
    }
}
impl From<String> for Param {
    fn from(v: String) -> Self {
        Param::Text(v)
    }
}
impl From<serde_json::Value> for Param {
    fn from(v: serde_json::Value) -> Self {
        Param::Json(v)
    }
}
impl<T: Into<Param>> From<Option<T>> for Param {
    fn from(v: Option<T>) -> Self {
        v.map_or(Param::Null, Into::into)
    }
}

/// Typed rows of one statement.
#[derive(Clone, Debug)]
pub struct Rows<T> {
    pub rows: Vec<T>,
    /// Column names in order.
    pub fields: Vec<String>,
    /// Rows inserted, updated or deleted (0 for a SELECT).
    pub affected: u64,
}

impl<T> Rows<T> {
    pub fn first(self) -> Option<T> {
        self.rows.into_iter().next()
    }

    /// The one row a statement returns (an INSERT … RETURNING, an aggregate), or an error
    /// saying there was none.
    pub fn one(self) -> Result<T, DbError> {
        self.first()
            .ok_or_else(|| DbError::other("the statement returned no row"))
    }
}

impl Location {
    pub const APP_MANIFEST: &str = "pglite/pglite.json";
    pub const TESTS_MANIFEST: &str = "/pglite-bridge/build/pglite.json";

    pub fn app(manifest: &Manifest) -> Self {
        Location {
            pglite_base: manifest.base.clone(),
            worker_url: "worker.js".into(),
            // A slow phone on a slow line still gets three minutes before Retry is offered.
            start_timeout_ms: 180_000.0,
            datadir: None,
        }
    }
    /// The build in `pglite-bridge/build/` (`./lab test` makes it before the headless suite).
    pub async fn tests() -> Result<Self, DbError> {
        let manifest = Self::manifest(Self::TESTS_MANIFEST).await.ok_or_else(|| {
            DbError::other("no pglite-bridge/build/pglite.json: run node pglite-bridge/build.mjs")
        })?;
        Ok(Location {
            pglite_base: manifest.base,
            worker_url: "/pglite-bridge/worker.js".into(),
            start_timeout_ms: 90_000.0,
            datadir: None,
        })
    }
    /// Reads PGlite's build manifest.
    pub async fn manifest(url: &str) -> Option<Manifest> {
        bridge::manifest(url).await
    }
    /// Starts the download and compile of PGlite now, for the first `Db::open` to take over.
    pub fn prefetch(&self) {
        bridge::prefetch(self);
    }
}

/// The statements sent to PGlite and not answered yet, oldest first, each with when it was
/// sent (`performance.now()` ms): the oldest is the one running (the worker runs them in
/// the order sent), so the page can offer a way out of one that does not end.
#[derive(Clone, Default)]
pub struct InFlight(Rc<RefCell<InFlightInner>>);

#[derive(Default)]
struct InFlightInner {
    next: u64,
    waiting: std::collections::VecDeque<(u64, f64, String)>,
}

impl InFlight {
    /// The running statement's start time and its text, if one is running.
    pub fn get(&self) -> Option<(f64, String)> {
        self.0
            .borrow()
            .waiting
            .front()
            .map(|(_, at, sql)| (*at, sql.clone()))
    }

    /// How many statements are waiting for their reply (the running one included).
    pub fn waiting(&self) -> usize {
        self.0.borrow().waiting.len()
    }

    async fn watch<T>(&self, sql: &str, call: impl std::future::Future<Output = T>) -> T {
        let token = {
            let mut inner = self.0.borrow_mut();
            inner.next += 1;
            let token = inner.next;
            inner
                .waiting
                .push_back((token, log::now_ms(), sql.to_owned()));
            token
        };
        let out = call.await;
        self.0.borrow_mut().waiting.retain(|(t, _, _)| *t != token);
        out
    }
}

/// Awaits two calls on one database together: both statements are sent to the worker before
/// either reply is awaited, so they cost one round trip instead of two. The worker runs them
/// one after the other in the order given (`a` first, `b` seeing what `a` did), each on its
/// own; `b` runs even when `a` fails. Each one's time in the SQL log is its own, as the worker
/// measured it, without `b`'s wait behind `a`.
pub async fn pipelined<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    use std::task::Poll;
    let (mut a, mut b) = (std::pin::pin!(a), std::pin::pin!(b));
    let (mut out_a, mut out_b) = (None, None);
    std::future::poll_fn(|cx| {
        // Polled in this order, `a` posts its message first.
        if out_a.is_none() {
            if let Poll::Ready(v) = a.as_mut().poll(cx) {
                out_a = Some(v);
            }
        }
        if out_b.is_none() {
            if let Poll::Ready(v) = b.as_mut().poll(cx) {
                out_b = Some(v);
            }
        }
        match (out_a.take(), out_b.take()) {
            (Some(a), Some(b)) => Poll::Ready((a, b)),
            (a, b) => {
                (out_a, out_b) = (a, b);
                Poll::Pending
            }
        }
    })
    .await
}

/// How the session's transaction stands after a console statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TxState {
    #[default]
    Idle,
    /// BEGIN without COMMIT or ROLLBACK yet.
    Open,
    /// A statement failed inside the transaction: every statement fails until ROLLBACK.
    Failed,
}

/// A notice a statement raised (`RAISE NOTICE`, a WARNING), as PostgreSQL sent it.
#[derive(Clone, Debug, PartialEq, Default, serde::Deserialize)]
pub struct Notice {
    /// `NOTICE`, `WARNING`, `INFO`, `LOG` or `DEBUG`.
    pub severity: String,
    pub message: String,
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub detail: Option<String>,
    #[serde(default)]
    pub hint: Option<String>,
}

/// What one console call (one statement) returned: the result (cut to a row limit) or the
/// error, and the transaction state it left.
#[derive(Clone, Debug)]
pub struct ConsoleReply {
    pub result: Result<Rows<Vec<serde_json::Value>>, DbError>,
    /// Rows the statement returned before the cut.
    pub total: usize,
    pub tx: TxState,
    /// What a psql describe command (`\d jobs`) printed, as psql formats it; `None` for SQL.
    pub text: Option<String>,
    /// The command tag PostgreSQL sent (`INSERT 0 1`, `CREATE TABLE`, `ROLLBACK`).
    pub tag: Option<String>,
    /// The notices the statement raised, in order, failed or not.
    pub notices: Vec<Notice>,
}

impl ConsoleReply {
    /// A reply for a statement that never reached PostgreSQL.
    pub fn failed(error: DbError, tx: TxState) -> Self {
        ConsoleReply {
            result: Err(error),
            total: 0,
            tx,
            text: None,
            tag: None,
            notices: Vec::new(),
        }
    }
}

/// An open database. Cheap to clone: clones share the one PGlite and the one SQL log.
#[derive(Clone)]
pub struct Db {
    handle: Rc<bridge::Handle>,
    log: SqlLog,
    in_flight: InFlight,
}

impl Db {
    /// Starts PGlite in a worker, reporting download progress, and returns once it answers.
    pub async fn open(
        at: &Location,
        on_progress: impl Fn(Progress) + 'static,
    ) -> Result<Db, DbError> {
        Db::start(at, on_progress, None).await
    }

    /// Starts PGlite booted from `dump`, a data directory [`Db::data_dir`] gave (a saved lab): a
    /// dump that does not boot is an error, not an initdb start.
    pub async fn open_dump(
        at: &Location,
        on_progress: impl Fn(Progress) + 'static,
        dump: &[u8],
    ) -> Result<Db, DbError> {
        Db::start(at, on_progress, Some(dump)).await
    }

    async fn start(
        at: &Location,
        on_progress: impl Fn(Progress) + 'static,
        dump: Option<&[u8]>,
    ) -> Result<Db, DbError> {
        let handle = bridge::open(at, on_progress, dump).await?;
        Ok(Db {
            handle: Rc::new(handle),
            log: SqlLog::default(),
            in_flight: InFlight::default(),
        })
    }

    /// The whole data directory, as PGlite's `dumpDataDir` writes it (gzip), after a
    /// CHECKPOINT; and PGlite's version. Not logged: it is no SQL of a lab.
    pub async fn data_dir(&self) -> Result<(Vec<u8>, Option<String>), DbError> {
        self.in_flight
            .watch("CHECKPOINT", self.handle.data_dir())
            .await
    }

    /// PGlite's version, as its build manifest names it (`None` without one).
    pub fn pglite_version(&self) -> Option<String> {
        self.handle.pglite_version()
    }

    /// Round trips to the worker since this database opened (every call: statements, the
    /// session's plumbing, transactions, pings excepted): what a click costs is the difference
    /// across it (`tests/rounds.rs`).
    pub fn round_trips(&self) -> u64 {
        self.handle.calls()
    }

    /// Opens a database for headless tests (without the lab clock: `crate::testing` adds it).
    /// A start that does not answer in time is tried again (up to three times): a test is
    /// about the behaviour after the start, and one stuck boot must not fail the suite.
    pub async fn open_for_tests() -> Result<Db, DbError> {
        let mut last = DbError::other("not started");
        let at = Location::tests().await?;
        for _ in 0..3 {
            match Db::open(&at, |_| {}).await {
                Ok(db) => return Ok(db),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    pub fn log(&self) -> &SqlLog {
        &self.log
    }

    /// How PostgreSQL booted (from the prepared data directory or by initdb).
    pub fn boot(&self) -> Boot {
        self.handle.boot()
    }

    /// The statement running now, if any.
    pub fn in_flight(&self) -> &InFlight {
        &self.in_flight
    }

    /// Runs one statement with bound parameters and deserializes each row into `T`.
    pub async fn query<T: DeserializeOwned>(
        &self,
        sql: &str,
        params: &[Param],
    ) -> Result<Rows<T>, DbError> {
        let call = send_query(self.handle.session(), sql, params);
        let (result, started) = self.in_flight.watch(sql, call).await;
        finish(result, &self.log, sql, params, started)
    }

    /// Runs one statement and returns rows as arrays of JSON values.
    pub async fn query_table(&self, sql: &str) -> Result<Rows<Vec<serde_json::Value>>, DbError> {
        let started = log::now_ms();
        let result = self
            .in_flight
            .watch(sql, self.handle.session().exec(sql, true))
            .await;
        finish(result, &self.log, sql, &[], started)
    }

    /// The SQL console's call: one statement with its psql variables bound as `params`, the
    /// result cut to `limit` rows inside the worker, its command tag and notices, and the
    /// transaction state the statement left, whether it failed or not.
    pub async fn console(&self, sql: &str, params: &[Param], limit: u32) -> ConsoleReply {
        let started = log::now_ms();
        let js_params = js_sys::Array::new();
        for p in params {
            js_params.push(&p.to_js());
        }
        let reply = self
            .in_flight
            .watch(sql, self.handle.session().console(sql, &js_params, limit))
            .await;
        let field = |v: &JsValue, name: &str| {
            js_sys::Reflect::get(v, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
        };
        let mut text = None;
        let mut tag = None;
        let mut notices = Vec::new();
        let (result, total, tx) = match reply {
            Ok(v) => {
                text = field(&v, "text").as_string();
                notices = serde_wasm_bindgen::from_value(field(&v, "notices")).unwrap_or_default();
                let error = field(&v, "error");
                let result = if error.is_undefined() {
                    let result = field(&v, "result");
                    tag = field(&result, "tag").as_string();
                    Ok(result)
                } else {
                    Err(error)
                };
                let total = field(&v, "total").as_f64().unwrap_or(0.0) as usize;
                (
                    result,
                    total,
                    field(&v, "tx").as_string().unwrap_or_default(),
                )
            }
            Err(e) => (Err(e), 0, String::new()),
        };
        let tx = match tx.as_str() {
            "open" => TxState::Open,
            "failed" => TxState::Failed,
            _ => TxState::Idle,
        };
        let result = if text.is_some() {
            // A describe command returns no rows of its own: the log says it ran, not "0 rows".
            let result = result
                .map(|_| Rows {
                    rows: Vec::new(),
                    fields: Vec::new(),
                    affected: 0,
                })
                .map_err(DbError::from_js);
            finish_unit(result, &self.log, sql, started)
        } else {
            finish(result, &self.log, sql, params, started)
        };
        ConsoleReply {
            result,
            total,
            tx,
            text,
            tag,
            notices,
        }
    }

    /// pg_dump (PGlite's build of it, in the worker) of the schemas matching `schemas`
    /// (pg_dump's patterns, `vac_*`): the dump's text, made to load on PostgreSQL 15–18, and
    /// the schemas it holds. Not in the SQL log: no lab state changes.
    pub async fn dump(&self, schemas: &[&str]) -> Result<(String, Vec<String>), DbError> {
        let list = js_sys::Array::new();
        for s in schemas {
            list.push(&JsValue::from_str(s));
        }
        let reply = self
            .in_flight
            .watch("pg_dump", self.handle.session().dump(list))
            .await
            .map_err(DbError::from_js)?;
        let field = |name: &str| {
            js_sys::Reflect::get(&reply, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
        };
        let text = field("text").as_string().unwrap_or_default();
        let names: Vec<String> = serde_wasm_bindgen::from_value(field("schemas"))
            .map_err(|e| DbError::decode(&e.to_string()))?;
        Ok((text, names))
    }

    /// Runs a script of one or more statements without parameters (schema set-up).
    pub async fn exec(&self, script: &str) -> Result<(), DbError> {
        let started = log::now_ms();
        let result = self
            .in_flight
            .watch(script, self.handle.session().exec(script, false))
            .await;
        finish::<serde_json::Value>(result, &self.log, script, &[], started).map(|_| ())
    }

    /// Runs one statement with parameters and no SQL log entry: the session plumbing the
    /// runner does around a lab's work (its search path and clock), not what the lab shows.
    pub(crate) async fn quiet<T: DeserializeOwned>(
        &self,
        sql: &str,
        params: &[Param],
    ) -> Result<Rows<T>, DbError> {
        let unlogged = SqlLog::default();
        let call = send_query(self.handle.session(), sql, params);
        let (result, started) = self.in_flight.watch(sql, call).await;
        finish(result, &unlogged, sql, params, started)
    }

    /// Listens on a channel: `on_notify` gets each delivered payload. Only committed
    /// NOTIFYs are delivered, as in any PostgreSQL.
    pub async fn listen(
        &self,
        channel: &str,
        on_notify: impl Fn(String) + 'static,
    ) -> Result<Listener, DbError> {
        let started = log::now_ms();
        let sql = format!("LISTEN {channel}");
        let listener = self
            .in_flight
            .watch(&sql, self.handle.listen(channel, on_notify))
            .await
            .map(|inner| Listener { inner });
        finish_unit(listener, &self.log, &sql, started)
    }

    pub async fn close(&self) {
        self.handle.close().await;
    }

    /// The message the worker died with, once it has: every call fails from then on.
    pub fn dead(&self) -> Option<String> {
        self.handle.dead()
    }

    /// Stops the worker at once, whatever it runs: every pending and later call fails with
    /// `message` (and `dead` set).
    pub fn terminate(&self, message: &str) {
        self.handle.terminate(message);
    }
}

/// A LISTEN subscription, ended by `unlisten` or by dropping it (which stops listening too,
/// without waiting for the server to confirm).
pub struct Listener {
    inner: bridge::Subscription,
}

impl Listener {
    pub async fn unlisten(self) -> Result<(), DbError> {
        self.inner.unlisten().await
    }
}

/// Sends one statement with its parameters; the reply and when it was sent. Not generic
/// over the row type (only `finish` is), so the .wasm holds one copy of it and of its
/// `InFlight::watch`, not one per row type (ten copies were 30 KB after wasm-opt).
async fn send_query(
    session: &bridge::Session,
    sql: &str,
    params: &[Param],
) -> (Result<JsValue, JsValue>, f64) {
    let js_params = js_sys::Array::new();
    for p in params {
        js_params.push(&p.to_js());
    }
    let started = log::now_ms();
    (session.query(sql, &js_params, false).await, started)
}

fn finish<T: DeserializeOwned>(
    result: Result<JsValue, JsValue>,
    log: &SqlLog,
    sql: &str,
    params: &[Param],
    started: f64,
) -> Result<Rows<T>, DbError> {
    let mut rows = Vec::new();
    // One row at a time: walking the array is `finish_rows`' (one copy), only the row's own
    // decoding is made per row type.
    let mut decode = |js_row: JsValue| {
        rows.push(
            serde_wasm_bindgen::from_value(js_row).map_err(|e| DbError::decode(&e.to_string()))?,
        );
        Ok(())
    };
    let (fields, affected) = finish_rows(result, log, sql, params, started, &mut decode)?;
    Ok(Rows {
        rows,
        fields,
        affected,
    })
}

/// `finish`'s part that does not depend on the row type; `decode` reads each row (when the
/// reply has any), in order, into the caller's `Vec<T>`. Returns the fields and the affected
/// count.
fn finish_rows(
    result: Result<JsValue, JsValue>,
    log: &SqlLog,
    sql: &str,
    params: &[Param],
    started: f64,
    decode: &mut dyn FnMut(JsValue) -> Result<(), DbError>,
) -> Result<(Vec<String>, u64), DbError> {
    // The worker's figure for the statement alone (see `ms` in pglite-bridge/worker.js); the
    // round trip measured here would also count the wait behind statements sent before it.
    let own_ms = match &result {
        Ok(v) | Err(v) => js_sys::Reflect::get(v, &JsValue::from_str("ms"))
            .ok()
            .and_then(|v| v.as_f64()),
    };
    let ms = own_ms.unwrap_or_else(|| log::now_ms() - started);
    // Rows decode once, from the worker's plain objects straight into `T`.
    let outcome = result.map_err(DbError::from_js).and_then(|raw| {
        let field = |name: &str| {
            js_sys::Reflect::get(&raw, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
        };
        let js_rows = field("rows");
        let count = if js_sys::Array::is_array(&js_rows) {
            let js_rows = js_sys::Array::from(&js_rows);
            for row in js_rows.iter() {
                decode(row)?;
            }
            js_rows.length() as usize
        } else if js_rows.is_undefined() || js_rows.is_null() {
            0
        } else {
            return Err(DbError::decode("the rows are not an array"));
        };
        let fields: Vec<String> = serde_wasm_bindgen::from_value(field("fields"))
            .map_err(|e| DbError::decode(&e.to_string()))?;
        let affected = field("affected").as_f64().unwrap_or(0.0) as u64;
        Ok((fields, affected, count))
    });
    let outcome = outcome.map_err(|e| e.with_sql(sql));
    log.record(LogEntry {
        sql: sql.to_owned(),
        params: params.iter().map(Param::display).collect(),
        literals: params.iter().map(Param::literal).collect(),
        rows: outcome.as_ref().ok().map(|(_, _, n)| *n as u64),
        affected: outcome.as_ref().ok().map(|(_, a, _)| *a),
        ms,
        error: outcome.as_ref().err().map(|e| e.to_string()),
    });
    outcome.map(|(fields, affected, _)| (fields, affected))
}

fn finish_unit<T>(
    result: Result<T, DbError>,
    log: &SqlLog,
    sql: &str,
    started: f64,
) -> Result<T, DbError> {
    log.record(LogEntry {
        sql: sql.to_owned(),
        params: vec![],
        literals: vec![],
        rows: None,
        affected: None,
        ms: log::now_ms() - started,
        error: result.as_ref().err().map(|e| e.to_string()),
    });
    result
}
