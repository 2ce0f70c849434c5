//! The claim-plan viewer (the article's claim beside the index-friendly one) and the
//! VACUUM FULL demonstration on a scratch table.

use super::Ui;
use crate::keys;
use crate::labs::vacuum::model::{self, Action, PlanComparison, PlanSide};
use crate::ui::format::{group, ms};
use crate::ui::i18n::{render, tr};
use leptos::prelude::*;
use queue_lab_core::i18n::Key;
use queue_lab_core::i18n::Msg;

#[component]
pub(super) fn PlanPanel(ui: Ui) -> impl IntoView {
    let ctx = ui.ctx;
    let result = ui.part(|s| s.state.plans.clone());
    let problem = RwSignal::new(None::<Msg>);
    let compare = move || match model::parse_jobs(&ui.jobs.get_untracked()) {
        Err(m) => problem.set(Some(m)),
        Ok(jobs) => {
            problem.set(None);
            ui.act("plan", Action::Plans(jobs), None);
        }
    };
    let side = move |title: Key,
                     why: Key,
                     id: &'static str,
                     pick: fn(&PlanComparison) -> PlanSide| {
        view! {
            <div id=id>
                <h3>{ctx.t(title)}</h3>
                <p>{ctx.rich(why)}</p>
                {move || result.get().map(|c| {
                    let p = pick(&c);
                    let lang = ctx.lang.get();
                    let how = tr(lang, if p.summary.uses_jobs_ready && !p.summary.seq_scan { keys::VACUUM_PLAN_USES_INDEX } else { keys::VACUUM_PLAN_SEQ_SCAN });
                    view! {
                        <p class="note" class:good=p.summary.uses_jobs_ready class:bad=p.summary.seq_scan>
                            <strong class="plan-pages">{render(lang, &Msg::new(keys::VACUUM_PLAN_PAGES).arg("pages", group(p.summary.pages)).arg("ms", ms(p.summary.execution_ms)))}</strong>
                            " · " {how}
                        </p>
                        <p class="mono plan-scans">{p.summary.scans.clone()}</p>
                        <div class="table-wrap" tabindex="0">
                            <table>
                                <thead><tr>
                                    <th scope="col">{tr(lang, keys::VACUUM_PLAN_COL_NODE)}</th>
                                    <th scope="col">{tr(lang, keys::VACUUM_PLAN_COL_ROWS)}</th>
                                    <th scope="col">{tr(lang, keys::VACUUM_PLAN_COL_PAGES)}</th>
                                    <th scope="col">"ms"</th>
                                    <th scope="col">{tr(lang, keys::VACUUM_PLAN_COL_DETAIL)}</th>
                                </tr></thead>
                                <tbody>
                                    {p.nodes.into_iter().map(|n| {
                                        let label = format!(
                                            "{}{}{}{}",
                                            "\u{a0}\u{a0}".repeat(n.depth.max(0) as usize),
                                            n.node_type,
                                            n.index_name.as_ref().map(|i| format!(" using {i}")).unwrap_or_default(),
                                            n.parent_relationship.as_deref().filter(|r| *r == "InitPlan").map(|_| " (InitPlan)").unwrap_or_default(),
                                        );
                                        view! {
                                            <tr>
                                                <td class="mono">{label}</td>
                                                <td class="num">{n.actual_rows.map(|r| group(r as i64)).unwrap_or_default()}</td>
                                                <td class="num">{group(n.shared_hit.unwrap_or(0) + n.shared_read.unwrap_or(0))}</td>
                                                <td class="num">{n.total_ms.map(ms).unwrap_or_default()}</td>
                                                <td class="mono wrap label-col wide">{n.detail.unwrap_or_default()}</td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                    }
                })}
            </div>
        }
    };
    let throughput = move || {
        result.get().map(|c| {
            let m = Msg::new(keys::VACUUM_PLAN_THROUGHPUT)
                .arg("article", group(c.article.jobs_per_s.round() as i64))
                .arg("indexed", group(c.indexed.jobs_per_s.round() as i64));
            view! { <p class="note" id="vacuum-plan-throughput">{ui.msg(m)}</p> }
        })
    };
    view! {
        <section class="panel" aria-labelledby="vacuum-plan-title">
            <h2 id="vacuum-plan-title">{ctx.t(keys::VACUUM_PLAN)}</h2>
            <p>{move || {
                let jobs = model::parse_jobs(&ui.jobs.get()).unwrap_or(model::JOBS_DEFAULT);
                render(ctx.lang.get(), &Msg::new(keys::VACUUM_PLAN_HELP).arg("jobs", group(i64::from(jobs))))
            }}</p>
            <button type="button" class="primary" id="vacuum-plan-run" disabled=move || ui.busy.get() on:click=move |_| compare()>
                {ctx.t(keys::VACUUM_PLAN_RUN)}
            </button>
            <Show when=move || problem.with(Option::is_some)>
                <p class="field-error" role="alert">{move || problem.get().map(|m| render(ctx.lang.get(), &m)).unwrap_or_default()}</p>
            </Show>
            {ui.error_in("plan")}
            {throughput}
            <div class="lab-grid">
                {side(keys::VACUUM_PLAN_ARTICLE, keys::VACUUM_PLAN_ARTICLE_WHY, "vacuum-plan-article", |c| c.article.clone())}
                {side(keys::VACUUM_PLAN_INDEXED, keys::VACUUM_PLAN_INDEXED_WHY, "vacuum-plan-indexed", |c| c.indexed.clone())}
            </div>
            <p class="muted">{ctx.t(keys::VACUUM_PLAN_INDEXED_DIFFERS)}</p>
            <p class="muted" id="vacuum-plan-vs-article">{ctx.t(keys::VACUUM_PLAN_VS_ARTICLE)}</p>
            <p class="muted">{ctx.t(keys::VACUUM_PLAN_ANALYZE_NOTE)}</p>
            <p class="muted">{ctx.t(keys::VACUUM_PLAN_EXPLAIN_RUNS)}</p>
        </section>
    }
}

#[component]
pub(super) fn FullPanel(ui: Ui) -> impl IntoView {
    let ctx = ui.ctx;
    let locks = ui.part(|s| s.state.locks.clone());
    let rewrite = ui.part(|s| s.state.rewrite.clone());
    let show_lock = move || ui.act("full", Action::FullLock, None);
    let run_full = move || ui.act("full", Action::FullRun, None);
    let yes_no = move |lang, b: bool| tr(lang, if b { keys::VACUUM_YES } else { keys::VACUUM_NO });
    view! {
        <section class="panel" aria-labelledby="vacuum-full-title">
            <h2 id="vacuum-full-title">{ctx.t(keys::VACUUM_FULL)}</h2>
            <p>{ctx.t(keys::VACUUM_FULL_HELP)}</p>
            <p class="muted">{ctx.t(keys::VACUUM_FULL_DEMO)}</p>
            <div class="row">
                <button type="button" id="vacuum-full-lock" disabled=move || ui.busy.get() on:click=move |_| show_lock()>
                    {ctx.t(keys::VACUUM_FULL_SHOW_LOCK)}
                </button>
                <button type="button" id="vacuum-full-run" disabled=move || ui.busy.get() || locks.with(Option::is_none)
                    on:click=move |_| run_full()>
                    {ctx.t(keys::VACUUM_FULL_RUN)}
                </button>
            </div>
            {move || locks.get().map(|rows| {
                let lang = ctx.lang.get();
                view! {
                    <ul class="note bad" id="vacuum-full-locks">
                        {rows.into_iter().map(|l| view! {
                            <li>{render(lang, &Msg::new(keys::VACUUM_FULL_LOCK_ROW)
                                .arg("mode", l.mode)
                                .arg("relation", l.relation)
                                .arg("select", yes_no(lang, l.conflicts_with_select))
                                .arg("insert", yes_no(lang, l.conflicts_with_insert)))}</li>
                        }).collect_view()}
                    </ul>
                }
            })}
            {move || rewrite.get().map(|(b, a)| {
                let m = Msg::new(keys::VACUUM_FULL_REWRITE)
                    .arg("before", b.filenode)
                    .arg("after", a.filenode)
                    .arg("pages_before", group(b.heap_pages))
                    .arg("pages_after", group(a.heap_pages));
                view! { <p class="note" id="vacuum-full-rewrite">{ui.msg(m)}</p> }
            })}
            {ui.error_in("full")}
        </section>
    }
}
