//! The SQL log: each statement a lab ran, its parameters, rows and time, newest first.

use crate::ctx::use_ctx;
use crate::db::LogEntry;
use leptos::prelude::*;
use std::sync::Arc;

/// The newest entries first, each numbered; shared, so a new entry copies pointers, not SQL.
pub type LogEntries = RwSignal<Vec<(u64, Arc<LogEntry>)>>;

const KEEP: usize = 200;

/// Collects a database's log into the page's one log signal (each new database once).
pub fn collect(db: &crate::db::Db, entries: LogEntries) {
    db.log().subscribe(move |e| {
        entries.update(|v| {
            // Numbered on from the newest kept entry, so a restarted database's entries never
            // share a key with the last one's.
            let n = v.first().map_or(1, |(k, _)| k + 1);
            v.insert(0, (n, Arc::new(e.clone())));
            v.truncate(KEEP);
        });
    });
}

#[component]
pub fn SqlLog(entries: LogEntries) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <section class="sql-log" aria-labelledby="sql-log-title">
            <div class="panel-head">
                <h2 id="sql-log-title">{ctx.t("log.title")}</h2>
                <button type="button" class="small" on:click=move |_| entries.set(Vec::new())>
                    {ctx.t("log.clear")}
                </button>
            </div>
            <Show when=move || entries.with(Vec::is_empty)>
                <p class="muted">{ctx.t("log.empty")}</p>
            </Show>
            // It scrolls: focusable, so a keyboard can scroll it too (WCAG 2.1.1).
            <ol class="log-entries" tabindex="0" aria-labelledby="sql-log-title">
                <For each=move || entries.get() key=|(n, _)| *n let:item>
                    <LogLine entry=item.1/>
                </For>
            </ol>
        </section>
    }
}

#[component]
fn LogLine(entry: Arc<LogEntry>) -> impl IntoView {
    let ctx = use_ctx();
    let failed = entry.error.is_some();
    let (error, rows, affected) = (entry.error.clone(), entry.rows, entry.affected);
    let outcome = move || {
        let lang = ctx.lang.get();
        let tr = crate::ui::i18n::tr;
        match (&error, rows, affected) {
            (Some(e), _, _) => e.clone(),
            (None, _, Some(a)) if a > 0 => format!("{a} {}", tr(lang, "log.rows_affected")),
            (None, Some(r), _) => format!("{r} {}", tr(lang, "log.rows")),
            _ => tr(lang, "log.ok"),
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
            <pre class="sql">{entry.sql.trim().to_owned()}</pre>
            {params.map(|p| view! { <p class="params">{p}</p> })}
            <p class="outcome">
                <span>{outcome}</span>
                <span class="ms">{format!("{:.1} ms", entry.ms)}</span>
            </p>
        </li>
    }
}
