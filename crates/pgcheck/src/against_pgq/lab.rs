//! The script's operations on the lab's engine (schema `pgque`, `src/sql/pgque/*.sql`), on
//! the lab's clock and search path, as the app runs them.
//!
//! TODO(issue 22): the engine in schema `pgque` is being written on main; until it lands
//! here, [`engine`] says so and the check runs PgQ's side alone.

use super::Engine;
use crate::CheckError;

/// The lab's engine, ready to run the script, or why it cannot.
#[allow(dead_code)] // TODO(issue 22): Ready is built once the pgque engine lands
pub enum Lab {
    Ready(Box<dyn Engine>),
    Missing(String),
}

pub fn engine(_url: &str) -> Result<Lab, CheckError> {
    Ok(Lab::Missing(
        "lab engine (pgque): not in this build yet".into(),
    ))
}
