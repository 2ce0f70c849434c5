//! "Start Postgres": downloads PGlite on click, shows progress, the server version once it
//! answers, and on failure what failed with a Retry.

use crate::ctx::{use_ctx, DbState, Route};
use crate::db::TxState;
use crate::keys;
use crate::runner::{Blocker, Runner};
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

/// How long a lab's work waits behind another piece before its status line says what for
/// (ms): shorter waits are the ordinary turns of the queue.
const WAIT_SHOWN_AFTER_MS: f64 = 500.0;

/// `performance.now()`, in ms.
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// A lab's name as the status line gives it: `L3 Bloat & VACUUM`.
fn lab_name(lang: queue_lab_core::i18n::Lang, lab: crate::descriptor::LabId) -> String {
    format!("{} {}", lab.tag, crate::ui::i18n::tr(lang, lab.short))
}

/// How long one statement may run before the page offers a way out (seconds). A page URL
/// can lower it (`?statement_limit=3`), which the end-to-end tests do.
fn statement_limit_s() -> f64 {
    crate::ctx::query_param("statement_limit")
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| *v >= 1.0)
        .unwrap_or(30.0)
}

/// Reset database: the way back to working labs, whatever the console did to the session.
#[component]
fn ResetButton(runner: Runner) -> impl IntoView {
    let ctx = use_ctx();
    let resetting = RwSignal::new(false);
    let reset = move |_| {
        let runner = runner.clone();
        crate::ctx::forget_opening_state();
        resetting.set(true);
        crate::task::spawn(async move {
            let _ = runner.reset().await;
            resetting.set(false);
            ctx.data_changed.update(|n| *n += 1);
        });
    };
    view! {
        <button type="button" class="small" id="reset-database" title=ctx.t(keys::RUNNER_RESET_HELP)
            disabled=move || resetting.get() on:click=reset>
            {ctx.t(keys::RUNNER_RESET)}
        </button>
    }
}

