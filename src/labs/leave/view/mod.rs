//! L5 "When to leave": every advisor input as a labelled control, the verdict of
//! `queue_lab_core::advisor` beside it, and the inputs kept in the URL (`#/leave?…`).

mod libraries;

use super::challenges::{Step, CHALLENGES};
use super::model::{error_for, hash_query, Case, Draft};
use crate::ctx::{use_ctx, Ctx};
use crate::keys;
use crate::labs::challenge::{
    run_state_check, ChallengeHost, ChallengeList, Challenges, Check, CheckTime, HostTexts,
};
use crate::ui::i18n::rich;
use crate::ui::i18n::{render, tr};
use crate::ui::table::ScrollTable;
use leptos::prelude::*;
use queue_lab_core::advisor::{
    self, advise, Field, FieldError, LoadBand, Recommendation, VacuumEstimate, Verdict, Workload,
};
use queue_lab_core::i18n::Key;
use queue_lab_core::i18n::{Lang, Msg};
use queue_lab_core::url;

/// The inputs from the page URL: the search (`?lab=leave&embed=1&sustained=…`), then the
/// hash route (`#/leave?sustained=…`), which wins.
fn draft_from_url() -> Draft {
    let location = window().location();
    let search = location.search().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    Draft::from_workload(&Workload::default())
        .with_query(search.trim_start_matches('?'), url::decode)
        .with_query(hash_query(&hash), url::decode)
}

