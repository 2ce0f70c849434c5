//! The shell: routes, language, embed mode, the header and the home page.

use crate::ctx::{query_param, use_ctx, Ctx, DbState, Route};
use crate::db::Location;
use crate::keys;
use crate::labs;
use crate::ui::lang::{LangFailed, LangState, LangSwitch, Pending};
use crate::ui::start::StartPanel;
use leptos::prelude::*;
use queue_lab_core::i18n::Lang;
use wasm_bindgen::JsCast;

/// Reads a hash route (`#/jobs`); anything unknown is the home page.
pub fn route_from_hash(hash: &str) -> Route {
    let id = hash.trim_start_matches('#').trim_start_matches('/');
    let id = id.split(['?', '/']).next().unwrap_or("");
    labs::find(id).map_or(Route::Home, Route::Lab)
}

/// The page the address asks for: an embed's `?lab=`, else the hash route.
pub fn start_route() -> Route {
    query_param("lab")
        .and_then(|id| labs::find(&id))
        .map_or_else(|| route_from_hash(&current_hash()), Route::Lab)
}

/// The language the page asks for: `lang=`, else the stored choice, else the browser's.
pub fn initial_lang() -> Lang {
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

/// An address that names a language (`?lang=ko`) follows the language switch, so that a
/// reload, and a share link made from the address, open in the language now shown rather
/// than the one the page was opened in. An address without `lang` is left as it is.
fn follow_lang_in_address(lang: Lang) {
    let Ok(href) = window().location().href() else {
        return;
    };
    let Ok(url) = web_sys::Url::new(&href) else {
        return;
    };
    let params = url.search_params();
    if params.get("lang").is_none_or(|l| l == lang.code()) {
        return;
    }
    params.set("lang", lang.code());
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url.href()));
    }
}

fn current_hash() -> String {
    window().location().hash().unwrap_or_default()
}

#[component]
pub fn App() -> impl IntoView {
    let embed = query_param("embed").is_some_and(|v| v == "1" || v == "true");
    let start_route = start_route();
    // A language whose texts are not loaded (the start's fetch failed) opens in English.
    let asked = initial_lang();
    let (lang, pending) = crate::ui::lang::opening(asked);
    let ctx = Ctx {
        lang: RwSignal::new(lang),
        route: RwSignal::new(start_route),
        db: RwSignal::new_local(DbState::Idle),
        data_changed: RwSignal::new(0),
        log: RwSignal::new(Vec::new()),
        embed,
        pglite: RwSignal::new_local(None),
    };
    provide_context(ctx);
    let lang_state = LangState(RwSignal::new(pending.clone()));
    provide_context(lang_state);
    if lang != asked && pending == Pending::None {
        crate::ui::lang::choose(ctx, lang_state, asked);
    }

    // PGlite's manifest: the start panel says how much a start downloads. On a lab page that
    // runs SQL (not in an embed, where nothing downloads before the click), PGlite's
    // download and compile begin once the page is idle, so the click finds them done.
    crate::task::spawn(async move {
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
        ctx.route.set(route_from_hash(&current_hash()));
        if let Some(doc) = window().document() {
            if let Some(main) = doc.get_element_by_id("main") {
                if let Ok(el) = main.dyn_into::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        }
    });

    // The document's language follows the switch (screen readers pronounce by it). The
    // stored choice and the address do too, but not while the page shows English only because
    // the learner's language could not be fetched.
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        if let Some(html) = window().document().and_then(|d| d.document_element()) {
            let _ = html.set_attribute("lang", lang.code());
        }
        if matches!(lang_state.0.get(), Pending::Failed(..)) {
            return;
        }
        if let Ok(Some(storage)) = window().local_storage() {
            let _ = storage.set_item("queue-lab-lang", lang.code());
        }
        follow_lang_in_address(lang);
    });

    crate::ui::embed::apply_theme();
    if embed {
        use crate::ui::embed::{one_postgres_per_page, FullLab, StoppedForPeer};
        crate::ui::embed::report_size_to_parent();
        let full = FullLab(RwSignal::new(None));
        let stopped = StoppedForPeer(RwSignal::new(false));
        provide_context(full);
        provide_context(stopped);
        one_postgres_per_page(ctx, full, stopped);
    }

    let page = move || match ctx.route.get() {
        Route::Home => view! { <Home/> }.into_any(),
        Route::Lab(id) => crate::ui::lab_page::page(id),
    };

    view! {
        <Show when=move || !embed>
            <Header/>
        </Show>
        <main id="main" tabindex="-1" class:embed=embed>
            <Show when=move || embed>
                <crate::ui::embed::EmbedBar/>
            </Show>
            <LangFailed/>
            <StartPanel/>
            {page}
        </main>
        <Show when=move || !embed>
            <footer class="site-footer">
                <p>{ctx.t(keys::SHELL_FOOTER)}</p>
            </footer>
        </Show>
    }
}

#[component]
fn Header() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <header class="site-header">
            <a class="brand" href="#/">{ctx.t(keys::SHELL_TITLE)}</a>
            <nav aria-label=ctx.t(keys::SHELL_NAV_LABEL)>
                {labs::ALL
                    .iter()
                    .map(|&id| {
                        let current = move || ctx.route.get() == Route::Lab(id);
                        view! {
                            <a
                                href=Route::Lab(id).hash()
                                class:current=current
                                aria-current=move || if current() { Some("page") } else { None }
                            >
                                {ctx.t(id.short)}
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
fn Home() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <section class="home">
            <h1>{ctx.t(keys::SHELL_TITLE)}</h1>
            <p class="lead">{ctx.t(keys::SHELL_LEAD)}</p>
            <ul class="cards">
                {labs::ALL
                    .iter()
                    .map(|&id| {
                        view! {
                            <li class="card">
                                <a href=Route::Lab(id).hash()>
                                    <span class="card-tag">{id.tag}</span>
                                    <h2>{ctx.t(id.title)}</h2>
                                </a>
                                <p>{ctx.t(id.summary)}</p>
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
        assert_eq!(route_from_hash("#/jobs"), Route::Lab(labs::jobs::ID));
        assert_eq!(
            route_from_hash("#/vacuum?x=1"),
            Route::Lab(labs::vacuum::ID)
        );
        assert_eq!(route_from_hash(""), Route::Home);
        assert_eq!(route_from_hash("#/nope"), Route::Home);
        for &id in labs::ALL {
            assert_eq!(route_from_hash(&Route::Lab(id).hash()), Route::Lab(id));
        }
    }
}
