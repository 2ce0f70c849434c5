//! Taking a lab home: the controls (Save and Open on a lab's start panel, "Download as SQL"
//! and "Download as script" in its status line) and what they run, the flows. Only a click
//! needs the flows, so in the release split by lab they are a module of their own (`Keep`),
//! fetched on the first click; a failed fetch says so where the learner clicked, and the
//! next click fetches again. The flows' work is `ui::keep`'s (the saved file) and
//! `ui::export`'s (the downloads for a server).

use crate::ctx::{use_ctx, Ctx, DbState, Route};
use crate::descriptor::LabId;
use crate::keys;
use crate::runner::Runner;
use crate::ui::export::{self, Kind, Making};
use crate::ui::keep::{self, Note};
use leptos::prelude::*;
use queue_lab_core::i18n::{Lang, Msg};
use wasm_bindgen::JsCast;

/// A flow of Save or Open, started by a click and saying how it went in the note.
type Flow = std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>;

/// What taking a lab home does: write the lab as a file and offer it for download; read a
/// chosen file and open it; make the text of a download for a real server
/// (`ui::export`). Only a click needs them, so in the release split by lab they are a
/// module of their own (`Keep`), fetched on the first click ([`flows`]).
struct Flows {
    save: fn(Runner, LabId, Lang, RwSignal<Option<Note>>) -> Flow,
    open: fn(Ctx, web_sys::HtmlInputElement, LabId, RwSignal<Option<Note>>) -> Flow,
    /// The text of "Download as SQL" or "Download as script" (`export::make`).
    export: fn(Runner, LabId, Kind, String) -> Making,
}

static FLOWS: Flows = Flows {
    save: |runner, lab, lang, note| {
        Box::pin(async move {
            match keep::save(&runner, lab, lang).await {
                Ok(bytes) => {
                    let name = keep::file_name(lab);
                    crate::db::save_file(&name, &bytes, "application/octet-stream");
                    let kb = (bytes.len() as f64 / 1024.0).round();
                    note.try_set(Some(Note::Done(
                        Msg::new(keys::KEEP_SAVED).arg("file", name).arg("kb", kb),
                    )));
                }
                Err(m) => {
                    note.try_set(Some(Note::Refused(m)));
                }
            }
        })
    },
    open: |ctx, el, lab, note| {
        Box::pin(async move {
            let bytes = crate::db::read_file(&el).await;
            // The same file may be chosen again (after a refusal, or to go back to it).
            el.set_value("");
            match bytes {
                Ok(Some(bytes)) => keep::open_file(ctx, bytes, lab, note).await,
                Ok(None) => {}
                Err(e) => {
                    note.try_set(Some(Note::Refused(
                        Msg::new(keys::KEEP_ERR_FAILED).arg("error", e.message),
                    )));
                }
            }
        })
    },
    export: |runner, lab, kind, server| Box::pin(export::make(runner, lab, kind, server)),
};

/// The flows of taking a lab home: here in every build but the release split by lab, where
/// they are fetched on the first click (and fetched again after a failure).
async fn flows() -> Result<&'static Flows, crate::descriptor::FetchFailed> {
    #[cfg(queue_lab_split)]
    {
        fetched_flows().await
    }
    #[cfg(not(queue_lab_split))]
    {
        Ok(&FLOWS)
    }
}

// The split point: the splitter moves this, and all that only it reaches (the file format,
// its checks, the labs' keepers, the restore, the downloads' text), into the module `Keep`.
#[cfg(queue_lab_split)]
#[leptos::wasm_split::wasm_split(Keep, wasm_split_path = ::leptos::wasm_split, fallible)]
fn fetched_flows() -> Result<&'static Flows, crate::descriptor::FetchFailed> {
    Ok(&FLOWS)
}

