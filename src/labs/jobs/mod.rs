//! L1 Job queue: the article's `jobs` table on real PGlite.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI; sql.rs its
//! statements; rows.rs the rows they return; share.rs the share link;
//! tour.rs the guided tour's steps; challenges.rs its challenges, in the tour's format; view/
//! components.
pub mod challenges;
pub mod model;
pub mod rows;
pub mod share;
pub mod sql;
pub mod tour;
pub mod view;

// Its descriptor (`LAB`, `ID`), written by build.rs from `lab.tsv` beside this file.
include!(concat!(env!("OUT_DIR"), "/labs/jobs.rs"));
