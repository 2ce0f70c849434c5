//! The L2 simulator's Web Worker (Trunk builds it from index.html, `data-type="worker"`).
//!
//! For: taking a job from the page, running it here, off the page's thread, and posting
//! progress and the result. Not for: deciding what to run or showing anything (the page's
//! `src/labs/workers/view/worker.rs`), or the codec and the runner (this crate's lib).
//!
//! Messages, all plain objects:
//! - worker → page, once the module has started: `{kind: "ready"}`.
//! - page → worker: `{kind: "run", id, job: Uint8Array}` (a [`queue_sim_worker::Job`]).
//! - worker → page: `{kind: "progress", id, fraction}` at most every
//!   [`queue_sim_worker::PROGRESS_MS`] ms, then `{kind: "done", id, done: Uint8Array}` (a
//!   [`queue_sim_worker::Done`]) or `{kind: "error", id, message}`.
//!
//! One job at a time: the page sends the next only after the last one's answer, and cancels
//! by terminating this worker.

#[cfg(target_arch = "wasm32")]
mod web {
    use js_sys::{Object, Reflect, Uint8Array};
    use std::cell::Cell;

    use queue_sim_worker::{run_job, warm_up, Job};
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_name = postMessage)]
        fn post_message(message: &JsValue);
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        fn performance_now() -> f64;
    }

    fn message(pairs: &[(&str, JsValue)]) -> JsValue {
        let o = Object::new();
        for (k, v) in pairs {
            let _ = Reflect::set(&o, &JsValue::from_str(k), v);
        }
        o.into()
    }

    fn field(data: &JsValue, key: &str) -> JsValue {
        Reflect::get(data, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    }

    thread_local! {
        /// Whether this worker has run [`warm_up`].
        static WARM: Cell<bool> = const { Cell::new(false) };
    }

    fn on_message(event: JsValue) {
        let data = field(&event, "data");
        if field(&data, "kind").as_string().as_deref() != Some("run") {
            return;
        }
        let id = field(&data, "id");
        let bytes = field(&data, "job")
            .dyn_into::<Uint8Array>()
            .map(|a| a.to_vec());
        let result = bytes
            .map_err(|_| "the message carries no job".to_owned())
            .and_then(|b| Job::decode(&b))
            .and_then(|job| {
                run_job(&job, &performance_now, &mut |fraction| {
                    post_message(&message(&[
                        ("kind", "progress".into()),
                        ("id", id.clone()),
                        ("fraction", fraction.into()),
                    ]));
                })
            });
        match result {
            Ok(done) => {
                let bytes = Uint8Array::from(done.encode().as_slice());
                post_message(&message(&[
                    ("kind", "done".into()),
                    ("id", id),
                    ("done", bytes.into()),
                ]));
            }
            Err(e) => post_message(&message(&[
                ("kind", "error".into()),
                ("id", id),
                ("message", e.into()),
            ])),
        }
        // Once, after the first answer is posted (the page's opening run waits for nothing):
        // run every strategy small, so the browser optimizes the simulator before the
        // learner's next run. What it ran and its time are left on the worker's global,
        // `simWarmUp` (`{ms, strategies}`), for the tests and the bench.
        if !WARM.with(|w| w.replace(true)) {
            let t0 = performance_now();
            let ran = warm_up();
            let strategies = js_sys::Array::new();
            for s in ran {
                strategies.push(&JsValue::from_str(s.as_str()));
            }
            let _ = Reflect::set(
                &js_sys::global(),
                &JsValue::from_str("simWarmUp"),
                &message(&[
                    ("ms", (performance_now() - t0).into()),
                    ("strategies", strategies.into()),
                ]),
            );
        }
    }

    pub fn start() {
        let handler = Closure::<dyn FnMut(JsValue)>::new(on_message);
        let _ = Reflect::set(
            &js_sys::global(),
            &JsValue::from_str("onmessage"),
            handler.as_ref(),
        );
        // The worker lives as long as its handler: until the page terminates it.
        handler.forget();
        post_message(&message(&[("kind", "ready".into())]));
    }
}

fn main() {
    #[cfg(target_arch = "wasm32")]
    web::start();
}
