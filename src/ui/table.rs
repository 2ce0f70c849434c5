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
