//! L2 Many workers: a deterministic simulator of claim strategies (`crates/sim`), no database.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI; tour.rs the
//! guided tour's steps; view/ components (view/tour.rs the tour's panel).
pub mod model;
pub mod tour;
pub mod view;

use crate::keys;

crate::lab::descriptor! {
    slug: "workers", tag: "L2", schema: None, keeps_path: false,
    view: WorkersLab,
    title: keys::LAB_WORKERS_TITLE, short: keys::LAB_WORKERS_SHORT,
    summary: keys::LAB_WORKERS_SUMMARY, blurb: keys::LAB_WORKERS_BLURB,
}
