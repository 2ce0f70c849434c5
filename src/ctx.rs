//! What every component may read: the learner's language, the route, the database and its
//! session's owner, the SQL log. It imports no lab (labs import it).

use crate::db::LogEntries;
use crate::db::{Db, Location, Manifest, Progress};
use crate::descriptor::LabId;
use crate::runner::Runner;
use crate::ui::i18n::tr;
use leptos::prelude::*;
use queue_lab_core::i18n::{Key, Lang};

/// Where the page is: the home page or one lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    Home,
    Lab(LabId),
}

impl Route {
    pub fn hash(self) -> String {
        match self {
            Route::Home => "#/".into(),
            Route::Lab(id) => format!("#/{}", id.as_str()),
        }
    }
}

/// The database as the page sees it.
#[derive(Clone)]
pub enum DbState {
    Idle,
    Loading {
        fraction: f64,
        booting: bool,
    },
    /// `fallback`: why PostgreSQL was started by initdb instead of from the prepared data
    /// directory (the page says the start was slower), `None` when it was not.
    Ready {
        runner: Runner,
        version: String,
        fallback: Option<String>,
    },
    Failed(String),
}

/// What every component may read: language, route, database, and a counter bumped when
/// data changed outside a lab's own actions (the SQL console), so views reload.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub lang: RwSignal<Lang>,
    pub route: RwSignal<Route>,
    pub db: RwSignal<DbState, LocalStorage>,
    pub data_changed: RwSignal<u64>,
    /// The SQL log of the whole session, newest first.
    pub log: LogEntries,
    pub embed: bool,
    /// PGlite's build manifest (where it is, how much a start downloads), once read.
    pub pglite: RwSignal<Option<Manifest>, LocalStorage>,
}

impl Ctx {
    /// The text for `key`, in the learner's language as it changes (see [`tr`]).
    pub fn t(self, key: Key) -> impl Fn() -> String + Copy + Send + Sync + 'static {
        move || tr(self.lang.get(), key)
    }

    /// Like [`Ctx::t`], with the text's `quoted` SQL shown as code.
    pub fn rich(self, key: Key) -> impl Fn() -> AnyView + Copy + Send + Sync + 'static {
        move || crate::ui::i18n::rich(&tr(self.lang.get(), key))
    }

    /// The owner of the database session, once Postgres is ready (tracked).
    pub fn runner(&self) -> Option<Runner> {
        match self.db.get() {
            DbState::Ready { runner, .. } => Some(runner),
            _ => None,
        }
    }

    /// The same, read without subscribing, and `None` once the page that asks is gone.
    pub fn runner_untracked(&self) -> Option<Runner> {
        match self.db.try_get_untracked()? {
            DbState::Ready { runner, .. } => Some(runner),
            _ => None,
        }
    }

    /// Stops the worker, whatever it runs, and starts a fresh PostgreSQL: the way out of a
    /// statement that does not end, or of a worker that died. The labs set themselves up again.
    pub fn restart_postgres(self) {
        forget_opening_state();
        if let Some(runner) = self.runner_untracked() {
            runner.stop("PostgreSQL is restarting");
        }
        self.db.set(DbState::Idle);
        self.start_postgres();
    }

    /// Downloads and boots PostgreSQL (once; again after a failure).
    pub fn start_postgres(self) {
        if matches!(
            self.db.get_untracked(),
            DbState::Loading { .. } | DbState::Ready { .. }
        ) {
            return;
        }
        self.db.set(DbState::Loading {
            fraction: 0.0,
            booting: false,
        });
        let files = std::rc::Rc::new(std::cell::RefCell::new(Vec::<Progress>::new()));
        let db_signal = self.db;
        let log = self.log;
        let pglite = self.pglite;
        crate::task::spawn(async move {
            let on_progress = move |p: Progress| {
                let mut seen = files.borrow_mut();
                let booting = p.file == "boot";
                if !booting {
                    match seen.iter_mut().find(|s| s.file == p.file) {
                        Some(s) => *s = p,
                        None => seen.push(p),
                    }
                }
                let (loaded, total) = seen
                    .iter()
                    .fold((0.0, 0.0), |(l, t), s| (l + s.loaded, t + s.total));
                let fraction = if total > 0.0 { loaded / total } else { 0.0 };
                db_signal.set(DbState::Loading { fraction, booting });
            };
            let opened = async {
                let manifest = match pglite.get_untracked() {
                    Some(m) => m,
                    None => Location::manifest(Location::APP_MANIFEST)
                        .await
                        .ok_or_else(|| {
                            crate::db::DbError::other(
                                "pglite.json (where PostgreSQL is) could not be read",
                            )
                        })?,
                };
                let db = Db::open(&Location::app(&manifest), on_progress).await?;
                let version = crate::clock::start(&db).await?;
                Ok::<_, crate::db::DbError>((db, version))
            };
            match opened.await {
                Ok((db, version)) => {
                    crate::db::collect_log(&db, log);
                    let boot = db.boot();
                    let fallback = (!boot.from_datadir).then(|| boot.note.unwrap_or_default());
                    let runner = Runner::new(db);
                    db_signal.set(DbState::Ready {
                        runner,
                        version,
                        fallback,
                    })
                }
                Err(e) => db_signal.set(DbState::Failed(e.message)),
            }
        });
    }
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

pub fn query_param(name: &str) -> Option<String> {
    let search = window().location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)
}

/// Takes out of the address what a lab replays when it is set up on a fresh database: the
/// share text (`#/<lab>?s=…`) and the tour step (`?step=N`). Reset database and Restart call
/// it: they promise a fresh lab, and the address then says what a reload would show.
pub fn forget_opening_state() {
    let loc = window().location();
    let (Ok(href), Ok(hash)) = (loc.href(), loc.hash()) else {
        return;
    };
    let Ok(url) = web_sys::Url::new(&href) else {
        return;
    };
    url.search_params().delete("step");
    let (route, query) = hash.split_once('?').unwrap_or((&hash, ""));
    let kept: Vec<&str> = query
        .split('&')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("s="))
        .collect();
    url.set_hash(&if kept.is_empty() {
        route.to_owned()
    } else {
        format!("{route}?{}", kept.join("&"))
    });
    let new = url.href();
    if new != href {
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&new));
        }
    }
}

/// This page's address for a share link: origin, path and query, without what only this
/// view of it means (`embed`, which hides the header, and `step`, which opens a tour step).
/// A link copied inside an embedded lab then opens the full lab. An address that names a
/// language (`lang=`) gives the link the language shown now, read from the context (tracked:
/// a link already on screen follows a language switch, not only the lab's next action).
pub fn share_base() -> String {
    let shown = use_context::<Ctx>().map(|ctx| ctx.lang.get());
    let loc = window().location();
    let mut base = format!(
        "{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
    );
    if let Ok(params) = web_sys::UrlSearchParams::new_with_str(&loc.search().unwrap_or_default()) {
        params.delete("embed");
        params.delete("step");
        if let (Some(lang), true) = (shown, params.has("lang")) {
            params.set("lang", lang.code());
        }
        let rest = String::from(params.to_string());
        if !rest.is_empty() {
            base = format!("{base}?{rest}");
        }
    }
    base
}
