//! The SQL log: each statement a lab ran, its parameters, rows and time, newest first; each
//! with a button that copies the statement as shown.

use crate::ctx::use_ctx;
use crate::db::{LogEntries, LogEntry};
use crate::keys;
use crate::ui::console::{CopyButton, CopyStatus, CopyStatusLine};
use crate::ui::i18n::render;
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;
use std::sync::Arc;

#[component]
pub fn SqlLog(entries: LogEntries) -> impl IntoView {
    let ctx = use_ctx();
    let status = CopyStatus::new();
    let oldest_first = move || entries.with(|v| v.iter().rev().cloned().collect::<Vec<_>>());
    view! {
        <section class="sql-log" aria-labelledby="sql-log-title">
            <div class="panel-head">
                <h2 id="sql-log-title">{ctx.t(keys::LOG_TITLE)}</h2>
                <button type="button" class="small" on:click=move |_| entries.set(Vec::new())>
                    {ctx.t(keys::LOG_CLEAR)}
                </button>
            </div>
            <CopyStatusLine status=status id="sql-log-copy-status"/>
            <Show when=move || entries.with(Vec::is_empty)>
                <p class="muted">{ctx.t(keys::LOG_EMPTY)}</p>
            </Show>
            // It scrolls: focusable, so a keyboard can scroll it too (WCAG 2.1.1).
            <div class="log-scroll" tabindex="0" role="region" aria-labelledby="sql-log-title">
                // Oldest first in the page, newest first on screen (the stylesheet reverses
                // it): a new entry is appended, while one put in front made the keyed list
                // move every entry already there, 40 and more DOM moves an action.
                <ol class="log-entries log-newest-first">
                    <For each=oldest_first key=|(n, _)| *n let:item>
                        <LogLine entry=item.1 status=status/>
                    </For>
                </ol>
            </div>
        </section>
    }
}

/// The statements of the lab's last action, in the order they ran: what the learner just
/// pressed, beside what it changed. An action begins when the lab turns busy: `busy` is its
/// work pending now (`LabHarness::working`), not its buttons' busy, which shows only later.
#[component]
pub fn LastActionSql(entries: LogEntries, busy: Signal<bool>) -> impl IntoView {
    let ctx = use_ctx();
    let status = CopyStatus::new();
    // The newest log entry before the action began; `None` until the first action. Not a
    // signal: the panel keeps the previous action's statements until the new ones arrive
    // (the log is held while a lab works, so they come in one go), and does not redraw
    // when the lab turns busy.
    let since = StoredValue::new(None::<u64>);
    Effect::new(move |was_busy: Option<bool>| {
        let now_busy = busy.get();
        if now_busy && was_busy != Some(true) {
            let newest = entries.with_untracked(|v| v.first().map_or(0, |(n, _)| *n));
            since.set_value(Some(newest));
        }
        now_busy
    });
    // The last action's statements, oldest first, worked out once per change of the log;
    // `None` before the first action.
    let action = Memo::new(move |_| -> Option<Vec<(u64, Arc<LogEntry>)>> {
        // The log is read (tracked) first, so a change of it recomputes this even before the
        // first action.
        entries.with(|v| {
            let since = since.get_value()?;
            let mut a: Vec<_> = v.iter().take_while(|(n, _)| *n > since).cloned().collect();
            a.reverse();
            Some(a)
        })
    });
    let shown = move || {
        action.with(|a| {
            a.iter()
                .flatten()
                .take(LAST_SHOWN)
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let more = move || action.with(|a| a.as_ref().map_or(0, Vec::len).saturating_sub(LAST_SHOWN));
    view! {
        <section class="sql-log last-sql" aria-labelledby="last-sql-title">
            <h2 id="last-sql-title">{ctx.t(keys::LOG_LAST_TITLE)}</h2>
            <Show when=move || action.with(Option::is_none)>
                <p class="muted">{ctx.t(keys::LOG_LAST_EMPTY)}</p>
            </Show>
            <ol class="log-entries" id="last-sql" tabindex="0" aria-labelledby="last-sql-title">
                <For each=shown key=|(n, _)| *n let:item>
                    <LogLine entry=item.1 status=status compact=true/>
                </For>
            </ol>
            <Show when=move || { more() > 0 }>
                <p class="muted">{move || render(ctx.lang.get(), &Msg::new(keys::LOG_LAST_MORE).arg("n", more()))}</p>
            </Show>
            <CopyStatusLine status=status id="last-sql-copy-status"/>
        </section>
    }
}

/// The last action's panel shows at most this many statements (a replay runs hundreds).
const LAST_SHOWN: usize = 12;

/// `compact`: without the statement's leading comment lines (what it runs, in short; the
/// SQL log keeps the whole text).
#[component]
fn LogLine(
    entry: Arc<LogEntry>,
    status: CopyStatus,
    #[prop(optional)] compact: bool,
) -> impl IntoView {
    let ctx = use_ctx();
    let shown = if compact {
        without_leading_comments(&entry.sql)
    } else {
        entry.sql.trim().to_owned()
    };
    let copied = shown.clone();
    let failed = entry.error.is_some();
    let (error, rows, affected) = (entry.error.clone(), entry.rows, entry.affected);
    let outcome = move || {
        let lang = ctx.lang.get();
        match (&error, rows, affected) {
            (Some(e), _, _) => e.clone(),
            (None, _, Some(a)) if a > 0 => {
                render(lang, &Msg::new(keys::LOG_ROWS_AFFECTED).arg("n", a))
            }
            (None, Some(r), _) => render(lang, &Msg::new(keys::LOG_ROWS).arg("n", r)),
            _ => crate::ui::i18n::tr(lang, keys::LOG_OK),
        }
    };
    let params = (!entry.params.is_empty()).then(|| {
        entry
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| format!("${} = {p}", i + 1))
            .collect::<Vec<_>>()
            .join(", ")
    });
    view! {
        <li class="log-entry" class:failed=failed>
            <pre class="sql">{shown}</pre>
            {params.map(|p| view! { <p class="params">{p}</p> })}
            <p class="outcome">
                <span>{outcome}</span>
                <span class="ms">
                    {format!("{:.1} ms", entry.ms)}
                    " "
                    <CopyButton label=keys::COPY_STATEMENT status=status text=move || copied.clone()/>
                </span>
            </p>
        </li>
    }
}

/// The statement without the comment lines it starts with.
fn without_leading_comments(sql: &str) -> String {
    let code: Vec<&str> = sql
        .trim()
        .lines()
        .skip_while(|l| l.trim_start().starts_with("--") || l.trim().is_empty())
        .collect();
    if code.is_empty() {
        sql.trim().to_owned()
    } else {
        code.join("\n")
    }
}
