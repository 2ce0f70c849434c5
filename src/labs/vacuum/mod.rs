//! L3 Bloat and VACUUM. The lab skeleton (see `src/labs/mod.rs`):
//!
//! - `model.rs`: the lab's state ([`model::Lab`]) and its actions; no UI
//!   (`model/run.rs`: the work on the database: rounds, measures, VACUUM, the page map, …;
//!   `model/limits.rs`: how big a run the tab takes, measured, refused above).
//! - `sql.rs`: its statements; `rows.rs`: the row types and what is derived from them without SQL.
//! - `share.rs`: the share link.
//! - `tour.rs`: the guided tour's steps; `challenges.rs`: its challenges, in the tour's format.
//! - `view/`: the components, which read the snapshot and send actions.
pub mod challenges;
pub mod model;
pub mod rows;
pub mod share;
pub mod sql;
pub mod tour;
pub mod view;

// Its descriptor (`LAB`, `ID`), written by build.rs from `lab.tsv` beside this file.
include!(concat!(env!("OUT_DIR"), "/labs/vacuum.rs"));
