//! The SQL console: for learners who want to look for themselves. Runs any SQL against the
//! lab's database as psql with `ON_ERROR_STOP=1` would: every statement's result in order
//! (a table, or the command tag PostgreSQL sent), the notices each raised, and the first
//! error with a caret at its position, after which nothing more runs. Answers psql's describe
//! commands (`\d`, `\dt`, `\d jobs`: psql-describe, in the worker) with psql's text, keeps
//! psql variables (`\set`, `\gset`, `:name` bound as parameters, `\echo`), says what to do
//! instead of the psql commands a tab cannot run (src/psql.rs reads them), keeps a history
//! (↑/↓), and tells the labs to reload after a statement.
//! A result copies as text (an aligned table like psql's) or as CSV; `?sql=…` in the page's
//! address pre-fills it (it runs only when the learner presses Run).

use crate::ctx::use_ctx;
use crate::db::{ConsoleReply, DbError, Notice, Rows};
use crate::keys;
use crate::runner::{ConsoleRun, ConsoleStep, StepOutcome};
use crate::ui::i18n::render;
use leptos::prelude::*;
use queue_lab_core::i18n::Key;
use queue_lab_core::i18n::Msg;

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
    let prefill = take_prefill();
    let prefilled = prefill.is_some();
    let text = RwSignal::new(prefill.unwrap_or_default());
    let input = NodeRef::<leptos::html::Textarea>::new();
    if prefilled {
        // The console is always open; a link to it brings it into view (not focused: the
        // page's own focus order stays as it was).
        request_animation_frame(move || {
            if let Some(el) = input.get_untracked() {
                el.scroll_into_view();
            }
        });
    }
    let copy_status = CopyStatus::new();
    let history = StoredValue::new(Vec::<String>::new());
    let cursor = StoredValue::new(0usize);
    let outcome = RwSignal::new_local(None::<std::rc::Rc<ConsoleRun>>);
    let running = RwSignal::new(false);
    // How many answers the console has shown (`data-answers`: what a test waits on, since an
    // answer like the last one redraws in place).
    let answers = RwSignal::new(0u32);

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
        crate::task::spawn(async move {
            let run = runner.console(lab, &sql).await;
            running.set(false);
            outcome.set(Some(std::rc::Rc::new(run)));
            answers.update(|n| *n += 1);
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
        outcome
            .get()
            .map(|run| view! { <RunView run=run status=copy_status/> })
    };

    view! {
        <section class="console" aria-labelledby="console-title">
            <h2 id="console-title">{ctx.t(keys::CONSOLE_TITLE)}</h2>
            <p class="muted">{ctx.t(keys::CONSOLE_HINT)}</p>
            <p class="muted console-path">
                {ctx.t(keys::CONSOLE_SEARCH_PATH)} " "
                <code id="console-search-path">{move || {
                    let lab = match ctx.route.get() {
                        crate::ctx::Route::Lab(id) => Some(id),
                        crate::ctx::Route::Home => None,
                    };
                    crate::runner::search_path(lab)
                }}</code>
            </p>
            <label for="console-input" class="visually-hidden">{ctx.t(keys::CONSOLE_INPUT_LABEL)}</label>
            <textarea
                id="console-input"
                node_ref=input
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
                    {ctx.t(keys::CONSOLE_RUN)}
                </button>
                <span class="muted">{ctx.rich(keys::CONSOLE_KEYS)}</span>
            </div>
            <div class="console-result" aria-live="polite" data-answers=move || answers.get()>{result_view}</div>
            <CopyStatusLine status=copy_status id="console-copy-status"/>
            <crate::ui::start::ConsoleTx id="console-tx-here"/>
        </section>
    }
}

