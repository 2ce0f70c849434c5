//! The SQL console's runs: the console's input, as psql with `ON_ERROR_STOP=1` runs it, in
//! the current lab's search path and clock, as one piece of the runner's work.

use super::{Runner, Scope, Work, CLOCK_CHECK_SQL, CONSOLE_ROW_LIMIT};
use crate::db::{DbError, Param, TxState};
use crate::descriptor::LabId;
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;
use serde::Deserialize;

/// What the console's input did: each step that ran, in order, and how many were left
/// unrun after a failure.
pub struct ConsoleRun {
    pub steps: Vec<ConsoleStep>,
    pub not_run: usize,
    /// The transaction the run left the session in.
    pub tx: TxState,
}

impl ConsoleRun {
    /// The last statement's result: its rows, or the error that stopped the run.
    pub fn result(&self) -> Result<&crate::db::Rows<Vec<serde_json::Value>>, DbError> {
        match self.steps.last().map(|s| &s.outcome) {
            Some(StepOutcome::Reply(r) | StepOutcome::Stored(r, _)) => {
                r.result.as_ref().map_err(Clone::clone)
            }
            _ => Err(DbError::other("the console ran no statement")),
        }
    }
}

/// One statement or backslash command of the console's input.
#[derive(Clone)]
pub struct ConsoleStep {
    /// Its place in the input (1-based): "statement 3 failed".
    pub number: usize,
    /// As sent: a statement with its variables as `$1`…, or the backslash command.
    pub text: String,
    /// The variables' values bound to `$1`…, in order.
    pub params: Vec<String>,
    pub outcome: StepOutcome,
}

/// What one step gave.
#[derive(Clone)]
pub enum StepOutcome {
    /// What PostgreSQL answered (rows, a tag, describe text or an error), with its notices.
    Reply(crate::db::ConsoleReply),
    /// A statement ended by `\gset`: its reply, and the variables it set.
    Stored(crate::db::ConsoleReply, Vec<String>),
    /// `\echo`'s line (or `\set`'s list).
    Echo(String),
    /// A command that did its work and shows nothing (`\set name value`).
    Done,
    /// What to do instead of a command the lab does not run: not a failure.
    Note(Msg),
    /// A command refused before it ran: a failure, the rest does not run.
    Refused(Msg),
}

impl ConsoleStep {
    /// Whether this step stops the run (psql's `ON_ERROR_STOP=1`).
    pub fn failed(&self) -> bool {
        match &self.outcome {
            StepOutcome::Reply(r) | StepOutcome::Stored(r, _) => r.result.is_err(),
            StepOutcome::Refused(_) => true,
            _ => false,
        }
    }
}

/// What to do in the lab instead of a psql command it does not run (`command`: as typed).
fn unsupported_hint(what: crate::psql::Unsupported, command: &str) -> Msg {
    use crate::psql::Unsupported as U;
    let key = match what {
        U::Include => crate::keys::CONSOLE_META_INCLUDE,
        U::Format => crate::keys::CONSOLE_META_FORMAT,
        U::Timing => crate::keys::CONSOLE_META_TIMING,
        U::Quit => crate::keys::CONSOLE_META_QUIT,
        U::Connect => crate::keys::CONSOLE_META_CONNECT,
        U::Files => crate::keys::CONSOLE_META_FILES,
        U::Watch => crate::keys::CONSOLE_META_WATCH,
        U::Other => crate::keys::CONSOLE_META_OTHER,
    };
    Msg::new(key).arg("cmd", command)
}

/// The transaction the last statement that reached PostgreSQL left the session in, if one did.
fn left_in(steps: &[ConsoleStep]) -> Option<TxState> {
    steps.iter().rev().find_map(|s| match &s.outcome {
        StepOutcome::Reply(r) | StepOutcome::Stored(r, _) => Some(r.tx),
        _ => None,
    })
}

/// Whether the lab clock (`lab.now()`) is gone: the console dropped it. Outside a transaction
/// only (inside a failed one nothing can be read).
async fn clock_missing(w: &Work) -> bool {
    #[derive(Deserialize)]
    struct Found {
        clock: bool,
    }
    let found = w.db().quiet::<Found>(CLOCK_CHECK_SQL, &[]).await;
    found.ok().and_then(|r| r.first()).is_some_and(|c| !c.clock)
}

impl Runner {
    /// Runs the console's input in the current lab's search path and clock, as psql with
    /// `ON_ERROR_STOP=1` runs it: statement by statement (src/psql.rs splits it), each with
    /// its own result, backslash commands in their place, stopping at the first failure. Then
    /// reads the session: the transaction it left, and whether the lab clock is still there.
    pub async fn console(&self, lab: Option<LabId>, input: &str) -> ConsoleRun {
        let items = crate::psql::parse(input);
        let planned = items.len();
        let this = self.clone();
        // The transaction the input left, and (when it left none) whether the lab clock is
        // still there: both read inside the console's own piece, so that lab work held by an
        // open transaction cannot start between a COMMIT or ROLLBACK and the check, and the
        // page does not go on saying "a transaction is open" while that work runs.
        let run = self
            .run_named(
                Scope::Console(lab),
                None,
                Some(input.to_owned()),
                async move |w: &Work| {
                    let steps = this.console_steps(w, items).await;
                    let tx = left_in(&steps).unwrap_or_else(|| this.inner.tx.get());
                    let clock_missing = if tx == TxState::Idle {
                        Some(clock_missing(w).await)
                    } else {
                        None
                    };
                    Ok((steps, tx, clock_missing))
                },
            )
            .await;
        let (steps, tx, clock_missing) = match run {
            Ok(done) => done,
            Err(e) => {
                let tx = self.inner.tx.get();
                let step = ConsoleStep {
                    number: 1,
                    text: input.trim().to_owned(),
                    params: Vec::new(),
                    outcome: StepOutcome::Reply(crate::db::ConsoleReply::failed(e, tx)),
                };
                (vec![step], tx, None)
            }
        };
        self.inner.tx.set(tx);
        let clock_missing =
            clock_missing.unwrap_or_else(|| self.inner.status.with_untracked(|s| s.clock_missing));
        self.inner.status.update(|s| {
            s.tx = tx;
            s.clock_missing = clock_missing;
        });
        self.wake();
        let failed = steps.iter().any(|s| s.failed());
        let not_run = if failed {
            planned.saturating_sub(steps.len())
        } else {
            0
        };
        ConsoleRun { steps, not_run, tx }
    }

