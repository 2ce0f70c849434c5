//! Embed mode: tells the embedding page how tall the lab is, so its iframe can fit it (the
//! message is `{type: 'queue-lab:size', height}`; `assets/embed/queue-lab.js` accepts it
//! only from its own iframe); the theme the page asks for (`?theme=`, any mode); the way out
//! to the full lab in the same state; and one PostgreSQL per page of embeds.

use crate::ctx::{query_param, share_base, use_ctx, Ctx, DbState};
use crate::keys;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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

// ---------------------------------------------------------------- theme

/// The theme a page asks for with `?theme=` (the embedding kit's `theme` attribute):
/// `Some("light" | "dark")`, or `None` to follow the system (`auto`, absent, or unknown).
pub fn theme_from_query(raw: Option<&str>) -> Option<&'static str> {
    match raw.map(|t| t.trim().to_ascii_lowercase()).as_deref() {
        Some("light") => Some("light"),
        Some("dark") => Some("dark"),
        _ => None,
    }
}

/// Sets `<html data-theme>` from `?theme=`; the stylesheet's palette follows it (and the
/// system when it is absent).
pub fn apply_theme() {
    let Some(theme) = theme_from_query(query_param("theme").as_deref()) else {
        return;
    };
    if let Some(html) = window().document().and_then(|d| d.document_element()) {
        let _ = html.set_attribute("data-theme", theme);
    }
}

// ---------------------------------------------------------------- open the full lab

/// The share link of the state on screen, published by the lab's share box (L1, L3, L4) while
/// it is shown, so that "Open the full lab" carries the embed's state.
#[derive(Clone, Copy)]
pub struct FullLab(pub RwSignal<Option<String>>);

/// The full lab's address: the lab's share link when it has one; else the page's address
/// without `embed` (`base`, from [`crate::ctx::share_base`]) and the hash the lab keeps its
/// inputs in (L2, L5), or the lab's route when the hash names none.
pub fn full_lab_url(share: Option<&str>, base: &str, hash: &str, route_hash: &str) -> String {
    if let Some(link) = share.filter(|l| !l.is_empty()) {
        return link.to_owned();
    }
    let hash = if hash
        .trim_start_matches('#')
        .trim_start_matches('/')
        .is_empty()
    {
        route_hash
    } else {
        hash
    };
    format!("{base}{hash}")
}

fn full_lab_href(ctx: Ctx, full: FullLab) -> String {
    full_lab_url(
        full.0.get().as_deref(),
        &share_base(),
        &window().location().hash().unwrap_or_default(),
        &ctx.route.get().hash(),
    )
}

/// Above an embedded lab: the way out to the full lab, in a new tab, in the same state.
#[component]
pub fn EmbedBar() -> impl IntoView {
    let ctx = use_ctx();
    let full = expect_context::<FullLab>();
    view! {
        <div class="embed-bar">
            <a
                id="open-full-lab"
                href=move || full_lab_href(ctx, full)
                target="_blank"
                rel="noopener"
                // L2 and L5 keep their inputs in the hash without an event: read it again now.
                on:click=move |ev| {
                    if let Some(a) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                        let _ = a.set_attribute("href", &untrack(|| full_lab_href(ctx, full)));
                    }
                }
            >
                {ctx.t(keys::EMBED_OPEN_FULL)}
            </a>
        </div>
    }
}

// ---------------------------------------------------------------- one PostgreSQL per page

/// Set when another embed on the page started its PostgreSQL and this one stopped its own.
#[derive(Clone, Copy)]
pub struct StoppedForPeer(pub RwSignal<bool>);

/// The channel the embeds of one origin share (same-origin frames; the embedding kit relays
/// between frames of other origins).
const CHANNEL: &str = "queue-lab:postgres";
/// Posted on [`CHANNEL`] and to the parent when this embed's PostgreSQL is ready.
const STARTED: &str = "queue-lab:started";
/// Posted by the embedding kit to its other frames when one of them started.
const STOP: &str = "queue-lab:stop";

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = BroadcastChannel)]
    type Channel;
    #[wasm_bindgen(constructor, js_class = "BroadcastChannel", catch)]
    fn new(name: &str) -> Result<Channel, JsValue>;
    #[wasm_bindgen(method, js_name = postMessage)]
    fn post(this: &Channel, message: &JsValue);
    #[wasm_bindgen(method, setter = onmessage)]
    fn set_onmessage(this: &Channel, handler: &js_sys::Function);
}

/// Whether a message on the channel asks this embed to stop: another embed (`id` differs) of
/// the same host page (`page`, the frames' referrer) started.
pub fn asks_to_stop(kind: &str, id: &str, page: &str, me: &str, my_page: &str) -> bool {
    kind == STARTED && id != me && page == my_page
}

