use leptos::prelude::*;

#[component]
pub fn LeaveLab() -> impl IntoView {
    view! { <super::super::NotBuilt id=super::super::LabId::parse("leave").unwrap_or(super::super::LabId::Jobs)/> }
}
