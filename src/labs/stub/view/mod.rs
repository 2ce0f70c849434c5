//! The stub lab's page: its title, what it is for, and the search path its SQL runs with.

use crate::ctx::use_ctx;
use crate::keys;
use leptos::prelude::*;

#[component]
pub fn StubLab() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <section class="lab stub-lab">
            <h1>{ctx.t(super::LAB.title)}</h1>
            <p class="lead">{ctx.t(keys::STUB_INTRO)}</p>
            <p>
                {ctx.t(keys::STUB_SEARCH_PATH)} " "
                <code id="stub-search-path">{super::LAB.search_path()}</code>
            </p>
        </section>
    }
}
