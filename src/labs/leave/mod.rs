//! L5 When to leave: the advisor (`crates/core`), no database.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI; view/
//! components (view/libraries.rs: its texts).
pub mod model;
pub mod view;

use crate::lab::{Lab, LabId};
use leptos::prelude::*;

pub const LAB: Lab = Lab {
    slug: "leave",
    tag: "L5",
    title: "lab.leave.title",
    short: "lab.leave.short",
    summary: "lab.leave.summary",
    blurb: "lab.leave.blurb",
    needs_postgres: false,
    schema: None,
    keeps_path: false,
    view: || view! { <view::LeaveLab/> }.into_any(),
};

pub const ID: LabId = LabId(&LAB);
