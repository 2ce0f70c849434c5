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

pub use error::DbError;
pub use log::{LogEntry, LogHold, SqlLog};

use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

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
}

#[derive(Deserialize)]
struct RawResult {
    rows: serde_json::Value,
    fields: Vec<String>,
    affected: Option<f64>,
}

/// Where PGlite is served from. The app ships PGlite beside its own files; headless tests
/// load it from `pglite-bridge/node_modules` (wasm-bindgen-test-runner serves the crate root).
#[derive(Clone, Debug)]
pub struct Location {
    pub pglite_base: String,
    pub worker_url: String,
    /// How long a start may take before it is reported as failed (0: no limit).
    pub start_timeout_ms: f64,
}

impl Location {
    pub fn app() -> Self {
        Location {
            pglite_base: "pglite/".into(),
            worker_url: "worker.js".into(),
            // A slow phone on a slow line still gets three minutes before Retry is offered.
            start_timeout_ms: 180_000.0,
        }
    }
    pub fn tests() -> Self {
        Location {
            pglite_base: "/pglite-bridge/node_modules/@electric-sql/pglite/dist/".into(),
            worker_url: "/pglite-bridge/worker.js".into(),
            start_timeout_ms: 90_000.0,
        }
    }
}

/// Download progress while PGlite starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// `pglite.wasm`, `pglite.data`, `initdb.wasm`, or `boot` once all are in.
    pub file: String,
    pub loaded: f64,
    pub total: f64,
}

/// An open database. Cheap to clone: clones share the one PGlite and the one SQL log.
#[derive(Clone)]
pub struct Db {
    handle: Rc<bridge::Handle>,
    log: SqlLog,
}

impl Db {
    /// Starts PGlite in a worker, reporting download progress, and returns once it answers.
    pub async fn open(
        at: &Location,
        on_progress: impl Fn(Progress) + 'static,
    ) -> Result<Db, DbError> {
        let handle = bridge::open(at, on_progress).await?;
        Ok(Db {
            handle: Rc::new(handle),
            log: SqlLog::default(),
        })
    }

