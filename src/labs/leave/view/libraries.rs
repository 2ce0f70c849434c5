//! §7 of the article, "use a library before writing your own": the libraries it names, each
//! with what it does about the points the other labs show (the claim, leases, retries and
//! dead letters, waking workers, finished rows, order). What a library does is stated from
//! its own documentation; the page links nowhere, so it names each one's home.

use crate::ui::i18n::tr;
use crate::ctx::use_ctx;
use leptos::prelude::*;

/// (name, ecosystem, catalog key of what it does). In the article's order.
pub const LIBRARIES: [(&str, &str, &str); 7] = [
    ("pg-boss", "Node.js", "leave.ui.lib.pg_boss"),
    ("Procrastinate", "Python", "leave.ui.lib.procrastinate"),
    ("Oban", "Elixir", "leave.ui.lib.oban"),
    ("pgmq", "PostgreSQL", "leave.ui.lib.pgmq"),
    ("River", "Go", "leave.ui.lib.river"),
    ("Graphile Worker", "Node.js", "leave.ui.lib.graphile_worker"),
    ("Solid Queue", "Ruby on Rails", "leave.ui.lib.solid_queue"),
];

#[component]
pub fn Libraries() -> impl IntoView {
    let lang = use_ctx().lang;
    let rows = LIBRARIES
        .iter()
        .map(|&(name, ecosystem, key)| {
            view! {
                <tr data-library=name>
                    <th scope="row">{name}</th>
                    <td>{ecosystem}</td>
                    <td class="prose">{move || tr(lang.get(), key)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="panel" aria-labelledby="leave-libs-title">
            <h2 id="leave-libs-title">{move || tr(lang.get(), "leave.ui.libs")}</h2>
            <p>{move || tr(lang.get(), "leave.ui.libs.lead")}</p>
            <div class="table-wrap" tabindex="0">
                <table id="leave-libs">
                    <thead>
                        <tr>
                            <th scope="col">{move || tr(lang.get(), "leave.ui.libs.col.name")}</th>
                            <th scope="col">{move || tr(lang.get(), "leave.ui.libs.col.for")}</th>
                            <th scope="col">{move || tr(lang.get(), "leave.ui.libs.col.does")}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="muted">{move || tr(lang.get(), "leave.ui.libs.note")}</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::LIBRARIES;
    use queue_lab_core::i18n::Catalog;

    #[test]
    fn every_library_is_described_in_both_languages() {
        let catalog = Catalog::parse(crate::ui::i18n::FILES).expect("catalog parses");
        for (name, _, key) in LIBRARIES {
            assert!(catalog.has(key), "{name}: {key} missing");
        }
    }
}
