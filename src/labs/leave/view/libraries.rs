//! §7 of the article, "use a library before writing your own": the libraries it names, each
//! with what it does about the points the other labs show (the claim, leases, retries and
//! dead letters, waking workers, finished rows, order). What a library does is stated from
//! its own documentation; the page links nowhere, so it names each one's home.

use crate::ctx::use_ctx;
use crate::keys;
use crate::ui::i18n::tr;
use crate::ui::table::ScrollTable;
use leptos::prelude::*;
use queue_lab_core::i18n::Key;

/// (name, ecosystem, catalog key of what it does). In the article's order.
pub const LIBRARIES: [(&str, &str, Key); 8] = [
    ("pg-boss", "Node.js", keys::LEAVE_UI_LIB_PG_BOSS),
    ("Procrastinate", "Python", keys::LEAVE_UI_LIB_PROCRASTINATE),
    ("Oban", "Elixir", keys::LEAVE_UI_LIB_OBAN),
    ("pgmq", "PostgreSQL", keys::LEAVE_UI_LIB_PGMQ),
    ("River", "Go", keys::LEAVE_UI_LIB_RIVER),
    (
        "Graphile Worker",
        "Node.js",
        keys::LEAVE_UI_LIB_GRAPHILE_WORKER,
    ),
    (
        "Solid Queue",
        "Ruby on Rails",
        keys::LEAVE_UI_LIB_SOLID_QUEUE,
    ),
    (
        "Hatchet",
        "Python, TypeScript, Go, Ruby",
        keys::LEAVE_UI_LIB_HATCHET,
    ),
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
            <h2 id="leave-libs-title">{move || tr(lang.get(), keys::LEAVE_UI_LIBS)}</h2>
            <p>{move || tr(lang.get(), keys::LEAVE_UI_LIBS_LEAD)}</p>
            <ScrollTable id="leave-libs" head=move || view! {
                <th scope="col">{move || tr(lang.get(), keys::LEAVE_UI_LIBS_COL_NAME)}</th>
                <th scope="col">{move || tr(lang.get(), keys::LEAVE_UI_LIBS_COL_FOR)}</th>
                <th scope="col">{move || tr(lang.get(), keys::LEAVE_UI_LIBS_COL_DOES)}</th>
            }>
                {rows}
            </ScrollTable>
            <p class="muted">{move || tr(lang.get(), keys::LEAVE_UI_LIBS_NOTE)}</p>
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
            assert!(catalog.has(key.as_str()), "{name}: {key} missing");
        }
    }
}
