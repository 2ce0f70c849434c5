//! Queue Lab: Postgres-as-a-queue labs on a real PostgreSQL 18 (PGlite) inside the tab.
//!
//! Data flows one way: view → model action → `db` → PGlite → typed rows → signals → view.

pub mod app;
pub mod clock;
pub mod db;
pub mod labs;
pub mod ui;

pub use queue_lab_core::i18n::{Lang, Msg};

/// Mounts the app on the page's body.
pub fn start() {
    leptos::mount::mount_to_body(app::App);
}
