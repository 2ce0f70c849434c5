//! Pieces of the labs' tables.

use crate::ctx::Ctx;
use leptos::prelude::*;
use queue_lab_core::i18n::Key;

/// A table's column headers, one `<th scope="col">` per key, in the page's language.
pub fn col_heads(ctx: Ctx, cols: &'static [Key]) -> impl IntoView {
    cols.iter()
        .map(|&key| view! { <th scope="col">{ctx.t(key)}</th> })
        .collect_view()
}

/// A table in a frame that scrolls sideways and takes the keyboard's focus: its column heads
/// (`head`, the cells of the one header row) and its rows (`children`, the body's).
#[component]
pub fn ScrollTable(
    #[prop(optional)] id: Option<&'static str>,
    #[prop(optional)] class: Option<&'static str>,
    #[prop(into)] head: ViewFnOnce,
    children: Children,
) -> impl IntoView {
    view! {
        <div class="table-wrap" tabindex="0">
            <table id=id class=class>
                <thead>
                    <tr>{head.run()}</tr>
                </thead>
                <tbody>{children()}</tbody>
            </table>
        </div>
    }
}
