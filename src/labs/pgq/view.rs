use leptos::prelude::*;

#[component]
pub fn PgqLab() -> impl IntoView {
    view! { <super::super::NotBuilt id=super::super::LabId::parse("pgq").unwrap_or(super::super::LabId::Jobs)/> }
}
