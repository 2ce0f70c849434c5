//! L3 Bloat and VACUUM, the views: the workload runner with its table and charts, the long
//! transaction switch, the heap page map, the autovacuum panel, the claim-plan viewer and
//! the VACUUM FULL demonstration. Every figure shown comes from `model`.

use super::model::{
    self, bytes, group, AutovacuumSettings, LockRow, LongTx, Metric, PageCell, PlanComparison,
    PlanSide, Progress, Record, RelationFile, RunEnd, Strategy,
};
use crate::ctx::{use_ctx, Ctx};
use crate::db::{Db, DbError};
use crate::runner::{Scope, Work};
use crate::ui::console::{ErrorBox, SqlConsole};
use crate::ui::i18n::{render, tr};
use crate::ui::sql_log::SqlLog;
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;

thread_local! {
    /// The results table outlives a visit to another lab (the tables do too).
    static SAVED: RefCell<Vec<Record>> = const { RefCell::new(Vec::new()) };
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Setup {
    Waiting,
    Running,
    Ready { page_map: bool },
    Failed,
}

/// Where an error is shown.
type Panel = &'static str;

/// The lab's state: signals shared by its panels.
#[derive(Clone, Copy)]
struct Lab {
    ctx: Ctx,
    setup: RwSignal<Setup>,
    /// The lab's work is queued or running (its buttons wait).
    busy: Signal<bool>,
    running: RwSignal<bool>,
    error: RwSignal<Option<(Panel, DbError)>>,
    records: RwSignal<Vec<Record>>,
    jobs: RwSignal<String>,
    selected: RwSignal<Strategy>,
    pages: RwSignal<Option<(Strategy, Vec<PageCell>)>>,
    autovac: RwSignal<Option<(Strategy, AutovacuumSettings)>>,
    long_tx: RwSignal<Option<LongTx>>,
    vacuumed: RwSignal<Vec<(Strategy, i64, i64)>>,
}

impl Lab {
    fn page_map_available(self) -> bool {
        matches!(
            self.setup.try_get_untracked(),
            Some(Setup::Ready { page_map: true })
        )
    }

    /// Runs one piece of work through the session's runner, shows its error in `panel`, and
    /// refreshes the page map and autovacuum figures after it. `f` gets the database and the
    /// flag that leaving the lab (or Cancel) sets; long work checks it between batches.
    fn act<Fut>(
        self,
        panel: Panel,
        what: Option<Msg>,
        f: impl FnOnce(Db, Rc<Cell<bool>>) -> Fut + 'static,
    ) where
        Fut: Future<Output = Result<(), DbError>> + 'static,
    {
        let Some(runner) = self.ctx.runner_untracked() else {
            return;
        };
        if runner.pending(super::ID) {
            return;
        }
        self.error.set(None);
        runner.spawn(Scope::Lab(super::ID), what, async move |w: &Work| {
            let db = w.db().clone();
            let mut out = f(db.clone(), w.cancel_flag()).await;
            if out.is_ok() && w.check().is_ok() {
                out = self.refresh(&db).await;
            }
            match out {
                Err(e) if e.cancelled => Err(e),
                Err(e) => {
                    self.error.set(Some((panel, e)));
                    Ok(())
                }
                Ok(()) => Ok(()),
            }
        });
    }

    /// Reads the selected table's page map and autovacuum figures, and the long transaction.
    async fn refresh(self, db: &Db) -> Result<(), DbError> {
        // The page may be gone by now: then there is nothing to show.
        let Some(s) = self.selected.try_get_untracked() else {
            return Ok(());
        };
        self.long_tx.set(model::long_tx_status(db).await?);
        self.autovac
            .set(Some((s, model::autovacuum_settings(db, s).await?)));
        if self.page_map_available() {
            self.pages.set(Some((s, model::page_map(db, s).await?)));
        }
        Ok(())
    }

    fn error_in(self, panel: Panel) -> impl Fn() -> Option<AnyView> {
        move || {
            self.error
                .get()
                .filter(|(p, _)| *p == panel)
                .map(|(_, e)| view! { <ErrorBox error=e/> }.into_any())
        }
    }

    fn msg(self, msg: Msg) -> impl Fn() -> String {
        move || render(self.ctx.lang.get(), &msg)
    }
}

fn strategy_name(lang: queue_lab_core::i18n::Lang, s: Strategy) -> String {
    tr(lang, s.name_key())
}

fn color(s: Strategy) -> &'static str {
    match s {
        Strategy::Keep => "var(--accent)",
        Strategy::Delete => "var(--bad)",
        Strategy::DeleteVacuum => "var(--warn)",
        Strategy::Rotate => "var(--ok)",
    }
}

fn dash(s: Strategy) -> &'static str {
    match s {
        Strategy::Keep => "none",
        Strategy::Delete => "6 3",
        Strategy::DeleteVacuum => "2 3",
        Strategy::Rotate => "10 3 2 3",
    }
}

