use leptos::prelude::*;

#[component]
pub fn VacuumLab() -> impl IntoView {
    view! { <super::super::NotBuilt id=super::super::LabId::parse("vacuum").unwrap_or(super::super::LabId::Jobs)/> }
}
