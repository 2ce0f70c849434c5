//! §1's transactional enqueue, and three lessons of the article the rest of L1 does not
//! let you try:
//!
//! - §1's dual write: the order in the database and its job in an outside broker. PGlite has
//!   no broker, so the broker here is simulated: a list in this model, outside every
//!   transaction, as a real broker is. Which orders lost their job and which jobs have no
//!   order is read by SQL (`broker_check.sql`), the broker's messages passed as a parameter.
//! - §4's idempotency key: a job's effect recorded under a unique key, so a job that runs
//!   twice (at-least-once) applies it once (`effect_apply.sql`).
//! - §5's notification queue: a burst of NOTIFYs while the listening session is busy, and
//!   the queue's usage before, during and after (`notify_burst_proc.sql`, `notify_queue.sql`).
//!
//! Not for: anything a real broker does beyond holding messages (it delivers nothing here).

use super::*;
use crate::keys;
use queue_lab_core::format::{bytes, group};

/// §5: the payload each NOTIFY of a burst carries: the largest NOTIFY takes (under 8000 bytes).
pub const BURST_BYTES: usize = NOTIFY_LIMIT - 1;
/// §5: how many NOTIFYs a burst may send (10,000 took 2.2 s in PGlite under Node).
pub const BURST_RANGE: (u32, u32) = (1, 10_000);

/// §5: what one burst measured (kept as it is in a saved lab).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Burst {
    pub n: u32,
    pub bytes: usize,
    /// pg_notification_queue_usage() before the burst, after it (the session still busy),
    /// and once the session was idle again.
    pub before: f64,
    pub during: f64,
    pub idle: f64,
    /// max_notify_queue_pages and block_size, as the server reports them.
    pub max_pages: i64,
    pub page_bytes: i64,
    pub elapsed_ms: f64,
}

impl Burst {
    /// Pages a usage fraction stands for.
    pub fn pages(&self, usage: f64) -> i64 {
        (usage * self.max_pages as f64).round() as i64
    }
}

/// The order every lesson of §1 writes.
const KIM_ORDER: sql::OrderInsert<'static> = sql::OrderInsert {
    customer: "kim@example.com",
    total: 42_000.0,
};

/// A usage fraction as a percentage that still shows a burst of a few pages.
pub fn percent(usage: f64) -> String {
    format!("{:.4} %", usage * 100.0)
}

/// A size as `bytes` writes it, but whole gigabytes (the queue's limit) as GB.
pub fn size(n: i64) -> String {
    const GB: i64 = 1 << 30;
    if n >= GB && n % GB == 0 {
        format!("{} GB", group(n / GB))
    } else {
        bytes(n)
    }
}

impl Lab {
    /// §1's transactional enqueue: the order, its job and a NOTIFY in one transaction,
    /// committed, or (`fails`) rolled back as a request that dies after writing.
    pub(super) async fn order_with_job(
        &mut self,
        db: &Db,
        fails: bool,
    ) -> Result<Outcome, DbError> {
        let write = async |tx: &Tx| {
            let order = sql::order_insert(tx, KIM_ORDER).await?;
            let job = sql::order_job_insert(tx, order).await?;
            sql::notify(tx, &job.to_string()).await?;
            Ok((order, job))
        };
        if fails {
            // The request dies after writing: nothing it wrote, and no NOTIFY, survives.
            let (order, job) = db.rolled_back(write).await?;
            self.orders_written.push(order);
            let now = clock::now(db).await?;
            let arrived = self.take_notifications(&now);
            let msg = Msg::new(keys::JOBS_OUT_ROLLED_BACK)
                .arg("order", order)
                .arg("job", job)
                .arg("n", arrived);
            return Ok(Outcome::new(msg, Tone::Warn));
        }
        let (order, job) = db.transaction(write).await?;
        self.orders_written.push(order);
        let before = self.delivered.len();
        self.after_commit(db, &job.to_string()).await?;
        let woke = self.delivered.len() > before;
        let key = if woke {
            keys::JOBS_OUT_COMMITTED_WOKE
        } else {
            keys::JOBS_OUT_COMMITTED_LOST
        };
        Ok(Outcome::new(
            Msg::new(key).arg("order", order).arg("job", job),
            Tone::Good,
        )
        .touching(job))
    }

