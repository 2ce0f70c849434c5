//! Pieces every lab uses: translations, the Start Postgres panel, the SQL log and console,
//! the clock, and embed-mode sizing.

pub mod clock;
pub mod console;
pub mod embed;
pub mod i18n;
pub mod reveal;
pub mod sql_log;
pub mod start;