/// Keeps the inputs in the hash route without a history entry or a `hashchange`.
fn write_url(w: &Workload) {
    let url = format!("#/leave?{}", w.to_query());
    if window().location().hash().ok().as_deref() == Some(url.as_str()) {
        return;
    }
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

#[derive(Clone, Copy)]
struct Inputs {
    draft: RwSignal<Draft>,
    /// Bumped when the inputs are filled from outside the input itself (a case button, a
    /// load preset), so only then do the controls take the draft's text: rewriting a number
    /// input while someone types in it would eat a half-typed "1.".
    filled: RwSignal<u64>,
    errors: Memo<Vec<FieldError>>,
}

impl Inputs {
    fn fill(self, w: &Workload) {
        self.draft.set(Draft::from_workload(w));
        self.filled.update(|n| *n += 1);
    }

    fn fill_one(self, field: Field, text: String) {
        self.draft.update(|d| d.set(field, text));
        self.filled.update(|n| *n += 1);
    }

    fn shown(self, field: Field) -> String {
        self.filled.track();
        self.draft.with_untracked(|d| d.get(field))
    }
}

/// L5 as the challenges' host: a step fills a worked case or types one input; the state a
/// check reads is the inputs on screen (the verdict is the advisor's on them).
#[derive(Clone, Copy)]
struct Host {
    inputs: Inputs,
}

impl ChallengeHost for Host {
    type Action = Step;
    type State = Draft;
    const TEXTS: HostTexts = HostTexts {
        hint: keys::CHALLENGE_HINT_INPUT,
        open: keys::CHALLENGE_OPEN_INPUT,
        solved: keys::CHALLENGE_SOLVED_STATE,
    };

    fn replay(self, actions: Vec<Step>, fresh: bool, _what: Option<Msg>) {
        let mut draft = if fresh {
            Draft::from_workload(&Workload::default())
        } else {
            self.inputs.draft.get_untracked()
        };
        for step in &actions {
            step.apply(&mut draft);
        }
        self.inputs.draft.set(draft);
        self.inputs.filled.update(|n| *n += 1);
    }

    fn track(self) {
        self.inputs.draft.track();
    }

    fn ready(self, _ctx: Ctx) -> bool {
        true
    }

    fn run_check(
        self,
        _ctx: Ctx,
        check: &'static Check<Draft>,
        done: impl FnOnce(bool, CheckTime) + 'static,
    ) {
        self.inputs
            .draft
            .with_untracked(|d| run_state_check(check, Some(d), done));
    }
}

#[component]
pub fn LeaveLab() -> impl IntoView {
    let ctx = use_ctx();
    let from_url = draft_from_url();
    let first = match from_url.parse() {
        Ok(w) => Draft::from_workload(&w),
        Err(_) => from_url,
    };
    let draft = RwSignal::new(first);
    let parsed = Memo::new(move |_| draft.with(Draft::parse));
    let errors = Memo::new(move |_| parsed.get().err().unwrap_or_default());
    let last_valid = RwSignal::new(parsed.get_untracked().unwrap_or_default());
    Effect::new(move |_| {
        if let Ok(w) = parsed.get() {
            write_url(&w);
            last_valid.set(w);
        }
    });
    let verdict = Memo::new(move |_| advise(&last_valid.get()).ok());
    let inputs = Inputs {
        draft,
        filled: RwSignal::new(0),
        errors,
    };
    let lang = ctx.lang;

    // A link or a typed address to `#/leave?…` while this page is open fills the inputs.
    let listener = window_event_listener(leptos::ev::hashchange, move |_| {
        let hash = window().location().hash().unwrap_or_default();
        if !hash.starts_with("#/leave") {
            return;
        }
        let from_url = draft_from_url();
        if let Ok(w) = from_url.parse() {
            if last_valid.with_untracked(|v| *v != w) {
                inputs.fill(&w);
            }
        } else if inputs.draft.with_untracked(|d| *d != from_url) {
            inputs.draft.set(from_url);
            inputs.filled.update(|n| *n += 1);
        }
    });
    on_cleanup(move || listener.remove());

    let case_buttons = Case::ALL
        .into_iter()
        .map(|case| {
            let current =
                move || last_valid.with(|w| *w == case.workload()) && errors.with(Vec::is_empty);
            view! {
                <button
                    type="button"
                    id=format!("case-{}", case.id())
                    aria-pressed=move || current().to_string()
                    class:primary=current
                    on:click=move |_| inputs.fill(&case.workload())
                >
                    {move || tr(lang.get(), case.label_key())}
                </button>
            }
        })
        .collect_view();

    let fields = Field::ALL
        .into_iter()
        .map(|f| field_view(ctx, inputs, f))
        .collect_view();
    let challenges = Challenges::new(ctx, Host { inputs }, &CHALLENGES);

    view! {
        <section class="lab leave">
            <h1>{ctx.t(super::LAB.title)}</h1>
            <p class="lead">{move || tr(lang.get(), keys::LEAVE_UI_LEAD)}</p>
            <div class="lab-grid">
                <div>
                    <section class="panel" aria-labelledby="leave-cases-title">
                        <h2 id="leave-cases-title">{move || tr(lang.get(), keys::LEAVE_UI_CASES)}</h2>
                        <p class="muted">{move || tr(lang.get(), keys::LEAVE_UI_CASES_HELP)}</p>
                        <div class="row">{case_buttons}</div>
                    </section>
                    <section class="panel" aria-labelledby="leave-inputs-title">
                        <h2 id="leave-inputs-title">{move || tr(lang.get(), keys::LEAVE_UI_INPUTS)}</h2>
                        <div class="field-grid">
                            {fields}
                        </div>
                        <Show when=move || errors.with(|e| !e.is_empty())>
                            <p class="note bad" id="leave-stale" role="status">
                                {move || tr(lang.get(), keys::LEAVE_UI_STALE)}
                            </p>
                        </Show>
                        <p class="muted">{move || tr(lang.get(), keys::LEAVE_UI_SHARE)}</p>
                    </section>
                </div>
                <div>
                    {move || verdict.get().map(|v| top_results(lang.get(), &v))}
                </div>
            </div>
            <ChallengeList challenges busy=Signal::stored(false)/>
            {move || verdict.get().map(|v| more_results(lang.get(), &v))}
            <libraries::Libraries/>
        </section>
    }
}

fn field_view(ctx: Ctx, inputs: Inputs, field: Field) -> AnyView {
    let lang = ctx.lang;
    let id = format!("leave-{}", field.id());
    let help_id = format!("{id}-help");
    let error_id = format!("{id}-error");
    let described = format!("{help_id} {error_id}");
    let label = move || tr(lang.get(), field.label_key());
    let help = move || tr(lang.get(), field.help_key());
    let error_text = move || {
        let l = lang.get();
        inputs
            .errors
            .with(|es| error_for(es, field).map(|e| render(l, &e.msg())))
    };
    let invalid = move || {
        inputs
            .errors
            .with(|es| error_for(es, field).is_some())
            .to_string()
    };
    let help_and_error = view! {
        <p id=help_id class="muted field-help">{help}</p>
        <p id=error_id class="field-error" aria-live="polite">{error_text}</p>
    };

    let Some(bounds) = field.bounds() else {
        return view! {
            <div class="leave-field" data-field=field.id()>
                <label class="label-top">
                    <input
                        type="checkbox"
                        id=id
                        aria-describedby=described
                        prop:checked=move || inputs.shown(field) == "1"
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            inputs.draft.update(|d| d.set(field, if on { "1" } else { "0" }.to_owned()));
                        }
                    />
                    <strong>{label}</strong>
                </label>
                {help_and_error}
            </div>
        }
        .into_any();
    };

    let unit = move || {
        field
            .unit_key()
            .map(|u| tr(lang.get(), u))
            .unwrap_or_default()
    };
    let load_extra = (field == Field::DbLoadPercent).then(|| load_presets(ctx, inputs));
    view! {
        <div class="leave-field" data-field=field.id()>
            <label for=id.clone()>
                <strong>{label}</strong>
            </label>
            <div class="row tight">
                <input
                    type="number"
                    id=id
                    inputmode="decimal"
                    min=bounds.min.to_string()
                    max=bounds.max.to_string()
                    step=if bounds.whole { "1" } else { "any" }
                    class="number-input"
                    aria-describedby=described
                    aria-invalid=invalid
                    prop:value=move || inputs.shown(field)
                    on:input=move |ev| inputs.draft.update(|d| d.set(field, event_target_value(&ev)))
                />
                <span>{unit}</span>
            </div>
            {load_extra}
            {help_and_error}
        </div>
    }
    .into_any()
}

