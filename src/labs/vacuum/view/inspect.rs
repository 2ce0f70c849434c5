//! Looking inside the tables: the long transaction that pins the horizon, the heap page map
//! of the selected table (read during its rounds too) and its autovacuum figures.

use super::{strategy_name, Ui};
use crate::ctx::Ctx;
use crate::keys;
use crate::labs::vacuum::model::{self, Action, AutovacuumSettings, PageCell, Strategy};
use crate::ui::format::group;
use crate::ui::i18n::{render, tr};
use leptos::prelude::*;
use queue_lab_core::i18n::{Key, Msg};

#[component]
pub(super) fn LongTxPanel(ui: Ui) -> impl IntoView {
    let ctx = ui.ctx;
    let long_tx = ui.part(|s| s.long_tx.clone());
    let toggle = move || {
        let on = long_tx.get_untracked().is_some();
        ui.act("long_tx", Action::LongTx(!on), None);
    };
    let status = move || {
        match long_tx.get() {
        Some(tx) => view! {
            <p class="note bad" id="vacuum-long-tx-status">{ui.msg(Msg::new(keys::VACUUM_LONG_TX_ON).arg("xid", tx.xid))}</p>
        }
        .into_any(),
        None => view! { <p class="muted" id="vacuum-long-tx-status">{ctx.t(keys::VACUUM_LONG_TX_OFF)}</p> }.into_any(),
    }
    };
    view! {
        <section class="panel" aria-labelledby="vacuum-long-tx-title">
            <h2 id="vacuum-long-tx-title">{ctx.t(keys::VACUUM_LONG_TX)}</h2>
            <p>{ctx.t(keys::VACUUM_LONG_TX_HELP)}</p>
            <div class="row">
                <button
                    type="button"
                    id="vacuum-long-tx"
                    aria-pressed=move || long_tx.with(Option::is_some).to_string()
                    disabled=move || ui.busy.get()
                    on:click=move |_| toggle()
                >
                    {move || if long_tx.with(Option::is_some) { ctx.t(keys::VACUUM_LONG_TX_TURN_OFF)() } else { ctx.t(keys::VACUUM_LONG_TX_TURN_ON)() }}
                </button>
            </div>
            {status}
            <p class="muted">{ctx.t(keys::VACUUM_LONG_TX_TRY)}</p>
            {ui.error_in("long_tx")}
            <p>{ctx.t(keys::VACUUM_LONG_TX_SERVERS)}</p>
            <p class="muted">{ctx.t(keys::VACUUM_LONG_TX_HISTORY)}</p>
        </section>
    }
}

fn strategy_select(ui: Ui, id: &'static str) -> impl IntoView {
    let ctx = ui.ctx;
    let selected = ui.part(|s| s.state.selected);
    view! {
        <label class="shrink">
            {ctx.t(keys::VACUUM_INSPECT_TABLE)}
            <select
                id=id
                class="shrink"
                disabled=move || ui.busy.get()
                on:change=move |ev| {
                    if let Some(s) = Strategy::parse(&event_target_value(&ev)) {
                        ui.act("inspect", Action::Select(s), None);
                    }
                }
            >
                {Strategy::ALL
                    .into_iter()
                    .map(|s| view! {
                        <option value=s.id() selected=move || selected.get() == s>
                            {move || strategy_name(ctx.lang.get(), s)}
                        </option>
                    })
                    .collect_view()}
            </select>
        </label>
    }
}