fn field(data: &JsValue, name: &str) -> String {
    js_sys::Reflect::get(data, &name.into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// Keeps one PostgreSQL running on a page of embeds: when this embed's PostgreSQL is ready it
/// says so to the others (the channel, and the parent for the embedding kit to relay), and
/// when another one says so, this one stops its own. Its state is kept as its share link in
/// the address, which the lab replays when it starts again.
pub fn one_postgres_per_page(ctx: Ctx, full: FullLab, stopped: StoppedForPeer) {
    let me = js_sys::Math::random().to_string();
    let page = window()
        .document()
        .map(|d| d.referrer())
        .unwrap_or_default();
    let channel = std::rc::Rc::new(Channel::new(CHANNEL).ok());

    let stop_here = move || {
        let Some(runner) = ctx.runner_untracked() else {
            return;
        };
        if let Some((_, hash)) = full
            .0
            .get_untracked()
            .as_deref()
            .and_then(|l| l.split_once('#'))
        {
            if let Ok(history) = window().history() {
                let _ =
                    history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("#{hash}")));
            }
        }
        runner.stop("Another lab on this page started its PostgreSQL");
        ctx.db.set(DbState::Idle);
        stopped.0.set(true);
    };

    if let Some(ch) = channel.as_ref() {
        let (me, page) = (me.clone(), page.clone());
        let on_message =
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                let data = ev.data();
                if asks_to_stop(
                    &field(&data, "type"),
                    &field(&data, "id"),
                    &field(&data, "page"),
                    &me,
                    &page,
                ) {
                    stop_here();
                }
            });
        ch.set_onmessage(on_message.as_ref().unchecked_ref());
        on_message.forget();
    }
    // The embedding kit's relay: only from this frame's parent.
    let _ = window_event_listener(leptos::ev::message, move |ev| {
        let from_parent = match (ev.source(), window().parent().ok().flatten()) {
            (Some(source), Some(parent)) => js_sys::Object::is(&source, &parent),
            _ => false,
        };
        if from_parent && field(&ev.data(), "type") == STOP {
            stop_here();
        }
    });

    Effect::new(move |was_ready: Option<bool>| {
        let ready = matches!(ctx.db.get(), DbState::Ready { .. });
        if ready && was_ready != Some(true) {
            stopped.0.set(false);
            let msg = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&msg, &"type".into(), &STARTED.into());
            let _ = js_sys::Reflect::set(&msg, &"id".into(), &me.as_str().into());
            let _ = js_sys::Reflect::set(&msg, &"page".into(), &page.as_str().into());
            if let Some(ch) = channel.as_ref() {
                ch.post(&msg);
            }
            if let Ok(Some(parent)) = window().parent() {
                let _ = parent.post_message(&msg, "*");
            }
        }
        ready
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn theme_is_light_or_dark_when_asked_and_the_system_otherwise() {
        assert_eq!(theme_from_query(Some("dark")), Some("dark"));
        assert_eq!(theme_from_query(Some(" Light ")), Some("light"));
        assert_eq!(theme_from_query(Some("auto")), None);
        assert_eq!(theme_from_query(Some("sepia")), None);
        assert_eq!(theme_from_query(None), None);
    }

    #[test]
    fn full_lab_link_is_the_share_link_else_the_address_with_the_labs_hash() {
        let base = "https://x.org/ql/?lab=jobs&lang=ko";
        assert_eq!(
            full_lab_url(
                Some("https://x.org/ql/?lab=jobs#/jobs?s=o.c"),
                base,
                "",
                "#/jobs"
            ),
            "https://x.org/ql/?lab=jobs#/jobs?s=o.c"
        );
        assert_eq!(
            full_lab_url(None, base, "", "#/jobs"),
            format!("{base}#/jobs")
        );
        assert_eq!(
            full_lab_url(Some(""), base, "#/", "#/jobs"),
            format!("{base}#/jobs")
        );
        assert_eq!(
            full_lab_url(None, base, "#/workers?w=8", "#/workers"),
            format!("{base}#/workers?w=8")
        );
    }

    #[test]
    fn only_another_embed_of_the_same_page_starting_stops_this_one() {
        assert!(asks_to_stop(
            STARTED,
            "2",
            "https://d.org/p",
            "1",
            "https://d.org/p"
        ));
        assert!(!asks_to_stop(
            STARTED,
            "1",
            "https://d.org/p",
            "1",
            "https://d.org/p"
        ));
        assert!(!asks_to_stop(
            STARTED,
            "2",
            "https://d.org/other",
            "1",
            "https://d.org/p"
        ));
        assert!(!asks_to_stop(
            "queue-lab:size",
            "2",
            "https://d.org/p",
            "1",
            "https://d.org/p"
        ));
    }
}