/// The steps of one run, in order, each with its notices and result; the last step's
/// elements carry the plain ids (`#console-summary`, `#console-copy-csv`…), the others the
/// same ids with `-{n}` (n: the step's number). Then, when a step failed, which one and how
/// many did not run.
#[component]
fn RunView(run: std::rc::Rc<ConsoleRun>, status: CopyStatus) -> impl IntoView {
    let ctx = use_ctx();
    let many = run.steps.len() > 1 || run.not_run > 0;
    let last = run.steps.len().saturating_sub(1);
    let total = run.steps.last().map_or(0, |s| s.number) + run.not_run;
    let stopped = run.steps.last().filter(|s| s.failed()).map(|s| s.number);
    let not_run = run.not_run;
    let steps = run
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let suffix = if i == last {
                String::new()
            } else {
                format!("-{}", step.number)
            };
            view! { <StepView step=step.clone() suffix=suffix many=many status=status/> }
        })
        .collect_view();
    let stopped_note = stopped.map(|n| {
        let msg = Msg::new(keys::CONSOLE_STMT_FAILED)
            .arg("n", n)
            .arg("total", total)
            .arg("rest", not_run);
        view! {
            <p class="console-stopped" id="console-stopped">
                {move || crate::ui::i18n::rich(&render(ctx.lang.get(), &msg))}
            </p>
        }
    });
    view! { {steps} {stopped_note} }
}

/// One statement or backslash command of a run and what it gave.
#[component]
fn StepView(step: ConsoleStep, suffix: String, many: bool, status: CopyStatus) -> impl IntoView {
    let ctx = use_ctx();
    let number = step.number;
    let head = many.then(|| {
        let label = move || {
            render(
                ctx.lang.get(),
                &Msg::new(keys::CONSOLE_STEP).arg("n", number),
            )
        };
        view! {
            <p class="console-step-head"><span class="muted">{label}</span></p>
            <pre class="console-stmt" lang="en">{step.text.clone()}</pre>
        }
    });
    let params = (!step.params.is_empty()).then(|| {
        let list = step
            .params
            .iter()
            .enumerate()
            .map(|(i, v)| format!("${} = '{}'", i + 1, v.replace('\'', "''")))
            .collect::<Vec<_>>()
            .join(", ");
        let msg = Msg::new(keys::CONSOLE_PARAMS).arg("list", list);
        view! { <p class="muted console-params">{move || render(ctx.lang.get(), &msg)}</p> }
    });
    let failed = step.failed();
    let body = match step.outcome {
        StepOutcome::Reply(reply) => {
            view! { <ReplyView reply=reply suffix=suffix.clone() status=status/> }.into_any()
        }
        StepOutcome::Stored(reply, names) => {
            let msg = Msg::new(keys::CONSOLE_GSET_STORED).arg("names", names.join(", "));
            view! {
                <NoticesView notices=reply.notices.clone()/>
                <p class="console-summary console-gset" id=format!("console-summary{suffix}")>
                    {move || crate::ui::i18n::rich(&render(ctx.lang.get(), &msg))}
                </p>
            }
            .into_any()
        }
        StepOutcome::Echo(text) => {
            view! { <pre class="console-echo" id=format!("console-echo{suffix}")>{text}</pre> }
                .into_any()
        }
        StepOutcome::Done => ().into_any(),
        StepOutcome::Note(msg) => view! {
            <p class="note console-note" id=format!("console-note{suffix}")>
                {move || crate::ui::i18n::rich(&render(ctx.lang.get(), &msg))}
            </p>
        }
        .into_any(),
        StepOutcome::Refused(msg) => view! {
            <div class="error" role="alert">
                <p>{move || crate::ui::i18n::rich(&render(ctx.lang.get(), &msg))}</p>
            </div>
        }
        .into_any(),
    };
    view! {
        <div class="console-step" data-step=number data-failed=failed.to_string()>
            {head}
            {params}
            {body}
        </div>
    }
}

/// The notices a statement raised, as psql prints them (`NOTICE:  …`, `WARNING:  …`, with
/// their DETAIL and HINT lines).
#[component]
fn NoticesView(notices: Vec<Notice>) -> impl IntoView {
    (!notices.is_empty()).then(|| {
        let text = notices
            .iter()
            .map(|n| {
                let mut line = format!("{}:  {}", n.severity, n.message);
                if let Some(d) = &n.detail {
                    line.push_str(&format!("\nDETAIL:  {d}"));
                }
                if let Some(h) = &n.hint {
                    line.push_str(&format!("\nHINT:  {h}"));
                }
                line
            })
            .collect::<Vec<_>>()
            .join("\n");
        view! { <pre class="console-notices" lang="en">{text}</pre> }
    })
}