#[component]
pub(super) fn PageMapPanel(ui: Ui) -> impl IntoView {
    let ctx = ui.ctx;
    let pages = ui.part(|s| s.pages.clone());
    let available = ui.part(|s| s.state.page_map);
    let map = move || {
        let lang = ctx.lang.get();
        match pages.get() {
            Some((s, pages)) => page_map(lang, s, pages),
            None => view! { <p class="muted">"…"</p> }.into_any(),
        }
    };
    let swatch = |fill: &'static str| {
        view! { <svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" style:fill=fill/></svg> }
    };
    // A run reads the map during its rounds only while it is on screen (each read costs
    // the round time): an IntersectionObserver tells the model (`model::set_map_on_screen`).
    let panel = NodeRef::<leptos::html::Section>::new();
    watch_on_screen(panel);
    view! {
        <section class="panel" id="vacuum-page-map-panel" aria-labelledby="vacuum-page-map-title" node_ref=panel>
            <h2 id="vacuum-page-map-title">{ctx.t(keys::VACUUM_PAGE_MAP)}</h2>
            <p class="muted">{ctx.rich(keys::VACUUM_PAGE_MAP_HELP)}</p>
            <Show
                when=move || available.get()
                fallback=move || view! { <p class="note bad">{ctx.t(keys::VACUUM_PAGE_MAP_UNAVAILABLE)}</p> }
            >
                <div class="row">
                    {strategy_select(ui, "vacuum-page-map-table")}
                </div>
                <ul class="row vacuum-legend">
                    <li>{swatch("var(--ok)")} " " {ctx.t(keys::VACUUM_PAGE_MAP_LIVE)}</li>
                    <li>{swatch("var(--warn)")} " " {ctx.t(keys::VACUUM_PAGE_MAP_MIXED)}</li>
                    <li>{swatch("var(--bad)")} " " {ctx.t(keys::VACUUM_PAGE_MAP_DEAD)}</li>
                    <li>{swatch("var(--line)")} " " {ctx.t(keys::VACUUM_PAGE_MAP_EMPTY_CELL)}</li>
                    <li>
                        <svg width="12" height="12" aria-hidden="true"><circle cx="6" cy="6" r="2.5" class="dot"/></svg>
                        " " {ctx.t(keys::VACUUM_PAGE_MAP_ALL_VISIBLE)}
                    </li>
                </ul>
                {map}
                {ui.error_in("inspect")}
                <details>
                    <summary>{ctx.t(keys::VACUUM_PAGE_MAP_MORE)}</summary>
                    <p>{ctx.t(keys::VACUUM_PAGE_MAP_DEAD_DEF)}</p>
                    <p>{ctx.t(keys::VACUUM_PAGE_MAP_PRUNING)}</p>
                </details>
            </Show>
        </section>
    }
}

/// The observer of the mounted page map panel (one at a time) and its callback.
type Watcher = (
    web_sys::IntersectionObserver,
    wasm_bindgen::closure::Closure<dyn Fn(js_sys::Array)>,
);

thread_local! {
    static WATCHER: std::cell::RefCell<Option<Watcher>> = const { std::cell::RefCell::new(None) };
}

/// Keeps `model::set_map_on_screen` told whether any of `panel` is in the viewport, from the
/// moment it mounts until it unmounts (then it says "on screen" again: no view, no limit).
fn watch_on_screen(panel: NodeRef<leptos::html::Section>) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::{IntersectionObserver, IntersectionObserverEntry};
    panel.on_load(|el| {
        let seen = Closure::<dyn Fn(js_sys::Array)>::new(|entries: js_sys::Array| {
            // The newest entry says where the panel is now.
            if let Some(e) = entries
                .iter()
                .last()
                .and_then(|e| e.dyn_into::<IntersectionObserverEntry>().ok())
            {
                model::set_map_on_screen(e.is_intersecting());
            }
        });
        if let Ok(observer) = IntersectionObserver::new(seen.as_ref().unchecked_ref()) {
            observer.observe(&el);
            stop_watching();
            WATCHER.set(Some((observer, seen)));
        }
    });
    on_cleanup(stop_watching);
}

fn stop_watching() {
    if let Some((observer, _)) = WATCHER.take() {
        observer.disconnect();
    }
    model::set_map_on_screen(true);
}

