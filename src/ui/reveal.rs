//! Bringing what an action changed into view inside a region that scrolls by itself (the
//! wide layout's watch column), without moving the page.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// Scrolls `region` (when it scrolls at all) so that `target`, one of its descendants, is in
/// view, `head` pixels below the region's top (a sticky table header's height).
pub fn reveal_within(region: &Element, target: &Element, head: i32) {
    if region.scroll_height() <= region.client_height() {
        return;
    }
    let (r, t) = (
        region.get_bounding_client_rect(),
        target.get_bounding_client_rect(),
    );
    let scroll = f64::from(region.scroll_top());
    let top = t.top() - r.top() - f64::from(region.client_top()) + scroll;
    let bottom = top + t.height();
    let (head, view) = (f64::from(head), f64::from(region.client_height()));
    if top - head < scroll {
        region.set_scroll_top((top - head).floor() as i32);
    } else if bottom > scroll + view {
        region.set_scroll_top((bottom - view).min(top - head).ceil() as i32);
    }
}

/// After the next paint, reveals the first element matching `target` inside the first
/// element matching `region` (CSS selectors); nothing when either is not on the page.
pub fn reveal_later(region: &'static str, target: String) {
    leptos::prelude::request_animation_frame(move || {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let find = |sel: &str| doc.query_selector(sel).ok().flatten();
        if let (Some(region), Some(target)) = (find(region), find(&target)) {
            reveal_within(&region, &target, 0);
        }
    });
}

/// The height of `region`'s table header, when `region` holds a table.
pub fn head_height(region: &Element) -> i32 {
    region
        .query_selector("thead")
        .ok()
        .flatten()
        .and_then(|h| h.dyn_into::<HtmlElement>().ok())
        .map_or(0, |h| h.offset_height())
}
