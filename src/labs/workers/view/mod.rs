//! L2 Many workers: the page. Inputs → the simulator's Web Worker (progress, Cancel) → table,
//! readings and a per-worker timeline. The inputs live in the hash after `?` (the shell's
//! router ignores that part), so a link reproduces the run.

mod challenge_host;
mod tour;
mod worker;

use super::model::{self, Chart, Field, Inputs, Pick, Ran, Shape};
use super::tour::{Look, Table, TOUR};
use crate::ctx::{use_ctx, Ctx};
use crate::keys;
use crate::labs::challenge::ChallengeList;
use crate::ui::i18n::{render, tr};
use crate::ui::table::{col_heads, ScrollTable};
use leptos::prelude::*;
use queue_lab_core::i18n::Key;
use queue_lab_core::i18n::Msg;
use queue_sim::{Outcome, SegmentKind, Strategy};
use tour::WorkersTour;

/// The part of the hash after `?`, if any.
fn hash_query() -> String {
    let hash = window().location().hash().unwrap_or_default();
    hash.split_once('?')
        .map(|(_, q)| q.to_owned())
        .unwrap_or_default()
}

/// Puts the inputs into the address without a navigation or a history entry.
fn write_hash_query(query: &str) {
    let url = format!("#/workers?{query}");
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

fn kind_color(kind: SegmentKind) -> &'static str {
    match kind {
        SegmentKind::Claim => "#4f86c6",
        SegmentKind::LockWait => "#d0453b",
        SegmentKind::Work => "#3c9a5f",
        SegmentKind::Complete => "#e3a32b",
        SegmentKind::Idle => "#9aa3ad",
    }
}

const KINDS: [SegmentKind; 4] = [
    SegmentKind::Claim,
    SegmentKind::LockWait,
    SegmentKind::Work,
    SegmentKind::Complete,
];

