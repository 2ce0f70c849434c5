//! L1 Job queue: the article's `jobs` table on real PGlite.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI; sql.rs its
//! statements; rows.rs the rows they return; share.rs the share link;
//! tour.rs the guided tour's steps; view/ components.
pub mod model;
pub mod rows;
pub mod share;
pub mod sql;
pub mod tour;
pub mod view;

use crate::keys;

crate::lab::descriptor! {
    slug: "jobs", tag: "L1", schema: Some("jobs_lab"), keeps_path: true,
    view: JobsLab,
    title: keys::LAB_JOBS_TITLE, short: keys::LAB_JOBS_SHORT,
    summary: keys::LAB_JOBS_SUMMARY, blurb: keys::LAB_JOBS_BLURB,
}