/// What the session's owner has to say: a transaction the console left open, a lab clock
/// that is gone, a statement that runs too long, a worker that died, what this lab's work
/// waits for.
#[component]
fn SessionNotes(runner: Runner) -> impl IntoView {
    let ctx = use_ctx();
    let status = runner.status();
    let limit = statement_limit_s();
    // The running statement's age, polled twice a second (a statement that never ends sends
    // no event to wait on); and the clock of the waiting note, ticking while labs wait.
    let slow = RwSignal::new(None::<(u64, String)>);
    let now = RwSignal::new(now_ms());
    let watched = runner.clone();
    let handle = set_interval_with_handle(
        move || {
            let now_ = now_ms();
            if status.with_untracked(|s| !s.queued.is_empty()) {
                now.set(now_);
            }
            let now = now_;
            let over = watched
                .db()
                .in_flight()
                .get()
                .filter(|(since, _)| now - since >= limit * 1000.0)
                .map(|(since, sql)| (((now - since) / 1000.0) as u64, sql));
            if slow.get_untracked() != over {
                slow.set(over);
            }
        },
        std::time::Duration::from_millis(500),
    );
    on_cleanup(move || {
        if let Ok(h) = handle {
            h.clear();
        }
    });
    view! {
        {move || status.with(|s| s.dead.clone()).map(|message| view! {
            <div class="error" role="alert" id="worker-dead">
                <p><strong>{ctx.t(keys::RUNNER_DEAD)}</strong></p>
                <p id="worker-dead-lost">{move || {
                    let lang = ctx.lang.get();
                    let lost = status.with(|s| s.lost.clone());
                    if lost.is_empty() {
                        crate::ui::i18n::tr(lang, keys::RUNNER_DEAD_LOST_NONE)
                    } else {
                        let labs: Vec<String> = lost.into_iter().map(|l| lab_name(lang, l)).collect();
                        crate::ui::i18n::render(lang, &Msg::new(keys::RUNNER_DEAD_LOST).arg("labs", labs.join(", ")))
                    }
                }}</p>
                <p class="error-text">{message}</p>
                <button type="button" class="primary" id="restart-postgres" on:click=move |_| ctx.restart_postgres()>
                    {ctx.t(keys::RUNNER_RESTART)}
                </button>
            </div>
        })}
        {move || slow.get().map(|(seconds, sql)| view! {
            <div class="note bad" role="alert" id="statement-slow">
                <p>{move || crate::ui::i18n::render(ctx.lang.get(), &queue_lab_core::i18n::Msg::new(keys::RUNNER_SLOW).arg("s", seconds))}</p>
                <pre class="sql">{sql.lines().next().unwrap_or_default().to_owned()}</pre>
                <p class="muted">{ctx.t(keys::RUNNER_SLOW_WHY)}</p>
                <button type="button" class="primary" id="statement-cancel" on:click=move |_| ctx.restart_postgres()>
                    {ctx.t(keys::RUNNER_SLOW_CANCEL)}
                </button>
            </div>
        })}
        <ConsoleTx id="console-tx"/>
        {move || {
            let Route::Lab(here) = ctx.route.get() else { return None };
            let waiting = status.with(|s| s.waiting(here))?;
            let waited = now.get() - waiting.since;
            if waited < WAIT_SHOWN_AFTER_MS || status.with(|s| s.dead.is_some()) {
                return None;
            }
            let seconds = (waited / 1000.0).floor() as u64;
            let lang = ctx.lang.get();
            let (text, sql, cancel) = match waiting.blocker {
                Blocker::Console(sql) => (
                    Msg::new(keys::RUNNER_WAIT_CONSOLE).arg("s", seconds),
                    Some(sql.lines().find(|l| !l.trim().is_empty()).unwrap_or_default().to_owned()),
                    Some(None),
                ),
                Blocker::Lab(lab, what) => (
                    match what {
                        Some(what) => Msg::new(keys::RUNNER_WAIT_LAB_RUN)
                            .arg("lab", lab_name(lang, lab))
                            .arg("what", crate::ui::i18n::render(lang, &what))
                            .arg("s", seconds),
                        None => Msg::new(keys::RUNNER_WAIT_LAB).arg("lab", lab_name(lang, lab)).arg("s", seconds),
                    },
                    None,
                    Some(Some(lab)),
                ),
                Blocker::Reset => (Msg::new(keys::RUNNER_WAIT_RESET).arg("s", seconds), None, None),
                Blocker::ConsoleTx => (Msg::new(keys::RUNNER_WAIT_TX).arg("s", seconds), None, None),
            };
            Some(view! {
                <div class="note" role="status" id="lab-waiting">
                    <p>{crate::ui::i18n::render(lang, &text)}</p>
                    {sql.map(|sql| view! { <pre class="sql">{sql}</pre> })}
                    {cancel.map(|other| match other {
                        // Another lab's run stops at its next safe point.
                        Some(lab) => view! {
                            <button type="button" class="small" id="waiting-cancel" on:click=move |_| {
                                if let Some(r) = ctx.runner_untracked() {
                                    r.cancel(lab);
                                }
                            }>{ctx.t(keys::RUNNER_WAIT_CANCEL_RUN)}</button>
                        }.into_any(),
                        // A running statement cannot be interrupted: only a restart ends it.
                        None => view! {
                            <p class="muted">{ctx.t(keys::RUNNER_SLOW_WHY)}</p>
                            <button type="button" class="small" id="waiting-cancel" on:click=move |_| ctx.restart_postgres()>
                                {ctx.t(keys::RUNNER_SLOW_CANCEL)}
                            </button>
                        }.into_any(),
                    })}
                </div>
            })
        }}
        {move || {
            let Route::Lab(here) = ctx.route.get() else { return None };
            let note = status.with(|s| s.cancelled.iter().find(|(l, _)| *l == here).map(|(_, m)| m.clone()))?;
            Some(view! {
                <div class="note" role="status" id="cancelled-note">
                    <p>{move || crate::ui::i18n::render(ctx.lang.get(),
                        &queue_lab_core::i18n::Msg::new(keys::RUNNER_CANCELLED).arg("what", crate::ui::i18n::render(ctx.lang.get(), &note)))}</p>
                    <button type="button" class="small" id="cancelled-dismiss" on:click=move |_| {
                        if let Some(r) = ctx.runner_untracked() {
                            r.dismiss_cancelled(here);
                        }
                    }>
                        {ctx.t(keys::RUNNER_CANCELLED_DISMISS)}
                    </button>
                </div>
            })
        }}
        {move || status.with(|s| s.clock_missing).then(|| view! {
            <p class="note bad" role="status" id="clock-missing">{ctx.t(keys::RUNNER_CLOCK_MISSING)}</p>
        })}
    }
}

