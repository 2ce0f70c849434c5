use leptos::prelude::*;

#[component]
pub fn JobsLab() -> impl IntoView {
    let ctx = crate::app::use_ctx();
    let entries = crate::ui::sql_log::log_signal();
    view! {
        <section class="lab">
            <h1>{ctx.t("lab.jobs.title")}</h1>
            <crate::ui::sql_log::SqlLog entries=entries/>
            <crate::ui::console::SqlConsole/>
        </section>
    }
}
