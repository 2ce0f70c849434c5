//! The one place the app starts a task: every piece of async work that runs on its own (a
//! click's action, a fetch, a timer, a rollback after a dropped transaction) is started by
//! [`spawn`], and nothing else in `src/` or `crates/` spawns (a house test, `house/spawn.rs`,
//! holds that). Work on the database goes through the runner (`Runner::run`, or
//! `Runner::spawn` for work whose outcome nobody awaits), which queues it and cancels it when
//! its lab is left; this module only starts the future that awaits it.
//!
//! It sits below every layer, beside `lib.rs`, since the layers at the bottom (the database,
//! the bridge) start tasks too. It uses wasm-bindgen's executor directly, which is the one
//! Leptos's own `spawn_local` hands futures to once the app is mounted, and which works
//! before the mount as well (the texts of a language are fetched before it).

use std::future::Future;

/// Runs `work` on the page's event loop, to its end; what it does with its outcome is up to it.
pub fn spawn(work: impl Future<Output = ()> + 'static) {
    wasm_bindgen_futures::spawn_local(work);
}
