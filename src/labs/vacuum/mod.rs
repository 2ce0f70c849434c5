//! L3 Bloat and VACUUM: the same jobs three ways on real PGlite.
//! model.rs: state and actions, no UI; view.rs: components.
pub mod model;
pub mod view;

use crate::lab::{Lab, LabId};
use leptos::prelude::*;

pub const LAB: Lab = Lab {
    slug: "vacuum",
    tag: "L3",
    title: "lab.vacuum.title",
    short: "lab.vacuum.short",
    summary: "lab.vacuum.summary",
    needs_postgres: true,
    search_path: "vacuum_lab, lab, pg_catalog, public",
    keeps_path: false,
    view: || view! { <view::VacuumLab/> }.into_any(),
};

pub const ID: LabId = LabId(&LAB);