#[component]
pub fn WorkersLab() -> impl IntoView {
    let ctx = use_ctx();
    let inputs = RwSignal::new(Inputs::from_query(&hash_query()));
    let errors = RwSignal::new(Vec::<(Field, Msg)>::new());
    let result = RwSignal::new(None::<Ran>);
    let run_error = RwSignal::new(None::<Msg>);
    let running = RwSignal::new(false);
    // While a run goes on in the worker: the share done, once the worker has reported any.
    let progress = RwSignal::new(None::<f64>);
    let cancelled = RwSignal::new(false);
    // The worker could not start or died: the browser's reason (shown with Retry).
    let worker_failed = RwSignal::new(None::<String>);
    let shown = RwSignal::new(None::<Strategy>);
    let share = RwSignal::new(String::new());
    // The tour step shown open, and why an address's `?step=N` was refused.
    let step = RwSignal::new(None::<usize>);
    let refused = RwSignal::new(None::<Msg>);
    let look: Signal<&'static [Look]> =
        Signal::derive(move || step.get().map_or(&[][..], |i| TOUR[i].look));

    let run = move || {
        if running.get_untracked() {
            return;
        }
        let inp = inputs.get_untracked();
        match inp.to_params() {
            Err(errs) => {
                errors.set(errs);
                result.set(None);
            }
            Ok(params) => {
                errors.set(Vec::new());
                run_error.set(None);
                cancelled.set(false);
                worker_failed.set(None);
                running.set(true);
                let query = inp.to_query();
                write_hash_query(&query);
                share.set(query);
                crate::task::spawn(async move {
                    let answer = worker::run(&model::job(&params), move |f| {
                        progress.try_set(Some(f));
                    })
                    .await;
                    // The page may have been left meanwhile: then nothing to show.
                    if running.try_set(false).is_some() {
                        return;
                    }
                    progress.set(None);
                    match answer.map(Ran::from_done) {
                        Ok(Ok(ran)) => {
                            let keep = shown
                                .get_untracked()
                                .filter(|s| ran.outs.iter().any(|o| o.params.strategy == *s));
                            let default = if ran.outs.len() > 1 {
                                Some(Strategy::ForUpdate)
                            } else {
                                ran.outs.first().map(|o| o.params.strategy)
                            };
                            shown.set(keep.or(default));
                            result.set(Some(ran));
                        }
                        Ok(Err(m)) => run_error.set(Some(m)),
                        Err(worker::Failure::Refused(detail)) => run_error
                            .set(Some(Msg::new(keys::WORKERS_ERR_SIM).arg("detail", detail))),
                        // The last run's figures stay only while this one goes on: they are
                        // not the figures of the inputs now in the address.
                        Err(worker::Failure::Cancelled) => {
                            result.set(None);
                            cancelled.set(true);
                        }
                        Err(worker::Failure::Failed(detail)) => {
                            result.set(None);
                            worker_failed.set(Some(detail));
                        }
                    }
                });
            }
        }
    };

    // A tour step: its inputs, run, and its figures marked.
    let run_step = move |i: usize| {
        if running.get_untracked() {
            return;
        }
        inputs.set(TOUR[i].inputs());
        step.set(Some(i));
        run();
    };

    // Leaving the page stops a run still going in the worker.
    on_cleanup(worker::stop);

    let play = Callback::new(move |i: Inputs| {
        if running.get_untracked() {
            return;
        }
        inputs.set(i);
        step.set(None);
        run();
    });

    // Once on load: the inputs a link carries; else the tour step the address asks for
    // (`?step=N`); else the defaults.
    let opening = crate::labs::guide::opening_step(TOUR.len());
    match opening {
        Some(Ok(i)) if hash_query().is_empty() => run_step(i),
        Some(Err(m)) => {
            refused.set(Some(m));
            run();
        }
        _ => run(),
    }
    let challenges = challenge_host::challenges(ctx, result, running, play);

    view! {
        <section class="lab workers-lab" aria-busy=move || running.get().to_string()>
            <h1>{ctx.t(keys::LAB_WORKERS_TITLE)}</h1>
            <p>{ctx.t(keys::WORKERS_INTRO)}</p>
            <div class="note" id="w-sim-notice" role="note">
                <p class="tight"><strong>{ctx.t(keys::WORKERS_SIM_NOTICE)}</strong></p>
                <p class="tight">
                    {ctx.t(keys::WORKERS_PGCHECK_NOTICE)} " "
                    <code class="break-anywhere">"cargo run -p pgcheck --release -- --database-url postgres://…"</code>
                </p>
            </div>
            <InputsPanel ctx inputs errors running run=move || {
                step.set(None);
                run();
            }/>
            <RunState ctx running progress cancelled worker_failed retry=move || run()/>
            <WorkersTour ctx step refused busy=running.into() run_step/>
            <ChallengeList challenges busy=running.into()/>
            {move || run_error.get().map(|m| view! { <p class="error">{move || render(ctx.lang.get(), &m)}</p> })}
            <Show when=move || !errors.with(Vec::is_empty)>
                <p class="field-error" id="w-not-run">{ctx.t(keys::WORKERS_NOT_RUN)}</p>
            </Show>
            {move || result.with(|r| r.clone()).map(|r| view! { <Results ctx result=r shown share look/> })}
        </section>
    }
}

/// A run in the worker: how far it has come and Cancel (shown once the worker reports, so a
/// short run shows nothing); a cancelled run; a worker that could not start, with Retry.
#[component]
fn RunState(
    ctx: Ctx,
    running: RwSignal<bool>,
    progress: RwSignal<Option<f64>>,
    cancelled: RwSignal<bool>,
    worker_failed: RwSignal<Option<String>>,
    retry: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let pct = move || {
        progress
            .get()
            .map(|f| (f * 100.0).floor().clamp(0.0, 100.0))
    };
    view! {
        <Show when=move || running.get() && progress.get().is_some()>
            <div class="row" id="w-progress" role="status">
                <progress max="100" value=move || pct().unwrap_or(0.0)></progress>
                <span id="w-progress-text">
                    {move || render(ctx.lang.get(), &Msg::new(keys::WORKERS_PROGRESS).arg("pct", format!("{:.0}", pct().unwrap_or(0.0))))}
                </span>
                <button type="button" id="w-cancel" on:click=move |_| worker::cancel()>
                    {ctx.t(keys::WORKERS_CANCEL)}
                </button>
            </div>
        </Show>
        <Show when=move || cancelled.get()>
            <p class="note" id="w-cancelled" role="status">{ctx.t(keys::WORKERS_CANCELLED)}</p>
        </Show>
        {move || {
            worker_failed.get().map(|detail| {
                let m = Msg::new(keys::WORKERS_WORKER_FAILED).arg("detail", detail);
                view! {
                    <div class="error" id="w-worker-error" role="alert">
                        <p class="tight">{move || render(ctx.lang.get(), &m)}</p>
                        <button type="button" id="w-retry" on:click=move |_| retry()>
                            {ctx.t(keys::WORKERS_RETRY)}
                        </button>
                    </div>
                }
            })
        }}
    }
}