/// The two controls, on the start panel of a lab that saves: Save (once PostgreSQL runs and
/// the lab is set up) and Open (a file input, also before PostgreSQL is started).
#[component]
pub fn KeepControls() -> impl IntoView {
    let ctx = use_ctx();
    let note = RwSignal::new(None::<Note>);
    let lab = move || match ctx.route.get() {
        Route::Lab(id) if keep::saves(id) => Some(id),
        _ => None,
    };
    let save_click = move |_| {
        let (Some(lab), Some(runner)) = (lab(), ctx.runner_untracked()) else {
            return;
        };
        let lang = ctx.lang.get_untracked();
        note.set(Some(Note::Working(Msg::new(keys::KEEP_SAVING))));
        crate::task::spawn(async move {
            match flows().await {
                Ok(flows) => (flows.save)(runner, lab, lang, note).await,
                Err(_) => {
                    note.try_set(Some(Note::Refused(Msg::new(keys::KEEP_ERR_FETCH))));
                }
            }
        });
    };
    let input = NodeRef::<leptos::html::Input>::new();
    let chosen = move |_| {
        let (Some(lab), Some(el)) = (lab(), input.get_untracked()) else {
            return;
        };
        crate::task::spawn(async move {
            match flows().await {
                Ok(flows) => (flows.open)(ctx, el, lab, note).await,
                Err(_) => {
                    // The same file may be chosen again once the code is here.
                    el.set_value("");
                    note.try_set(Some(Note::Refused(Msg::new(keys::KEEP_ERR_FETCH))));
                }
            }
        });
    };
    let ready = move || matches!(ctx.db.get(), DbState::Ready { .. });
    let working = move || matches!(note.get(), Some(Note::Working(_)));
    // While PostgreSQL starts, its start would replace the opened one when it ends.
    let starting = move || matches!(ctx.db.get(), DbState::Loading { .. });
    let said = move || {
        note.get().map(|n| {
            let lang = ctx.lang.get();
            let (class, role, msg) = match n {
                Note::Working(m) => ("note", "status", m),
                Note::Done(m) => ("note good", "status", m),
                Note::Refused(m) => ("note bad", "alert", m),
            };
            view! { <p class=class role=role id="keep-note">{crate::ui::i18n::render(lang, &msg)}</p> }
        })
    };
    view! {
        <Show when=move || lab().is_some()>
            <div class="keep" id="keep">
                <div class="row">
                    <Show when=ready>
                        <button type="button" class="small" id="keep-save" title=ctx.t(keys::KEEP_SAVE_HELP)
                            disabled=working on:click=save_click>
                            {ctx.t(keys::KEEP_SAVE)}
                        </button>
                    </Show>
                    // The file input is hidden but focusable (Tab, then Enter or Space opens
                    // the picker); its label is the button the learner sees, in the page's
                    // language (the browser's own button would not be).
                    <input type="file" id="keep-open" class="visually-hidden keep-file" accept=".qlab"
                        node_ref=input disabled=move || working() || starting() on:change=chosen/>
                    <label for="keep-open" class="keep-open">{ctx.t(keys::KEEP_OPEN)}</label>
                </div>
                {said}
            </div>
        </Show>
    }
}

/// The two download buttons of the status line, for the lab on screen (labs on PostgreSQL).
#[component]
pub fn ExportButtons(runner: Runner, version: String) -> impl IntoView {
    let ctx = use_ctx();
    let busy = RwSignal::new(false);
    let note = RwSignal::new(None::<String>);
    let version = StoredValue::new(version);
    let run = move |kind: Kind| {
        let Route::Lab(lab) = ctx.route.get_untracked() else {
            return;
        };
        let runner = runner.clone();
        let server = version.get_value();
        busy.set(true);
        note.set(None);
        crate::task::spawn(async move {
            let Ok(flows) = flows().await else {
                busy.set(false);
                note.set(Some(crate::ui::i18n::tr(
                    ctx.lang.get_untracked(),
                    keys::EXPORT_ERR_FETCH,
                )));
                return;
            };
            let made = (flows.export)(runner, lab, kind, server).await;
            busy.set(false);
            let lang = ctx.lang.get_untracked();
            match made {
                Ok(text) => {
                    let name = match kind {
                        Kind::Sql => format!("queue-lab-{}.sql", lab.slug),
                        Kind::Script => format!("queue-lab-{}-script.sql", lab.slug),
                    };
                    if let Err(e) = download(&name, &text) {
                        note.set(Some(e));
                    } else {
                        note.set(Some(crate::ui::i18n::render(
                            lang,
                            &queue_lab_core::i18n::Msg::new(keys::EXPORT_DONE).arg("file", name),
                        )));
                    }
                }
                Err(_) if kind == Kind::Script => {
                    note.set(Some(crate::ui::i18n::tr(
                        lang,
                        keys::EXPORT_SCRIPT_TOO_LONG,
                    )));
                }
                Err(e) => note.set(Some(format!(
                    "{} {}",
                    crate::ui::i18n::tr(lang, keys::EXPORT_FAILED),
                    e
                ))),
            }
        });
    };
    let run2 = run.clone();
    view! {
        <button type="button" class="small" id="export-sql" title=move || ctx.t(keys::EXPORT_DUMP_HELP)().replace('`', "")
            disabled=move || busy.get() on:click=move |_| run(Kind::Sql)>
            {ctx.t(keys::EXPORT_DUMP)}
        </button>
        <button type="button" class="small" id="export-script" title=move || ctx.t(keys::EXPORT_SCRIPT_HELP)().replace('`', "")
            disabled=move || busy.get() on:click=move |_| run2(Kind::Script)>
            {ctx.t(keys::EXPORT_SCRIPT)}
        </button>
        <span class="muted" role="status" id="export-note">{move || note.get()}</span>
    }
}

/// Offers `text` as a file download named `name`.
fn download(name: &str, text: &str) -> Result<(), String> {
    let fail = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let props = web_sys::BlobPropertyBag::new();
    props.set_type("application/sql;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &props).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "not an anchor".to_owned())?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // Revoked after the click's download has started.
    let revoke = url.clone();
    crate::task::spawn(async move {
        gloo_timers::future::TimeoutFuture::new(10_000).await;
        let _ = web_sys::Url::revoke_object_url(&revoke);
    });
    Ok(())
}
