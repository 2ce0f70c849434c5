//! Embed mode: tells the embedding page how tall the lab is, so its iframe can fit it.
//! The message is `{type: 'queue-lab:size', height}`; `assets/embed/queue-lab.js` accepts it
//! only from its own iframe.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// Posts the document's height to the parent whenever it changes (checked every 300 ms,
/// which is cheaper to reason about than a ResizeObserver on every reflow).
pub fn report_size_to_parent() {
    let last = std::cell::Cell::new(0.0);
    let tick = move || {
        let Some(doc) = window().document() else {
            return;
        };
        let Some(body) = doc.body() else { return };
        // The content's own height: inside an iframe the document is never shorter than the
        // frame, so scrollHeight would never let the embed shrink.
        let height = body.get_bounding_client_rect().height().ceil();
        if (height - last.get()).abs() < 1.0 {
            return;
        }
        last.set(height);
        let msg = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&msg, &"type".into(), &"queue-lab:size".into());
        let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
        if let Ok(Some(parent)) = window().parent() {
            let _ = parent.post_message(&msg, "*");
        }
    };
    let closure = Closure::<dyn Fn()>::new(tick);
    let _ = window().set_interval_with_callback_and_timeout_and_arguments_0(
        closure.as_ref().unchecked_ref(),
        300,
    );
    // The page lives as long as the app: the interval is never cleared.
    closure.forget();
}
