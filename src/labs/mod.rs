//! The labs: ids (used in routes and embed URLs), titles, and which view shows each.
//!
//! Each lab is `labs/<id>/model.rs` (state and actions, SQL calls, no UI) and `view.rs`.

pub mod common;
pub mod guide;
pub mod jobs;
pub mod leave;
pub mod pgq;
pub mod session;
pub mod vacuum;
pub mod workers;

use leptos::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabId {
    Jobs,
    Workers,
    Vacuum,
    Pgq,
    Leave,
}

impl LabId {
    pub const ALL: [LabId; 5] = [
        LabId::Jobs,
        LabId::Workers,
        LabId::Vacuum,
        LabId::Pgq,
        LabId::Leave,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            LabId::Jobs => "jobs",
            LabId::Workers => "workers",
            LabId::Vacuum => "vacuum",
            LabId::Pgq => "pgq",
            LabId::Leave => "leave",
        }
    }

    pub fn parse(id: &str) -> Option<LabId> {
        LabId::ALL.into_iter().find(|l| l.as_str() == id)
    }

    /// L1…L5, as LABS.md numbers them.
    pub fn tag(self) -> &'static str {
        match self {
            LabId::Jobs => "L1",
            LabId::Workers => "L2",
            LabId::Vacuum => "L3",
            LabId::Pgq => "L4",
            LabId::Leave => "L5",
        }
    }

    pub fn built(self) -> bool {
        match self {
            LabId::Jobs => jobs::BUILT,
            LabId::Workers => workers::BUILT,
            LabId::Vacuum => vacuum::BUILT,
            LabId::Pgq => pgq::BUILT,
            LabId::Leave => leave::BUILT,
        }
    }

    /// L2's simulator and L5's advisor are pure Rust: they need no database.
    pub fn needs_postgres(self) -> bool {
        !matches!(self, LabId::Workers | LabId::Leave)
    }

    pub fn title_key(self) -> &'static str {
        match self {
            LabId::Jobs => "lab.jobs.title",
            LabId::Workers => "lab.workers.title",
            LabId::Vacuum => "lab.vacuum.title",
            LabId::Pgq => "lab.pgq.title",
            LabId::Leave => "lab.leave.title",
        }
    }

    pub fn short_key(self) -> &'static str {
        match self {
            LabId::Jobs => "lab.jobs.short",
            LabId::Workers => "lab.workers.short",
            LabId::Vacuum => "lab.vacuum.short",
            LabId::Pgq => "lab.pgq.short",
            LabId::Leave => "lab.leave.short",
        }
    }

    pub fn summary_key(self) -> &'static str {
        match self {
            LabId::Jobs => "lab.jobs.summary",
            LabId::Workers => "lab.workers.summary",
            LabId::Vacuum => "lab.vacuum.summary",
            LabId::Pgq => "lab.pgq.summary",
            LabId::Leave => "lab.leave.summary",
        }
    }
}

/// The page for one lab.
pub fn view(id: LabId) -> AnyView {
    match id {
        LabId::Jobs => view! { <jobs::view::JobsLab/> }.into_any(),
        LabId::Workers => view! { <workers::view::WorkersLab/> }.into_any(),
        LabId::Vacuum => view! { <vacuum::view::VacuumLab/> }.into_any(),
        LabId::Pgq => view! { <pgq::view::PgqLab/> }.into_any(),
        LabId::Leave => view! { <leave::view::LeaveLab/> }.into_any(),
    }
}

/// The page of a lab that is not built yet.
#[component]
pub fn NotBuilt(id: LabId) -> impl IntoView {
    let ctx = crate::app::use_ctx();
    view! {
        <section class="lab">
            <h1>{ctx.t(id.title_key())}</h1>
            <p>{ctx.t(id.summary_key())}</p>
            <p class="soon-note">{ctx.t("shell.not_built")}</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_ids_round_trip_and_match_labs_md() {
        let ids: Vec<_> = LabId::ALL.iter().map(|l| l.as_str()).collect();
        assert_eq!(ids, ["jobs", "workers", "vacuum", "pgq", "leave"]);
        for l in LabId::ALL {
            assert_eq!(LabId::parse(l.as_str()), Some(l));
        }
        assert_eq!(LabId::parse("JOBS"), None);
    }
}
