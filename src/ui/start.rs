//! "Start Postgres": downloads PGlite on click, shows progress, the server version once it
//! answers, and on failure what failed with a Retry.

use crate::app::{use_ctx, DbState, Route};
use leptos::prelude::*;

#[component]
pub fn StartPanel() -> impl IntoView {
    let ctx = use_ctx();
    // The panel appears on the pages of labs that run SQL.
    let on_lab = move || matches!(ctx.route.get(), Route::Lab(id) if id.needs_postgres());
    let body = move || {
        match ctx.db.get() {
        DbState::Idle => view! {
            <p>{ctx.t("start.intro")}</p>
            <button type="button" class="primary" id="start-postgres" on:click=move |_| ctx.start_postgres()>
                {ctx.t("start.button")}
            </button>
        }
        .into_any(),
        DbState::Loading { fraction, booting } => {
            let percent = (fraction * 100.0).round();
            view! {
                <label for="pg-progress">
                    {move || if booting { ctx.t("start.booting")() } else { ctx.t("start.downloading")() }}
                </label>
                <progress id="pg-progress" max="100" value=percent>{format!("{percent}%")}</progress>
            }
            .into_any()
        }
        DbState::Ready { version, .. } => view! {
            <p class="ready" id="pg-version">
                <span class="dot" aria-hidden="true"></span>
                {ctx.t("start.ready")} " " <strong>{format!("PostgreSQL {version}")}</strong>
                " · " {ctx.t("start.in_tab")}
            </p>
        }
        .into_any(),
        DbState::Failed(message) => view! {
            <div class="error" role="alert" id="start-error">
                <p><strong>{ctx.t("start.failed")}</strong></p>
                <p class="error-text">{message}</p>
                <button type="button" class="primary" id="start-retry" on:click=move |_| ctx.start_postgres()>
                    {ctx.t("start.retry")}
                </button>
            </div>
        }
        .into_any(),
    }
    };
    view! {
        <Show when=on_lab>
            <section class="start-panel" aria-live="polite">{body}</section>
        </Show>
    }
}