/// What PostgreSQL answered to one statement: its notices, then its rows, its command tag,
/// describe text, or its error.
#[component]
fn ReplyView(reply: ConsoleReply, suffix: String, status: CopyStatus) -> impl IntoView {
    let notices = reply.notices.clone();
    let body = match (reply.result, reply.text) {
        (Ok(_), Some(out)) => {
            let copied = out.clone();
            view! {
                <pre class="describe" id=format!("console-describe{suffix}") tabindex="0">{out}</pre>
                <div class="console-actions">
                    <CopyButton id=format!("console-copy-describe{suffix}") label=keys::COPY_TEXT status=status
                        text=move || copied.clone()/>
                </div>
            }
            .into_any()
        }
        (Ok(rows), None) => view! {
            <ResultTable rows=rows total=reply.total tag=reply.tag suffix=suffix status=status/>
        }
        .into_any(),
        (Err(e), _) => view! { <ErrorBox error=e/> }.into_any(),
    };
    view! { <NoticesView notices=notices/> {body} }
}

/// A statement's rows: how many it returned (and how many came, when cut), and the table; or,
/// for a statement without rows, the command tag PostgreSQL sent (`INSERT 0 1`, `ROLLBACK`).
#[component]
fn ResultTable(
    rows: Rows<Vec<serde_json::Value>>,
    total: usize,
    tag: Option<String>,
    suffix: String,
    status: CopyStatus,
) -> impl IntoView {
    let ctx = use_ctx();
    let copy = (!rows.fields.is_empty()).then(|| {
        let (fields, data) = (rows.fields.clone(), rows.rows.clone());
        let (f2, d2) = (fields.clone(), data.clone());
        view! {
            <div class="console-actions">
                <CopyButton id=format!("console-copy-text{suffix}") label=keys::COPY_TEXT status=status
                    text=move || psql_table(&fields, &data)/>
                <CopyButton id=format!("console-copy-csv{suffix}") label=keys::COPY_CSV status=status
                    text=move || csv(&f2, &d2)/>
            </div>
        }
    });
    let count = total.max(rows.rows.len());
    let cut = count > rows.rows.len();
    let shown = rows.rows.len();
    let no_result_set = rows.fields.is_empty();
    let affected = rows.affected;
    // The words of the tag that count rows (INSERT, UPDATE, DELETE, MERGE, COPY): the count
    // is said in words too.
    let counts = tag.as_deref().is_some_and(|t| {
        matches!(
            t.split(' ').next(),
            Some("INSERT" | "UPDATE" | "DELETE" | "MERGE" | "COPY")
        )
    });
    let summary = move || {
        let msg = if no_result_set {
            Msg::new(keys::LOG_ROWS_AFFECTED).arg("n", affected)
        } else {
            Msg::new(keys::LOG_ROWS).arg("n", count)
        };
        render(ctx.lang.get(), &msg)
    };
    let cut_note = move || {
        let msg = Msg::new(keys::CONSOLE_CUT)
            .arg("shown", shown)
            .arg("total", count);
        render(ctx.lang.get(), &msg)
    };
    let summary_view = match (no_result_set, tag) {
        (true, Some(tag)) => view! {
            <p class="console-summary" id=format!("console-summary{suffix}")>
                <code class="console-tag">{tag}</code>
                {counts.then(|| view! { " · " {summary} })}
            </p>
        }
        .into_any(),
        _ => {
            view! { <p class="console-summary" id=format!("console-summary{suffix}")>{summary}</p> }
                .into_any()
        }
    };
    let table = (!no_result_set).then(|| {
        view! {
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
    });
    view! {
        {summary_view}
        {cut.then(|| view! { <p class="muted" id=format!("console-cut{suffix}")>{cut_note}</p> })}
        {copy}
        {table}
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
                <strong>{ctx.t(keys::ERROR_POSTGRES_SAID)}</strong> " " <span lang="en">{error.message.clone()}</span>
                {error.code.clone().map(|c| view! { " " <code class="sqlstate">{format!("SQLSTATE {c}")}</code> })}
            </p>
            {pointer.map(|p| view! { <pre class="caret">{p}</pre> })}
            {error.detail.clone().map(|d| view! { <p class="detail" lang="en">{d}</p> })}
            {error.hint.clone().map(|h| view! { <p class="hint" lang="en">{h}</p> })}
        </div>
    }
}

thread_local! {
    /// Whether this page's `?sql=` was given to a console already (only the first one gets it).
    static PREFILL_TAKEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The page address's `?sql=…`, once per page: the first console shown pre-fills with it.
fn take_prefill() -> Option<String> {
    if PREFILL_TAKEN.with(|t| t.replace(true)) {
        return None;
    }
    crate::ctx::query_param("sql").filter(|s| !s.trim().is_empty())
}

/// What the last copy did, for the status line that reads it out (`role="status"`); it
/// clears after a few seconds, so the same copy again is announced again.
#[derive(Clone, Copy)]
pub struct CopyStatus(RwSignal<Option<Key>>);

impl CopyStatus {
    pub fn new() -> Self {
        Self(RwSignal::new(None))
    }
}

impl Default for CopyStatus {
    fn default() -> Self {
        Self::new()
    }
}

/// The status line a group of copy buttons reports to: "Copied", or why the browser refused.
#[component]
pub fn CopyStatusLine(status: CopyStatus, id: &'static str) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <p class="copy-status muted" role="status" id=id>
            {move || status.0.get().map(|key| crate::ui::i18n::tr(ctx.lang.get(), key))}
        </p>
    }
}

/// A button that puts `text()` on the clipboard and reports to `status`.
#[component]
pub fn CopyButton(
    #[prop(optional, into)] id: Option<String>,
    /// The catalog key of its label.
    label: Key,
    status: CopyStatus,
    text: impl Fn() -> String + 'static,
) -> impl IntoView {
    let ctx = use_ctx();
    let on_click = move |_| {
        let text = text();
        crate::task::spawn(async move {
            let said = if write_clipboard(&text).await {
                keys::COPY_DONE
            } else {
                keys::COPY_REFUSED
            };
            status.0.set(Some(said));
            set_timeout(
                move || status.0.set(None),
                std::time::Duration::from_secs(5),
            );
        });
    };
    view! {
        <button type="button" class="small copy" id=id on:click=on_click>{ctx.t(label)}</button>
    }
}

/// Writes to the clipboard; false when the browser refuses (no permission, or no Clipboard
/// API at all: an insecure context has none).
async fn write_clipboard(text: &str) -> bool {
    use wasm_bindgen::JsCast;
    let navigator = window().navigator();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &"clipboard".into()) else {
        return false;
    };
    if clipboard.is_undefined() || clipboard.is_null() {
        return false;
    }
    let clipboard: web_sys::Clipboard = clipboard.unchecked_into();
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text))
        .await
        .is_ok()
}

