//! L1's statements: one function per file in `src/sql/jobs/`, its parameters named and typed
//! (a struct where there are two or more), returning the rows of `rows.rs`. The text is the
//! file's, exactly (the constants below), shown verbatim in the SQL log with the values
//! bound as parameters. A function takes `&impl Conn`: the database, or a transaction on it.
//!
//! Not for: deciding anything. Which statement runs, and what its rows mean for the learner,
//! is the model's business.

use super::rows::{Applied, BurstRow, Claim, Claimed, Effect, Failed, QueueRow, Reconciled};
use super::rows::{SnapshotRow, TableStats};
use crate::db::{sql_file, Conn, DbError, Param};
use serde::Deserialize;

sql_file!(SCHEMA_SQL, "jobs/schema.sql");
sql_file!(RESET_SQL, "jobs/reset.sql");
sql_file!(ENQUEUE_SQL, "jobs/enqueue.sql");
sql_file!(ORDER_INSERT_SQL, "jobs/order_insert.sql");
sql_file!(ORDER_JOB_INSERT_SQL, "jobs/order_job_insert.sql");
sql_file!(NOTIFY_SQL, "jobs/notify.sql");
sql_file!(CLAIM_SQL, "jobs/claim.sql");
sql_file!(
    /// The article's claim exactly as published, shown beside ours (see `claim.sql`).
    CLAIM_ARTICLE_SQL,
    "jobs/claim_article.sql"
);
sql_file!(REAP_SQL, "jobs/reap.sql");
sql_file!(COMPLETE_SQL, "jobs/complete.sql");
sql_file!(
    /// §2's other completion: the job's row is deleted (the same guard as `COMPLETE_SQL`).
    COMPLETE_DELETE_SQL,
    "jobs/complete_delete.sql"
);
sql_file!(
    /// The lab's own hook for §4's alert: a trigger that sends NOTIFY job_dead when a job goes dead.
    DEAD_ALERT_SQL,
    "jobs/dead_alert.sql"
);
sql_file!(
    /// The lab's own: the jobs table's rows, dead row versions and size.
    TABLE_STATS_SQL,
    "jobs/table_stats.sql"
);
sql_file!(FAIL_SQL, "jobs/fail.sql");
sql_file!(HEARTBEAT_SQL, "jobs/heartbeat.sql");
sql_file!(REQUEUE_SQL, "jobs/requeue.sql");
sql_file!(SNAPSHOT_SQL, "jobs/snapshot.sql");
sql_file!(RESCAN_SQL, "jobs/rescan.sql");
sql_file!(
    /// The lab's own (not the article's): a job with an ordering key.
    ENQUEUE_KEYED_SQL,
    "jobs/enqueue_keyed.sql"
);
sql_file!(
    /// The lab's own: the claim that runs the jobs of one key one after the other.
    CLAIM_PER_KEY_SQL,
    "jobs/claim_per_key.sql"
);
sql_file!(
    /// The lab's own: how many ready jobs the per-key claim holds back.
    HELD_BACK_SQL,
    "jobs/held_back.sql"
);
sql_file!(
    /// §1: every order the lab wrote against the simulated broker and the jobs table.
    BROKER_CHECK_SQL,
    "jobs/broker_check.sql"
);
sql_file!(
    /// §4: a job's effect under its idempotency key, and the effects applied so far.
    EFFECT_APPLY_SQL,
    "jobs/effect_apply.sql"
);
sql_file!(EFFECTS_SQL, "jobs/effects.sql");
sql_file!(
    /// §5: the procedure that sends a burst of NOTIFYs, its CALL, and the queue's usage.
    NOTIFY_BURST_PROC_SQL,
    "jobs/notify_burst_proc.sql"
);
sql_file!(NOTIFY_BURST_SQL, "jobs/notify_burst.sql");
sql_file!(NOTIFY_QUEUE_SQL, "jobs/notify_queue.sql");
/// A row holding one id (an INSERT … RETURNING id).
#[derive(Deserialize)]
struct Id {
    id: i64,
}

/// A row holding one count.
#[derive(Deserialize)]
struct Count {
    n: i64,
}

/// Rows a statement changed, whatever it returned.
async fn affected(c: &impl Conn, sql: &str, params: &[Param]) -> Result<u64, DbError> {
    Ok(c.query::<serde_json::Value>(sql, params).await?.affected)
}

