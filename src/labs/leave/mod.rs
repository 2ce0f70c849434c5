//! L5 When to leave: the advisor (`crates/core`), no database.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI; view/
//! components (view/libraries.rs: its texts).
pub mod model;
pub mod view;

use crate::keys;

crate::lab::descriptor! {
    slug: "leave", tag: "L5", schema: None, keeps_path: false,
    view: LeaveLab,
    title: keys::LAB_LEAVE_TITLE, short: keys::LAB_LEAVE_SHORT,
    summary: keys::LAB_LEAVE_SUMMARY, blurb: keys::LAB_LEAVE_BLURB,
}