/// A cell as copied: like the table shows it, but NULL as nothing (psql's and CSV's way).
fn copy_cell(v: &serde_json::Value) -> Option<String> {
    (!v.is_null()).then(|| cell_text(v))
}

/// Columns a terminal gives `s`: East Asian wide characters (Hangul, CJK) take two.
fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            let c = c as u32;
            let wide = (0x1100..=0x115F).contains(&c)
                || (0x2E80..=0xA4CF).contains(&c)
                || (0xAC00..=0xD7A3).contains(&c)
                || (0xF900..=0xFAFF).contains(&c)
                || (0xFE30..=0xFE4F).contains(&c)
                || (0xFF00..=0xFF60).contains(&c)
                || (0xFFE0..=0xFFE6).contains(&c);
            if wide {
                2
            } else {
                1
            }
        })
        .sum()
}

/// Rows as psql's aligned format prints them: headers centred, numbers right-aligned, the
/// rest left-aligned, NULL empty, a `(n rows)` footer; no trailing spaces.
pub fn psql_table(fields: &[String], rows: &[Vec<serde_json::Value>]) -> String {
    let cells: Vec<Vec<(String, bool)>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| (copy_cell(v).unwrap_or_default(), v.is_number()))
                .collect()
        })
        .collect();
    let widths: Vec<usize> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            cells
                .iter()
                .filter_map(|r| r.get(i))
                .map(|(c, _)| display_width(c))
                .chain([display_width(f)])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |parts: Vec<String>| parts.join("|").trim_end().to_owned();
    let mut out = Vec::new();
    out.push(line(
        fields
            .iter()
            .zip(&widths)
            .map(|(f, w)| {
                let pad = w - display_width(f);
                let left = pad / 2;
                format!(" {}{f}{} ", " ".repeat(left), " ".repeat(pad - left))
            })
            .collect(),
    ));
    out.push(
        widths
            .iter()
            .map(|w| "-".repeat(w + 2))
            .collect::<Vec<_>>()
            .join("+"),
    );
    for r in &cells {
        out.push(line(
            r.iter()
                .zip(&widths)
                .map(|((c, right), w)| {
                    let pad = " ".repeat(w - display_width(c));
                    if *right {
                        format!(" {pad}{c} ")
                    } else {
                        format!(" {c}{pad} ")
                    }
                })
                .collect(),
        ));
    }
    let n = rows.len();
    out.push(format!("({n} {})", if n == 1 { "row" } else { "rows" }));
    out.join("\n") + "\n"
}