#[component]
pub fn StartPanel() -> impl IntoView {
    let ctx = use_ctx();
    // The panel appears on the pages of labs that run SQL.
    let on_lab = move || matches!(ctx.route.get(), Route::Lab(id) if id.needs_postgres());
    // In an embed: stopped because another embed on the page started (src/ui/embed.rs).
    let peer = use_context::<crate::ui::embed::StoppedForPeer>();
    let stopped_for_peer = move || peer.is_some_and(|p| p.0.get());
    let body = move || {
        match ctx.db.get() {
        DbState::Idle => view! {
            {move || stopped_for_peer().then(|| view! {
                <div class="note embed-stopped" role="status" id="embed-stopped">
                    <p><strong>{ctx.t(keys::EMBED_STOPPED)}</strong></p>
                    <p>{ctx.t(keys::EMBED_STOPPED_KEPT)}</p>
                </div>
            })}
            <p id="start-intro">{move || match ctx.pglite.get() {
                Some(m) => crate::ui::i18n::render(ctx.lang.get(),
                    &queue_lab_core::i18n::Msg::new(keys::START_INTRO).arg("mb", (m.download / 1e6).round())),
                None => ctx.t(keys::START_INTRO_UNSIZED)(),
            }}</p>
            <button type="button" class="primary" id="start-postgres" on:click=move |_| ctx.start_postgres()>
                {move || if stopped_for_peer() { ctx.t(keys::EMBED_START_AGAIN)() } else { ctx.t(keys::START_BUTTON)() }}
            </button>
        }
        .into_any(),
        DbState::Loading { fraction, booting } => {
            let percent = (fraction * 100.0).round();
            view! {
                <label for="pg-progress">
                    {move || if booting { ctx.t(keys::START_BOOTING)() } else { ctx.t(keys::START_DOWNLOADING)() }}
                </label>
                <progress id="pg-progress" max="100" value=percent>{format!("{percent}%")}</progress>
            }
            .into_any()
        }
        DbState::Ready { version, runner, fallback } => {
            // A stopped worker is not "running": the status line says so until Restart.
            let status = runner.status();
            let stopped = move || status.with(|s| s.dead.is_some());
            view! {
            <div class="row status-line">
                <p class="ready" id="pg-version" class:stopped=stopped>
                    <span class="dot" aria-hidden="true"></span>
                    {move || if stopped() { ctx.t(keys::START_STOPPED)() } else { ctx.t(keys::START_READY)() }}
                    " " <strong>{format!("PostgreSQL {version}")}</strong>
                    " · " {ctx.t(keys::START_IN_TAB)}
                </p>
                <ResetButton runner=runner.clone()/>
                <crate::ui::take_home::ExportButtons runner=runner.clone() version=version.clone()/>
            </div>
            {fallback.map(|why| view! {
                <p class="note" role="status" id="boot-fallback">
                    {ctx.t(keys::START_FALLBACK)}
                    <span class="muted error-text">{why}</span>
                </p>
            })}
            <SessionNotes runner=runner/>
            }
        }
        .into_any(),
        DbState::Failed(message) => view! {
            <div class="error" role="alert" id="start-error">
                <p><strong>{ctx.t(keys::START_FAILED)}</strong></p>
                <p class="error-text">{message}</p>
                <button type="button" class="primary" id="start-retry" on:click=move |_| ctx.start_postgres()>
                    {ctx.t(keys::START_RETRY)}
                </button>
            </div>
        }
        .into_any(),
    }
    };
    view! {
        <Show when=on_lab>
            <section class="start-panel" aria-live="polite">{body}<crate::ui::take_home::KeepControls/></section>
        </Show>
    }
}

/// The console's open (or failed) transaction, named, with COMMIT and ROLLBACK. Shown on the
/// status line, where the waiting labs are, and under the console, where it was typed.
#[component]
pub fn ConsoleTx(id: &'static str) -> impl IntoView {
    let ctx = use_ctx();
    let end = move |sql: &'static str| {
        let Some(runner) = ctx.runner_untracked() else {
            return;
        };
        let lab = match ctx.route.get_untracked() {
            Route::Lab(id) => Some(id),
            Route::Home => None,
        };
        crate::task::spawn(async move {
            runner.console(lab, sql).await;
            ctx.data_changed.update(|n| *n += 1);
        });
    };
    move || {
        let tx = ctx.runner()?.status().with(|s| s.tx);
        (tx != TxState::Idle).then(|| {
            view! {
                <div class="note bad" role="status" id=id>
                    <p>{if tx == TxState::Failed { ctx.t(keys::RUNNER_TX_FAILED) } else { ctx.t(keys::RUNNER_TX_OPEN) }}</p>
                    <div class="row">
                        <button type="button" class="small" id=format!("{id}-commit") on:click=move |_| end("commit")>"COMMIT"</button>
                        <button type="button" class="small" id=format!("{id}-rollback") on:click=move |_| end("rollback")>"ROLLBACK"</button>
                    </div>
                </div>
            }
        })
    }
}
