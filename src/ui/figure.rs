//! Pieces the labs' SVG figures share.

use leptos::prelude::*;

/// An arrowhead for a figure's paths to end with (`marker-end="url(#id)"`), drawn in
/// `class`; it belongs in the figure's `<defs>`.
#[component]
pub fn ArrowHead(id: &'static str, class: &'static str) -> impl IntoView {
    view! {
        <marker id=id viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" class=class/>
        </marker>
    }
}
