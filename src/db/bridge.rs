//! Bindings to `pglite-bridge/bridge.js`, wrapped so the rest of `db` sees Rust types.

use super::error::DbError;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/pglite-bridge/bridge.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = open)]
    async fn js_open(
        base: &str,
        worker_url: &str,
        on_progress: &Closure<dyn Fn(String, f64, f64)>,
        timeout_ms: f64,
        datadir: Option<String>,
    ) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_name = openDump)]
    async fn js_open_dump(
        base: &str,
        worker_url: &str,
        on_progress: &Closure<dyn Fn(String, f64, f64)>,
        timeout_ms: f64,
        bytes: &[u8],
    ) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_name = sha256Hex)]
    async fn js_sha256_hex(bytes: &[u8]) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = saveFile)]
    fn js_save_file(name: &str, bytes: &[u8], mime: &str);

    #[wasm_bindgen(catch, js_name = readFile)]
    async fn js_read_file(input: &JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = prefetch)]
    fn js_prefetch(base: &str, worker_url: &str);

    #[wasm_bindgen(js_name = manifest)]
    async fn js_manifest(url: &str) -> JsValue;

    #[derive(Clone)]
    pub type Session;
    #[wasm_bindgen(method, catch)]
    pub async fn query(
        this: &Session,
        sql: &str,
        params: &js_sys::Array,
        arrays: bool,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch)]
    pub async fn exec(this: &Session, sql: &str, arrays: bool) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch)]
    pub async fn console(
        this: &Session,
        sql: &str,
        params: &js_sys::Array,
        limit: u32,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch)]
    pub async fn dump(this: &Session, schemas: js_sys::Array) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = commit)]
    async fn js_commit(this: &Session) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, getter, js_name = calls)]
    fn js_calls(this: &Session) -> f64;
    #[wasm_bindgen(method, catch, js_name = rollback)]
    async fn js_rollback(this: &Session) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(extends = Session)]
    type JsHandle;
    #[wasm_bindgen(method, catch, js_name = begin)]
    async fn js_begin(this: &JsHandle) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = listen)]
    async fn js_listen(
        this: &JsHandle,
        channel: &str,
        callback: &Closure<dyn Fn(String)>,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = dataDir)]
    async fn js_dump(this: &JsHandle) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, getter, js_name = pgliteVersion)]
    fn js_pglite_version(this: &JsHandle) -> Option<String>;
    #[wasm_bindgen(method, catch, js_name = close)]
    async fn js_close(this: &JsHandle) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, js_name = terminate)]
    fn js_terminate(this: &JsHandle, message: &str);
    #[wasm_bindgen(method, getter, js_name = boot)]
    fn js_boot(this: &JsHandle) -> Option<String>;
    #[wasm_bindgen(method, getter, js_name = bootNote)]
    fn js_boot_note(this: &JsHandle) -> Option<String>;
}

/// Starts downloading and compiling PGlite ahead of `open` (see bridge.js `prefetch`).
pub fn prefetch(at: &Location) {
    js_prefetch(&at.pglite_base, &at.worker_url);
}

/// PGlite's build manifest (`pglite.json`, written by pglite-bridge/build.mjs), or `None`
/// when it cannot be fetched or read.
pub async fn manifest(url: &str) -> Option<Manifest> {
    serde_wasm_bindgen::from_value(js_manifest(url).await).ok()
}

/// SHA-256 of `bytes`, lowercase hex (the browser's `crypto.subtle`).
pub async fn sha256_hex(bytes: &[u8]) -> Result<String, DbError> {
    let hex = js_sha256_hex(bytes).await.map_err(DbError::from_js)?;
    hex.as_string()
        .ok_or_else(|| DbError::other("crypto.subtle gave no digest"))
}

/// Offers `bytes` to the learner as a download named `name`.
pub fn save_file(name: &str, bytes: &[u8], mime: &str) {
    js_save_file(name, bytes, mime);
}

/// The bytes of the file chosen in a file input, `None` when none is chosen.
pub async fn read_file(input: &web_sys::HtmlInputElement) -> Result<Option<Vec<u8>>, DbError> {
    let v = js_read_file(input.as_ref())
        .await
        .map_err(DbError::from_js)?;
    if v.is_null() || v.is_undefined() {
        return Ok(None);
    }
    Ok(Some(js_sys::Uint8Array::new(&v).to_vec()))
}

impl Session {
    pub async fn commit(&self) -> Result<(), DbError> {
        self.js_commit().await.map(|_| ()).map_err(DbError::from_js)
    }
    pub async fn rollback(&self) -> Result<(), DbError> {
        self.js_rollback()
            .await
            .map(|_| ())
            .map_err(DbError::from_js)
    }
}

/// The open PGlite, and the progress callback that must live as long as it.
pub struct Handle {
    js: JsHandle,
    _progress: Closure<dyn Fn(String, f64, f64)>,
}

/// Opens a fresh PGlite in a worker and returns once it answers: booted from `dump` (a data
/// directory as [`Handle::data_dir`] gave it) when there is one, else as `at` says.
pub async fn open(
    at: &Location,
    on_progress: impl Fn(Progress) + 'static,
    dump: Option<&[u8]>,
) -> Result<Handle, DbError> {
    let progress: Closure<dyn Fn(String, f64, f64)> = Closure::new(move |file, loaded, total| {
        on_progress(Progress {
            file,
            loaded,
            total,
        })
    });
    let (base, worker, timeout) = (&at.pglite_base, &at.worker_url, at.start_timeout_ms);
    let js = match dump {
        None => js_open(base, worker, &progress, timeout, at.datadir.clone()).await,
        Some(bytes) => js_open_dump(base, worker, &progress, timeout, bytes).await,
    }
    .map_err(DbError::from_js)?;
    Ok(Handle {
        js: js.unchecked_into(),
        _progress: progress,
    })
}

