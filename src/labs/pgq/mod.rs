//! L4 PgQ-style rotation queue on real PGlite, and a side by side with a SKIP LOCKED queue.
//! model.rs: state and actions, no UI (sql.rs its statements, rows.rs the rows they return,
//! consumers.rs subscribing and cooperative consumers, share.rs the share link); view.rs and
//! consumers_view.rs: components.
pub mod compare;
pub mod compare_view;
pub mod consumers;
pub mod consumers_view;
pub mod model;
pub mod rows;
pub mod share;
pub mod sql;
pub mod view;

use crate::lab::{Lab, LabId};
use leptos::prelude::*;

pub const LAB: Lab = Lab {
    slug: "pgq",
    tag: "L4",
    title: "lab.pgq.title",
    short: "lab.pgq.short",
    summary: "lab.pgq.summary",
    blurb: "lab.pgq.blurb",
    needs_postgres: true,
    schema: Some("pgq_lab"),
    keeps_path: false,
    view: || view! { <view::PgqLab/> }.into_any(),
};

pub const ID: LabId = LabId(&LAB);
