//! The language switch and what it waits for: a language whose texts are not loaded yet
//! (Korean: the .wasm compiles in English only, `ui::i18n`) is fetched first, and the page
//! switches only once they have arrived, so no key or English text flashes in between. While
//! they are fetched the switch says it is busy; when the fetch fails the page stays in the
//! language it shows, says what failed (the address, the HTTP status or the browser's error),
//! and offers a Retry.

use crate::ctx::{use_ctx, Ctx};
use crate::keys;
use crate::ui::i18n::{self, LoadFailure};
use leptos::prelude::*;
use queue_lab_core::i18n::Lang;
use std::cell::RefCell;

/// Where a language the learner asked for, and the page does not show yet, stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    None,
    /// Its texts are being fetched; the page switches to it when they arrive.
    Fetching(Lang),
    /// They could not be had: the page stays as it is, with this and a Retry.
    Failed(Lang, LoadFailure),
}

/// The page's [`Pending`] (a context the shell provides).
#[derive(Clone, Copy)]
pub struct LangState(pub RwSignal<Pending>);

thread_local! {
    /// How the fetch before the app mounted went, when the page opened in a language whose
    /// texts are not compiled in (`lib.rs`: `start`); the shell reads it once.
    static AT_START: RefCell<Option<LoadFailure>> = const { RefCell::new(None) };
}

/// Records that the texts of the language the page opened in could not be fetched before
/// the app mounted.
pub fn failed_at_start(failure: LoadFailure) {
    AT_START.with(|f| *f.borrow_mut() = Some(failure));
}

/// The language the page opens in and its [`Pending`]: `asked` once its texts are loaded;
/// else English, with the failure of the fetch made before mount, or none yet (the shell
/// then fetches them, [`choose`]).
pub fn opening(asked: Lang) -> (Lang, Pending) {
    if i18n::loaded(asked) {
        return (asked, Pending::None);
    }
    match AT_START.with(|f| f.borrow_mut().take()) {
        Some(failure) => (Lang::En, Pending::Failed(asked, failure)),
        None => (Lang::En, Pending::None),
    }
}

/// Switches the page to `lang`: at once when its texts are loaded, else once they have been
/// fetched (if the learner has not chosen another language meanwhile).
pub fn choose(ctx: Ctx, state: LangState, lang: Lang) {
    if i18n::loaded(lang) {
        state.0.set(Pending::None);
        ctx.lang.set(lang);
        return;
    }
    if state.0.get_untracked() == Pending::Fetching(lang) {
        return;
    }
    state.0.set(Pending::Fetching(lang));
    crate::task::spawn(async move {
        let outcome = i18n::fetch(lang).await;
        if state.0.try_get_untracked() != Some(Pending::Fetching(lang)) {
            return;
        }
        match outcome {
            Ok(()) => {
                state.0.set(Pending::None);
                ctx.lang.set(lang);
            }
            Err(failure) => state.0.set(Pending::Failed(lang, failure)),
        }
    });
}

/// The header's language buttons. A button whose language is being fetched is marked busy,
/// and a line beside them says so.
#[component]
pub fn LangSwitch() -> impl IntoView {
    let ctx = use_ctx();
    let state = expect_context::<LangState>();
    let fetching = move || matches!(state.0.get(), Pending::Fetching(_));
    let button = move |lang: Lang, label: &'static str| {
        view! {
            <button
                type="button"
                class="lang"
                class:busy=move || state.0.get() == Pending::Fetching(lang)
                aria-pressed=move || (ctx.lang.get() == lang).to_string()
                lang=lang.code()
                on:click=move |_| choose(ctx, state, lang)
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="lang-switch" role="group" aria-label=ctx.t(keys::SHELL_LANG_LABEL)
            aria-busy=move || fetching().to_string()>
            {button(Lang::Ko, "한국어")}
            {button(Lang::En, "English")}
            <span class="lang-loading muted" role="status" id="lang-loading">
                {move || fetching().then(|| i18n::tr(ctx.lang.get(), keys::SHELL_LANG_LOADING))}
            </span>
        </div>
    }
}

/// A failed fetch of a language's texts, in the language shown now: what failed, and Retry.
#[component]
pub fn LangFailed() -> impl IntoView {
    let ctx = use_ctx();
    let state = expect_context::<LangState>();
    move || match state.0.get() {
        Pending::Failed(lang, failure) => Some(view! {
            <div class="error" role="alert" id="lang-failed">
                <p class="error-text">{move || i18n::render(ctx.lang.get(), &failure.msg())}</p>
                <button type="button" id="lang-retry" on:click=move |_| choose(ctx, state, lang)>
                    {ctx.t(keys::SHELL_LANG_RETRY)}
                </button>
            </div>
        }),
        _ => None,
    }
}