    /// The console's items, one after the other, each step's outcome in order; stops after
    /// the first that fails (psql's `ON_ERROR_STOP=1`).
    async fn console_steps(&self, w: &Work, items: Vec<crate::psql::Item>) -> Vec<ConsoleStep> {
        use crate::psql::{self, Item, Meta};
        let mut steps: Vec<ConsoleStep> = Vec::new();
        for (i, item) in items.into_iter().enumerate() {
            let number = i + 1;
            let step = match item {
                Item::Sql { sql, gset } => self.console_sql(w, number, sql, gset).await,
                Item::Meta { name, args } => {
                    let text = if args.is_empty() {
                        format!("\\{name}")
                    } else {
                        format!("\\{name} {args}")
                    };
                    let outcome = match psql::meta(&name, &args) {
                        Meta::Describe(cmd) => {
                            StepOutcome::Reply(w.db().console(&cmd, &[], CONSOLE_ROW_LIMIT).await)
                        }
                        Meta::Echo(words) => {
                            StepOutcome::Echo(psql::echo(&words, &self.inner.vars.borrow()))
                        }
                        Meta::Set(None) => StepOutcome::Echo(
                            self.inner
                                .vars
                                .borrow()
                                .iter()
                                .map(|(k, v)| format!("{k} = '{v}'"))
                                .collect::<Vec<_>>()
                                .join("\n"),
                        ),
                        Meta::Set(Some((name, value))) => {
                            if psql::valid_name(&name) {
                                self.inner.vars.borrow_mut().insert(name, value);
                                StepOutcome::Done
                            } else {
                                StepOutcome::Refused(
                                    Msg::new(crate::keys::CONSOLE_VAR_BAD_NAME).arg("name", name),
                                )
                            }
                        }
                        Meta::Unset(name) => {
                            self.inner.vars.borrow_mut().remove(&name);
                            StepOutcome::Done
                        }
                        Meta::Unsupported(what) => StepOutcome::Note(unsupported_hint(what, &text)),
                    };
                    ConsoleStep {
                        number,
                        text,
                        params: Vec::new(),
                        outcome,
                    }
                }
            };
            let stop = step.failed();
            steps.push(step);
            if stop {
                break;
            }
        }
        steps
    }

    /// One statement of the console: its variables bound, run, and `\gset` applied.
    async fn console_sql(
        &self,
        w: &Work,
        number: usize,
        sql: String,
        gset: Option<String>,
    ) -> ConsoleStep {
        use crate::psql;
        if psql::calls_pg_cron(&sql) {
            return ConsoleStep {
                number,
                text: sql,
                params: Vec::new(),
                outcome: StepOutcome::Note(Msg::new(crate::keys::CONSOLE_HINT_PG_CRON)),
            };
        }
        let bound = psql::bind(&sql, &self.inner.vars.borrow());
        let (text, values) = match bound {
            Ok(b) => b,
            Err(psql::BindError::Identifier(name)) => {
                return ConsoleStep {
                    number,
                    text: sql,
                    params: Vec::new(),
                    outcome: StepOutcome::Refused(
                        Msg::new(crate::keys::CONSOLE_VAR_IDENTIFIER).arg("name", name),
                    ),
                };
            }
        };
        let params: Vec<Param> = values.iter().map(|v| Param::from(v.as_str())).collect();
        let mut reply = w.db().console(&text, &params, CONSOLE_ROW_LIMIT).await;
        let mut stored = None;
        if let (Some(prefix), Ok(rows)) = (&gset, &reply.result) {
            let cells: Vec<Vec<Option<String>>> = rows
                .rows
                .iter()
                .map(|r| r.iter().map(psql::cell).collect())
                .collect();
            // Rows past the cut still count: more than one is more than one.
            let cells = if reply.total > cells.len() {
                vec![Vec::new(); reply.total]
            } else {
                cells
            };
            let outcome = psql::gset(
                &mut self.inner.vars.borrow_mut(),
                prefix,
                &rows.fields,
                &cells,
            );
            match outcome {
                Ok(()) => {
                    stored = Some(
                        rows.fields
                            .iter()
                            .map(|f| format!("{prefix}{f}"))
                            .collect::<Vec<_>>(),
                    )
                }
                Err(e) => reply.result = Err(DbError::other(&e.to_string())),
            }
        }
        ConsoleStep {
            number,
            text,
            params: values,
            outcome: match stored {
                Some(names) => StepOutcome::Stored(reply, names),
                None => StepOutcome::Reply(reply),
            },
        }
    }
}
