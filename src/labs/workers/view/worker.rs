//! The page's side of L2's simulator worker (`crates/sim-worker`, built by Trunk as
//! `sim-worker.js` + `sim-worker_bg.wasm` beside the app).
//!
//! For: one worker for the tab, started on the first run; sending it a job and awaiting its
//! answer, handing progress to the page as it comes; Cancel (the worker is terminated, a
//! fresh one started, the run's future answers `Cancelled`); a worker that fails to load or
//! dies answers `Failed` with the browser's reason, and the next run starts a new one. Not for:
//! what is run (the model's `job`) or shown (the view).
//!
//! The worker is started from a small script of ours (a blob URL), not from Trunk's loader:
//! Trunk's calls `wasm_bindgen(…)` without a `catch`, so a `.wasm` that fails to download
//! would leave the page waiting for a "ready" that never comes.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use queue_sim_worker::{Done, Job};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, ErrorEvent, MessageEvent, Url, Worker};

/// Why a run gave no result.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// Cancel was pressed (or the page left): the worker was terminated.
    Cancelled,
    /// The worker could not be started, or died: the browser's reason.
    Failed(String),
    /// The worker ran and refused the job (a bug: the inputs were validated), or its answer
    /// did not decode.
    Refused(String),
}

struct Client {
    worker: Worker,
    url: String,
    ready: bool,
    /// The job to post once the worker says it is ready.
    queued: Option<JsValue>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

struct Pending {
    id: u32,
    /// Resolves the run's promise with the answer (the worker's message, or ours).
    resolve: Function,
    progress: Rc<dyn Fn(f64)>,
}

thread_local! {
    static CLIENT: RefCell<Option<Client>> = const { RefCell::new(None) };
    /// The last client retired: kept one turn, because it may be retired from inside its own
    /// handler (a closure must not be dropped while it runs).
    static RETIRED: RefCell<Option<Client>> = const { RefCell::new(None) };
    static PENDING: RefCell<Option<Pending>> = const { RefCell::new(None) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

fn field(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn answer(kind: &str, message: &str) -> JsValue {
    let o = Object::new();
    let _ = Reflect::set(&o, &"kind".into(), &kind.into());
    let _ = Reflect::set(&o, &"message".into(), &message.into());
    o.into()
}

/// Ends the run waiting (if any) with `value`.
fn settle(value: &JsValue) {
    if let Some(p) = PENDING.with(|p| p.borrow_mut().take()) {
        let _ = p.resolve.call1(&JsValue::NULL, value);
    }
}

/// Terminates the worker (if any); the next run starts a new one.
fn retire() {
    if let Some(c) = CLIENT.with(|c| c.borrow_mut().take()) {
        c.worker.terminate();
        let _ = Url::revoke_object_url(&c.url);
        RETIRED.with(|r| *r.borrow_mut() = Some(c));
    }
}

fn on_message(ev: MessageEvent) {
    let data = ev.data();
    let kind = field(&data, "kind").as_string().unwrap_or_default();
    let id = field(&data, "id").as_f64().map(|id| id as u32);
    match kind.as_str() {
        "ready" => {
            let job = CLIENT.with(|c| {
                let mut c = c.borrow_mut();
                let c = c.as_mut()?;
                c.ready = true;
                c.queued.take().map(|job| (c.worker.clone(), job))
            });
            if let Some((worker, job)) = job {
                if let Err(e) = worker.post_message(&job) {
                    retire();
                    settle(&answer("failed", &format!("{e:?}")));
                }
            }
        }
        "progress" => {
            let fraction = field(&data, "fraction").as_f64().unwrap_or(0.0);
            // Called outside the borrow: what it sets may start anything, even another run.
            let progress = PENDING.with(|p| {
                p.borrow()
                    .as_ref()
                    .filter(|p| Some(p.id) == id)
                    .map(|p| p.progress.clone())
            });
            if let Some(progress) = progress {
                progress(fraction);
            }
        }
        "done" | "error" if PENDING.with(|p| p.borrow().as_ref().map(|p| p.id)) == id => {
            settle(&data);
        }
        "failed" => {
            retire();
            settle(&data);
        }
        _ => {}
    }
}

fn on_error(ev: ErrorEvent) {
    // Handled here: the page says so, with Retry; not an uncaught error of the page.
    ev.prevent_default();
    let message = ev.message();
    retire();
    let reason = if message.is_empty() {
        "the worker stopped".to_owned()
    } else {
        message
    };
    settle(&answer("failed", &reason));
}

/// The worker's starting script: load the bindings, start the module, and say if that fails.
fn boot_script() -> Result<String, JsValue> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .ok_or("the page has no address")?;
    let js = Url::new_with_base("sim-worker.js", &base)?.href();
    let wasm = Url::new_with_base("sim-worker_bg.wasm", &base)?.href();
    Ok(format!(
        "importScripts({js:?});\n\
         wasm_bindgen({{ module_or_path: {wasm:?} }}).catch(function (e) {{\n\
         \x20 postMessage({{ kind: 'failed', message: String((e && e.message) || e) }});\n\
         }});\n"
    ))
}

fn start() -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&boot_script()?.into());
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let worker = Worker::new(&url)?;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(on_message);
    let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(on_error);
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    CLIENT.with(|c| {
        *c.borrow_mut() = Some(Client {
            worker,
            url,
            ready: false,
            queued: None,
            _on_message: on_message,
            _on_error: on_error,
        })
    });
    Ok(())
}

/// Runs `job` in the worker (started now if there is none), calling `progress` with the share
/// done (0..=1) as the worker reports it. One run at a time: a run still waiting is cancelled.
pub async fn run(job: &Job, progress: impl Fn(f64) + 'static) -> Result<Done, Failure> {
    if PENDING.with(|p| p.borrow().is_some()) {
        cancel();
    }
    if CLIENT.with(|c| c.borrow().is_none()) {
        start().map_err(|e| Failure::Failed(format!("{e:?}")))?;
    }
    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    });
    let mut resolve = None;
    let promise = Promise::new(&mut |res, _rej| resolve = Some(res));
    let resolve = resolve.expect("a promise's executor runs at once");
    PENDING.with(|p| {
        *p.borrow_mut() = Some(Pending {
            id,
            resolve,
            progress: Rc::new(progress),
        })
    });
    let message = Object::new();
    let _ = Reflect::set(&message, &"kind".into(), &"run".into());
    let _ = Reflect::set(&message, &"id".into(), &id.into());
    let _ = Reflect::set(
        &message,
        &"job".into(),
        &Uint8Array::from(job.encode().as_slice()).into(),
    );
    let now = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        let c = c.as_mut()?;
        if c.ready {
            Some(c.worker.clone())
        } else {
            c.queued = Some(message.clone().into());
            None
        }
    });
    if let Some(worker) = now {
        if let Err(e) = worker.post_message(&message) {
            retire();
            settle(&answer("failed", &format!("{e:?}")));
        }
    }
    let data = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .unwrap_or_else(|e| answer("failed", &format!("{e:?}")));
    let text = |k| field(&data, k).as_string().unwrap_or_default();
    match text("kind").as_str() {
        "done" => {
            let bytes = field(&data, "done")
                .dyn_into::<Uint8Array>()
                .map(|a| a.to_vec())
                .map_err(|_| Failure::Refused("no result in the answer".into()))?;
            Done::decode(&bytes).map_err(Failure::Refused)
        }
        "error" => Err(Failure::Refused(text("message"))),
        "cancelled" => Err(Failure::Cancelled),
        _ => Err(Failure::Failed(text("message"))),
    }
}

/// Cancel: terminates the worker, answers the waiting run (if any) `Cancelled`, and starts a
/// new worker, so the next run does not wait for one to load.
pub fn cancel() {
    retire();
    settle(&answer("cancelled", ""));
    let _ = start();
}

/// The page is left: a run still going is stopped (its worker terminated), none started.
pub fn stop() {
    if PENDING.with(|p| p.borrow().is_some()) {
        retire();
        settle(&answer("cancelled", ""));
    }
}