/// Rows as CSV (RFC 4180): a header line, CRLF line ends, a field quoted when it holds a
/// comma, a double quote (doubled inside), CR or LF. NULL is an empty field and the empty
/// text a quoted one (`""`), as PostgreSQL's `COPY … CSV` tells them apart.
pub fn csv(fields: &[String], rows: &[Vec<serde_json::Value>]) -> String {
    fn field(s: &str) -> String {
        if s.is_empty() || s.contains([',', '"', '\r', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_owned()
        }
    }
    let mut out = String::new();
    let header: Vec<String> = fields.iter().map(|f| field(f)).collect();
    out.push_str(&header.join(","));
    out.push_str("\r\n");
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .map(|v| copy_cell(v).map(|c| field(&c)).unwrap_or_default())
            .collect();
        out.push_str(&line.join(","));
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn csv_quotes_commas_quotes_and_line_breaks_and_tells_null_from_empty_text() {
        let rows = vec![
            vec![json!(1), json!("plain"), json!(null)],
            vec![json!(2), json!("a,b \"c\""), json!("")],
            vec![json!(3), json!("two\nlines"), json!("cr\rhere")],
        ];
        assert_eq!(
            csv(&fields(&["id", "note", "last_error"]), &rows),
            "id,note,last_error\r\n1,plain,\r\n2,\"a,b \"\"c\"\"\",\"\"\r\n3,\"two\nlines\",\"cr\rhere\"\r\n"
        );
    }

    #[test]
    fn csv_writes_json_compact_and_quotes_it_when_it_holds_commas() {
        let rows = vec![vec![json!({"order": 1, "sku": "x"})]];
        assert_eq!(
            csv(&fields(&["payload"]), &rows),
            "payload\r\n\"{\"\"order\"\":1,\"\"sku\"\":\"\"x\"\"}\"\r\n"
        );
    }

    #[test]
    fn psql_table_centres_headers_right_aligns_numbers_and_counts_rows() {
        let rows = vec![vec![json!(1), json!("ready")], vec![json!(10), json!(null)]];
        assert_eq!(
            psql_table(&fields(&["id", "status"]), &rows),
            " id | status\n----+--------\n  1 | ready\n 10 |\n(2 rows)\n"
        );
    }

    #[test]
    fn psql_table_counts_hangul_as_two_columns_wide() {
        let rows = vec![vec![json!("작업"), json!(1)]];
        assert_eq!(
            psql_table(&fields(&["name", "n"]), &rows),
            " name | n\n------+---\n 작업 | 1\n(1 row)\n"
        );
    }
}
