//! L2 Many workers: a deterministic simulator of claim strategies (`crates/sim`), no database.
//! The lab skeleton (see `src/labs/mod.rs`): model.rs state and actions, no UI; tour.rs the
//! guided tour's steps; view/ components (view/tour.rs the tour's panel).
pub mod model;
pub mod tour;
pub mod view;

use crate::keys;
use crate::lab::{Lab, LabId};
use leptos::prelude::*;

pub const LAB: Lab = Lab {
    slug: "workers",
    tag: "L2",
    title: keys::LAB_WORKERS_TITLE,
    short: keys::LAB_WORKERS_SHORT,
    summary: keys::LAB_WORKERS_SUMMARY,
    blurb: keys::LAB_WORKERS_BLURB,
    needs_postgres: false,
    schema: None,
    keeps_path: false,
    view: || view! { <view::WorkersLab/> }.into_any(),
};

pub const ID: LabId = LabId(&LAB);
