//! `DbError`: what went wrong, with what Postgres said about it.

use serde::Deserialize;
use std::fmt;
use wasm_bindgen::JsValue;

/// An error from Postgres (message, SQLSTATE, 1-based character position in the statement,
/// detail, hint) or from getting to Postgres at all (download, worker, decoding rows).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct DbError {
    pub message: String,
    /// SQLSTATE, e.g. `42P01` for an undefined table. None when Postgres was never reached.
    #[serde(default)]
    pub code: Option<String>,
    /// 1-based character offset into the statement where Postgres found the problem.
    #[serde(default)]
    pub position: Option<u32>,
    #[serde(default)]
    pub detail: Option<String>,
    #[serde(default)]
    pub hint: Option<String>,
    /// The statement that failed, when there was one.
    #[serde(skip)]
    pub sql: Option<String>,
    /// The database worker has stopped: nothing more will run until PostgreSQL restarts.
    #[serde(default)]
    pub dead: bool,
    /// The work was cancelled (its lab was left, or the database reset) at a safe point.
    #[serde(skip)]
    pub cancelled: bool,
}

impl DbError {
    pub(crate) fn from_js(value: JsValue) -> DbError {
        if let Ok(e) = serde_wasm_bindgen::from_value::<DbError>(value.clone()) {
            if !e.message.is_empty() {
                return e;
            }
        }
        if let Some(e) = value.dyn_ref_error() {
            return DbError::other(&e);
        }
        DbError::other(&value.as_string().unwrap_or_else(|| format!("{value:?}")))
    }

    pub(crate) fn decode(what: &str) -> DbError {
        DbError::other(&format!("rows did not match the expected shape: {what}"))
    }

    pub fn other(message: &str) -> DbError {
        DbError {
            message: message.to_owned(),
            ..DbError::default()
        }
    }

    /// Work stopped on purpose; callers show it as a note, not as a failure.
    pub fn cancelled() -> DbError {
        DbError {
            message: "cancelled".into(),
            cancelled: true,
            ..DbError::default()
        }
    }

    pub(crate) fn with_sql(mut self, sql: &str) -> DbError {
        self.sql = Some(sql.to_owned());
        self
    }

    /// The line of the statement the position points into, and the column within it
    /// (both 1-based), for showing a caret under the mistake.
    pub fn line_and_column(&self) -> Option<(usize, usize)> {
        let sql = self.sql.as_deref()?;
        let pos = self.position? as usize;
        let before: String = sql.chars().take(pos.saturating_sub(1)).collect();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Some((line, column))
    }
}

trait ErrorText {
    fn dyn_ref_error(&self) -> Option<String>;
}

impl ErrorText for JsValue {
    fn dyn_ref_error(&self) -> Option<String> {
        use wasm_bindgen::JsCast;
        self.dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
    }
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(code) = &self.code {
            write!(f, " (SQLSTATE {code})")?;
        }
        if let Some(pos) = self.position {
            write!(f, " at character {pos}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DbError {}
