//! A lab's panel and the SQL it shows folded: the shapes every lab's page repeats.

use crate::ctx::use_ctx;
use leptos::prelude::*;
use queue_lab_core::i18n::Key;

/// `<section class="panel">` titled by its `<h2>` (`heading`: a catalog key; `heading_id`:
/// the heading's id, which labels the section for assistive technology).
#[component]
pub fn Panel(
    heading_id: &'static str,
    heading: Key,
    #[prop(optional)] id: Option<&'static str>,
    children: Children,
) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <section class="panel" aria-labelledby=heading_id id=id>
            <h2 id=heading_id>{ctx.t(heading)}</h2>
            {children()}
        </section>
    }
}

/// The statements behind a panel, folded under `summary` (a catalog key), verbatim.
#[component]
pub fn SqlShown(summary: Key, statements: &'static [&'static str]) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <details>
            <summary>{ctx.t(summary)}</summary>
            {statements.iter().map(|sql| view! { <pre class="sql">{sql.trim()}</pre> }).collect_view()}
        </details>
    }
}

/// A button that runs `on_click`, disabled while the lab works (`disabled`); `label` is its
/// catalog key, and `primary` marks the panel's main action.
pub fn act_button(
    id: &'static str,
    label: Key,
    primary: bool,
    disabled: Signal<bool>,
    on_click: impl Fn() + 'static,
) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <button type="button" id=id class=primary.then_some("primary") disabled=disabled on:click=move |_| on_click()>
            {ctx.t(label)}
        </button>
    }
}
