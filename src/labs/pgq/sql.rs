//! L4's SQL: the engine's files in install order, every statement the lab runs (one file
//! each in `src/sql/pgque/lab/`, shown verbatim in the SQL log), the lab's limits, and the
//! engine's SQLSTATEs.

use crate::db::DbError;
use crate::keys;
use queue_lab_core::i18n::Key;

/// The engine, installed in this order (each file is one `db.exec`).
pub const ENGINE: [(&str, &str); 9] = [
    (
        "00_schema.sql",
        include_str!("../../sql/pgque/00_schema.sql"),
    ),
    ("10_queue.sql", include_str!("../../sql/pgque/10_queue.sql")),
    ("20_send.sql", include_str!("../../sql/pgque/20_send.sql")),
    (
        "30_ticker.sql",
        include_str!("../../sql/pgque/30_ticker.sql"),
    ),
    (
        "40_receive.sql",
        include_str!("../../sql/pgque/40_receive.sql"),
    ),
    ("45_coop.sql", include_str!("../../sql/pgque/45_coop.sql")),
    (
        "50_retry_dlq.sql",
        include_str!("../../sql/pgque/50_retry_dlq.sql"),
    ),
    ("60_info.sql", include_str!("../../sql/pgque/60_info.sql")),
    ("70_maint.sql", include_str!("../../sql/pgque/70_maint.sql")),
];

macro_rules! lab_sql {
    ($name:ident, $file:literal) => {
        pub const $name: &str = include_str!(concat!("../../sql/pgque/lab/", $file));
    };
}
lab_sql!(DROP_SQL, "drop.sql");
lab_sql!(CREATE_QUEUE_SQL, "create_queue.sql");
lab_sql!(SUBSCRIBE_SQL, "subscribe.sql");
lab_sql!(UNSUBSCRIBE_SQL, "unsubscribe.sql");
lab_sql!(SUB_ADD_SQL, "sub_add.sql");
lab_sql!(SUB_REMOVE_SQL, "sub_remove.sql");
lab_sql!(RECEIVE_COOP_SQL, "receive_coop.sql");
lab_sql!(SUBCONSUMER_INFO_SQL, "subconsumer_info.sql");
lab_sql!(SEND_SQL, "send.sql");
lab_sql!(SEND_BURST_SQL, "send_burst.sql");
lab_sql!(FORCE_TICK_SQL, "force_tick.sql");
lab_sql!(TICK_SQL, "tick.sql");
lab_sql!(QUEUE_CONFIG_SQL, "queue_config.sql");
lab_sql!(BATCH_EVENTS_SQL, "batch_events.sql");
lab_sql!(NACK_OUTCOME_SQL, "nack_outcome.sql");
lab_sql!(TICK_SNAPSHOT_SQL, "tick_snapshot.sql");
lab_sql!(RECEIVE_SQL, "receive.sql");
lab_sql!(ACK_SQL, "ack.sql");
lab_sql!(NACK_SQL, "nack.sql");
lab_sql!(MAINT_SQL, "maint.sql");
lab_sql!(RETRY_EVENTS_SQL, "retry_events.sql");
lab_sql!(DLQ_INSPECT_SQL, "dlq_inspect.sql");
lab_sql!(DLQ_REPLAY_SQL, "dlq_replay.sql");
lab_sql!(FLUSH_STATS_SQL, "flush_stats.sql");
lab_sql!(QUEUE_INFO_SQL, "queue_info.sql");
lab_sql!(CONSUMER_INFO_SQL, "consumer_info.sql");
lab_sql!(TABLE_INFO_SQL, "table_info.sql");
lab_sql!(CURSOR_INFO_SQL, "cursor_info.sql");
lab_sql!(RETRY_LIST_SQL, "retry_list.sql");
lab_sql!(INFLIGHT_FIND_SQL, "inflight_find.sql");
lab_sql!(INFLIGHT_PREPARE_SQL, "inflight_prepare.sql");
lab_sql!(INFLIGHT_ABORT_SQL, "inflight_abort.sql");
lab_sql!(COMMIT_PREPARED_SQL, "commit_prepared.sql");
lab_sql!(ROLLBACK_PREPARED_SQL, "rollback_prepared.sql");

pub const QUEUE: &str = "orders";
/// The consumers subscribed at set-up.
pub const CONSUMERS: [&str; 2] = ["billing", "email"];
/// Every consumer name the page offers to subscribe (a share link accepts only these).
pub const NAMES: [&str; 4] = ["billing", "email", "audit", "search"];
/// Subconsumer names the page offers, per consumer.
pub const SUBS: [&str; 3] = ["w1", "w2", "w3"];
/// A member's batch whose member was silent longer than this (lab seconds) is taken over
/// (receive_coop's dead_interval).
pub const DEAD_SECONDS: i64 = 30;
pub const EVENT_TYPE: &str = "order.created";
pub const NTABLES: i32 = 3;
pub const ROTATION_SECONDS: i64 = 30;
/// The largest burst one click sends.
pub const MAX_BURST: i64 = 5_000;
/// The most events one receive asks for.
pub const MAX_RECEIVE: i64 = 1_000;
/// The longest nack delay the lab accepts: a day, like the clock's step.
pub const MAX_DELAY: i64 = 86_400;
/// Dead letters the view lists.
pub const DLQ_LIMIT: i64 = 50;

/// SQLSTATEs the engine raises, each with a translated explanation.
pub fn error_key(e: &DbError) -> Option<Key> {
    Some(match e.code.as_deref()? {
        "PQ001" => keys::PGQ_ERROR_PQ001,
        "PQ002" => keys::PGQ_ERROR_PQ002,
        "PQ003" => keys::PGQ_ERROR_PQ003,
        "PQ007" => keys::PGQ_ERROR_PQ007,
        "PQ008" => keys::PGQ_ERROR_PQ008,
        "PQ009" => keys::PGQ_ERROR_PQ009,
        "PQ010" => keys::PGQ_ERROR_PQ010,
        "22023" => keys::PGQ_ERROR_22023,
        "55P03" => keys::PGQ_ERROR_55P03,
        _ => return None,
    })
}