impl Handle {
    /// The data directory as PGlite's `dumpDataDir` writes it (a gzip tarball), and PGlite's
    /// version.
    pub async fn data_dir(&self) -> Result<(Vec<u8>, Option<String>), DbError> {
        let v = self.js.js_dump().await.map_err(DbError::from_js)?;
        let field = |name: &str| {
            js_sys::Reflect::get(&v, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
        };
        let dump = field("dump");
        if dump.is_undefined() || dump.is_null() {
            return Err(DbError::other("the worker returned no data directory"));
        }
        Ok((
            js_sys::Uint8Array::new(&dump).to_vec(),
            field("pglite").as_string(),
        ))
    }

    /// PGlite's version, as its build manifest names it.
    pub fn pglite_version(&self) -> Option<String> {
        self.js.js_pglite_version()
    }

    pub fn session(&self) -> &Session {
        self.js.as_ref()
    }

    /// How many calls the page has sent the worker on this connection so far: each is one
    /// round trip (the measure of what a click costs; `Db::round_trips`).
    pub fn calls(&self) -> u64 {
        self.session().js_calls() as u64
    }

    pub async fn begin(&self) -> Result<Session, DbError> {
        let tx = self.js.js_begin().await.map_err(DbError::from_js)?;
        Ok(tx.unchecked_into())
    }

    pub async fn listen(
        &self,
        channel: &str,
        on_notify: impl Fn(String) + 'static,
    ) -> Result<Subscription, DbError> {
        let callback = Closure::<dyn Fn(String)>::new(on_notify);
        let stop = self
            .js
            .js_listen(channel, &callback)
            .await
            .map_err(DbError::from_js)?;
        Ok(Subscription {
            stop: stop.unchecked_into(),
            callback: Some(callback),
        })
    }

    pub async fn close(&self) {
        // Closing a database that is already gone is not worth reporting.
        let _ = self.js.js_close().await;
    }

    pub fn terminate(&self, message: &str) {
        self.js.js_terminate(message);
    }

    /// How PostgreSQL booted: `datadir` or `initdb`, and why not from the data directory.
    pub fn boot(&self) -> Boot {
        Boot {
            from_datadir: self.js.js_boot().as_deref() == Some("datadir"),
            note: self.js.js_boot_note(),
        }
    }

    /// The worker's end, if it died (bridge.js keeps it on the connection as `dead`).
    pub fn dead(&self) -> Option<String> {
        let conn = js_sys::Reflect::get(self.js.as_ref(), &JsValue::from_str("conn")).ok()?;
        let dead = js_sys::Reflect::get(&conn, &JsValue::from_str("dead")).ok()?;
        if dead.is_null() || dead.is_undefined() {
            return None;
        }
        js_sys::Reflect::get(&dead, &JsValue::from_str("message"))
            .ok()
            .and_then(|m| m.as_string())
            .or_else(|| Some("the database worker stopped".to_owned()))
    }
}

/// A LISTEN callback registered with PGlite. Dropped without `unlisten`, it still stops
/// listening, and hands the callback to JavaScript's garbage collector rather than freeing
/// it under a notification that may already be on its way.
pub struct Subscription {
    stop: js_sys::Function,
    callback: Option<Closure<dyn Fn(String)>>,
}

impl Subscription {
    pub async fn unlisten(mut self) -> Result<(), DbError> {
        let promise = self.stop.call0(&JsValue::NULL).map_err(DbError::from_js)?;
        let done = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise)).await;
        // Unsubscribed: no notification can reach the callback any more.
        drop(self.callback.take());
        done.map(|_| ()).map_err(DbError::from_js)
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some(callback) = self.callback.take() {
            // The promise settles later; its outcome changes nothing here, but it is awaited,
            // so a failure (the worker gone meanwhile) is no unhandled rejection.
            if let Ok(promise) = self.stop.call0(&JsValue::NULL) {
                let done = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise));
                crate::task::spawn(async move {
                    let _ = done.await;
                });
            }
            let _ = callback.into_js_value();
        }
    }
}

/// Where PGlite is served from. The app ships it in a versioned folder named by
/// `pglite.json` (see `pglite-bridge/build.mjs`); headless tests load the same build from
/// `pglite-bridge/build/` (wasm-bindgen-test-runner serves the crate root).
#[derive(Clone, Debug)]
pub struct Location {
    pub pglite_base: String,
    pub worker_url: String,
    /// How long a start may take before it is reported as failed (0: no limit).
    pub start_timeout_ms: f64,
    /// Another data directory to boot from (tests: a missing or corrupt one), `none` to run
    /// initdb; `None`: the one PGlite's manifest names.
    pub datadir: Option<String>,
}

/// What `pglite.json` says: PGlite's folder (resolved against the manifest's URL) and the
/// bytes a start downloads.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Manifest {
    pub base: String,
    pub download: f64,
    /// PGlite's version (a saved lab must come from the same one).
    #[serde(default)]
    pub version: Option<String>,
}

/// How the database booted.
#[derive(Clone, Debug, PartialEq)]
pub struct Boot {
    /// From the data directory made at build time (else initdb ran in the tab).
    pub from_datadir: bool,
    /// Why the data directory was not used, when it was offered and failed.
    pub note: Option<String>,
}

/// Download progress while PGlite starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// `pglite.wasm`, `pglite.data`, `initdb.wasm`, or `boot` once all are in.
    pub file: String,
    pub loaded: f64,
    pub total: f64,
}
