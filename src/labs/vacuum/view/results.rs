//! The results table (one line per table per round and step), ours beside the article's
//! figures, and the three charts.

use super::{color, dash, strategy_name, Ui};
use crate::keys;
use crate::labs::vacuum::model::{self, Metric, Record, Strategy};
use crate::labs::vacuum::rows::Named;
use crate::ui::format::{bytes, group, ms};
use crate::ui::i18n::tr;
use crate::ui::table::{col_heads, ScrollTable};
use leptos::prelude::*;
use queue_lab_core::i18n::Key;
use queue_lab_core::i18n::Msg;

#[component]
pub(super) fn Results(ui: Ui) -> impl IntoView {
    let ctx = ui.ctx;
    let records = ui.part(|s| s.state.records.clone());
    let article = move || {
        records
            .with(|r| model::article_pair(r))
            .map(|(before, after)| {
                let m = Msg::new(keys::VACUUM_ARTICLE_FIGURES)
                    .arg("before", group(before.pages))
                    .arg("after", group(after.pages))
                    .arg("before_ms", ms(before.execution_ms))
                    .arg("after_ms", ms(after.execution_ms));
                view! {
                    <div class="note good" id="vacuum-article">
                        <p>{ui.msg(m)}</p>
                    </div>
                }
            })
    };
    // Each lesson only when the results show it, with their figures (see `model::lessons`).
    let lessons = move || {
        records
            .with(|r| model::lessons(r))
            .into_iter()
            .map(|m| {
                let key = m.key;
                view! { <li data-lesson=key.as_str()>{ui.msg(m)}</li> }
            })
            .collect_view()
    };
    let rows = move || {
        let lang = ctx.lang.get();
        records
            .get()
            .into_iter()
            .map(|r| {
                let st = &r.measure.stats;
                let idx = r
                    .measure
                    .indexes
                    .iter()
                    .map(|i| format!("{} {}", i.index_name, bytes(i.bytes)))
                    .collect::<Vec<_>>()
                    .join(", ");
                view! {
                    <tr data-strategy=r.strategy.id() data-step=tr(lang, r.step.name_key())>
                        <td>{strategy_name(lang, r.strategy)}</td>
                        <td class="num">{r.round}</td>
                        <td>{tr(lang, r.step.name_key())}</td>
                        <td class="num">{bytes(st.heap_bytes)}</td>
                        <td class="num col-heap-pages">{group(st.heap_pages)}</td>
                        <td class="mono">{idx}</td>
                        <td class="num col-live">{group(st.n_live_tup)}</td>
                        <td class="num col-dead">{group(st.n_dead_tup)}</td>
                        <td class="num col-claim-pages">{group(r.measure.claim.pages)}</td>
                        <td class="num">{format!("{} ms", ms(r.measure.claim.execution_ms))}</td>
                        <td class="num">{r.round_ms.map(|t| format!("{:.2} s", t / 1000.0)).unwrap_or_default()}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <Show when=move || records.with(|r| !r.is_empty())>
            <section class="panel" aria-labelledby="vacuum-results-title">
                <h2 id="vacuum-results-title">{ctx.t(keys::VACUUM_RESULTS)}</h2>
                {article}
                <p class="muted">{ctx.t(keys::VACUUM_ARTICLE_NOTE)}</p>
                <ScrollTable id="vacuum-table" head=move || view! {
                    {col_heads(ctx, &[keys::VACUUM_COL_STRATEGY, keys::VACUUM_COL_ROUND, keys::VACUUM_COL_STEP, keys::VACUUM_COL_HEAP, keys::VACUUM_COL_HEAP_PAGES, keys::VACUUM_COL_INDEXES, keys::VACUUM_COL_LIVE, keys::VACUUM_COL_DEAD, keys::VACUUM_COL_CLAIM_PAGES, keys::VACUUM_COL_CLAIM_MS, keys::VACUUM_COL_TIME])}
                }>
                    {rows}
                </ScrollTable>
                <p class="muted">{ctx.rich(keys::VACUUM_PAGES_HOW)}</p>
                <h3>{ctx.t(keys::VACUUM_CHARTS)}</h3>
                <p class="muted">{ctx.t(keys::VACUUM_CHART_NOTE)}</p>
                <ul class="row vacuum-legend">
                    {Strategy::ALL
                        .into_iter()
                        .map(|s| view! {
                            <li>
                                <svg width="28" height="10" aria-hidden="true">
                                    <line x1="0" y1="5" x2="28" y2="5" stroke-dasharray=dash(s) stroke-width="3" style:stroke=color(s)/>
                                </svg>
                                " " {move || strategy_name(ctx.lang.get(), s)}
                            </li>
                        })
                        .collect_view()}
                </ul>
                <div class="vacuum-charts">
                    <Chart ui=ui records=records metric=Metric::HeapPages title=keys::VACUUM_COL_HEAP_PAGES/>
                    <Chart ui=ui records=records metric=Metric::DeadTuples title=keys::VACUUM_COL_DEAD/>
                    <Chart ui=ui records=records metric=Metric::ClaimPages title=keys::VACUUM_COL_CLAIM_PAGES/>
                </div>
                <ul id="vacuum-lessons">{lessons}</ul>
            </section>
        </Show>
    }
}

#[component]
pub(super) fn Chart(
    ui: Ui,
    records: Memo<Vec<Record>>,
    metric: Metric,
    title: Key,
) -> impl IntoView {
    let ctx = ui.ctx;
    let body = move || {
        let lang = ctx.lang.get();
        let recs = records.get();
        let series: Vec<(Strategy, Vec<(u32, i64)>)> = Strategy::ALL
            .into_iter()
            .map(|s| (s, model::series(&recs, s, metric)))
            .filter(|(_, v)| !v.is_empty())
            .collect();
        let rounds: Vec<u32> = {
            let mut r: Vec<u32> = series
                .iter()
                .flat_map(|(_, v)| v.iter().map(|p| p.0))
                .collect();
            r.sort_unstable();
            r.dedup();
            r
        };
        let lo = rounds.first().copied().unwrap_or(1);
        let hi = rounds.last().copied().unwrap_or(1);
        let max_v = series
            .iter()
            .flat_map(|(_, v)| v.iter().map(|p| p.1))
            .max()
            .unwrap_or(0)
            .max(1);
        // The right margin leaves room for the last round's label, centred on its point.
        let (w, h, l, r, t, b) = (300.0f64, 160.0f64, 48.0f64, 24.0f64, 10.0f64, 22.0f64);
        let x = move |round: u32| {
            if hi == lo {
                l + (w - l - r) / 2.0
            } else {
                l + f64::from(round - lo) / f64::from(hi - lo) * (w - l - r)
            }
        };
        let y = move |v: i64| t + (1.0 - v as f64 / max_v as f64) * (h - t - b);
        let label = tr(lang, title);
        let round_word = tr(lang, keys::VACUUM_COL_ROUND);
        view! {
            <figure class="flush">
                <figcaption><strong>{label.clone()}</strong></figcaption>
                <svg viewBox=format!("0 0 {w} {h}") width="100%" role="img" aria-label=label>
                    <line x1=l.to_string() y1=t.to_string() x2=l.to_string() y2=(h - b).to_string() class="axis-line"/>
                    <line x1=l.to_string() y1=(h - b).to_string() x2=(w - r).to_string() y2=(h - b).to_string() class="axis-line"/>
                    <text x=(l - 4.0).to_string() y=(t + 4.0).to_string() text-anchor="end" font-size="10" class="axis-text">{group(max_v)}</text>
                    <text x=(l - 4.0).to_string() y=(h - b).to_string() text-anchor="end" font-size="10" class="axis-text">"0"</text>
                    {rounds.iter().map(|&rd| view! {
                        <text x=x(rd).to_string() y=(h - 6.0).to_string() text-anchor="middle" font-size="10" class="axis-text">{format!("{round_word} {rd}")}</text>
                    }).collect_view()}
                    {series.into_iter().map(|(s, pts)| {
                        let points = pts.iter().map(|(rd, v)| format!("{:.1},{:.1}", x(*rd), y(*v))).collect::<Vec<_>>().join(" ");
                        let name = strategy_name(lang, s);
                        view! {
                            <g>
                                <polyline points=points fill="none" stroke-dasharray=dash(s) stroke-width="2" style:stroke=color(s)/>
                                {pts.iter().map(|(rd, v)| view! {
                                    <circle cx=format!("{:.1}", x(*rd)) cy=format!("{:.1}", y(*v)) r="3" style:fill=color(s)>
                                        <title>{format!("{name}, {round_word} {rd}: {}", group(*v))}</title>
                                    </circle>
                                }).collect_view()}
                            </g>
                        }
                    }).collect_view()}
                </svg>
            </figure>
        }
    };
    view! { <div class="vacuum-chart" data-metric=title.as_str()>{body}</div> }
}