/// The load's band (low / medium / high) beside it, and three buttons that set a typical
/// percent of each band.
fn load_presets(ctx: Ctx, inputs: Inputs) -> impl IntoView {
    let lang = ctx.lang;
    let band = move || {
        inputs
            .draft
            .with(|d| d.get(Field::DbLoadPercent).trim().parse::<f64>().ok())
            .filter(|p| (0.0..=100.0).contains(p))
            .map(LoadBand::from_percent)
    };
    let hint = move || {
        band().map(|b| {
            let l = lang.get();
            let msg = Msg::new(keys::LEAVE_UI_LOAD_BAND).arg("band", tr(l, b.key()));
            render(l, &msg)
        })
    };
    let buttons = [LoadBand::Low, LoadBand::Medium, LoadBand::High]
        .into_iter()
        .map(|b| {
            let text = move || {
                format!(
                    "{} ({}%)",
                    tr(lang.get(), b.key()),
                    num(b.typical_percent())
                )
            };
            view! {
                <button
                    type="button"
                    class="small"
                    aria-pressed=move || (band() == Some(b)).to_string()
                    on:click=move |_| inputs.fill_one(Field::DbLoadPercent, format!("{}", b.typical_percent()))
                >
                    {text}
                </button>
            }
        })
        .collect_view();
    view! {
        <p id="leave-load-band" class="muted flush" aria-live="polite">{hint}</p>
        <div class="row" role="group" aria-label=move || tr(lang.get(), keys::LEAVE_UI_LOAD_PRESETS)>
            {buttons}
        </div>
    }
}

fn status_class(met: bool) -> &'static str {
    if met {
        "status dead"
    } else {
        "status done"
    }
}