/// The lab's tables, made afresh: the earlier ones dropped (reset.sql), the article's table
/// (schema.sql), §4's alert trigger (dead_alert.sql) and §5's burst procedure
/// (notify_burst_proc.sql). Scripts, run in that order.
pub async fn install(c: &impl Conn) -> Result<(), DbError> {
    for script in [RESET_SQL, SCHEMA_SQL, DEAD_ALERT_SQL, NOTIFY_BURST_PROC_SQL] {
        c.exec(script).await?;
    }
    Ok(())
}

/// A job as the enqueue form writes it (enqueue.sql).
pub struct Enqueue<'a> {
    pub queue: &'a str,
    pub payload: &'a serde_json::Value,
    pub priority: i32,
    /// Seconds from now until it may run (`run_at`).
    pub delay_seconds: i64,
    pub max_attempts: i32,
}

/// Inserts a job; returns its id.
pub async fn enqueue(c: &impl Conn, p: Enqueue<'_>) -> Result<i64, DbError> {
    let params = [
        p.queue.into(),
        p.payload.clone().into(),
        p.priority.into(),
        Param::Float(p.delay_seconds as f64),
        p.max_attempts.into(),
    ];
    Ok(c.query::<Id>(ENQUEUE_SQL, &params).await?.one()?.id)
}

/// A job with an ordering key (enqueue_keyed.sql).
pub struct EnqueueKeyed<'a> {
    pub payload: &'a serde_json::Value,
    pub key: &'a str,
}

/// Inserts a job with an ordering key; returns its id.
pub async fn enqueue_keyed(c: &impl Conn, p: EnqueueKeyed<'_>) -> Result<i64, DbError> {
    let params = [p.payload.clone().into(), p.key.into()];
    Ok(c.query::<Id>(ENQUEUE_KEYED_SQL, &params).await?.one()?.id)
}

/// An order (order_insert.sql).
pub struct OrderInsert<'a> {
    pub customer: &'a str,
    pub total: f64,
}

/// Inserts an order; returns its id.
pub async fn order_insert(c: &impl Conn, p: OrderInsert<'_>) -> Result<i64, DbError> {
    let params = [p.customer.into(), Param::Float(p.total)];
    Ok(c.query::<Id>(ORDER_INSERT_SQL, &params).await?.one()?.id)
}

/// Inserts the receipt job of order `order`; returns the job's id.
pub async fn order_job_insert(c: &impl Conn, order: i64) -> Result<i64, DbError> {
    let rows = c.query::<Id>(ORDER_JOB_INSERT_SQL, &[order.into()]).await?;
    Ok(rows.one()?.id)
}

/// NOTIFY jobs with `payload` (delivered when the transaction commits).
pub async fn notify(c: &impl Conn, payload: &str) -> Result<(), DbError> {
    affected(c, NOTIFY_SQL, &[payload.into()]).await.map(|_| ())
}

/// Makes dead the jobs whose lease ran out on their last attempt (reap.sql).
pub async fn reap(c: &impl Conn) -> Result<(), DbError> {
    affected(c, REAP_SQL, &[]).await.map(|_| ())
}

/// The claim (claim.sql): the job claimed, if one was ready.
pub async fn claim(c: &impl Conn) -> Result<Option<Claimed>, DbError> {
    Ok(c.query::<Claimed>(CLAIM_SQL, &[]).await?.first())
}

/// The per-key claim (claim_per_key.sql): the job claimed, if one was ready.
pub async fn claim_per_key(c: &impl Conn) -> Result<Option<Claimed>, DbError> {
    Ok(c.query::<Claimed>(CLAIM_PER_KEY_SQL, &[]).await?.first())
}

/// How many ready jobs the per-key claim holds back (held_back.sql).
pub async fn held_back(c: &impl Conn) -> Result<i64, DbError> {
    Ok(c.query::<Count>(HELD_BACK_SQL, &[])
        .await?
        .first()
        .map_or(0, |r| r.n))
}

/// Completes `claim`'s job (complete.sql); returns the rows updated (0: a stale claim).
pub async fn complete(c: &impl Conn, claim: Claim) -> Result<u64, DbError> {
    affected(c, COMPLETE_SQL, &[claim.job.into(), claim.attempt.into()]).await
}

/// Completes `claim`'s job by deleting it (complete_delete.sql); returns the rows deleted.
pub async fn complete_delete(c: &impl Conn, claim: Claim) -> Result<u64, DbError> {
    let params = [claim.job.into(), claim.attempt.into()];
    affected(c, COMPLETE_DELETE_SQL, &params).await
}

/// A failed attempt (fail.sql).
pub struct Fail<'a> {
    pub claim: Claim,
    pub error: &'a str,
}

