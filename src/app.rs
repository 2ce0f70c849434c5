//! The shell: routes, language, embed mode, and the one database every lab shares.

use crate::db::{Db, Location, Manifest, Progress};
use crate::labs::{self, LabId};
use crate::runner::Runner;
use crate::ui::i18n::tr;
use crate::ui::sql_log::LogEntries;
use crate::ui::start::StartPanel;
use leptos::prelude::*;
use queue_lab_core::i18n::Lang;
use wasm_bindgen::JsCast;

/// Where the page is: the home page or one lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    Home,
    Lab(LabId),
}

impl Route {
    /// Reads a hash route (`#/jobs`); anything unknown is the home page.
    pub fn from_hash(hash: &str) -> Route {
        let id = hash.trim_start_matches('#').trim_start_matches('/');
        let id = id.split(['?', '/']).next().unwrap_or("");
        LabId::parse(id).map_or(Route::Home, Route::Lab)
    }

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
    pub fn t(self, key: &'static str) -> impl Fn() -> String + Copy + Send + Sync + 'static {
        move || tr(self.lang.get(), key)
    }

    /// Like [`Ctx::t`], with the text's `quoted` SQL shown as code.
    pub fn rich(self, key: &'static str) -> impl Fn() -> AnyView + Copy + Send + Sync + 'static {
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
        leptos::task::spawn_local(async move {
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
                // Already in a prepared data directory; after an initdb start this creates it.
                crate::clock::install(&db).await?;
                #[derive(serde::Deserialize)]
                struct V {
                    version: String,
                }
                let v = db
                    .query::<V>("select current_setting('server_version') as version", &[])
                    .await?;
                let version = v.first().map(|v| v.version).unwrap_or_default();
                Ok::<_, crate::db::DbError>((db, version))
            };
            match opened.await {
                Ok((db, version)) => {
                    crate::ui::sql_log::collect(&db, log);
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

/// This page's address for a share link: origin, path and query, without what only this
/// view of it means (`embed`, which hides the header, and `step`, which opens a tour step).
/// A link copied inside an embedded lab then opens the full lab.
pub fn share_base() -> String {
    let loc = window().location();
    let mut base = format!(
        "{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
    );
    if let Ok(params) = web_sys::UrlSearchParams::new_with_str(&loc.search().unwrap_or_default()) {
        params.delete("embed");
        params.delete("step");
        let rest = String::from(params.to_string());
        if !rest.is_empty() {
            base = format!("{base}?{rest}");
        }
    }
    base
}

fn initial_lang() -> Lang {
    if let Some(l) = query_param("lang").and_then(|l| Lang::parse(&l)) {
        return l;
    }
    if let Some(l) = window()
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item("queue-lab-lang").ok().flatten())
        .and_then(|l| Lang::parse(&l))
    {
        return l;
    }
    Lang::from_browser(&window().navigator().language().unwrap_or_default())
}

fn current_hash() -> String {
    window().location().hash().unwrap_or_default()
}

#[component]
pub fn App() -> impl IntoView {
    let embed = query_param("embed").is_some_and(|v| v == "1" || v == "true");
    let start_route = query_param("lab")
        .and_then(|id| LabId::parse(&id))
        .map_or_else(|| Route::from_hash(&current_hash()), Route::Lab);
    let ctx = Ctx {
        lang: RwSignal::new(initial_lang()),
        route: RwSignal::new(start_route),
        db: RwSignal::new_local(DbState::Idle),
        data_changed: RwSignal::new(0),
        log: RwSignal::new(Vec::new()),
        embed,
        pglite: RwSignal::new_local(None),
    };
    provide_context(ctx);

    // PGlite's manifest: the start panel says how much a start downloads. On a lab page that
    // runs SQL (not in an embed, where nothing downloads before the click), PGlite's
    // download and compile begin once the page is idle, so the click finds them done.
    leptos::task::spawn_local(async move {
        let manifest = Location::manifest(Location::APP_MANIFEST).await;
        let _ = ctx.pglite.try_set(manifest);
    });
    let prefetched = std::cell::Cell::new(false);
    Effect::new(move |_| {
        let on_lab = matches!(ctx.route.get(), Route::Lab(id) if id.needs_postgres());
        let idle = matches!(ctx.db.get(), DbState::Idle);
        if let Some(m) = ctx.pglite.get() {
            if !embed && on_lab && idle && !prefetched.get() {
                prefetched.set(true);
                Location::app(&m).prefetch();
            }
        }
    });

    let _ = window_event_listener(leptos::ev::hashchange, move |_| {
        ctx.route.set(Route::from_hash(&current_hash()));
        if let Some(doc) = window().document() {
            if let Some(main) = doc.get_element_by_id("main") {
                if let Ok(el) = main.dyn_into::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        }
    });

    // The document's language follows the switch (screen readers pronounce by it).
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        if let Some(html) = window().document().and_then(|d| d.document_element()) {
            let _ = html.set_attribute("lang", lang.code());
        }
        if let Ok(Some(storage)) = window().local_storage() {
            let _ = storage.set_item("queue-lab-lang", lang.code());
        }
    });

    if embed {
        crate::ui::embed::report_size_to_parent();
    }

    let page = move || match ctx.route.get() {
        Route::Home => view! { <Home/> }.into_any(),
        Route::Lab(id) => labs::view(id),
    };

    view! {
        <Show when=move || !embed>
            <Header/>
        </Show>
        <main id="main" tabindex="-1" class:embed=embed>
            <StartPanel/>
            {page}
        </main>
        <Show when=move || !embed>
            <footer class="site-footer">
                <p>{ctx.t("shell.footer")}</p>
            </footer>
        </Show>
    }
}

#[component]
fn Header() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <header class="site-header">
            <a class="brand" href="#/">{ctx.t("shell.title")}</a>
            <nav aria-label=ctx.t("shell.nav_label")>
                {LabId::ALL
                    .iter()
                    .map(|&id| {
                        let current = move || ctx.route.get() == Route::Lab(id);
                        view! {
                            <a
                                href=Route::Lab(id).hash()
                                class:current=current
                                aria-current=move || if current() { Some("page") } else { None }
                            >
                                {ctx.t(id.short_key())}
                            </a>
                        }
                    })
                    .collect_view()}
            </nav>
            <LangSwitch/>
        </header>
    }
}

#[component]
pub fn LangSwitch() -> impl IntoView {
    let ctx = use_ctx();
    let button = move |lang: Lang, label: &'static str| {
        view! {
            <button
                type="button"
                class="lang"
                aria-pressed=move || (ctx.lang.get() == lang).to_string()
                lang=lang.code()
                on:click=move |_| ctx.lang.set(lang)
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="lang-switch" role="group" aria-label=ctx.t("shell.lang_label")>
            {button(Lang::Ko, "한국어")}
            {button(Lang::En, "English")}
        </div>
    }
}

#[component]
fn Home() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <section class="home">
            <h1>{ctx.t("shell.title")}</h1>
            <p class="lead">{ctx.t("shell.lead")}</p>
            <ul class="cards">
                {LabId::ALL
                    .iter()
                    .map(|&id| {
                        view! {
                            <li class="card" class:soon=!id.built()>
                                <a href=Route::Lab(id).hash()>
                                    <span class="card-tag">{id.tag()}</span>
                                    <h2>{ctx.t(id.title_key())}</h2>
                                </a>
                                <p>{ctx.t(id.summary_key())}</p>
                                <Show when=move || !id.built()>
                                    <p class="soon-note">{ctx.t("shell.not_built")}</p>
                                </Show>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_routes_name_the_labs_and_fall_back_to_home() {
        assert_eq!(Route::from_hash("#/jobs"), Route::Lab(LabId::Jobs));
        assert_eq!(Route::from_hash("#/vacuum?x=1"), Route::Lab(LabId::Vacuum));
        assert_eq!(Route::from_hash(""), Route::Home);
        assert_eq!(Route::from_hash("#/nope"), Route::Home);
        for id in LabId::ALL {
            assert_eq!(Route::from_hash(&Route::Lab(id).hash()), Route::Lab(id));
        }
    }
}