#[component]
fn InputsPanel(
    ctx: Ctx,
    inputs: RwSignal<Inputs>,
    errors: RwSignal<Vec<(Field, Msg)>>,
    running: RwSignal<bool>,
    run: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let shape = move || inputs.with(|i| i.shape);
    let dur_a_label = move || {
        if shape() == Shape::Fixed {
            tr(ctx.lang.get(), keys::WORKERS_F_DUR_FIXED)
        } else {
            tr(ctx.lang.get(), keys::WORKERS_F_DUR_MIN)
        }
    };
    view! {
        <form
            class="panel"
            id="w-form"
            on:submit=move |ev| {
                ev.prevent_default();
                run();
            }
        >
            <h2>{ctx.t(keys::WORKERS_INPUTS)}</h2>
            <div class="row top">
                {select_field(ctx, "w-strategy", Some("shrink"), keys::WORKERS_F_STRATEGY, picks(), |i| i.pick, |i, p| i.pick = p, inputs)}
                {text_field(ctx, "w-workers", move || tr(ctx.lang.get(), keys::WORKERS_F_WORKERS), Field::Workers, |i| i.workers.clone(), |i, v| i.workers = v, inputs, errors)}
                {text_field(ctx, "w-jobs", move || tr(ctx.lang.get(), keys::WORKERS_F_JOBS), Field::Jobs, |i| i.jobs.clone(), |i, v| i.jobs = v, inputs, errors)}
                {select_field(ctx, "w-shape", None, keys::WORKERS_F_SHAPE, Shape::ALL.map(|s| (s, s.as_str(), s.label_key())).to_vec(), |i| i.shape, |i, s| i.shape = s, inputs)}
                {text_field(ctx, "w-dur-a", dur_a_label, Field::DurA, |i| i.dur_a.clone(), |i, v| i.dur_a = v, inputs, errors)}
                <Show when=move || shape() != Shape::Fixed>
                    {text_field(ctx, "w-dur-b", move || tr(ctx.lang.get(), keys::WORKERS_F_DUR_MAX), Field::DurB, |i| i.dur_b.clone(), |i, v| i.dur_b = v, inputs, errors)}
                </Show>
                {text_field(ctx, "w-latency", move || tr(ctx.lang.get(), keys::WORKERS_F_LATENCY), Field::Latency, |i| i.latency.clone(), |i, v| i.latency = v, inputs, errors)}
                {text_field(ctx, "w-seed", move || tr(ctx.lang.get(), keys::WORKERS_F_SEED), Field::Seed, |i| i.seed.clone(), |i, v| i.seed = v, inputs, errors)}
                {text_field(ctx, "w-keys", move || tr(ctx.lang.get(), keys::WORKERS_F_KEYS), Field::Keys, |i| i.keys.clone(), |i, v| i.keys = v, inputs, errors)}
            </div>
            <div class="row">
                <button type="submit" class="primary" id="w-run" disabled=move || running.get() aria-busy=move || running.get().to_string()>
                    {move || if running.get() { tr(ctx.lang.get(), keys::WORKERS_RUNNING) } else { tr(ctx.lang.get(), keys::WORKERS_RUN) }}
                </button>
            </div>
        </form>
    }
}

/// The strategy select's options: all four side by side, then each alone.
fn picks() -> Vec<(Pick, &'static str, Key)> {
    let one = Strategy::ALL.map(|s| (Pick::One(s), s.as_str(), model::strategy_key(s)));
    std::iter::once((Pick::All, Pick::All.as_str(), keys::WORKERS_F_ALL))
        .chain(one)
        .collect()
}

