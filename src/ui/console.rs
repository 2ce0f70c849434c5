//! The SQL console: for learners who want to look for themselves. Runs any SQL against the
//! lab's database, shows the result as a table or the error with a caret at its position,
//! keeps a history (↑/↓), and tells the labs to reload after a statement.

use crate::ctx::use_ctx;
use crate::db::{DbError, Rows};
use crate::ui::i18n::render;
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

#[derive(Clone)]
enum Outcome {
    /// The rows (cut to the runner's limit) and how many the statement returned.
    Table(Rows<Vec<serde_json::Value>>, usize),
    Failed(DbError),
}

/// How a value shows in a result cell: text as text, JSON compact, NULL marked.
pub fn cell_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "NULL".into(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[component]
pub fn SqlConsole(#[prop(optional, into)] placeholder: Option<String>) -> impl IntoView {
    let ctx = use_ctx();
    let text = RwSignal::new(String::new());
    let history = StoredValue::new(Vec::<String>::new());
    let cursor = StoredValue::new(0usize);
    let outcome = RwSignal::new_local(None::<Outcome>);
    let running = RwSignal::new(false);

    let run = move || {
        let sql = text.get_untracked();
        if sql.trim().is_empty() || running.get_untracked() {
            return;
        }
        let Some(runner) = ctx.runner_untracked() else {
            return;
        };
        let lab = match ctx.route.get_untracked() {
            crate::ctx::Route::Lab(id) => Some(id),
            crate::ctx::Route::Home => None,
        };
        history.update_value(|h| {
            if h.last() != Some(&sql) {
                h.push(sql.clone());
            }
            cursor.set_value(h.len());
        });
        running.set(true);
        leptos::task::spawn_local(async move {
            let reply = runner.console(lab, &sql).await;
            running.set(false);
            outcome.set(Some(match reply.result {
                Ok(rows) => Outcome::Table(rows, reply.total),
                Err(e) => Outcome::Failed(e),
            }));
            // Whatever the statement did, the lab's views read the database again.
            ctx.data_changed.update(|n| *n += 1);
        });
    };

    let on_key = move |ev: web_sys::KeyboardEvent| {
        let key = ev.key();
        if key == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            run();
            return;
        }
        let area = event_target::<web_sys::HtmlTextAreaElement>(&ev);
        let value = area.value();
        let at = area.selection_start().ok().flatten().unwrap_or(0) as usize;
        let on_first_line = !value.chars().take(at).any(|c| c == '\n');
        let on_last_line = !value.chars().skip(at).any(|c| c == '\n');
        let len = history.with_value(Vec::len);
        if key == "ArrowUp" && on_first_line && len > 0 {
            ev.prevent_default();
            let i = cursor.get_value().saturating_sub(1);
            cursor.set_value(i);
            text.set(history.with_value(|h| h[i].clone()));
        } else if key == "ArrowDown" && on_last_line && cursor.get_value() < len {
            ev.prevent_default();
            let i = cursor.get_value() + 1;
            cursor.set_value(i);
            text.set(history.with_value(|h| h.get(i).cloned().unwrap_or_default()));
        }
    };

    let result_view = move || {
        outcome.get().map(|o| match o {
            Outcome::Table(rows, total) => {
                view! { <ResultTable rows=rows total=total/> }.into_any()
            }
            Outcome::Failed(e) => view! { <ErrorBox error=e/> }.into_any(),
        })
    };

    view! {
        <section class="console" aria-labelledby="console-title">
            <h2 id="console-title">{ctx.t("console.title")}</h2>
            <p class="muted">{ctx.t("console.hint")}</p>
            <p class="muted console-path">
                {ctx.t("console.search_path")} " "
                <code id="console-search-path">{move || {
                    let lab = match ctx.route.get() {
                        crate::ctx::Route::Lab(id) => Some(id),
                        crate::ctx::Route::Home => None,
                    };
                    crate::runner::search_path(lab)
                }}</code>
            </p>
            <label for="console-input" class="visually-hidden">{ctx.t("console.input_label")}</label>
            <textarea
                id="console-input"
                rows="4"
                spellcheck="false"
                placeholder=placeholder.unwrap_or_else(|| "select * from jobs;".into())
                prop:value=text
                on:input=move |ev| text.set(event_target_value(&ev))
                on:keydown=on_key
            ></textarea>
            <div class="console-actions">
                <button
                    type="button"
                    class="primary"
                    id="console-run"
                    disabled=move || running.get() || ctx.runner().is_none()
                    on:click=move |_| run()
                >
                    {ctx.t("console.run")}
                </button>
                <span class="muted">{ctx.rich("console.keys")}</span>
            </div>
            <div class="console-result" aria-live="polite">{result_view}</div>
            <crate::ui::start::ConsoleTx id="console-tx-here"/>
        </section>
    }
}

/// A statement's rows: how many it returned (and how many came, when cut), and the table.
#[component]
fn ResultTable(rows: Rows<Vec<serde_json::Value>>, total: usize) -> impl IntoView {
    let ctx = use_ctx();
    let count = total.max(rows.rows.len());
    let cut = count > rows.rows.len();
    let shown = rows.rows.len();
    let no_result_set = rows.fields.is_empty();
    let affected = rows.affected;
    let summary = move || {
        let msg = if no_result_set {
            Msg::new("log.rows_affected").arg("n", affected)
        } else {
            Msg::new("log.rows").arg("n", count)
        };
        render(ctx.lang.get(), &msg)
    };
    let cut_note = move || {
        let msg = Msg::new("console.cut")
            .arg("shown", shown)
            .arg("total", count);
        render(ctx.lang.get(), &msg)
    };
    view! {
        <p class="console-summary" id="console-summary">{summary}</p>
        {cut.then(|| view! { <p class="muted" id="console-cut">{cut_note}</p> })}
        <div class="table-wrap" tabindex="0">
            <table class="result">
                <thead><tr>{rows.fields.into_iter().map(|f| view! { <th scope="col">{f}</th> }).collect_view()}</tr></thead>
                <tbody>
                    {rows.rows.into_iter().map(|row| view! {
                        <tr>{row.iter().map(|v| {
                            let null = v.is_null();
                            view! { <td class:null=null>{cell_text(v)}</td> }
                        }).collect_view()}</tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// A Postgres error as a learner needs it: message, SQLSTATE, detail, hint, and the line of
/// the statement with a caret under the position.
#[component]
pub fn ErrorBox(error: DbError) -> impl IntoView {
    let ctx = use_ctx();
    let pointer = error.line_and_column().and_then(|(line, column)| {
        let sql = error.sql.clone()?;
        let text = sql.lines().nth(line - 1)?.to_owned();
        let caret = format!("{}^", " ".repeat(column.saturating_sub(1)));
        Some(format!(
            "LINE {line}: {text}\n{}{caret}",
            " ".repeat(format!("LINE {line}: ").len())
        ))
    });
    view! {
        <div class="error" role="alert">
            <p>
                <strong>{ctx.t("error.postgres_said")}</strong> " " <span lang="en">{error.message.clone()}</span>
                {error.code.clone().map(|c| view! { " " <code class="sqlstate">{format!("SQLSTATE {c}")}</code> })}
            </p>
            {pointer.map(|p| view! { <pre class="caret">{p}</pre> })}
            {error.detail.clone().map(|d| view! { <p class="detail" lang="en">{d}</p> })}
            {error.hint.clone().map(|h| view! { <p class="hint" lang="en">{h}</p> })}
        </div>
    }
}
