//! L5 When to leave: the advisor (`crates/core`), no database.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI; challenges.rs
//! its challenges; view/ components (view/libraries.rs: its texts).
pub mod challenges;
pub mod model;
pub mod view;

// Its descriptor (`LAB`, `ID`), written by build.rs from `lab.tsv` beside this file.
include!(concat!(env!("OUT_DIR"), "/labs/leave.rs"));
