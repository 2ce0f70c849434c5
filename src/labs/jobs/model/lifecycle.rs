//! How a job's life ends: §2's DELETE-on-complete, and §4's alert when a job goes dead (the
//! trigger in `dead_alert.sql` sends NOTIFY job_dead; the lab listens like an alerting
//! service would).

use super::*;
use crate::keys;

/// The channel `dead_alert.sql` notifies on.
pub const ALERT_CHANNEL: &str = "job_dead";

/// One alert as it arrived: lab time and the trigger's payload (JSON text).
#[derive(Clone, Debug, PartialEq)]
pub struct Alert {
    pub at: String,
    pub payload: String,
    /// The dead job's id, read from the payload.
    pub job: Option<i64>,
}

impl Lab {
    /// LISTEN job_dead on the lab's session: a separate subscription from the workers' (their
    /// Disconnect does not touch it), as an alerting service would have its own connection.
    pub(super) async fn listen_for_alerts(&self, db: &Db) -> Result<(), DbError> {
        let inbox = self.alert_inbox.clone();
        let listener = db
            .listen(ALERT_CHANNEL, move |payload| {
                inbox.borrow_mut().push(payload)
            })
            .await?;
        // Kept for the lab's life: dropping a subscription stops it.
        *self.alert_listener.borrow_mut() = Some(listener);
        Ok(())
    }

    /// Moves arrived alerts into the lab. A NOTIFY reaches the listener while PGlite reads
    /// the reply of the statement that committed it, so after an action they are all in.
    pub(super) async fn take_alerts(&mut self, db: &Db) -> Result<(), DbError> {
        let arrived: Vec<String> = self.alert_inbox.borrow_mut().drain(..).collect();
        if arrived.is_empty() {
            return Ok(());
        }
        let now = clock::now(db).await?;
        for payload in arrived {
            let job = serde_json::from_str::<serde_json::Value>(&payload)
                .ok()
                .and_then(|v| v.get("id").and_then(serde_json::Value::as_i64));
            self.alerts.push(Alert {
                at: now.clone(),
                payload,
                job,
            });
        }
        Ok(())
    }

    pub(super) fn set_delete_on_complete(&mut self, on: bool) -> Outcome {
        self.delete_on_complete = on;
        let key = if on {
            keys::JOBS_OUT_DELETE_ON
        } else {
            keys::JOBS_OUT_DELETE_OFF
        };
        Outcome::new(Msg::new(key), Tone::Info)
    }
}
