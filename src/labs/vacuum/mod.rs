//! L3 Bloat and VACUUM.
//!
//! - `model.rs`: the lab's state ([`model::Lab`]), its actions and share-link codec; no UI.
//! - `run.rs`: the work on the database (rounds, measures, VACUUM, the page map, …).
//! - `records.rs`: the row types and what is derived from them without SQL.
//! - `tour.rs`: the guided tour's steps.
//! - `view/`: the components, which read the snapshot and send actions.
pub mod model;
pub mod records;
pub mod run;
pub mod tour;
pub mod view;

/// Whether the home page lists this lab as ready.
pub const BUILT: bool = true;