#[component]
pub(super) fn AutovacuumPanel(ui: Ui) -> impl IntoView {
    let ctx = ui.ctx;
    let threshold = RwSignal::new(String::new());
    let scale = RwSignal::new(String::from("0.01"));
    let max = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<Msg>);
    let ran = ui.part(|s| s.state.autovacuum_ran.clone());
    let records = ui.part(|s| s.state.records.clone());
    let autovac = ui.part(|s| s.autovac.clone());
    let partitioned = ui.part(|s| s.state.selected.partitioned());
    let apply = move || match model::parse_autovacuum(
        &threshold.get_untracked(),
        &scale.get_untracked(),
        &max.get_untracked(),
    ) {
        Err(m) => problem.set(Some(m)),
        Ok(input) => {
            problem.set(None);
            let s = ui.snap.with_untracked(|s| s.state.selected);
            ui.act("autovacuum", Action::Autovacuum(s, input), None);
        }
    };
    let figures = move || {
        let (s, a) = autovac.get()?;
        let lang = ctx.lang.get();
        let when = records.with(|r| model::would_start(r, s, a.dead_threshold));
        Some(autovacuum_figures(lang, &a, when))
    };
    view! {
        <section class="panel" aria-labelledby="vacuum-autovacuum-title">
            <h2 id="vacuum-autovacuum-title">{ctx.t(keys::VACUUM_AUTOVACUUM)}</h2>
            <p class="note bad">{ctx.t(keys::VACUUM_AUTOVACUUM_NEVER)}</p>
            <p>{ctx.rich(keys::VACUUM_AUTOVACUUM_FORMULA)}</p>
            <div class="row">{strategy_select(ui, "vacuum-autovacuum-table")}</div>
            {figures}
            <Show when=move || partitioned.get()>
                <p class="note" id="vacuum-av-partitioned">{ctx.t(keys::VACUUM_AUTOVACUUM_PARTITIONED)}</p>
            </Show>
            <p class="muted">{ctx.t(keys::VACUUM_AUTOVACUUM_INSERT_NOTE)}</p>
            <h3>{ctx.t(keys::VACUUM_AUTOVACUUM_TABLE_SETTING)}</h3>
            <p class="muted">{ctx.rich(keys::VACUUM_AUTOVACUUM_TABLE_SETTING_HELP)}</p>
            <form on:submit=move |ev| { ev.prevent_default(); apply(); }>
                {setting_field(ctx, keys::VACUUM_AUTOVACUUM_THRESHOLD, "vacuum-av-threshold", "numeric", 8, "50", threshold)}
                {setting_field(ctx, keys::VACUUM_AUTOVACUUM_SCALE_FACTOR, "vacuum-av-scale", "decimal", 6, "0.2", scale)}
                {setting_field(ctx, keys::VACUUM_AUTOVACUUM_MAX_THRESHOLD, "vacuum-av-max", "numeric", 10, "100000000", max)}
                <button type="submit" id="vacuum-av-apply" disabled=move || ui.busy.get() || partitioned.get()>{ctx.t(keys::VACUUM_AUTOVACUUM_APPLY)}</button>
            </form>
            <Show when=move || problem.with(Option::is_some)>
                <p class="field-error" role="alert">{move || problem.get().map(|m| render(ctx.lang.get(), &m)).unwrap_or_default()}</p>
            </Show>
            {move || ran.get().map(|s| view! { <pre class="note mono" id="vacuum-av-ran">{s}</pre> })}
            {ui.error_in("autovacuum")}
        </section>
    }
}

/// The heap pages of table `s`, a cell each (or a few pages a cell on a large table).
fn page_map(lang: queue_lab_core::i18n::Lang, s: Strategy, pages: Vec<PageCell>) -> AnyView {
    if pages.is_empty() {
        return view! { <p class="muted" id="vacuum-page-map-summary">{tr(lang, keys::VACUUM_PAGE_MAP_EMPTY)}</p> }.into_any();
    }
    let (cells, per) = model::aggregate(&pages, model::PAGE_MAP_MAX_CELLS);
    let sum = |f: fn(&PageCell) -> i64| pages.iter().map(f).sum::<i64>();
    let summary = render(
        lang,
        &Msg::new(keys::VACUUM_PAGE_MAP_SUMMARY)
            .arg("table", s.table())
            .arg("pages", group(pages.len() as i64))
            .arg("per", per)
            .arg("live", group(sum(|p| i64::from(p.live))))
            .arg("dead", group(sum(|p| i64::from(p.dead))))
            .arg("unused", group(sum(|p| i64::from(p.unused))))
            .arg(
                "visible",
                group(pages.iter().filter(|p| p.all_visible).count() as i64),
            ),
    );
    let cols = 40usize;
    let size = 10.0;
    let rows = cells.len().div_ceil(cols);
    let visible_word = tr(lang, keys::VACUUM_PAGE_MAP_ALL_VISIBLE);
    view! {
        <p id="vacuum-page-map-summary" data-pages=pages.len().to_string()>{summary}</p>
        <svg
            id="vacuum-page-map"
            viewBox=format!("0 0 {} {}", cols as f64 * size, rows as f64 * size)
            width="100%"
            role="img"
            aria-label=tr(lang, keys::VACUUM_PAGE_MAP)
            class="page-map-svg"
        >
            {cells
                .into_iter()
                .enumerate()
                .map(|(i, c)| {
                    let x = (i % cols) as f64 * size;
                    let y = (i / cols) as f64 * size;
                    let fill = if c.dead > 0 && c.dead >= c.live {
                        "var(--bad)"
                    } else if c.dead > 0 {
                        "var(--warn)"
                    } else if c.live > 0 {
                        "var(--ok)"
                    } else {
                        "var(--line)"
                    };
                    let all_visible = c.all_visible == c.pages;
                    let visible = if all_visible { format!(", {visible_word}") } else { String::new() };
                    let page = if c.pages > 1 {
                        format!("{}–{}", c.first_page, c.first_page + c.pages as i32 - 1)
                    } else {
                        c.first_page.to_string()
                    };
                    let title = render(
                        lang,
                        &Msg::new(keys::VACUUM_PAGE_MAP_CELL)
                            .arg("page", page)
                            .arg("live", c.live)
                            .arg("dead", c.dead)
                            .arg("unused", c.unused)
                            .arg("free", group(c.free_bytes))
                            .arg("visible", visible),
                    );
                    view! {
                        <g>
                            <rect x=(x + 0.5).to_string() y=(y + 0.5).to_string() width=(size - 1.0).to_string() height=(size - 1.0).to_string() style:fill=fill>
                                <title>{title}</title>
                            </rect>
                            {all_visible.then(|| view! {
                                <circle cx=(x + size / 2.0).to_string() cy=(y + size / 2.0).to_string() r="1.8" class="dot"/>
                            })}
                        </g>
                    }
                })
                .collect_view()}
        </svg>
    }
    .into_any()
}

