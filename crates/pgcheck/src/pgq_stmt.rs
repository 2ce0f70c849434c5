//! L4's statements (`src/sql/pgque/lab/*.sql`) that pgcheck runs on the lab's engine, each
//! named once for `pgcheck pgq` (the side by side, [`coop`](super::coop)) and
//! `--against-pgq` (the script's lab side).

use crate::target::lab_sql;

pub const CREATE_QUEUE: &str = lab_sql!("pgque/lab/create_queue.sql");
pub const QUEUE_CONFIG: &str = lab_sql!("pgque/lab/queue_config.sql");
pub const SUBSCRIBE: &str = lab_sql!("pgque/lab/subscribe.sql");
pub const UNSUBSCRIBE: &str = lab_sql!("pgque/lab/unsubscribe.sql");
pub const SUB_ADD: &str = lab_sql!("pgque/lab/sub_add.sql");
pub const SEND: &str = lab_sql!("pgque/lab/send.sql");
pub const SEND_BURST: &str = lab_sql!("pgque/lab/send_burst.sql");
pub const FORCE_TICK: &str = lab_sql!("pgque/lab/force_tick.sql");
pub const TICK: &str = lab_sql!("pgque/lab/tick.sql");
pub const RECEIVE: &str = lab_sql!("pgque/lab/receive.sql");
pub const RECEIVE_COOP: &str = lab_sql!("pgque/lab/receive_coop.sql");
pub const ACK: &str = lab_sql!("pgque/lab/ack.sql");
pub const NACK: &str = lab_sql!("pgque/lab/nack.sql");
pub const RETRY_EVENTS: &str = lab_sql!("pgque/lab/retry_events.sql");
pub const MAINT: &str = lab_sql!("pgque/lab/maint.sql");
pub const ROTATE_STEP2: &str = lab_sql!("pgque/lab/rotate_step2.sql");
pub const FLUSH_STATS: &str = lab_sql!("pgque/lab/flush_stats.sql");
pub const TABLE_INFO: &str = lab_sql!("pgque/lab/table_info.sql");
pub const CURSOR_INFO: &str = lab_sql!("pgque/lab/cursor_info.sql");
pub const QUEUE_INFO: &str = lab_sql!("pgque/lab/queue_info.sql");
pub const CONSUMER_INFO: &str = lab_sql!("pgque/lab/consumer_info.sql");
pub const DLQ_INSPECT: &str = lab_sql!("pgque/lab/dlq_inspect.sql");