    /// §1's dual write, one way or the other. `publish_first`: the job is published to the
    /// broker inside the order's transaction, which then rolls back; otherwise the order
    /// commits and the publish after it fails.
    pub(super) async fn dual_write(
        &mut self,
        db: &Db,
        publish_first: bool,
    ) -> Result<Outcome, DbError> {
        let order = if publish_first {
            let broker = &mut self.broker;
            db.rolled_back(async |tx| {
                let order = sql::order_insert(tx, KIM_ORDER).await?;
                // The broker takes the message at once: it is outside the transaction.
                broker.push(order);
                // The request fails after publishing: the order rolls back, the message stays.
                Ok(order)
            })
            .await?
        } else {
            // The process dies (or the broker is unreachable) after the commit, before the
            // publish: nothing reaches the broker.
            db.transaction(async |tx| sql::order_insert(tx, KIM_ORDER).await)
                .await?
        };
        self.orders_written.push(order);
        self.dual_write_used = true;
        let checked = self.reconcile(db).await?;
        let verdict = checked
            .iter()
            .find(|r| r.order_id == order)
            .map(Reconciled::verdict);
        let (key, tone) = match (publish_first, verdict) {
            (false, Some(Verdict::Lost)) => (keys::JOBS_OUT_DUAL_LOST, Tone::Warn),
            (true, Some(Verdict::Ghost)) => (keys::JOBS_OUT_DUAL_GHOST, Tone::Warn),
            (_, Some(Verdict::Consistent)) => (keys::JOBS_OUT_DUAL_CONSISTENT, Tone::Good),
            _ => (keys::JOBS_OUT_DUAL_OTHER, Tone::Info),
        };
        Ok(Outcome::new(Msg::new(key).arg("order", order), tone))
    }

    /// Every order the lab wrote, checked against the broker and the jobs table.
    pub(super) async fn reconcile(&self, db: &Db) -> Result<Vec<Reconciled>, DbError> {
        let broker = &self.broker;
        let orders = &self.orders_written;
        sql::broker_check(db, sql::BrokerCheck { broker, orders }).await
    }

    /// §4: worker `w` applies its job's effect under the job's idempotency key.
    pub(super) async fn effect(&mut self, db: &Db, w: WorkerId) -> Result<Outcome, DbError> {
        let c = match self.live_claim(w) {
            Ok(c) => c,
            Err(said) => return Ok(said),
        };
        let worker = &w.letter().to_string();
        let row = sql::effect_apply(db, sql::EffectApply { claim: c, worker }).await?;
        self.effects_used = true;
        let e = row.effect;
        let msg = if row.applied {
            Msg::new(keys::JOBS_OUT_EFFECT_APPLIED)
                .arg("w", w.letter())
                .arg("job", c.job)
                .arg("attempt", c.attempt)
                .arg("key", &e.idempotency_key)
        } else {
            Msg::new(keys::JOBS_OUT_EFFECT_SKIPPED)
                .arg("w", w.letter())
                .arg("job", c.job)
                .arg("attempt", c.attempt)
                .arg("key", &e.idempotency_key)
                .arg("by", &e.worker)
                .arg("by_attempt", e.attempt)
        };
        let tone = if row.applied { Tone::Good } else { Tone::Info };
        Ok(Outcome::new(msg, tone).touching(c.job))
    }

    /// §5: `n` NOTIFYs while this session is busy, and the queue's usage around them.
    pub(super) async fn notify_burst(&mut self, db: &Db, n: u32) -> Result<Outcome, DbError> {
        let n = n.clamp(BURST_RANGE.0, BURST_RANGE.1);
        let bytes = BURST_BYTES as i64;
        let burst = sql::notify_burst(db, sql::NotifyBurst { n, bytes }).await?;
        // The CALL is over: the session is idle and has read what it holds.
        let queue = sql::notify_queue(db).await?;
        let b = Burst {
            n,
            bytes: BURST_BYTES,
            before: burst.usage_before,
            during: burst.usage_after,
            idle: queue.usage,
            max_pages: queue.max_pages,
            page_bytes: queue.page_bytes,
            elapsed_ms: burst.elapsed_ms,
        };
        let held = b.pages(b.during) - b.pages(b.before);
        let key = match (held > 0, b.idle < b.during) {
            (true, true) => keys::JOBS_OUT_BURST_HELD_THEN_READ,
            (true, false) => keys::JOBS_OUT_BURST_HELD,
            (false, _) => keys::JOBS_OUT_BURST_NOT_HELD,
        };
        let msg = Msg::new(key)
            .arg("n", group(n))
            .arg("bytes", group(b.bytes as i64))
            .arg("before", percent(b.before))
            .arg("during", percent(b.during))
            .arg("idle", percent(b.idle))
            .arg("pages", group(held.max(0)))
            .arg("size", size(held.max(0) * b.page_bytes))
            .arg("max", size(b.max_pages * b.page_bytes));
        let tone = if held > 0 { Tone::Warn } else { Tone::Info };
        self.burst = Some(b);
        Ok(Outcome::new(msg, tone))
    }
}

/// Reads the effects table (§4), newest first.
pub async fn effects(db: &Db) -> Result<Vec<Effect>, DbError> {
    sql::effects(db).await
}
