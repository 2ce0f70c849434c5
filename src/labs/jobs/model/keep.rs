//! L1's state beside the database, for a saved lab (`src/ui/keep.rs`): what the workers
//! believe they hold, the LISTEN connection, the notifications and alerts seen, the record of
//! executions, the lessons' own records, and the actions taken (as the share text). The jobs
//! themselves are in the saved data directory.

use super::{Action, Alert, Burst, Claim, Lab, Worker, WorkerId};
use crate::db::{Db, DbError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize)]
struct SavedWorker {
    alive: bool,
    /// (job, attempt) of the claim the worker believes it holds.
    holding: Option<(i64, i32)>,
    woken_by: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct SavedBurst {
    n: u32,
    bytes: usize,
    before: f64,
    during: f64,
    idle: f64,
    max_pages: i64,
    page_bytes: i64,
    elapsed_ms: f64,
}

#[derive(Serialize, Deserialize)]
struct Saved {
    workers: Vec<SavedWorker>,
    connected: bool,
    delivered: Vec<(String, String)>,
    lost: Vec<String>,
    /// Each job's executions: (worker letter, attempt).
    executions: BTreeMap<i64, Vec<(char, i32)>>,
    /// The actions taken, as the share link writes them.
    history: String,
    touched: Vec<i64>,
    per_key: bool,
    delete_on_complete: bool,
    /// (lab time, payload, job).
    alerts: Vec<(String, String, Option<i64>)>,
    broker: Vec<i64>,
    orders_written: Vec<i64>,
    dual_write_used: bool,
    effects_used: bool,
    burst: Option<SavedBurst>,
    last_poll: i64,
    elapsed: i64,
}

impl Lab {
    /// The state a saved lab keeps beside its data directory.
    pub fn saved_state(&self) -> serde_json::Value {
        let saved = Saved {
            workers: self
                .workers
                .iter()
                .map(|w| SavedWorker {
                    alive: w.alive,
                    holding: w.holding.map(|c| (c.job, c.attempt)),
                    woken_by: w.woken_by.clone(),
                })
                .collect(),
            connected: self.connected,
            delivered: self.delivered.clone(),
            lost: self.lost.clone(),
            executions: self
                .executions
                .iter()
                .map(|(id, runs)| (*id, runs.iter().map(|(w, a)| (w.letter(), *a)).collect()))
                .collect(),
            history: crate::labs::jobs::share::encode(&self.history),
            touched: self.touched.clone(),
            per_key: self.per_key,
            delete_on_complete: self.delete_on_complete,
            alerts: self
                .alerts
                .iter()
                .map(|a| (a.at.clone(), a.payload.clone(), a.job))
                .collect(),
            broker: self.broker.clone(),
            orders_written: self.orders_written.clone(),
            dual_write_used: self.dual_write_used,
            effects_used: self.effects_used,
            burst: self.burst.as_ref().map(|b| SavedBurst {
                n: b.n,
                bytes: b.bytes,
                before: b.before,
                during: b.during,
                idle: b.idle,
                max_pages: b.max_pages,
                page_bytes: b.page_bytes,
                elapsed_ms: b.elapsed_ms,
            }),
            last_poll: self.last_poll,
            elapsed: self.elapsed,
        };
        serde_json::to_value(saved).unwrap_or(serde_json::Value::Null)
    }

    /// The lab as [`Lab::saved_state`] kept it, on `db` booted from its data directory: its
    /// LISTEN subscriptions made again there (the workers' only if they were connected).
    /// `None` when `state` is not such a state.
    pub fn parse_state(state: &serde_json::Value) -> Option<Lab> {
        // From its text, not `from_value`: serde_json's Value deserializer, made again for
        // every type read, was 46 KB of the app's .wasm (before wasm-opt).
        let s: Saved = serde_json::from_str(&state.to_string()).ok()?;
        let workers: Vec<Worker> = s
            .workers
            .into_iter()
            .map(|w| Worker {
                alive: w.alive,
                holding: w.holding.map(|(job, attempt)| Claim { job, attempt }),
                woken_by: w.woken_by,
            })
            .collect();
        let workers: [Worker; 3] = workers.try_into().ok()?;
        let mut executions = BTreeMap::new();
        for (id, runs) in s.executions {
            let runs: Option<Vec<(WorkerId, i32)>> = runs
                .into_iter()
                .map(|(w, a)| WorkerId::parse(w).map(|w| (w, a)))
                .collect();
            executions.insert(id, runs?);
        }
        let history: Vec<Action> = crate::labs::jobs::share::decode(&s.history).ok()?;
        Some(Lab {
            workers,
            connected: s.connected,
            delivered: s.delivered,
            lost: s.lost,
            executions,
            history,
            touched: s.touched,
            per_key: s.per_key,
            delete_on_complete: s.delete_on_complete,
            alerts: s
                .alerts
                .into_iter()
                .map(|(at, payload, job)| Alert { at, payload, job })
                .collect(),
            broker: s.broker,
            orders_written: s.orders_written,
            dual_write_used: s.dual_write_used,
            effects_used: s.effects_used,
            burst: s.burst.map(|b| Burst {
                n: b.n,
                bytes: b.bytes,
                before: b.before,
                during: b.during,
                idle: b.idle,
                max_pages: b.max_pages,
                page_bytes: b.page_bytes,
                elapsed_ms: b.elapsed_ms,
            }),
            last_poll: s.last_poll,
            elapsed: s.elapsed,
            ..Lab::default()
        })
    }

    /// Listens again on a database booted from a saved lab (a data directory keeps no
    /// session): the alerts always, the workers' channel if they were connected.
    pub async fn restore_state(self, db: &Db) -> Result<Lab, DbError> {
        if self.connected {
            self.connect(db).await?;
        }
        self.listen_for_alerts(db).await?;
        Ok(self)
    }
}
