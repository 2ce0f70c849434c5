//! A lab's page, in the app's main area: built at once when its code is here, else a line
//! saying its code is on its way, replaced by the page when it arrives, or by what failed
//! and a Retry (see [`crate::descriptor::Page`]: in the release split by lab, a lab's code is a
//! module of its own).

use crate::ctx::use_ctx;
use crate::descriptor::{FetchFailed, LabId};
use crate::keys;
use leptos::prelude::*;

/// The page of `lab`.
pub fn page(lab: LabId) -> AnyView {
    match lab.constructor() {
        Some(build) => build(),
        None => view! { <Fetching lab/> }.into_any(),
    }
}

#[derive(Clone, Copy)]
enum State {
    Fetching,
    Failed(FetchFailed),
    Arrived(fn() -> AnyView),
}

/// The page of a lab whose code has not arrived: fetched now, then built by this render
/// closure (the owner a page built at once has).
#[component]
fn Fetching(lab: LabId) -> impl IntoView {
    let ctx = use_ctx();
    let state = RwSignal::new(State::Fetching);
    let fetch = move || {
        state.set(State::Fetching);
        crate::task::spawn(async move {
            let done = match lab.0.fetch().await {
                Ok(build) => State::Arrived(build),
                Err(failed) => State::Failed(failed),
            };
            // The learner may have left the lab meanwhile: then there is nothing to update.
            let _ = state.try_set(done);
        });
    };
    fetch();
    move || match state.get() {
        State::Arrived(build) => build(),
        State::Fetching => view! {
            <section class="lab-fetching" aria-busy="true">
                <h1>{ctx.t(lab.title)}</h1>
                <p class="starting" role="status">{ctx.t(keys::SHELL_LAB_FETCHING)}</p>
            </section>
        }
        .into_any(),
        State::Failed(FetchFailed) => view! {
            <section class="lab-fetching">
                <h1>{ctx.t(lab.title)}</h1>
                <div class="error" role="alert" id="lab-fetch-failed">
                    <p class="error-text">{ctx.t(keys::SHELL_LAB_FETCH_FAILED)}</p>
                    <button type="button" id="lab-fetch-retry" on:click=move |_| fetch()>
                        {ctx.t(keys::SHELL_LANG_RETRY)}
                    </button>
                </div>
            </section>
        }
        .into_any(),
    }
}
