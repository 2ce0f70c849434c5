//! L1's LISTEN/NOTIFY: the listening connection, what it received, and NOTIFY's limits.

use super::*;
use crate::keys;

impl Lab {
    /// Moves arrived notifications into the lab: idle, live workers are woken by them.
    /// Returns how many arrived.
    pub fn take_notifications(&mut self, now: &str) -> usize {
        let arrived: Vec<String> = self.inbox.borrow_mut().drain(..).collect();
        for payload in &arrived {
            self.delivered.push((now.to_owned(), payload.clone()));
            for w in self.workers.iter_mut() {
                if w.alive && w.holding.is_none() {
                    w.woken_by = Some(payload.clone());
                }
            }
        }
        arrived.len()
    }

    /// Records a NOTIFY this lab sent: delivered if connected, otherwise lost.
    pub(super) async fn after_commit(&mut self, db: &Db, payload: &str) -> Result<(), DbError> {
        if self.connected {
            // No wait needed: PGlite hands a notification to its listeners while it reads
            // the COMMIT's reply, and the worker posts both in that order, so the listener
            // has filled the inbox by the time commit() returns (tests/db.rs checks this).
            let now = clock::now(db).await?;
            self.take_notifications(&now);
        } else {
            self.lost.push(payload.to_owned());
        }
        Ok(())
    }

    pub(super) async fn disconnect(&mut self, db: &Db) -> Result<Outcome, DbError> {
        if !self.connected {
            return Ok(Outcome::new(
                Msg::new(keys::JOBS_OUT_ALREADY_DISCONNECTED),
                Tone::Info,
            ));
        }
        let listener = self.listener.borrow_mut().take();
        if let Some(l) = listener {
            l.unlisten().await?;
        }
        // Anything that arrived before the drop was delivered; after it, nothing is.
        let now = clock::now(db).await?;
        self.take_notifications(&now);
        self.connected = false;
        Ok(Outcome::new(
            Msg::new(keys::JOBS_OUT_DISCONNECTED),
            Tone::Warn,
        ))
    }

    pub(super) async fn reconnect(&mut self, db: &Db) -> Result<Outcome, DbError> {
        if self.connected {
            return Ok(Outcome::new(
                Msg::new(keys::JOBS_OUT_ALREADY_CONNECTED),
                Tone::Info,
            ));
        }
        self.connect(db).await?;
        self.connected = true;
        // Notifications sent meanwhile are gone: the worker rescans the table instead.
        let found = sql::rescan(db).await?;
        let lost = self.lost.len();
        Ok(Outcome::new(
            Msg::new(keys::JOBS_OUT_RECONNECTED)
                .arg("lost", lost)
                .arg("n", found),
            Tone::Good,
        ))
    }

    pub(super) async fn notify_bytes(&mut self, db: &Db, bytes: usize) -> Result<Outcome, DbError> {
        let payload = "x".repeat(bytes);
        db.transaction(async |tx| sql::notify(tx, &payload).await)
            .await?;
        let listening = self.connected;
        self.after_commit(db, &payload).await?;
        Ok(Outcome::either(
            listening,
            (keys::JOBS_OUT_NOTIFY_OK, Tone::Good),
            (keys::JOBS_OUT_NOTIFY_LOST, Tone::Warn),
        )
        .arg("n", bytes))
    }
}
