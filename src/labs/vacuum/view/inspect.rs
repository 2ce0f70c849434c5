//! Looking inside the tables: the long transaction that pins the horizon, the heap page map
//! of the selected table (read during its rounds too) and its autovacuum figures.

use super::{strategy_name, Ui};
use crate::labs::vacuum::model::{self, Action, AutovacuumSettings, PageCell, Strategy};
use crate::ui::format::group;
use crate::ui::i18n::{render, tr};
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

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
            <p class="note bad" id="vacuum-long-tx-status">{ui.msg(Msg::new("vacuum.long_tx.on").arg("xid", tx.xid))}</p>
        }
        .into_any(),
        None => view! { <p class="muted" id="vacuum-long-tx-status">{ctx.t("vacuum.long_tx.off")}</p> }.into_any(),
    }
    };
    view! {
        <section class="panel" aria-labelledby="vacuum-long-tx-title">
            <h2 id="vacuum-long-tx-title">{ctx.t("vacuum.long_tx")}</h2>
            <p>{ctx.t("vacuum.long_tx.help")}</p>
            <div class="row">
                <button
                    type="button"
                    id="vacuum-long-tx"
                    aria-pressed=move || long_tx.with(Option::is_some).to_string()
                    disabled=move || ui.busy.get()
                    on:click=move |_| toggle()
                >
                    {move || if long_tx.with(Option::is_some) { ctx.t("vacuum.long_tx.turn_off")() } else { ctx.t("vacuum.long_tx.turn_on")() }}
                </button>
            </div>
            {status}
            <p class="muted">{ctx.t("vacuum.long_tx.try")}</p>
            {ui.error_in("long_tx")}
            <p>{ctx.t("vacuum.long_tx.servers")}</p>
            <p class="muted">{ctx.t("vacuum.long_tx.history")}</p>
        </section>
    }
}

fn strategy_select(ui: Ui, id: &'static str) -> impl IntoView {
    let ctx = ui.ctx;
    let selected = ui.part(|s| s.state.selected);
    view! {
        <label class="shrink">
            {ctx.t("vacuum.inspect.table")}
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
            <h2 id="vacuum-page-map-title">{ctx.t("vacuum.page_map")}</h2>
            <p class="muted">{ctx.t("vacuum.page_map.help")}</p>
            <Show
                when=move || available.get()
                fallback=move || view! { <p class="note bad">{ctx.t("vacuum.page_map.unavailable")}</p> }
            >
                <div class="row">
                    {strategy_select(ui, "vacuum-page-map-table")}
                </div>
                <ul class="row vacuum-legend">
                    <li>{swatch("var(--ok)")} " " {ctx.t("vacuum.page_map.live")}</li>
                    <li>{swatch("var(--warn)")} " " {ctx.t("vacuum.page_map.mixed")}</li>
                    <li>{swatch("var(--bad)")} " " {ctx.t("vacuum.page_map.dead")}</li>
                    <li>{swatch("var(--line)")} " " {ctx.t("vacuum.page_map.empty_cell")}</li>
                    <li>
                        <svg width="12" height="12" aria-hidden="true"><circle cx="6" cy="6" r="2.5" class="dot"/></svg>
                        " " {ctx.t("vacuum.page_map.all_visible")}
                    </li>
                </ul>
                {map}
                {ui.error_in("inspect")}
                <details>
                    <summary>{ctx.t("vacuum.page_map.more")}</summary>
                    <p>{ctx.t("vacuum.page_map.dead_def")}</p>
                    <p>{ctx.t("vacuum.page_map.pruning")}</p>
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
            <h2 id="vacuum-autovacuum-title">{ctx.t("vacuum.autovacuum")}</h2>
            <p class="note bad">{ctx.t("vacuum.autovacuum.never")}</p>
            <p>{ctx.rich("vacuum.autovacuum.formula")}</p>
            <div class="row">{strategy_select(ui, "vacuum-autovacuum-table")}</div>
            {figures}
            <Show when=move || partitioned.get()>
                <p class="note" id="vacuum-av-partitioned">{ctx.t("vacuum.autovacuum.partitioned")}</p>
            </Show>
            <p class="muted">{ctx.t("vacuum.autovacuum.insert_note")}</p>
            <h3>{ctx.t("vacuum.autovacuum.table_setting")}</h3>
            <p class="muted">{ctx.rich("vacuum.autovacuum.table_setting.help")}</p>
            <form on:submit=move |ev| { ev.prevent_default(); apply(); }>
                <div class="row">
                    <label>
                        {ctx.t("vacuum.autovacuum.threshold")}
                        <input id="vacuum-av-threshold" type="text" inputmode="numeric" size="8" placeholder="50"
                            prop:value=threshold on:input=move |ev| threshold.set(event_target_value(&ev))/>
                    </label>
                </div>
                <div class="row">
                    <label>
                        {ctx.t("vacuum.autovacuum.scale_factor")}
                        <input id="vacuum-av-scale" type="text" inputmode="decimal" size="6" placeholder="0.2"
                            prop:value=scale on:input=move |ev| scale.set(event_target_value(&ev))/>
                    </label>
                </div>
                <div class="row">
                    <label>
                        {ctx.t("vacuum.autovacuum.max_threshold")}
                        <input id="vacuum-av-max" type="text" inputmode="numeric" size="10" placeholder="100000000"
                            prop:value=max on:input=move |ev| max.set(event_target_value(&ev))/>
                    </label>
                </div>
                <button type="submit" id="vacuum-av-apply" disabled=move || ui.busy.get() || partitioned.get()>{ctx.t("vacuum.autovacuum.apply")}</button>
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
        return view! { <p class="muted" id="vacuum-page-map-summary">{tr(lang, "vacuum.page_map.empty")}</p> }.into_any();
    }
    let (cells, per) = model::aggregate(&pages, model::PAGE_MAP_MAX_CELLS);
    let sum = |f: fn(&PageCell) -> i64| pages.iter().map(f).sum::<i64>();
    let summary = render(
        lang,
        &Msg::new("vacuum.page_map.summary")
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
    let visible_word = tr(lang, "vacuum.page_map.all_visible");
    view! {
        <p id="vacuum-page-map-summary" data-pages=pages.len().to_string()>{summary}</p>
        <svg
            id="vacuum-page-map"
            viewBox=format!("0 0 {} {}", cols as f64 * size, rows as f64 * size)
            width="100%"
            role="img"
            aria-label=tr(lang, "vacuum.page_map")
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
                        &Msg::new("vacuum.page_map.cell")
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
                "vacuum.autovacuum.from_table"
            } else {
                "vacuum.autovacuum.from_server"
            },
        )
    };
    let current = render(
        lang,
        &Msg::new("vacuum.autovacuum.current")
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
            Some((round, job)) => Msg::new("vacuum.autovacuum.would_start")
                .arg("round", round)
                .arg("job", group(i64::from(job))),
            None => Msg::new("vacuum.autovacuum.not_reached"),
        },
    );
    let counted = render(
        lang,
        &Msg::new("vacuum.autovacuum.counted")
            .arg("on", if a.autovacuum_on { "on" } else { "off" })
            .arg("count", a.autovacuum_count),
    );
    view! {
        <p id="vacuum-autovacuum-current">{current}</p>
        <p class="note" id="vacuum-autovacuum-when">{when}</p>
        <p class="muted">{counted}</p>
    }
}
