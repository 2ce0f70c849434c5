//! L4 PgQ-style rotation queue on real PGlite, and a side by side with a SKIP LOCKED queue.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI (model/:
//! consumers.rs subscribing and cooperative consumers, compare.rs the side by side); sql.rs
//! its statements; rows.rs the rows they return; share.rs the share link;
//! tour.rs the guided tour's steps; view/ components.
pub mod challenges;
pub mod model;
pub mod rows;
pub mod share;
pub mod sql;
pub mod tour;
pub mod view;

// Its descriptor (`LAB`, `ID`), written by build.rs from `lab.tsv` beside this file.
include!(concat!(env!("OUT_DIR"), "/labs/pgq.rs"));