/// The recommendation and the six signals, beside the inputs.
fn top_results(lang: Lang, v: &Verdict) -> impl IntoView {
    let rec = v.recommendation;
    let rec_class = if rec == Recommendation::StayOnOnePostgres {
        "note good"
    } else {
        "note bad"
    };
    let driven = (!v.driven_by.is_empty()).then(|| {
        let names = v
            .driven_by
            .iter()
            .map(|k| tr(lang, k.title_key()))
            .collect::<Vec<_>>()
            .join(" · ");
        view! { <p><span class="muted">{tr(lang, keys::LEAVE_UI_DRIVEN_BY)}</span>" "{names}</p> }
    });
    let signals = v
        .signals
        .iter()
        .map(|s| {
            view! {
                <li id=format!("signal-{}", s.kind.id()) data-met=s.met.to_string()>
                    <span class=status_class(s.met)>{tr(lang, s.status_key())}</span>
                    " "
                    <strong>{tr(lang, s.kind.title_key())}</strong>
                    <p class="reason">{rich(&render(lang, &s.reason))}</p>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="panel" id="leave-recommendation" data-rec=rec.id() aria-labelledby="leave-rec-title">
            <h2 id="leave-rec-title">{tr(lang, keys::LEAVE_UI_REC)}</h2>
            <p class=rec_class id="leave-rec-name">
                <strong>{tr(lang, rec.key())}</strong>
            </p>
            <p>{tr(lang, rec.why_key())}</p>
            {driven}
        </section>
        <section class="panel" aria-labelledby="leave-signals-title">
            <h2 id="leave-signals-title">{tr(lang, keys::LEAVE_UI_SIGNALS)}</h2>
            <ul id="leave-signals" class="plain-list">{signals}</ul>
        </section>
    }
}

fn num(x: f64) -> String {
    queue_lab_core::format::number(x)
}

/// A row of dead tuples made per second (on average, or at the peak): no ceiling, no pass.
fn made_row(lang: Lang, key: Key, id: &'static str, per_s: f64) -> impl IntoView {
    view! {
        <tr id=id>
            <th scope="row" class="wrap">{tr(lang, key)}</th>
            <td class:mono=true>{num(per_s)}</td>
            <td>"–"</td>
            <td>"–"</td>
        </tr>
    }
}

fn estimate_row(
    lang: Lang,
    key: Key,
    id: &'static str,
    e: &VacuumEstimate,
    pinned: bool,
) -> impl IntoView {
    let clears = if pinned {
        tr(lang, keys::LEAVE_UI_DEAD_PINNED)
    } else {
        num(e.clears_per_s)
    };
    view! {
        <tr id=id>
            <th scope="row" class="wrap">{tr(lang, key)}</th>
            <td class:mono=true>{clears}</td>
            <td class:mono=true>{num(e.clear_ceiling_per_s)}</td>
            <td class:mono=true>{num(e.dead_before_pass)}</td>
        </tr>
    }
}

/// Dead rows, fixes, notes, the interface, the links and the article's figures.
fn more_results(lang: Lang, v: &Verdict) -> impl IntoView {
    let dead = &v.dead_tuples;
    let summary = dead
        .summary()
        .iter()
        .map(|m| view! { <li>{rich(&render(lang, m))}</li> })
        .collect_view();
    let fixes = if v.fixes.is_empty() {
        view! { <p class="note good" id="leave-fixes-none">{tr(lang, keys::LEAVE_UI_FIXES_NONE)}</p> }
            .into_any()
    } else {
        v.fixes
            .iter()
            .map(|f| view! { <li data-fix=f.key().as_str()>{rich(&tr(lang, f.key()))}</li> })
            .collect_view()
            .into_any()
    };
    let fixes = if v.fixes.is_empty() {
        fixes
    } else {
        view! { <ol id="leave-fixes">{fixes}</ol> }.into_any()
    };
    let notes = v
        .notes
        .iter()
        .map(|m| view! { <li>{rich(&render(lang, m))}</li> })
        .collect_view();
    let interface = v
        .interface
        .iter()
        .map(|op| view! { <li data-op=op.op>{rich(&tr(lang, op.key))}</li> })
        .collect_view();
    let links = v
        .lab_links
        .iter()
        .map(|l| {
            let title_key = crate::labs::find(l.lab).map_or(super::LAB.title, |l| l.title);
            let query = l.query();
            view! {
                <li>
                    <a id=format!("link-{}", l.lab) href=format!("#/{}?{}", l.lab, query)>
                        {tr(lang, title_key)}
                    </a>
                    " "
                    <span class="muted">{tr(lang, keys::LEAVE_UI_LINK_WITH)}</span>
                    " "
                    <code>{query}</code>
                    <br/>
                    {tr(lang, l.reason_key)}
                </li>
            }
        })
        .collect_view();
    let refs = v
        .references
        .iter()
        .map(|r| {
            let per_s = if r.low_per_s == r.high_per_s {
                num(r.low_per_s)
            } else {
                format!("{}–{}", num(r.low_per_s), num(r.high_per_s))
            };
            let pg = format!(
                "{}: {}",
                tr(lang, keys::LEAVE_UI_REFS_COL_POSTGRES),
                tr(
                    lang,
                    if r.on_postgres {
                        keys::LEAVE_UI_YES
                    } else {
                        keys::LEAVE_UI_NO
                    }
                )
            );
            view! {
                <tr data-ref=r.id data-postgres=r.on_postgres.to_string()>
                    <td>
                        <span class="mono">{per_s}</span>
                        <br/>
                        <small class="muted">{pg}</small>
                    </td>
                    <td class="wrap">{render(lang, &r.msg())}</td>
                </tr>
            }
        })
        .collect_view();
    let dead_rows = view! {
        {made_row(lang, keys::LEAVE_UI_DEAD_ROW_MADE, "dead-made", dead.per_s)}
        {made_row(lang, keys::LEAVE_UI_DEAD_ROW_MADE_PEAK, "dead-made-peak", dead.per_s_at_peak)}
        {estimate_row(lang, keys::LEAVE_UI_DEAD_ROW_DEFAULT, "dead-default", &dead.default, dead.horizon_pinned)}
        {estimate_row(lang, keys::LEAVE_UI_DEAD_ROW_TUNED, "dead-tuned", &dead.tuned, dead.horizon_pinned)}
    };
    view! {
        <section class="panel" aria-labelledby="leave-dead-title">
            <h2 id="leave-dead-title">{tr(lang, keys::LEAVE_UI_DEAD)}</h2>
            <ScrollTable id="leave-dead-table" head=move || view! {
                <th scope="col" class="wrap">{tr(lang, keys::LEAVE_UI_DEAD_COL_WHAT)}</th>
                <th scope="col">{tr(lang, keys::LEAVE_UI_DEAD_COL_PER_S)}</th>
                <th scope="col" class="wrap">{tr(lang, keys::LEAVE_UI_DEAD_COL_CEILING)}</th>
                <th scope="col" class="wrap">{tr(lang, keys::LEAVE_UI_DEAD_COL_BEFORE_PASS)}</th>
            }>
                {dead_rows}
            </ScrollTable>
            <ul id="leave-dead-summary">{summary}</ul>
        </section>
        <div class="lab-grid">
            <div>
                <section class="panel" aria-labelledby="leave-fixes-title">
                    <h2 id="leave-fixes-title">{tr(lang, keys::LEAVE_UI_FIXES)}</h2>
                    {fixes}
                </section>
                <section class="panel" aria-labelledby="leave-notes-title">
                    <h2 id="leave-notes-title">{tr(lang, keys::LEAVE_UI_NOTES)}</h2>
                    <ul id="leave-notes">{notes}</ul>
                </section>
            </div>
            <div>
                <section class="panel" aria-labelledby="leave-links-title">
                    <h2 id="leave-links-title">{tr(lang, keys::LEAVE_UI_LINKS)}</h2>
                    <ul id="leave-links" class="plain-list">{links}</ul>
                </section>
                <section class="panel" aria-labelledby="leave-interface-title">
                    <h2 id="leave-interface-title">{tr(lang, keys::LEAVE_UI_INTERFACE)}</h2>
                    <p>{tr(lang, advisor::INTERFACE_INTRO_KEY)}</p>
                    <ul id="leave-interface">{interface}</ul>
                </section>
            </div>
        </div>
        <section class="panel" aria-labelledby="leave-refs-title">
            <h2 id="leave-refs-title">{tr(lang, keys::LEAVE_UI_REFS)}</h2>
            <ScrollTable id="leave-refs" head=move || view! {
                <th scope="col">{tr(lang, keys::LEAVE_UI_REFS_COL_PER_S)}</th>
                <th scope="col">{tr(lang, keys::LEAVE_UI_REFS_COL_SOURCE)}</th>
            }>
                {refs}
            </ScrollTable>
        </section>
    }
}
