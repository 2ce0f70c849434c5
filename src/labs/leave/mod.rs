//! L5 When to leave: the advisor (`crates/core`), no database.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI; view/
//! components (view/libraries.rs: its texts).
pub mod model;
pub mod view;

use crate::keys;
use crate::lab::{Lab, LabId};
use leptos::prelude::*;

pub const LAB: Lab = Lab {
    slug: "leave",
    tag: "L5",
    title: keys::LAB_LEAVE_TITLE,
    short: keys::LAB_LEAVE_SHORT,
    summary: keys::LAB_LEAVE_SUMMARY,
    blurb: keys::LAB_LEAVE_BLURB,
    needs_postgres: false,
    schema: None,
    keeps_path: false,
    view: || view! { <view::LeaveLab/> }.into_any(),
};

pub const ID: LabId = LabId(&LAB);