fn ms(v: f64) -> String {
    if v < 10.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.0}")
    }
}

#[component]
pub fn VacuumLab() -> impl IntoView {
    let ctx = use_ctx();
    let records = RwSignal::new(SAVED.with(|s| s.borrow().clone()));
    Effect::new(move |_| {
        let now = records.get();
        SAVED.with(|s| *s.borrow_mut() = now);
    });
    let setup = RwSignal::new(Setup::Waiting);
    let busy = Signal::derive(move || match ctx.runner() {
        Some(runner) => runner.pending(super::ID) || setup.get() == Setup::Running,
        None => true,
    });
    let lab = Lab {
        ctx,
        setup,
        busy,
        running: RwSignal::new(false),
        error: RwSignal::new(None),
        records,
        jobs: RwSignal::new(model::JOBS_DEFAULT.to_string()),
        selected: RwSignal::new(Strategy::Delete),
        pages: RwSignal::new(None),
        autovac: RwSignal::new(None),
        long_tx: RwSignal::new(None),
        vacuumed: RwSignal::new(Vec::new()),
    };

    // Once Postgres is up, and again after Reset or a restart: the lab's tables (once per
    // database; the runner keeps whether the page map is available), then the figures.
    Effect::new(move |seen: Option<Option<(usize, u64)>>| {
        let runner = ctx.runner()?;
        let key = (runner.id(), runner.status().with(|s| s.generation));
        if seen.flatten() == Some(key) {
            return Some(key);
        }
        if let Some(page_map) = runner.kept::<bool>(super::ID) {
            lab.setup.set(Setup::Ready { page_map });
            lab.act("run", None, |_, _| async { Ok(()) });
            return Some(key);
        }
        // A fresh database: the figures of earlier runs belong to tables that are gone.
        lab.records.set(Vec::new());
        lab.setup.set(Setup::Running);
        let keeper = runner.clone();
        runner.spawn(Scope::Lab(super::ID), None, async move |w: &Work| {
            let db = w.db();
            match model::setup(db).await {
                Ok(page_map) => {
                    keeper.keep(super::ID, page_map);
                    lab.setup.set(Setup::Ready { page_map });
                    if let Err(e) = lab.refresh(db).await {
                        lab.error.set(Some(("run", e)));
                    }
                }
                Err(e) => {
                    lab.setup.set(Setup::Failed);
                    lab.error.set(Some(("setup", e)));
                }
            }
            Ok(())
        });
        Some(key)
    });
    // Leaving the page cancels the lab's run at its next batch.
    on_cleanup(move || {
        if let Some(runner) = ctx.runner_untracked() {
            runner.cancel(super::ID);
        }
    });

    let entries = ctx.log;
    let ready = move || matches!(lab.setup.get(), Setup::Ready { .. });
    let lead = Msg::new("vacuum.lead")
        .arg("jobs", group(20_000))
        .arg("rounds", 3);
    view! {
        <section class="lab vacuum-lab" id="vacuum-lab">
            <h1>{ctx.t("vacuum.title")}</h1>
            <p class="lead">{lab.msg(lead)}</p>
            <p>{ctx.t("vacuum.mvcc")}</p>
            {lab.error_in("setup")}
            <Show
                when=ready
                fallback=move || {
                    view! {
                        <p class="muted" id="vacuum-waiting">
                            {move || {
                                if ctx.runner().is_some() { ctx.t("vacuum.setting_up")() } else { ctx.t("vacuum.no_db")() }
                            }}
                        </p>
                    }
                }
            >
                <RunPanel lab=lab/>
                <Results lab=lab/>
                <LongTxPanel lab=lab/>
                <div class="lab-grid">
                    <PageMapPanel lab=lab/>
                    <AutovacuumPanel lab=lab/>
                </div>
                <PlanPanel lab=lab/>
                <FullPanel lab=lab/>
            </Show>
            <SqlLog entries=entries/>
            <SqlConsole placeholder="select n_live_tup, n_dead_tup from pg_stat_user_tables where schemaname like 'vac_%';"/>
        </section>
    }
}

#[derive(Clone, Copy, PartialEq)]
struct RunView {
    progress: Progress,
    last_round: u32,
    jobs: u32,
}

