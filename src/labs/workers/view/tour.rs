//! L2's tour on the page: each step's title and a button that sets its inputs and runs
//! them; the step run last says what to look at (the figures it names are marked in the
//! tables). The markup is every lab's (`labs::guide::TourList`).

use crate::ctx::Ctx;
use crate::keys;
use crate::labs::guide::TourList;
use crate::labs::workers::tour::TOUR;
use crate::ui::i18n::render;
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

/// `run_step(i)` sets step `i`'s inputs and runs them; `step` is the step shown open;
/// `refused` says why an address's `?step=N` was not opened.
#[component]
pub fn WorkersTour(
    ctx: Ctx,
    step: RwSignal<Option<usize>>,
    refused: RwSignal<Option<Msg>>,
    busy: Signal<bool>,
    run_step: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let steps = TOUR.iter().map(|s| (s.title, s.body_msg())).collect();
    view! {
        <TourList steps title=keys::WORKERS_TOUR_TITLE hint=keys::WORKERS_TOUR_HINT step busy run_step id="w-tour">
            {move || refused.get().map(|m| view! { <p class="note" role="status" id="w-step-refused">{move || render(ctx.lang.get(), &m)}</p> })}
        </TourList>
    }
}
