//! L1 Job queue: the article's `jobs` table on real PGlite.
//! model.rs: state and actions, no UI; view.rs: components.
pub mod codec;
pub mod input;
pub mod model;
pub mod rows;
pub mod view;
mod view_lessons;
mod view_lifecycle;

use crate::lab::{Lab, LabId};
use leptos::prelude::*;

pub const LAB: Lab = Lab {
    slug: "jobs",
    tag: "L1",
    title: "lab.jobs.title",
    short: "lab.jobs.short",
    summary: "lab.jobs.summary",
    blurb: "lab.jobs.blurb",
    needs_postgres: true,
    schema: Some("jobs_lab"),
    keeps_path: true,
    view: || view! { <view::JobsLab/> }.into_any(),
};

pub const ID: LabId = LabId(&LAB);