#[component]
fn RunPanel(lab: Lab) -> impl IntoView {
    let ctx = lab.ctx;
    let rounds = RwSignal::new(model::ROUNDS_DEFAULT.to_string());
    let batch = RwSignal::new(model::BATCH_DEFAULT.to_string());
    let include_dv = RwSignal::new(true);
    let problem = RwSignal::new(None::<Msg>);
    let notice = RwSignal::new(None::<Msg>);
    let run_view = RwSignal::new(None::<RunView>);

    let start = move || {
        if lab.busy.get_untracked() {
            return;
        }
        let strategies: Vec<Strategy> = Strategy::ALL
            .into_iter()
            .filter(|s| *s != Strategy::DeleteVacuum || include_dv.get_untracked())
            .collect();
        let cfg = match model::parse_config(
            &lab.jobs.get_untracked(),
            &rounds.get_untracked(),
            &batch.get_untracked(),
            strategies,
        ) {
            Ok(cfg) => cfg,
            Err(m) => {
                problem.set(Some(m));
                return;
            }
        };
        problem.set(None);
        notice.set(None);
        lab.vacuumed.set(Vec::new());
        let first_round = lab
            .records
            .with_untracked(|r| r.iter().map(|r| r.round).max().unwrap_or(0))
            + 1;
        lab.running.set(true);
        let what = Msg::new("runner.what.vacuum_run")
            .arg("rounds", cfg.rounds)
            .arg("jobs", group(i64::from(cfg.jobs)));
        lab.act("run", Some(what), move |db, cancel| async move {
            let started = model::now_ms();
            let last_round = first_round + cfg.rounds - 1;
            let jobs = cfg.jobs;
            let on_progress = move |progress: Progress| {
                run_view.set(Some(RunView {
                    progress,
                    last_round,
                    jobs,
                }))
            };
            let on_record = move |r: Record| lab.records.update(|v| v.push(r));
            let end = model::run(&db, &cfg, first_round, &cancel, &on_progress, &on_record).await;
            run_view.set(None);
            lab.running.set(false);
            match end? {
                // Written, never read: `Some` back means the page is gone (the lab was left).
                RunEnd::Cancelled => {
                    if notice.try_set(Some(Msg::new("vacuum.cancelled"))).is_some() {
                        return Err(DbError::cancelled());
                    }
                }
                RunEnd::Finished => notice.set(Some(
                    Msg::new("vacuum.run.done")
                        .arg("rounds", cfg.rounds)
                        .arg("jobs", group(i64::from(cfg.jobs)))
                        .arg(
                            "seconds",
                            format!("{:.1}", (model::now_ms() - started) / 1000.0),
                        ),
                )),
            }
            Ok(())
        });
    };
    let cancel = move || {
        if let Some(runner) = ctx.runner_untracked() {
            runner.cancel(super::ID);
        }
    };
    let vacuum_all = move || {
        let strategies: Vec<Strategy> = Strategy::ALL.to_vec();
        lab.act("run", None, move |db, _| async move {
            let mut done = Vec::new();
            for s in strategies {
                let v = model::vacuum_and_measure(&db, s).await?;
                let round = lab
                    .records
                    .try_with_untracked(|r| {
                        r.iter().filter(|r| r.strategy == s).map(|r| r.round).max()
                    })
                    .flatten();
                if let Some(round) = round {
                    lab.records.update(|r| {
                        r.push(Record {
                            strategy: s,
                            round,
                            step: model::Step::AfterVacuum,
                            measure: v.after.clone(),
                            jobs: 0,
                            round_ms: None,
                            auto: false,
                        })
                    });
                }
                done.push((s, v.removed(), v.dead_before));
            }
            lab.vacuumed.set(done);
            Ok(())
        });
    };
    let start_over = move || {
        lab.act("run", None, move |db, _| async move {
            model::long_tx_release(&db).await?;
            model::reset(&db).await?;
            lab.records.set(Vec::new());
            lab.vacuumed.set(Vec::new());
            notice.set(None);
            Ok(())
        });
    };

    let progress_view = move || {
        run_view.get().map(|rv| {
            let p = rv.progress;
            let text = move || {
                let lang = ctx.lang.get();
                render(
                    lang,
                    &Msg::new("vacuum.progress")
                        .arg("strategy", strategy_name(lang, p.strategy))
                        .arg("round", p.round)
                        .arg("rounds", rv.last_round)
                        .arg("done", group(p.done as i64))
                        .arg("jobs", group(i64::from(rv.jobs))),
                )
            };
            view! {
                <div class="vacuum-progress">
                    <label for="vacuum-progress-bar">{text}</label>
                    <progress id="vacuum-progress-bar" max=rv.jobs.to_string() value=p.done.to_string()></progress>
                </div>
            }
        })
    };

    let batch_note = move || {
        let b = model::parse_config("1000", "1", &batch.get(), vec![])
            .map_or(model::BATCH_DEFAULT, |c| c.batch);
        render(
            ctx.lang.get(),
            &Msg::new("vacuum.batch").arg("batch", group(i64::from(b))),
        )
    };

    view! {
        <section class="panel" aria-labelledby="vacuum-run-title">
            <h2 id="vacuum-run-title">{ctx.t("vacuum.section.run")}</h2>
            <ul>
                {Strategy::ALL
                    .into_iter()
                    .map(|s| {
                        view! {
                            <li>
                                <span aria-hidden="true" style=format!("display:inline-block;width:1.4em;height:0;border-top:3px {} {};vertical-align:middle;margin-right:0.35em", if dash(s) == "none" { "solid" } else { "dashed" }, color(s))></span>
                                <strong>{move || strategy_name(ctx.lang.get(), s)}</strong>
                                ": "
                                {move || tr(ctx.lang.get(), s.help_key())}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            <form class="row" on:submit=move |ev| { ev.prevent_default(); start(); }>
                <label>
                    {ctx.t("vacuum.input.jobs")}
                    <input id="vacuum-jobs" type="text" inputmode="numeric" size="7" aria-describedby="vacuum-jobs-help"
                        prop:value=lab.jobs on:input=move |ev| lab.jobs.set(event_target_value(&ev))/>
                </label>
                <label>
                    {ctx.t("vacuum.input.rounds")}
                    <input id="vacuum-rounds" type="text" inputmode="numeric" size="2" aria-describedby="vacuum-rounds-help"
                        prop:value=rounds on:input=move |ev| rounds.set(event_target_value(&ev))/>
                </label>
                <label>
                    {ctx.t("vacuum.input.batch")}
                    <input id="vacuum-batch" type="text" inputmode="numeric" size="5" aria-describedby="vacuum-batch-help"
                        prop:value=batch on:input=move |ev| batch.set(event_target_value(&ev))/>
                </label>
                <label>
                    <input id="vacuum-include-dv" type="checkbox" prop:checked=include_dv
                        on:change=move |ev| include_dv.set(event_target_checked(&ev))/>
                    {ctx.t("vacuum.input.include_dv")}
                </label>
                <button type="submit" class="primary" id="vacuum-run" disabled=move || lab.busy.get()>
                    {ctx.t("vacuum.button.run_rounds")}
                </button>
            </form>
            <p class="muted" id="vacuum-jobs-help">
                <span>{ctx.t("vacuum.input.jobs.help")}</span> " "
                <span id="vacuum-rounds-help">{ctx.t("vacuum.input.rounds.help")}</span> " "
                <span id="vacuum-batch-help">{ctx.t("vacuum.input.batch.help")}</span>
            </p>
            <Show when=move || problem.with(Option::is_some)>
                <p class="field-error" role="alert" id="vacuum-input-error">
                    {move || problem.get().map(|m| render(ctx.lang.get(), &m)).unwrap_or_default()}
                </p>
            </Show>
            <div class="row">
                <Show when=move || lab.running.get()>
                    <button type="button" class="danger" id="vacuum-cancel" on:click=move |_| cancel()>
                        {ctx.t("vacuum.button.cancel")}
                    </button>
                </Show>
                <button type="button" id="vacuum-vacuum" disabled=move || lab.busy.get() || lab.records.with(Vec::is_empty)
                    on:click=move |_| vacuum_all()>
                    {ctx.t("vacuum.button.vacuum")}
                </button>
                <button type="button" id="vacuum-reset" disabled=move || lab.busy.get() on:click=move |_| start_over()>
                    {ctx.t("vacuum.button.reset")}
                </button>
            </div>
            <p class="muted">{ctx.t("vacuum.vacuum.help")}</p>
            <div aria-live="polite">
                {progress_view}
                {move || notice.get().map(|m| view! { <p class="note" id="vacuum-notice">{lab.msg(m)}</p> })}
                {move || {
                    let done = lab.vacuumed.get();
                    (!done.is_empty()).then(|| view! {
                        <ul class="note" id="vacuum-removed">
                            {done.into_iter().map(|(s, removed, dead)| {
                                let text = move || {
                                    let lang = ctx.lang.get();
                                    render(lang, &Msg::new("vacuum.vacuum.removed")
                                        .arg("strategy", strategy_name(lang, s))
                                        .arg("removed", group(removed))
                                        .arg("dead", group(dead)))
                                };
                                view! { <li>{text}</li> }
                            }).collect_view()}
                        </ul>
                    })
                }}
            </div>
            {lab.error_in("run")}
            <details>
                <summary>{ctx.t("vacuum.batch.title")}</summary>
                <p>{batch_note}</p>
                <p>{ctx.t("vacuum.batch.does")}</p>
                <p>{ctx.t("vacuum.batch.does_not")}</p>
                <p>{ctx.rich("vacuum.clock_note")}</p>
                <p>{ctx.rich("vacuum.stats_note")}</p>
                <p>{ctx.t("vacuum.rotate.why_truncate")}</p>
            </details>
        </section>
    }
}

#[component]
fn Results(lab: Lab) -> impl IntoView {
    let ctx = lab.ctx;
    let article = move || {
        lab.records
            .with(|r| model::article_pair(r))
            .map(|(before, after)| {
                let m = Msg::new("vacuum.article_figures")
                    .arg("before", group(before.pages))
                    .arg("after", group(after.pages))
                    .arg("before_ms", ms(before.execution_ms))
                    .arg("after_ms", ms(after.execution_ms));
                view! {
                    <div class="note good" id="vacuum-article">
                        <p>{lab.msg(m)}</p>
                    </div>
                }
            })
    };
    let rows = move || {
        let lang = ctx.lang.get();
        lab.records
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
                    <tr data-strategy=r.strategy.id() data-step=tr(lang, r.step.key())>
                        <td>{strategy_name(lang, r.strategy)}</td>
                        <td class="num">{r.round}</td>
                        <td>{tr(lang, r.step.key())}</td>
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
        <Show when=move || lab.records.with(|r| !r.is_empty())>
            <section class="panel" aria-labelledby="vacuum-results-title">
                <h2 id="vacuum-results-title">{ctx.t("vacuum.results")}</h2>
                {article}
                <p class="muted">{ctx.t("vacuum.article_note")}</p>
                <div class="table-wrap" tabindex="0">
                    <table id="vacuum-table">
                        <thead>
                            <tr>
                                <th scope="col">{ctx.t("vacuum.col.strategy")}</th>
                                <th scope="col">{ctx.t("vacuum.col.round")}</th>
                                <th scope="col">{ctx.t("vacuum.col.step")}</th>
                                <th scope="col">{ctx.t("vacuum.col.heap")}</th>
                                <th scope="col">{ctx.t("vacuum.col.heap_pages")}</th>
                                <th scope="col">{ctx.t("vacuum.col.indexes")}</th>
                                <th scope="col">{ctx.t("vacuum.col.live")}</th>
                                <th scope="col">{ctx.t("vacuum.col.dead")}</th>
                                <th scope="col">{ctx.t("vacuum.col.claim_pages")}</th>
                                <th scope="col">{ctx.t("vacuum.col.claim_ms")}</th>
                                <th scope="col">{ctx.t("vacuum.col.time")}</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <p class="muted">{ctx.rich("vacuum.pages_how")}</p>
                <h3>{ctx.t("vacuum.charts")}</h3>
                <p class="muted">{ctx.t("vacuum.chart.note")}</p>
                <ul class="row" style="list-style:none;padding:0">
                    {Strategy::ALL
                        .into_iter()
                        .map(|s| view! {
                            <li>
                                <svg width="28" height="10" aria-hidden="true">
                                    <line x1="0" y1="5" x2="28" y2="5" stroke-dasharray=dash(s) style=format!("stroke:{};stroke-width:3", color(s))/>
                                </svg>
                                " " {move || strategy_name(ctx.lang.get(), s)}
                            </li>
                        })
                        .collect_view()}
                </ul>
                <div class="vacuum-charts" style="display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:0.8rem">
                    <Chart lab=lab metric=Metric::HeapPages title="vacuum.col.heap_pages"/>
                    <Chart lab=lab metric=Metric::DeadTuples title="vacuum.col.dead"/>
                    <Chart lab=lab metric=Metric::ClaimPages title="vacuum.col.claim_pages"/>
                </div>
                <ul>
                    <li>{ctx.t("vacuum.lesson.delete")}</li>
                    <li>{ctx.t("vacuum.lesson.keep")}</li>
                    <li>{ctx.t("vacuum.lesson.rotate")}</li>
                    <li>{ctx.t("vacuum.lesson.no_shrink")}</li>
                </ul>
            </section>
        </Show>
    }
}

#[component]
fn Chart(lab: Lab, metric: Metric, title: &'static str) -> impl IntoView {
    let ctx = lab.ctx;
    let body = move || {
        let lang = ctx.lang.get();
        let recs = lab.records.get();
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
        let (w, h, l, r, t, b) = (300.0f64, 160.0f64, 48.0f64, 12.0f64, 10.0f64, 22.0f64);
        let x = move |round: u32| {
            if hi == lo {
                l + (w - l - r) / 2.0
            } else {
                l + f64::from(round - lo) / f64::from(hi - lo) * (w - l - r)
            }
        };
        let y = move |v: i64| t + (1.0 - v as f64 / max_v as f64) * (h - t - b);
        let label = tr(lang, title);
        let round_word = tr(lang, "vacuum.col.round");
        view! {
            <figure style="margin:0">
                <figcaption><strong>{label.clone()}</strong></figcaption>
                <svg viewBox=format!("0 0 {w} {h}") width="100%" role="img" aria-label=label>
                    <line x1=l.to_string() y1=t.to_string() x2=l.to_string() y2=(h - b).to_string() style="stroke:var(--muted)"/>
                    <line x1=l.to_string() y1=(h - b).to_string() x2=(w - r).to_string() y2=(h - b).to_string() style="stroke:var(--muted)"/>
                    <text x=(l - 4.0).to_string() y=(t + 4.0).to_string() text-anchor="end" font-size="10" style="fill:var(--muted)">{group(max_v)}</text>
                    <text x=(l - 4.0).to_string() y=(h - b).to_string() text-anchor="end" font-size="10" style="fill:var(--muted)">"0"</text>
                    {rounds.iter().map(|&rd| view! {
                        <text x=x(rd).to_string() y=(h - 6.0).to_string() text-anchor="middle" font-size="10" style="fill:var(--muted)">{format!("{round_word} {rd}")}</text>
                    }).collect_view()}
                    {series.into_iter().map(|(s, pts)| {
                        let points = pts.iter().map(|(rd, v)| format!("{:.1},{:.1}", x(*rd), y(*v))).collect::<Vec<_>>().join(" ");
                        let name = strategy_name(lang, s);
                        view! {
                            <g>
                                <polyline points=points fill="none" stroke-dasharray=dash(s) style=format!("stroke:{};stroke-width:2", color(s))/>
                                {pts.iter().map(|(rd, v)| view! {
                                    <circle cx=format!("{:.1}", x(*rd)) cy=format!("{:.1}", y(*v)) r="3" style=format!("fill:{}", color(s))>
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
    view! { <div class="vacuum-chart" data-metric=title>{body}</div> }
}

#[component]
fn LongTxPanel(lab: Lab) -> impl IntoView {
    let ctx = lab.ctx;
    let toggle = move || {
        let on = lab.long_tx.get_untracked().is_some();
        lab.act("long_tx", None, move |db, _| async move {
            if on {
                model::long_tx_release(&db).await?;
            } else {
                model::long_tx_begin(&db).await?;
            }
            Ok(())
        });
    };
    let status = move || {
        match lab.long_tx.get() {
        Some(tx) => view! {
            <p class="note bad" id="vacuum-long-tx-status">{lab.msg(Msg::new("vacuum.long_tx.on").arg("xid", tx.xid))}</p>
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
                    aria-pressed=move || lab.long_tx.with(Option::is_some).to_string()
                    disabled=move || lab.busy.get()
                    on:click=move |_| toggle()
                >
                    {move || if lab.long_tx.with(Option::is_some) { ctx.t("vacuum.long_tx.turn_off")() } else { ctx.t("vacuum.long_tx.turn_on")() }}
                </button>
            </div>
            {status}
            <p class="muted">{ctx.t("vacuum.long_tx.try")}</p>
            {lab.error_in("long_tx")}
            <p>{ctx.t("vacuum.long_tx.servers")}</p>
            <p class="muted">{ctx.t("vacuum.long_tx.history")}</p>
        </section>
    }
}

fn strategy_select(lab: Lab, id: &'static str) -> impl IntoView {
    let ctx = lab.ctx;
    view! {
        <label style="max-width:100%">
            {ctx.t("vacuum.inspect.table")}
            <select
                id=id
                style="max-width:100%;min-width:0"
                disabled=move || lab.busy.get()
                on:change=move |ev| {
                    if let Some(s) = Strategy::parse(&event_target_value(&ev)) {
                        lab.selected.set(s);
                        lab.act("inspect", None, |_, _| async { Ok(()) });
                    }
                }
            >
                {Strategy::ALL
                    .into_iter()
                    .map(|s| view! {
                        <option value=s.id() selected=move || lab.selected.get() == s>
                            {move || strategy_name(ctx.lang.get(), s)}
                        </option>
                    })
                    .collect_view()}
            </select>
        </label>
    }
}

#[component]
fn PageMapPanel(lab: Lab) -> impl IntoView {
    let ctx = lab.ctx;
    let map = move || {
        let lang = ctx.lang.get();
        let Some((s, pages)) = lab.pages.get() else {
            return view! { <p class="muted">"…"</p> }.into_any();
        };
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
                style="max-width:560px;display:block"
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
                                <rect x=(x + 0.5).to_string() y=(y + 0.5).to_string() width=(size - 1.0).to_string() height=(size - 1.0).to_string() style=format!("fill:{fill}")>
                                    <title>{title}</title>
                                </rect>
                                {all_visible.then(|| view! {
                                    <circle cx=(x + size / 2.0).to_string() cy=(y + size / 2.0).to_string() r="1.8" style="fill:var(--fg)"/>
                                })}
                            </g>
                        }
                    })
                    .collect_view()}
            </svg>
        }
        .into_any()
    };
    let swatch = |fill: &'static str| {
        view! { <svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" style=format!("fill:{fill}")/></svg> }
    };
    view! {
        <section class="panel" aria-labelledby="vacuum-page-map-title">
            <h2 id="vacuum-page-map-title">{ctx.t("vacuum.page_map")}</h2>
            <p class="muted">{ctx.t("vacuum.page_map.help")}</p>
            <Show
                when=move || lab.page_map_available() || lab.setup.get() != Setup::Ready { page_map: false }
                fallback=move || view! { <p class="note bad">{ctx.t("vacuum.page_map.unavailable")}</p> }
            >
                <div class="row">
                    {strategy_select(lab, "vacuum-page-map-table")}
                </div>
                <ul class="row" style="list-style:none;padding:0;font-size:0.9rem">
                    <li>{swatch("var(--ok)")} " " {ctx.t("vacuum.page_map.live")}</li>
                    <li>{swatch("var(--warn)")} " " {ctx.t("vacuum.page_map.mixed")}</li>
                    <li>{swatch("var(--bad)")} " " {ctx.t("vacuum.page_map.dead")}</li>
                    <li>{swatch("var(--line)")} " " {ctx.t("vacuum.page_map.empty_cell")}</li>
                    <li>
                        <svg width="12" height="12" aria-hidden="true"><circle cx="6" cy="6" r="2.5" style="fill:var(--fg)"/></svg>
                        " " {ctx.t("vacuum.page_map.all_visible")}
                    </li>
                </ul>
                {map}
                {lab.error_in("inspect")}
                <details>
                    <summary>{ctx.t("vacuum.page_map.more")}</summary>
                    <p>{ctx.t("vacuum.page_map.dead_def")}</p>
                    <p>{ctx.t("vacuum.page_map.pruning")}</p>
                </details>
            </Show>
        </section>
    }
}

#[component]
fn AutovacuumPanel(lab: Lab) -> impl IntoView {
    let ctx = lab.ctx;
    let threshold = RwSignal::new(String::new());
    let scale = RwSignal::new(String::from("0.01"));
    let max = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<Msg>);
    let ran = RwSignal::new(None::<String>);
    let apply = move || match model::parse_autovacuum(
        &threshold.get_untracked(),
        &scale.get_untracked(),
        &max.get_untracked(),
    ) {
        Err(m) => problem.set(Some(m)),
        Ok(input) => {
            problem.set(None);
            let s = lab.selected.get_untracked();
            lab.act("autovacuum", None, move |db, _| async move {
                ran.set(Some(model::set_autovacuum(&db, s, input).await?));
                Ok(())
            });
        }
    };
    let figures = move || {
        let (s, a) = lab.autovac.get()?;
        let lang = ctx.lang.get();
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
        let when = lab
            .records
            .with(|r| model::would_start(r, s, a.dead_threshold));
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
        Some(view! {
            <p id="vacuum-autovacuum-current">{current}</p>
            <p class="note" id="vacuum-autovacuum-when">{when}</p>
            <p class="muted">{counted}</p>
        })
    };
    view! {
        <section class="panel" aria-labelledby="vacuum-autovacuum-title">
            <h2 id="vacuum-autovacuum-title">{ctx.t("vacuum.autovacuum")}</h2>
            <p class="note bad">{ctx.t("vacuum.autovacuum.never")}</p>
            <p>{ctx.rich("vacuum.autovacuum.formula")}</p>
            <div class="row">{strategy_select(lab, "vacuum-autovacuum-table")}</div>
            {figures}
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
                <button type="submit" id="vacuum-av-apply" disabled=move || lab.busy.get()>{ctx.t("vacuum.autovacuum.apply")}</button>
            </form>
            <Show when=move || problem.with(Option::is_some)>
                <p class="field-error" role="alert">{move || problem.get().map(|m| render(ctx.lang.get(), &m)).unwrap_or_default()}</p>
            </Show>
            {move || ran.get().map(|s| view! { <pre class="note mono" id="vacuum-av-ran">{s}</pre> })}
            {lab.error_in("autovacuum")}
        </section>
    }
}

#[component]
fn PlanPanel(lab: Lab) -> impl IntoView {
    let ctx = lab.ctx;
    let result = RwSignal::new(None::<PlanComparison>);
    let problem = RwSignal::new(None::<Msg>);
    let compare = move || match model::parse_jobs(&lab.jobs.get_untracked()) {
        Err(m) => problem.set(Some(m)),
        Ok(jobs) => {
            problem.set(None);
            lab.act("plan", None, move |db, _| async move {
                result.set(Some(model::compare_plans(&db, jobs).await?));
                Ok(())
            });
        }
    };
    let side = move |title: &'static str,
                     why: &'static str,
                     id: &'static str,
                     pick: fn(&PlanComparison) -> PlanSide| {
        view! {
            <div id=id>
                <h3>{ctx.t(title)}</h3>
                <p>{ctx.rich(why)}</p>
                {move || result.get().map(|c| {
                    let p = pick(&c);
                    let lang = ctx.lang.get();
                    let how = tr(lang, if p.summary.uses_jobs_ready && !p.summary.seq_scan { "vacuum.plan.uses_index" } else { "vacuum.plan.seq_scan" });
                    view! {
                        <p class="note" class:good=p.summary.uses_jobs_ready class:bad=p.summary.seq_scan>
                            <strong class="plan-pages">{render(lang, &Msg::new("vacuum.plan.pages").arg("pages", group(p.summary.pages)).arg("ms", ms(p.summary.execution_ms)))}</strong>
                            " · " {how}
                        </p>
                        <p class="mono plan-scans">{p.summary.scans.clone()}</p>
                        <div class="table-wrap" tabindex="0">
                            <table>
                                <thead><tr>
                                    <th scope="col">{tr(lang, "vacuum.plan.col.node")}</th>
                                    <th scope="col">{tr(lang, "vacuum.plan.col.rows")}</th>
                                    <th scope="col">{tr(lang, "vacuum.plan.col.pages")}</th>
                                    <th scope="col">"ms"</th>
                                    <th scope="col">{tr(lang, "vacuum.plan.col.detail")}</th>
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
                                                <td class="mono" style="white-space:normal;min-width:12rem">{n.detail.unwrap_or_default()}</td>
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
            let m = Msg::new("vacuum.plan.throughput")
                .arg("article", group(c.article.jobs_per_s.round() as i64))
                .arg("indexed", group(c.indexed.jobs_per_s.round() as i64));
            view! { <p class="note" id="vacuum-plan-throughput">{lab.msg(m)}</p> }
        })
    };
    view! {
        <section class="panel" aria-labelledby="vacuum-plan-title">
            <h2 id="vacuum-plan-title">{ctx.t("vacuum.plan")}</h2>
            <p>{move || {
                let jobs = model::parse_jobs(&lab.jobs.get()).unwrap_or(model::JOBS_DEFAULT);
                render(ctx.lang.get(), &Msg::new("vacuum.plan.help").arg("jobs", group(i64::from(jobs))))
            }}</p>
            <button type="button" class="primary" id="vacuum-plan-run" disabled=move || lab.busy.get() on:click=move |_| compare()>
                {ctx.t("vacuum.plan.run")}
            </button>
            <Show when=move || problem.with(Option::is_some)>
                <p class="field-error" role="alert">{move || problem.get().map(|m| render(ctx.lang.get(), &m)).unwrap_or_default()}</p>
            </Show>
            {lab.error_in("plan")}
            {throughput}
            <div class="lab-grid">
                {side("vacuum.plan.article", "vacuum.plan.article.why", "vacuum-plan-article", |c| c.article.clone())}
                {side("vacuum.plan.indexed", "vacuum.plan.indexed.why", "vacuum-plan-indexed", |c| c.indexed.clone())}
            </div>
            <p class="muted">{ctx.t("vacuum.plan.indexed.differs")}</p>
            <p class="muted" id="vacuum-plan-vs-article">{ctx.t("vacuum.plan.vs_article")}</p>
            <p class="muted">{ctx.t("vacuum.plan.analyze_note")}</p>
            <p class="muted">{ctx.t("vacuum.plan.explain_runs")}</p>
        </section>
    }
}

#[component]
fn FullPanel(lab: Lab) -> impl IntoView {
    let ctx = lab.ctx;
    let locks = RwSignal::new(None::<Vec<LockRow>>);
    let rewrite = RwSignal::new(None::<(RelationFile, RelationFile)>);
    let show_lock = move || {
        lab.act("full", None, move |db, _| async move {
            rewrite.set(None);
            locks.set(Some(model::vacuum_full_lock(&db).await?));
            Ok(())
        })
    };
    let run_full = move || {
        lab.act("full", None, move |db, _| async move {
            rewrite.set(Some(model::vacuum_full(&db).await?));
            Ok(())
        })
    };
    let yes_no = move |lang, b: bool| tr(lang, if b { "vacuum.yes" } else { "vacuum.no" });
    view! {
        <section class="panel" aria-labelledby="vacuum-full-title">
            <h2 id="vacuum-full-title">{ctx.t("vacuum.full")}</h2>
            <p>{ctx.t("vacuum.full.help")}</p>
            <p class="muted">{ctx.t("vacuum.full.demo")}</p>
            <div class="row">
                <button type="button" id="vacuum-full-lock" disabled=move || lab.busy.get() on:click=move |_| show_lock()>
                    {ctx.t("vacuum.full.show_lock")}
                </button>
                <button type="button" id="vacuum-full-run" disabled=move || lab.busy.get() || locks.with(Option::is_none)
                    on:click=move |_| run_full()>
                    {ctx.t("vacuum.full.run")}
                </button>
            </div>
            {move || locks.get().map(|rows| {
                let lang = ctx.lang.get();
                view! {
                    <ul class="note bad" id="vacuum-full-locks">
                        {rows.into_iter().map(|l| view! {
                            <li>{render(lang, &Msg::new("vacuum.full.lock_row")
                                .arg("mode", l.mode)
                                .arg("relation", l.relation)
                                .arg("select", yes_no(lang, l.conflicts_with_select))
                                .arg("insert", yes_no(lang, l.conflicts_with_insert)))}</li>
                        }).collect_view()}
                    </ul>
                }
            })}
            {move || rewrite.get().map(|(b, a)| {
                let m = Msg::new("vacuum.full.rewrite")
                    .arg("before", b.filenode)
                    .arg("after", a.filenode)
                    .arg("pages_before", group(b.heap_pages))
                    .arg("pages_after", group(a.heap_pages));
                view! { <p class="note" id="vacuum-full-rewrite">{lab.msg(m)}</p> }
            })}
            {lab.error_in("full")}
        </section>
    }
}
