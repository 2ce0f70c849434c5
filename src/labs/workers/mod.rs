//! L2 Many workers: a deterministic simulator of claim strategies (`crates/sim`), no database.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI; tour.rs the
//! guided tour's steps; challenges.rs its challenges; view/ components (view/tour.rs the tour's
//! panel).
pub mod challenges;
pub mod model;
pub mod tour;
pub mod view;

// Its descriptor (`LAB`, `ID`), written by build.rs from `lab.tsv` beside this file.
include!(concat!(env!("OUT_DIR"), "/labs/workers.rs"));
