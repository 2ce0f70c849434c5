//! L2's tour on the page: each step's title and a button that sets its inputs and runs
//! them; the step run last says what to look at (the figures it names are marked in the
//! tables). Same markup as the other labs' tours (`.tour`, `.tour-run[data-step]`,
//! `li.current .tour-body`), so the tests and the style treat them alike.

use crate::ctx::Ctx;
use crate::labs::workers::tour::TOUR;
use crate::ui::i18n::{render, rich};
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
    view! {
        <section class="panel tour" id="w-tour" aria-labelledby="tour-title">
            <h2 id="tour-title">{ctx.t("workers.tour.title")}</h2>
            <p class="muted">{ctx.t("workers.tour.hint")}</p>
            {move || refused.get().map(|m| view! { <p class="note" role="status" id="w-step-refused">{move || render(ctx.lang.get(), &m)}</p> })}
            <ol>
                {TOUR
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let current = move || step.get() == Some(i);
                        let body = s.body_msg();
                        view! {
                            <li class:current=current>
                                <div class="row">
                                    <span>{ctx.t(s.title)}</span>
                                    <button type="button" class="small tour-run" data-step=i.to_string()
                                        disabled=move || busy.get()
                                        on:click=move |_| run_step(i)>
                                        {ctx.t("guide.tour.run")}
                                    </button>
                                </div>
                                <Show when=current>
                                    <p class="note tour-body">{
                                        let body = body.clone();
                                        move || rich(&render(ctx.lang.get(), &body))
                                    }</p>
                                </Show>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
}