/// A labelled select of `options` (value, its name in the address, its label) bound to one
/// input of the form.
#[allow(clippy::too_many_arguments)]
fn select_field<T: Copy + PartialEq + Send + Sync + 'static>(
    ctx: Ctx,
    id: &'static str,
    class: Option<&'static str>,
    label: Key,
    options: Vec<(T, &'static str, Key)>,
    get: fn(&Inputs) -> T,
    set: fn(&mut Inputs, T),
    inputs: RwSignal<Inputs>,
) -> impl IntoView {
    let by_name = options
        .iter()
        .map(|(v, name, _)| (*v, *name))
        .collect::<Vec<_>>();
    view! {
        <div class=class>
            <label for=id>{ctx.t(label)}</label>
            <br/>
            <select
                id=id
                on:change=move |ev| {
                    let name = event_target_value(&ev);
                    if let Some((v, _)) = by_name.iter().find(|(_, n)| *n == name) {
                        inputs.update(|i| set(i, *v));
                    }
                }
            >
                {options
                    .into_iter()
                    .map(|(v, name, key)| {
                        view! {
                            <option value=name prop:selected=move || inputs.with(get) == v>
                                {ctx.t(key)}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
    }
}

#[allow(clippy::too_many_arguments)]
fn text_field(
    ctx: Ctx,
    id: &'static str,
    label: impl Fn() -> String + Send + Sync + 'static,
    field: Field,
    get: fn(&Inputs) -> String,
    set: fn(&mut Inputs, String),
    inputs: RwSignal<Inputs>,
    errors: RwSignal<Vec<(Field, Msg)>>,
) -> impl IntoView {
    let error =
        move || errors.with(|e| e.iter().find(|(f, _)| *f == field).map(|(_, m)| m.clone()));
    let err_id = format!("{id}-err");
    view! {
        <div>
            <label for=id>{label}</label>
            <br/>
            <input
                id=id
                type="text"
                inputmode="decimal"
                autocomplete="off"
                size="9"
                prop:value=move || inputs.with(get)
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    inputs.update(|i| set(i, v));
                }
                aria-invalid=move || error().is_some().to_string()
                aria-describedby=err_id.clone()
            />
            {move || {
                error().map(|m| {
                    view! {
                        <p class="field-error narrow" id=err_id.clone()>
                            {move || render(ctx.lang.get(), &m)}
                        </p>
                    }
                })
            }}
        </div>
    }
}

type Metric = (&'static str, Key, fn(&Outcome) -> String);

fn metrics() -> [Metric; 11] {
    use crate::ui::format::{group, micros};
    [
        ("executions", keys::WORKERS_M_EXECUTIONS, |o| {
            group(o.executions)
        }),
        ("distinct", keys::WORKERS_M_DISTINCT, |o| {
            group(u64::from(o.distinct_jobs))
        }),
        ("dups", keys::WORKERS_M_DUPS, |o| {
            group(u64::from(o.jobs_run_more_than_once))
        }),
        ("lock-wait", keys::WORKERS_M_LOCK_WAIT, |o| {
            micros(o.lock_wait_us)
        }),
        ("lock-waits", keys::WORKERS_M_LOCK_WAITS, |o| {
            group(o.lock_waits)
        }),
        ("elapsed", keys::WORKERS_M_ELAPSED, |o| micros(o.elapsed_us)),
        ("throughput", keys::WORKERS_M_THROUGHPUT, |o| {
            group(o.jobs_per_s.round() as u64)
        }),
        ("max-tx", keys::WORKERS_M_MAX_TX, |o| {
            o.tx.max_in_tx.to_string()
        }),
        ("mean-tx", keys::WORKERS_M_MEAN_TX, |o| {
            format!("{:.2}", o.tx.mean_in_tx)
        }),
        ("longest-tx", keys::WORKERS_M_LONGEST_TX, |o| {
            micros(o.tx.longest_tx_us)
        }),
        ("inversions", keys::WORKERS_M_INVERSIONS, |o| {
            format!("{} / {}", group(o.inversions), group(o.completions))
        }),
    ]
}

#[component]
fn Results(
    ctx: Ctx,
    result: Ran,
    shown: RwSignal<Option<Strategy>>,
    /// The inputs of the run shown, as the share link's query (the link is made when shown,
    /// from [`crate::ctx::share_base`]: never `embed` or `step`, the language shown).
    share: RwSignal<String>,
    look: Signal<&'static [Look]>,
) -> impl IntoView {
    let Ran {
        outs,
        ordering,
        ours_at_defaults,
        took_ms,
        ordering_ms,
    } = result;
    let runs = outs.len();
    let heads = outs
        .iter()
        .map(|o| {
            let s = o.params.strategy;
            view! { <th scope="col" class="wrap label-col">{move || tr(ctx.lang.get(), model::strategy_key(s))}</th> }
        })
        .collect_view();
    let rows = metrics()
        .into_iter()
        .map(|(id, key, f)| {
            let cells = outs
                .iter()
                .map(|o| {
                    let bad = (id == "dups" && o.jobs_run_more_than_once > 0)
                        || (id == "lock-wait" && o.lock_wait_us > 0);
                    let s = o.params.strategy;
                    let marked = move || look.get().iter().any(|l| l.marks(Table::Results, id, s));
                    view! {
                        <td class="mono" class:tour-look=marked data-strategy=s.as_str() data-metric=id class:bad-figure=bad>
                            {f(o)}
                        </td>
                    }
                })
                .collect_view();
            view! {
                <tr>
                    <th scope="row" class="wrap label-col">{move || tr(ctx.lang.get(), key)}</th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    let readings = outs
        .iter()
        .map(|o| {
            let s = o.params.strategy;
            let m = model::reading(o, &outs);
            let class = if s == Strategy::Naive && o.jobs_run_more_than_once > 0 {
                "note bad"
            } else {
                "note"
            };
            view! {
                <li class=class data-strategy=s.as_str()>
                    <strong>{move || tr(ctx.lang.get(), model::strategy_key(s))}</strong>
                    ": "
                    {move || render(ctx.lang.get(), &m)}
                </li>
            }
        })
        .collect_view();
    let order = model::order_reading(&outs, ours_at_defaults);
    let charts: Vec<(Strategy, Chart)> = outs
        .iter()
        .map(|o| (o.params.strategy, model::chart(o)))
        .collect();
    let took = if runs == 1 {
        Msg::new(keys::WORKERS_TOOK_ONE).arg("ms", format!("{took_ms:.0}"))
    } else {
        Msg::new(keys::WORKERS_TOOK)
            .arg("ms", format!("{took_ms:.0}"))
            .arg("runs", runs)
    };
    view! {
        <div class="panel" id="w-results-panel">
            <h2>{ctx.t(keys::WORKERS_RESULTS)}</h2>
            <p class="muted" id="w-took" data-ms=format!("{took_ms:.1}")>{move || render(ctx.lang.get(), &took)}</p>
            <ScrollTable id="w-results" head=move || view! {
                <th scope="col">{ctx.t(keys::WORKERS_M_METRIC)}</th>
                {heads}
            }>
                {rows}
            </ScrollTable>
            <p class="muted small">{ctx.t(keys::WORKERS_RESULTS_NOTE)}</p>
            <p class="muted small" id="w-inv-note">
                {move || render(ctx.lang.get(), &Msg::new(keys::WORKERS_INV_NOTE).arg("article", model::ARTICLE_INVERSIONS).arg("ours", crate::ui::format::group(ours_at_defaults)))}
            </p>
            <h3>{ctx.t(keys::WORKERS_READING)}</h3>
            <ul id="w-readings" class="plain-list">
                {readings}
                {order.map(|m| view! { <li class="note" id="w-order">{move || render(ctx.lang.get(), &m)}</li> })}
            </ul>
            <p class="muted small">
                {ctx.t(keys::WORKERS_SHARE)} " "
                <a id="w-share" href=move || share.with(|query| format!("{}#/workers?{query}", crate::ctx::share_base()))>{ctx.t(keys::WORKERS_SHARE_LINK)}</a>
            </p>
        </div>
        <OrderingPanel ctx ordering took_ms=ordering_ms look/>
        <TimelinePanel ctx charts shown/>
    }
}

/// The timeline of one strategy's run (a choice when several ran), with its legend.
#[component]
fn TimelinePanel(
    ctx: Ctx,
    charts: Vec<(Strategy, Chart)>,
    shown: RwSignal<Option<Strategy>>,
) -> impl IntoView {
    let strategies: Vec<Strategy> = charts.iter().map(|(s, _)| *s).collect();
    let many = strategies.len() > 1;
    view! {
        <div class="panel" id="w-timeline-panel">
            <h2>{ctx.t(keys::WORKERS_TIMELINE)}</h2>
            <Show when=move || many>
                <div class="row">
                    <label for="w-timeline-for">{ctx.t(keys::WORKERS_TIMELINE_FOR)}</label>
                    <select
                        id="w-timeline-for"
                        on:change=move |ev| shown.set(Strategy::parse(&event_target_value(&ev)))
                    >
                        {strategies
                            .iter()
                            .map(|s| {
                                let s = *s;
                                view! {
                                    <option value=s.as_str() prop:selected=move || shown.get() == Some(s)>
                                        {move || tr(ctx.lang.get(), model::strategy_key(s))}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </div>
            </Show>
            <ul class="row legend" aria-label=move || tr(ctx.lang.get(), keys::WORKERS_TIMELINE)>
                {KINDS
                    .map(|k| {
                        view! {
                            <li>
                                <span class="swatch" style:background=kind_color(k) aria-hidden="true"></span>
                                {move || tr(ctx.lang.get(), model::segment_key(k))}
                            </li>
                        }
                    })
                    .into_iter()
                    .collect_view()}
            </ul>
            {move || {
                let s = shown.get();
                charts
                    .iter()
                    .find(|(cs, _)| Some(*cs) == s)
                    .or(charts.first())
                    .map(|(_, c)| timeline_svg(ctx, c))
            }}
        </div>
    }
}

fn timeline_svg(ctx: Ctx, c: &Chart) -> impl IntoView {
    const LEFT: f64 = 44.0;
    const PLOT: f64 = 944.0;
    let workers = u32::from(c.workers.max(1));
    let row_h: f64 = if workers <= 16 {
        18.0
    } else if workers <= 32 {
        12.0
    } else {
        8.0
    };
    let top = 4.0;
    let plot_h = row_h * f64::from(workers);
    let height = top + plot_h + 28.0;
    let window = c.window_us.max(1) as f64;
    let x = move |us: u64| LEFT + (us as f64 / window) * PLOT;
    let label_every = if row_h >= 12.0 { 1 } else { 4 };
    let labels = (0..workers)
        .filter(|w| w % label_every == 0)
        .map(|w| {
            let y = top + row_h * f64::from(w) + row_h / 2.0 + 4.0;
            view! { <text x="38" y=format!("{y:.1}") text-anchor="end" font-size="11" fill="currentColor">{format!("W{}", w + 1)}</text> }
        })
        .collect_view();
    let ticks = model::ticks(c.window_us)
        .into_iter()
        .map(|t| {
            let tx = format!("{:.1}", x(t));
            view! {
                <line x1=tx.clone() x2=tx.clone() y1=format!("{top}") y2=format!("{:.1}", top + plot_h + 4.0) stroke="currentColor" stroke-opacity="0.2"/>
                <text x=tx y=format!("{:.1}", top + plot_h + 18.0) text-anchor="middle" font-size="11" fill="currentColor">{if t == 0 { "0".to_string() } else { crate::ui::format::micros(t) }}</text>
            }
        })
        .collect_view();
    // Up to 1,564 bars: written as one SVG fragment and parsed by the browser in one go,
    // rather than made element by element (which alone took over 50 ms of the page's thread
    // at 64 workers). Only numbers and the fixed colours above go in: no text from anywhere.
    let mut bars = String::with_capacity(c.bars.len() * 72);
    for b in &c.bars {
        use std::fmt::Write as _;
        let x0 = x(b.start_us);
        let w = (x(b.end_us) - x0).max(0.6);
        let y = top + row_h * f64::from(b.worker) + 1.0;
        let _ = write!(
            bars,
            r#"<rect x="{x0:.1}" y="{y:.1}" width="{w:.1}" height="{:.1}" fill="{}"/>"#,
            row_h - 2.0,
            kind_color(b.kind)
        );
    }
    let note = if c.cut {
        Msg::new(keys::WORKERS_TIMELINE_CUT)
            .arg("ms", crate::ui::format::micros(c.window_us))
            .arg("bars", crate::ui::format::group(c.bars.len() as u64))
    } else {
        Msg::new(keys::WORKERS_TIMELINE_ALL).arg("ms", crate::ui::format::micros(c.window_us))
    };
    let label = Msg::new(keys::WORKERS_TIMELINE_LABEL).arg("workers", workers);
    view! {
        <p class="muted small" id="w-timeline-note">{move || render(ctx.lang.get(), &note)}</p>
        <div class="table-wrap" tabindex="0">
            <svg
                id="w-timeline"
                role="img"
                aria-label=move || render(ctx.lang.get(), &label)
                viewBox=format!("0 0 1000 {height:.0}")
                class="timeline-svg"
                data-bars=c.bars.len().to_string()
            >
                {ticks}
                {labels}
                <g inner_html=bars></g>
            </svg>
        </div>
        <p class="muted axis">{ctx.t(keys::WORKERS_AXIS)}</p>
    }
}

/// SKIP LOCKED and the two remedies that keep each key's order: throughput and per-key
/// inversions side by side.
#[component]
fn OrderingPanel(
    ctx: Ctx,
    ordering: Vec<Outcome>,
    took_ms: f64,
    look: Signal<&'static [Look]>,
) -> impl IntoView {
    use crate::ui::format::{group, micros};
    let keys = ordering.first().map_or(0, |o| o.params.keys);
    let reading = model::ordering_reading(&ordering);
    let took = Msg::new(keys::WORKERS_TOOK)
        .arg("ms", format!("{took_ms:.0}"))
        .arg("runs", ordering.len());
    let rows = ordering
        .iter()
        .map(|o| {
            let s = o.params.strategy;
            let bad = o.key_inversions > 0;
            let m = model::reading(o, &ordering);
            let cells: [(&'static str, String, bool); 4] = [
                ("throughput", group(o.jobs_per_s.round() as u64), false),
                ("key-inversions", group(o.key_inversions), bad),
                ("inversions", group(o.inversions), false),
                ("elapsed", micros(o.elapsed_us), false),
            ];
            let cells = cells
                .into_iter()
                .map(|(id, text, bad)| {
                    let marked = move || look.get().iter().any(|l| l.marks(Table::Ordering, id, s));
                    view! {
                        <td class="mono" class:tour-look=marked data-strategy=s.as_str() data-metric=id class:bad-figure=bad>
                            {text}
                        </td>
                    }
                })
                .collect_view();
            let note = (s != Strategy::SkipLockedLease).then(|| {
                view! { <div class="muted sub-label">{move || render(ctx.lang.get(), &m)}</div> }
            });
            view! {
                <tr>
                    <th scope="row" class="wrap label-col wide">
                        {move || tr(ctx.lang.get(), model::strategy_key(s))}
                        {note}
                    </th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="panel" id="w-ordering-panel">
            <h2>{ctx.t(keys::WORKERS_ORDERING)}</h2>
            <p class="muted" id="w-ordering-took" data-ms=format!("{took_ms:.1}")>{move || render(ctx.lang.get(), &took)}</p>
            <p>{move || render(ctx.lang.get(), &Msg::new(keys::WORKERS_ORDERING_INTRO).arg("keys", group(u64::from(keys))))}</p>
            <div class="table-wrap">
                <table id="w-ordering">
                    <thead>
                        <tr>
                            {col_heads(ctx, &[keys::WORKERS_F_STRATEGY, keys::WORKERS_M_THROUGHPUT, keys::WORKERS_M_KEY_INVERSIONS, keys::WORKERS_M_INVERSIONS, keys::WORKERS_M_ELAPSED])}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="muted small">{ctx.t(keys::WORKERS_KEY_INV_NOTE)}</p>
            {reading.map(|m| view! { <p class="note" id="w-ordering-reading">{move || render(ctx.lang.get(), &m)}</p> })}
        </div>
    }
}
