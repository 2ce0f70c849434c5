//! Queue Lab: Postgres-as-a-queue labs on a real PostgreSQL 18 (PGlite) inside the tab.
//!
//! Data flows one way: view → model action → `db` → PGlite → typed rows → signals → view.

// `DbError` carries everything a learner is shown (message, SQLSTATE, position, detail,
// hint, the statement): errors are rare and shown, never a hot path, so its size is fine.
#![allow(clippy::result_large_err)]

pub mod app;
pub mod clock;
/// One constant per key of the app's catalogs (`assets/i18n/*.tsv` but the advisor's
/// `leave.tsv`, whose constants are `queue_lab_core::keys`), written by `build.rs`:
/// `ctx.t(keys::JOBS_OUT_ENQUEUED)`. Private, so a key no code names is a constant nothing
/// uses, which `cargo clippy -- -D warnings` fails (dead code).
mod keys {
    include!(concat!(env!("OUT_DIR"), "/keys.rs"));
}
pub mod ctx;
pub mod db;
pub mod descriptor;
pub mod labs;
pub mod psql;
pub mod runner;
pub mod task;
pub mod testing;
pub mod ui;

pub use queue_lab_core::i18n::{Key, Lang, Msg};

/// Mounts the app on the page's body, in place of the static first screen (`index.html`). A
/// page in a language whose texts are not compiled in (Korean) fetches them first, while the
/// first screen shows; when that fails, the app mounts in English and says what failed. So
/// does a lab page whose code is a module of its own (the release split by lab, see
/// [`descriptor::Page`]), both fetched at once, so the first screen gives way to the lab's page
/// itself; when the lab's code fails to arrive, its page says so, with a Retry.
pub fn start() {
    std::panic::set_hook(Box::new(show_panic));
    let asked = app::initial_lang();
    let lab = match app::start_route() {
        ctx::Route::Lab(id) if id.constructor().is_none() => Some(id),
        _ => None,
    };
    if ui::i18n::loaded(asked) && lab.is_none() {
        mount();
        return;
    }
    // The lab's download starts now, under way while the texts are fetched, and is awaited
    // once below (a failure is shown by the lab's page, which tries again).
    let lab_fetched = lab.map(|id| {
        wasm_bindgen_futures::future_to_promise(async move {
            let _ = id.0.fetch().await;
            Ok(wasm_bindgen::JsValue::UNDEFINED)
        })
    });
    crate::task::spawn(async move {
        if !ui::i18n::loaded(asked) {
            if let Err(failure) = ui::i18n::fetch(asked).await {
                ui::lang::failed_at_start(failure);
            }
        }
        if let Some(fetched) = lab_fetched {
            let _ = wasm_bindgen_futures::JsFuture::from(fetched).await;
        }
        mount();
    });
}

/// Mounts the app; the static first screen gives way to it in the same task, so no frame
/// shows both.
fn mount() {
    leptos::mount::mount_to_body(app::App);
    if let Some(first) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("first-screen"))
    {
        first.remove();
    }
}

/// A bug in the app stops it (release builds abort on panic): say so on the page, with a
/// Reload, instead of leaving a page that silently stopped answering; the panic text goes
/// to the browser console for a bug report.
fn show_panic(info: &std::panic::PanicHookInfo<'_>) {
    let text = info.to_string();
    web_sys::console::error_1(&format!("Queue Lab stopped: {text}").into());
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = doc.body() else { return };
    let Ok(panel) = doc.create_element("div") else {
        return;
    };
    panel.set_id("app-panic");
    panel.set_class_name("error panic");
    let _ = panel.set_attribute("role", "alert");
    let lang = doc
        .document_element()
        .and_then(|e| e.get_attribute("lang"))
        .unwrap_or_default();
    let (title, reload) = if lang == "ko" {
        (
            "Queue Lab이 오류로 멈췄습니다. 새로 고치면 다시 시작합니다.",
            "새로 고침",
        )
    } else {
        (
            "Queue Lab stopped on an error. Reloading the page starts it again.",
            "Reload",
        )
    };
    let parts = [("p", title), ("pre", text.as_str())];
    for (tag, content) in parts {
        if let Ok(el) = doc.create_element(tag) {
            el.set_text_content(Some(content));
            let _ = panel.append_child(&el);
        }
    }
    if let Ok(button) = doc.create_element("button") {
        button.set_text_content(Some(reload));
        button.set_id("app-panic-reload");
        let _ = button.set_attribute("type", "button");
        let _ = button.set_attribute("onclick", "location.reload()");
        let _ = panel.append_child(&button);
    }
    let _ = body.prepend_with_node_1(&panel);
}

#[cfg(test)]
mod house;