    /// Opens a fresh database for headless tests, with the lab schema (virtual clock) in place.
    /// A start that does not answer in time is tried again (up to three times): a test is
    /// about the behaviour after the start, and one stuck boot must not fail the suite.
    pub async fn open_for_tests() -> Result<Db, DbError> {
        let mut last = DbError::other("not started");
        for _ in 0..3 {
            match Db::open(&Location::tests(), |_| {}).await {
                Ok(db) => {
                    crate::clock::install(&db).await?;
                    return Ok(db);
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    pub fn log(&self) -> &SqlLog {
        &self.log
    }

    /// Runs one statement with bound parameters and deserializes each row into `T`.
    pub async fn query<T: DeserializeOwned>(
        &self,
        sql: &str,
        params: &[Param],
    ) -> Result<Rows<T>, DbError> {
        run_query(self.handle.session(), &self.log, sql, params).await
    }

    /// Runs one statement and returns rows as arrays of JSON values (for the SQL console).
    pub async fn query_table(&self, sql: &str) -> Result<Rows<Vec<serde_json::Value>>, DbError> {
        let started = log::now_ms();
        let result = self.handle.session().exec(sql, true).await;
        finish(result, &self.log, sql, &[], started)
    }

    /// Runs a script of one or more statements without parameters (schema set-up).
    pub async fn exec(&self, script: &str) -> Result<(), DbError> {
        let started = log::now_ms();
        let result = self.handle.session().exec(script, false).await;
        finish::<serde_json::Value>(result, &self.log, script, &[], started).map(|_| ())
    }

    /// Begins a transaction. Until it commits or rolls back, PGlite holds every other
    /// statement back, so nothing else interleaves with it.
    pub async fn begin(&self) -> Result<Tx, DbError> {
        let started = log::now_ms();
        let session = self.handle.begin().await;
        let session = finish_unit(session, &self.log, "BEGIN", started)?;
        Ok(Tx {
            session,
            log: self.log.clone(),
        })
    }

    /// Listens on a channel: `on_notify` gets each delivered payload. Only committed
    /// NOTIFYs are delivered, as in any PostgreSQL.
    pub async fn listen(
        &self,
        channel: &str,
        on_notify: impl Fn(String) + 'static,
    ) -> Result<Listener, DbError> {
        let started = log::now_ms();
        let listener = self.handle.listen(channel, on_notify).await;
        finish_unit(listener, &self.log, &format!("LISTEN {channel}"), started)
    }

    pub async fn close(&self) {
        self.handle.close().await;
    }
}

/// An open transaction; commit or roll it back (dropping it leaves the database held).
pub struct Tx {
    session: bridge::Session,
    log: SqlLog,
}

impl Tx {
    pub async fn query<T: DeserializeOwned>(
        &self,
        sql: &str,
        params: &[Param],
    ) -> Result<Rows<T>, DbError> {
        run_query(&self.session, &self.log, sql, params).await
    }

    pub async fn exec(&self, script: &str) -> Result<(), DbError> {
        let started = log::now_ms();
        let result = self.session.exec(script, false).await;
        finish::<serde_json::Value>(result, &self.log, script, &[], started).map(|_| ())
    }

    pub async fn commit(self) -> Result<(), DbError> {
        let started = log::now_ms();
        let result = self.session.commit().await;
        finish_unit(result, &self.log, "COMMIT", started)
    }

    pub async fn rollback(self) -> Result<(), DbError> {
        let started = log::now_ms();
        let result = self.session.rollback().await;
        finish_unit(result, &self.log, "ROLLBACK", started)
    }
}

/// A LISTEN subscription. `unlisten` ends it; dropping it keeps listening.
pub struct Listener {
    inner: bridge::Subscription,
}

impl Listener {
    pub async fn unlisten(self) -> Result<(), DbError> {
        self.inner.unlisten().await
    }
}

async fn run_query<T: DeserializeOwned>(
    session: &bridge::Session,
    log: &SqlLog,
    sql: &str,
    params: &[Param],
) -> Result<Rows<T>, DbError> {
    let js_params = js_sys::Array::new();
    for p in params {
        js_params.push(&p.to_js());
    }
    let started = log::now_ms();
    let result = session.query(sql, &js_params, false).await;
    finish(result, log, sql, params, started)
}

fn finish<T: DeserializeOwned>(
    result: Result<JsValue, JsValue>,
    log: &SqlLog,
    sql: &str,
    params: &[Param],
    started: f64,
) -> Result<Rows<T>, DbError> {
    let ms = log::now_ms() - started;
    let outcome = result.map_err(DbError::from_js).and_then(|raw| {
        let raw: RawResult =
            serde_wasm_bindgen::from_value(raw).map_err(|e| DbError::decode(&e.to_string()))?;
        let count = raw.rows.as_array().map_or(0, Vec::len);
        let rows: Vec<T> =
            serde_json::from_value(raw.rows).map_err(|e| DbError::decode(&e.to_string()))?;
        Ok((
            Rows {
                rows,
                fields: raw.fields,
                affected: raw.affected.unwrap_or(0.0) as u64,
            },
            count,
        ))
    });
    let outcome = outcome.map_err(|e| e.with_sql(sql));
    log.record(LogEntry {
        sql: sql.to_owned(),
        params: params.iter().map(Param::display).collect(),
        rows: outcome.as_ref().ok().map(|(_, n)| *n as u64),
        affected: outcome.as_ref().ok().map(|(r, _)| r.affected),
        ms,
        error: outcome.as_ref().err().map(|e| e.to_string()),
    });
    outcome.map(|(rows, _)| rows)
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
        rows: None,
        affected: None,
        ms: log::now_ms() - started,
        error: result.as_ref().err().map(|e| e.to_string()),
    });
    result
}
