//! L2 Many workers: a deterministic simulator of claim strategies (`crates/sim`), no database.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI; tour.rs the
//! guided tour's steps; view/ components (view/tour.rs the tour's panel).
pub mod model;
pub mod tour;
pub mod view;

use crate::lab::{Lab, LabId};
use leptos::prelude::*;

pub const LAB: Lab = Lab {
    slug: "workers",
    tag: "L2",
    title: "lab.workers.title",
    short: "lab.workers.short",
    summary: "lab.workers.summary",
    blurb: "lab.workers.blurb",
    needs_postgres: false,
    schema: None,
    keeps_path: false,
    view: || view! { <view::WorkersLab/> }.into_any(),
};

pub const ID: LabId = LabId(&LAB);
