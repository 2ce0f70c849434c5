use leptos::prelude::*;

#[component]
pub fn WorkersLab() -> impl IntoView {
    view! { <super::super::NotBuilt id=super::super::LabId::parse("workers").unwrap_or(super::super::LabId::Jobs)/> }
}
