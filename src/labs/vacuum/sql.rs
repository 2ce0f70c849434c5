//! L3's statements, exactly as the files in `src/sql/vacuum/` hold them (the article's own
//! queue statements are in `labs::common::sql`).

pub use crate::labs::common::sql::*;

pub const SETUP_CHECK: &str = include_str!("../../sql/vacuum/setup_check.sql");
pub const SETUP_EXTENSIONS: &str = include_str!("../../sql/vacuum/setup_extensions.sql");
pub const SETUP_TABLES: &str = include_str!("../../sql/vacuum/setup_tables.sql");
pub const SETUP_HELPERS: &str = include_str!("../../sql/vacuum/setup_helpers.sql");
pub const TEARDOWN: &str = include_str!("../../sql/vacuum/teardown.sql");
pub const USE_STRATEGY: &str = include_str!("../../sql/vacuum/use_strategy.sql");
pub const ROTATE_TRUNCATE: &str = include_str!("../../sql/vacuum/rotate_truncate.sql");
pub const ENQUEUE_PARTITION: &str = include_str!("../../sql/vacuum/enqueue_partition.sql");
pub const PARTITION_OPEN: &str = include_str!("../../sql/vacuum/partition_open.sql");
pub const PARTITION_DROP: &str = include_str!("../../sql/vacuum/partition_drop.sql");
pub const ANALYZE: &str = include_str!("../../sql/vacuum/analyze.sql");
pub const MEASURE_TABLE: &str = include_str!("../../sql/vacuum/measure_table.sql");
pub const MEASURE_INDEXES: &str = include_str!("../../sql/vacuum/measure_indexes.sql");
pub const CLAIM_ARTICLE: &str = include_str!("../../sql/vacuum/claim_article.sql");
pub const CLAIM_INDEXED: &str = include_str!("../../sql/vacuum/claim_indexed.sql");
pub const EXPLAIN_INDEXED: &str = include_str!("../../sql/vacuum/explain_claim_indexed.sql");
pub const PLAN_NODES: &str = include_str!("../../sql/vacuum/plan_nodes.sql");
pub const LONG_TX_BEGIN: &str = include_str!("../../sql/vacuum/long_tx_begin.sql");
pub const LONG_TX_STATUS: &str = include_str!("../../sql/vacuum/long_tx_status.sql");
pub const LONG_TX_RELEASE: &str = include_str!("../../sql/vacuum/long_tx_release.sql");
pub const PAGE_MAP: &str = include_str!("../../sql/vacuum/page_map.sql");
pub const AUTOVACUUM_SETTINGS: &str = include_str!("../../sql/vacuum/autovacuum_settings.sql");
pub const SET_AUTOVACUUM: &str = include_str!("../../sql/vacuum/set_autovacuum.sql");
pub const VACUUM_FULL_SETUP: &str = include_str!("../../sql/vacuum/vacuum_full_setup.sql");
pub const VACUUM_FULL_LOCK: &str = include_str!("../../sql/vacuum/vacuum_full_lock.sql");
pub const VACUUM_FULL: &str = include_str!("../../sql/vacuum/vacuum_full.sql");
pub const RELATION_FILE: &str = include_str!("../../sql/vacuum/relation_file.sql");
