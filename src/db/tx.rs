//! Transactions, and what a statement runs on.
//!
//! What it is for: `Db::transaction` (commit when the work succeeds, roll back when it
//! fails), `Db::rolled_back` (work whose effects must not stay, such as an EXPLAIN ANALYZE
//! of a claim), the `Tx` they hand to the work, and `Conn`, the one interface a named
//! statement (`src/labs/<lab>/sql.rs`) runs on, whether on the database or inside a
//! transaction. BEGIN, COMMIT and ROLLBACK are recorded in the SQL log like any statement.
//! What it is not for: building SQL, or holding a transaction open across user actions (the
//! SQL console's own BEGIN is the console's business).

use super::bridge;
use super::{finish, finish_unit, log, send_query, Db, DbError, InFlight, Param, Rows, SqlLog};
use serde::de::DeserializeOwned;

/// What a statement runs on: the database, or an open transaction on it. A named statement
/// takes `&impl Conn`, so the same function serves both.
// The app runs on one thread (wasm32): the futures need not be `Send`.
#[allow(async_fn_in_trait)]
pub trait Conn {
    /// Runs one statement with bound parameters and deserializes each row into `T`.
    async fn query<T: DeserializeOwned>(
        &self,
        sql: &str,
        params: &[Param],
    ) -> Result<Rows<T>, DbError>;
    /// Runs a script of one or more statements without parameters.
    async fn exec(&self, script: &str) -> Result<(), DbError>;
}

/// `Conn` for a type whose own `query` and `exec` run the statement (the database, a
/// transaction).
macro_rules! conn_by_own_methods {
    ($($t:ty),*) => {$(
        impl Conn for $t {
            async fn query<T: DeserializeOwned>(
                &self,
                sql: &str,
                params: &[Param],
            ) -> Result<Rows<T>, DbError> {
                <$t>::query(self, sql, params).await
            }
            async fn exec(&self, script: &str) -> Result<(), DbError> {
                <$t>::exec(self, script).await
            }
        }
    )*};
}
conn_by_own_methods!(Db, Tx);

impl Db {
    /// Begins a transaction. Until it commits or rolls back, PGlite holds every other
    /// statement back, so nothing else interleaves with it.
    pub async fn begin(&self) -> Result<Tx, DbError> {
        let started = log::now_ms();
        let session = self.in_flight.watch("BEGIN", self.handle.begin()).await;
        let session = finish_unit(session, &self.log, "BEGIN", started)?;
        Ok(Tx {
            session: Some(session),
            log: self.log.clone(),
            in_flight: self.in_flight.clone(),
        })
    }

    /// Runs `work` in a transaction: committed when it returns `Ok`, rolled back when it
    /// returns `Err` (its error is returned, unless the ROLLBACK itself fails). The SQL log
    /// shows BEGIN, the work's statements, then COMMIT or ROLLBACK.
    pub async fn transaction<T>(
        &self,
        work: impl AsyncFnOnce(&Tx) -> Result<T, DbError>,
    ) -> Result<T, DbError> {
        let tx = self.begin().await?;
        match work(&tx).await {
            Ok(value) => {
                tx.commit().await?;
                Ok(value)
            }
            Err(e) => {
                tx.rollback().await?;
                Err(e)
            }
        }
    }

    /// Runs `work` in a transaction that is always rolled back, whatever it returns: for work
    /// whose effects must not stay (a claim run under EXPLAIN ANALYZE, a lock shown and let
    /// go, a request that fails after writing). Returns what `work` returned, unless the
    /// ROLLBACK itself fails.
    pub async fn rolled_back<T>(
        &self,
        work: impl AsyncFnOnce(&Tx) -> Result<T, DbError>,
    ) -> Result<T, DbError> {
        let tx = self.begin().await?;
        let out = work(&tx).await;
        tx.rollback().await?;
        out
    }
}

/// An open transaction, handed to the work of [`Db::transaction`] and [`Db::rolled_back`]
/// (or returned by [`Db::begin`]: commit or roll it back). Dropped without either (an early
/// `?`, a cancelled task), it rolls back, so the database is never held by a transaction
/// nobody will end.
pub struct Tx {
    session: Option<bridge::Session>,
    log: SqlLog,
    in_flight: InFlight,
}

impl Tx {
    fn session(&self) -> &bridge::Session {
        self.session
            .as_ref()
            .expect("a Tx has its session until it ends")
    }

    pub async fn query<T: DeserializeOwned>(
        &self,
        sql: &str,
        params: &[Param],
    ) -> Result<Rows<T>, DbError> {
        let call = send_query(self.session(), sql, params);
        let (result, started) = self.in_flight.watch(sql, call).await;
        finish(result, &self.log, sql, params, started)
    }

    pub async fn exec(&self, script: &str) -> Result<(), DbError> {
        let started = log::now_ms();
        let result = self
            .in_flight
            .watch(script, self.session().exec(script, false))
            .await;
        finish::<serde_json::Value>(result, &self.log, script, &[], started).map(|_| ())
    }

    pub async fn commit(self) -> Result<(), DbError> {
        self.end(End::Commit).await
    }

    pub async fn rollback(self) -> Result<(), DbError> {
        self.end(End::Rollback).await
    }

    async fn end(mut self, how: End) -> Result<(), DbError> {
        let session = self
            .session
            .take()
            .expect("a Tx has its session until it ends");
        end(session, &self.log, &self.in_flight, how).await
    }
}

#[derive(Clone, Copy)]
enum End {
    Commit,
    Rollback,
}

/// Ends `session`'s transaction, recorded in the SQL log as COMMIT or ROLLBACK.
async fn end(
    session: bridge::Session,
    log: &SqlLog,
    in_flight: &InFlight,
    how: End,
) -> Result<(), DbError> {
    let started = log::now_ms();
    let (sql, result) = match how {
        End::Commit => ("COMMIT", in_flight.watch("COMMIT", session.commit()).await),
        End::Rollback => (
            "ROLLBACK",
            in_flight.watch("ROLLBACK", session.rollback()).await,
        ),
    };
    finish_unit(result, log, sql, started)
}

impl Drop for Tx {
    fn drop(&mut self) {
        if let Some(session) = self.session.take() {
            let log = self.log.clone();
            let in_flight = self.in_flight.clone();
            // Recorded like any other statement, so the log says why the work vanished.
            crate::task::spawn(async move {
                let _ = end(session, &log, &in_flight, End::Rollback).await;
            });
        }
    }
}