/// One field of the table's autovacuum settings: its label, and a text input (`id`) that
/// writes `value`.
fn setting_field(
    ctx: Ctx,
    label: Key,
    id: &'static str,
    inputmode: &'static str,
    size: u32,
    placeholder: &'static str,
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <div class="row">
            <label>
                {ctx.t(label)}
                <input id=id type="text" inputmode=inputmode size=size placeholder=placeholder
                    prop:value=value on:input=move |ev| value.set(event_target_value(&ev))/>
            </label>
        </div>
    }
}

/// The table's autovacuum threshold and where each setting comes from; when a server's
/// autovacuum would have started (`when`: round and job); how often it ran here.
fn autovacuum_figures(
    lang: queue_lab_core::i18n::Lang,
    a: &AutovacuumSettings,
    when: Option<(u32, u32)>,
) -> impl IntoView {
    let source = |from_table: bool| {
        tr(
            lang,
            if from_table {
                keys::VACUUM_AUTOVACUUM_FROM_TABLE
            } else {
                keys::VACUUM_AUTOVACUUM_FROM_SERVER
            },
        )
    };
    let current = render(
        lang,
        &Msg::new(keys::VACUUM_AUTOVACUUM_CURRENT)
            .arg("threshold", group(a.dead_threshold.round() as i64))
            .arg(
                "base",
                format!(
                    "{} ({})",
                    group(a.vacuum_threshold),
                    source(a.threshold_from_table)
                ),
            )
            .arg(
                "scale",
                format!("{} ({})", a.scale_factor, source(a.scale_factor_from_table)),
            )
            .arg("rows", group(a.reltuples.round() as i64))
            .arg(
                "max",
                format!(
                    "{} ({})",
                    group(a.max_threshold),
                    source(a.max_threshold_from_table)
                ),
            )
            .arg("dead", group(a.n_dead_tup)),
    );
    let when = render(
        lang,
        &match when {
            Some((round, job)) => Msg::new(keys::VACUUM_AUTOVACUUM_WOULD_START)
                .arg("round", round)
                .arg("job", group(i64::from(job))),
            None => Msg::new(keys::VACUUM_AUTOVACUUM_NOT_REACHED),
        },
    );
    let counted = render(
        lang,
        &Msg::new(keys::VACUUM_AUTOVACUUM_COUNTED)
            .arg("on", if a.autovacuum_on { "on" } else { "off" })
            .arg("count", a.autovacuum_count),
    );
    view! {
        <p id="vacuum-autovacuum-current">{current}</p>
        <p class="note" id="vacuum-autovacuum-when">{when}</p>
        <p class="muted">{counted}</p>
    }
}