/// Records a failure: the job retried later or dead; `None` for a stale claim.
pub async fn fail(c: &impl Conn, p: Fail<'_>) -> Result<Option<Failed>, DbError> {
    let params = [p.claim.job.into(), p.claim.attempt.into(), p.error.into()];
    Ok(c.query::<Failed>(FAIL_SQL, &params).await?.first())
}

/// Extends `claim`'s lease (heartbeat.sql): its new end, or `None` if the lease was lost.
pub async fn heartbeat(c: &impl Conn, claim: Claim) -> Result<Option<String>, DbError> {
    #[derive(Deserialize)]
    struct LockedUntil {
        locked_until: String,
    }
    let params = [claim.job.into(), claim.attempt.into()];
    let rows = c.query::<LockedUntil>(HEARTBEAT_SQL, &params).await?;
    Ok(rows.first().map(|r| r.locked_until))
}

/// How many jobs a worker could claim now (rescan.sql).
pub async fn rescan(c: &impl Conn) -> Result<i64, DbError> {
    #[derive(Deserialize)]
    struct Claimable {
        claimable: i64,
    }
    let rows = c.query::<Claimable>(RESCAN_SQL, &[]).await?;
    Ok(rows.first().map_or(0, |r| r.claimable))
}

/// Puts dead job `job` back in the queue (requeue.sql); returns the rows updated.
pub async fn requeue(c: &impl Conn, job: i64) -> Result<u64, DbError> {
    affected(c, REQUEUE_SQL, &[job.into()]).await
}

/// What snapshot.sql reads: the newest `limit` jobs, and `also` wherever they are.
pub struct SnapshotOf<'a> {
    pub limit: i64,
    pub also: &'a [i64],
}

/// The tables for the view, in one row (decoded by `SnapshotRow::decode`).
pub async fn snapshot(c: &impl Conn, p: SnapshotOf<'_>) -> Result<SnapshotRow, DbError> {
    let params = [p.limit.into(), Param::ids(p.also)];
    c.query::<SnapshotRow>(SNAPSHOT_SQL, &params).await?.one()
}

/// The jobs table's rows, dead row versions and size (table_stats.sql).
pub async fn table_stats(c: &impl Conn) -> Result<TableStats, DbError> {
    c.query::<TableStats>(TABLE_STATS_SQL, &[]).await?.one()
}

/// What broker_check.sql checks: the simulated broker's messages (one order id each) and
/// every order the lab wrote.
pub struct BrokerCheck<'a> {
    pub broker: &'a [i64],
    pub orders: &'a [i64],
}

pub async fn broker_check(c: &impl Conn, p: BrokerCheck<'_>) -> Result<Vec<Reconciled>, DbError> {
    let params = [Param::ids(p.broker), Param::ids(p.orders)];
    Ok(c.query::<Reconciled>(BROKER_CHECK_SQL, &params).await?.rows)
}

/// A job's effect applied by a worker (effect_apply.sql).
pub struct EffectApply<'a> {
    pub claim: Claim,
    pub worker: &'a str,
}

/// Applies the effect under the job's idempotency key, or finds it applied already.
pub async fn effect_apply(c: &impl Conn, p: EffectApply<'_>) -> Result<Applied, DbError> {
    let params = [p.claim.job.into(), p.worker.into(), p.claim.attempt.into()];
    c.query::<Applied>(EFFECT_APPLY_SQL, &params).await?.one()
}

/// The effects applied so far, newest first (effects.sql).
pub async fn effects(c: &impl Conn) -> Result<Vec<Effect>, DbError> {
    Ok(c.query::<Effect>(EFFECTS_SQL, &[]).await?.rows)
}

/// A burst of NOTIFYs (notify_burst.sql).
pub struct NotifyBurst {
    pub n: u32,
    /// Each payload's size.
    pub bytes: i64,
}

/// Sends the burst while this session is busy; the queue's usage before and after.
pub async fn notify_burst(c: &impl Conn, p: NotifyBurst) -> Result<BurstRow, DbError> {
    let params = [p.n.into(), p.bytes.into()];
    c.query::<BurstRow>(NOTIFY_BURST_SQL, &params).await?.one()
}

/// NOTIFY's queue now, and its largest size (notify_queue.sql).
pub async fn notify_queue(c: &impl Conn) -> Result<QueueRow, DbError> {
    c.query::<QueueRow>(NOTIFY_QUEUE_SQL, &[]).await?.one()
}
