//! L1's state beside the database, for a saved lab (`src/ui/keep.rs`): what the workers
//! believe they hold, the LISTEN connection, the notifications and alerts seen, the record of
//! executions, the lessons' own records, and the actions taken (as the share text). The jobs
//! themselves are in the saved data directory.

use super::{Action, Alert, Burst, Claim, Lab, Worker, WorkerId};
use crate::db::{Db, DbError};
use crate::descriptor::LabId;
use crate::labs::jobs::ID;
use crate::ui::keep::{Keeper, Kept};
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
    burst: Option<Burst>,
    last_poll: i64,
    elapsed: i64,
}

/// What a saved lab's file needs of this lab (`ui::keep`), in the lab's own code.
pub const KEEPER: Keeper = Keeper::of::<Lab>();

impl Kept for Lab {
    const LAB: LabId = ID;

    /// The state a saved lab keeps beside its data directory.
    fn saved_state(&self) -> serde_json::Value {
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
            burst: self.burst.clone(),
            last_poll: self.last_poll,
            elapsed: self.elapsed,
        };
        serde_json::to_value(saved).unwrap_or(serde_json::Value::Null)
    }

    /// The lab as [`Kept::saved_state`] kept it, on `db` booted from its data directory: its
    /// LISTEN subscriptions made again there (the workers' only if they were connected).
    /// `None` when `state` is not such a state.
    fn parse_state(state: &serde_json::Value) -> Option<Lab> {
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
            burst: s.burst,
            last_poll: s.last_poll,
            elapsed: s.elapsed,
            ..Lab::default()
        })
    }

    /// Listens again on a database booted from a saved lab (a data directory keeps no
    /// session): the alerts always, the workers' channel if they were connected.
    async fn restore_state(self, db: &Db) -> Result<Lab, DbError> {
        if self.connected {
            self.connect(db).await?;
        }
        self.listen_for_alerts(db).await?;
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A saved burst reads back as it was, under the field names saved labs already hold.
    #[test]
    fn a_saved_burst_reads_back_under_the_names_saved_labs_hold() {
        let burst = Burst {
            n: 500,
            bytes: 64,
            before: 0.0,
            during: 0.012_5,
            idle: 0.000_1,
            max_pages: 1_048_576,
            page_bytes: 8192,
            elapsed_ms: 41.7,
        };
        let lab = Lab {
            burst: Some(burst.clone()),
            ..Lab::default()
        };
        let state = lab.saved_state();
        assert_eq!(
            state["burst"],
            serde_json::json!({"n": 500, "bytes": 64, "before": 0.0, "during": 0.012_5,
                "idle": 0.000_1, "max_pages": 1_048_576, "page_bytes": 8192, "elapsed_ms": 41.7})
        );
        assert_eq!(Lab::parse_state(&state).and_then(|l| l.burst), Some(burst));
    }
}
