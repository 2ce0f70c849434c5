//! Pieces every lab uses: translations, the Start Postgres panel, the SQL log and console,
//! the clock, embed-mode sizing, taking a lab home (`take_home`), and how numbers read
//! (`format`).

pub mod clock_panel;
pub mod console;
pub mod embed;
pub mod export;
pub mod figure;
pub mod format;
pub mod i18n;
pub mod input;
pub mod keep;
pub mod lab_page;
pub mod lang;
pub mod panel;
pub mod reveal;
pub mod sql_log;
pub mod start;
pub mod table;
pub mod take_home;
