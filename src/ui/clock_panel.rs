//! The lab clock: shows lab time and moves it forward by +1 s, +10 s, +30 s or a typed step.

use crate::ctx::use_ctx;
use crate::keys;
use crate::ui::i18n::render;
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

/// `now`: lab time as Postgres prints it. `on_advance(seconds)` runs the step.
#[component]
pub fn ClockBar(
    now: Signal<String>,
    on_advance: Callback<i64>,
    #[prop(optional)] busy: Option<Signal<bool>>,
) -> impl IntoView {
    let ctx = use_ctx();
    let custom = RwSignal::new(String::from("60"));
    let problem = RwSignal::new(None::<Msg>);
    let busy = busy.unwrap_or_else(|| Signal::derive(|| false));
    let step = move |s: i64| {
        problem.set(None);
        on_advance.run(s);
    };
    let custom_step = move || match crate::clock::parse_step(&custom.get_untracked()) {
        Ok(s) => step(s),
        Err(m) => problem.set(Some(m)),
    };
    view! {
        <div class="clock-bar" role="group" aria-label=ctx.t(keys::CLOCK_LABEL)>
            <span class="clock" title=ctx.t(keys::CLOCK_EXPLAIN)>
                <span class="visually-hidden">{ctx.t(keys::CLOCK_LABEL)}</span>
                <time id="lab-clock">{move || crate::clock::time_of_day(&now.get()).to_owned()}</time>
            </span>
            {[1i64, 10, 30]
                .into_iter()
                .map(|s| view! {
                    <button type="button" class="small" disabled=busy on:click=move |_| step(s)>{format!("+{s} s")}</button>
                })
                .collect_view()}
            <form class="custom-step" on:submit=move |ev| { ev.prevent_default(); custom_step(); }>
                <label>
                    <span class="visually-hidden">{ctx.t(keys::CLOCK_CUSTOM_LABEL)}</span>
                    <input
                        type="text"
                        inputmode="numeric"
                        size="5"
                        id="clock-custom"
                        aria-label=ctx.t(keys::CLOCK_CUSTOM_LABEL)
                        prop:value=custom
                        on:input=move |ev| custom.set(event_target_value(&ev))
                    />
                </label>
                <button type="submit" class="small" disabled=busy>{ctx.t(keys::CLOCK_ADVANCE)}</button>
            </form>
            <Show when=move || problem.with(Option::is_some)>
                <p class="field-error" role="alert">
                    {move || problem.get().map(|m| render(ctx.lang.get(), &m)).unwrap_or_default()}
                </p>
            </Show>
        </div>
    }
}
