//! L1's statements, exactly as the files in `src/sql/jobs/` hold them.

pub const SCHEMA_SQL: &str = include_str!("../../sql/jobs/schema.sql");
pub const RESET_SQL: &str = include_str!("../../sql/jobs/reset.sql");
pub const ENQUEUE_SQL: &str = include_str!("../../sql/jobs/enqueue.sql");
pub const ORDER_INSERT_SQL: &str = include_str!("../../sql/jobs/order_insert.sql");
pub const ORDER_JOB_INSERT_SQL: &str = include_str!("../../sql/jobs/order_job_insert.sql");
pub const NOTIFY_SQL: &str = include_str!("../../sql/jobs/notify.sql");
pub const CLAIM_SQL: &str = include_str!("../../sql/jobs/claim.sql");
/// The article's claim exactly as published, shown beside ours (see `claim.sql`).
pub const CLAIM_ARTICLE_SQL: &str = include_str!("../../sql/jobs/claim_article.sql");
pub const REAP_SQL: &str = include_str!("../../sql/jobs/reap.sql");
pub const COMPLETE_SQL: &str = include_str!("../../sql/jobs/complete.sql");
/// §2's other completion: the job's row is deleted (the same guard as `COMPLETE_SQL`).
pub const COMPLETE_DELETE_SQL: &str = include_str!("../../sql/jobs/complete_delete.sql");
/// The lab's own hook for §4's alert: a trigger that sends NOTIFY job_dead when a job goes dead.
pub const DEAD_ALERT_SQL: &str = include_str!("../../sql/jobs/dead_alert.sql");
/// The lab's own: the jobs table's rows, dead row versions and size.
pub const TABLE_STATS_SQL: &str = include_str!("../../sql/jobs/table_stats.sql");
pub const FAIL_SQL: &str = include_str!("../../sql/jobs/fail.sql");
pub const HEARTBEAT_SQL: &str = include_str!("../../sql/jobs/heartbeat.sql");
pub const REQUEUE_SQL: &str = include_str!("../../sql/jobs/requeue.sql");
pub const SNAPSHOT_SQL: &str = include_str!("../../sql/jobs/snapshot.sql");
pub const RESCAN_SQL: &str = include_str!("../../sql/jobs/rescan.sql");
/// The lab's own (not the article's): a job with an ordering key.
pub const ENQUEUE_KEYED_SQL: &str = include_str!("../../sql/jobs/enqueue_keyed.sql");
/// The lab's own: the claim that runs the jobs of one key one after the other.
pub const CLAIM_PER_KEY_SQL: &str = include_str!("../../sql/jobs/claim_per_key.sql");
/// The lab's own: how many ready jobs the per-key claim holds back.
pub const HELD_BACK_SQL: &str = include_str!("../../sql/jobs/held_back.sql");
/// §1: every order the lab wrote against the simulated broker and the jobs table.
pub const BROKER_CHECK_SQL: &str = include_str!("../../sql/jobs/broker_check.sql");
/// §4: a job's effect under its idempotency key, and the effects applied so far.
pub const EFFECT_APPLY_SQL: &str = include_str!("../../sql/jobs/effect_apply.sql");
pub const EFFECTS_SQL: &str = include_str!("../../sql/jobs/effects.sql");
/// §5: the procedure that sends a burst of NOTIFYs, its CALL, and the queue's usage.
pub const NOTIFY_BURST_PROC_SQL: &str = include_str!("../../sql/jobs/notify_burst_proc.sql");
pub const NOTIFY_BURST_SQL: &str = include_str!("../../sql/jobs/notify_burst.sql");
pub const NOTIFY_QUEUE_SQL: &str = include_str!("../../sql/jobs/notify_queue.sql");
