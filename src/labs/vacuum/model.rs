//! L3 Bloat and VACUUM, the model: the lab's state and the actions that change it, no UI.
//!
//! [`Lab`] is the state (the results so far, the table being inspected, the last VACUUM,
//! the plans, the VACUUM FULL demonstration, the actions done); [`Action`] is everything a
//! learner can do; [`Snapshot`] is everything the view shows, read from the tables. The
//! work on the database is in `model/run.rs`, the row types and what is derived from them in
//! `rows.rs`, the statements in `sql.rs`; all are re-exported here.

mod keep;
pub use keep::KEEPER;
mod run;

pub use super::rows::*;
pub use super::sql;
use crate::keys;
mod limits;
use crate::db::{Db, DbError};
use crate::labs::common::now_ms;
pub use crate::labs::harness::Outcome;
use crate::labs::harness::{LabModel, Live, Tone};
use crate::ui::format::{group, seconds};
use crate::ui::input::whole_or_refused;
pub use limits::{RUN_CLAIMS_MAX, RUN_JOBS_MAX};
use queue_lab_core::i18n::Msg;
pub use run::*;
use std::cell::{Cell, RefCell};

/// Bounds of what a learner may type. The defaults are the article's.
pub const JOBS_MIN: u32 = 100;
pub const JOBS_MAX: u32 = 50_000;
pub const JOBS_DEFAULT: u32 = 20_000;
pub const ROUNDS_MIN: u32 = 1;
pub const ROUNDS_MAX: u32 = 5;
pub const ROUNDS_DEFAULT: u32 = 3;
pub const BATCH_MIN: u32 = 1;
pub const BATCH_MAX: u32 = 5_000;
/// Measured: batches of 2,000 run a round faster than 500 (fewer full scans by the
/// article's claim), with the same row versions.
pub const BATCH_DEFAULT: u32 = 2_000;
/// The page map draws at most this many cells; a bigger table is drawn a few pages a cell.
pub const PAGE_MAP_MAX_CELLS: usize = 1_500;

/// What the learner asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    pub jobs: u32,
    pub rounds: u32,
    pub batch: u32,
    pub strategies: Vec<Strategy>,
}

fn parse_bounded(text: &str, refused: Msg, min: u32, max: u32) -> Result<u32, Msg> {
    whole_or_refused(text, min.into(), max.into(), refused, "text").map(|n| n as u32)
}

/// Reads the jobs per round alone (the claim-plan viewer uses it too).
pub fn parse_jobs(jobs: &str) -> Result<u32, Msg> {
    parse_bounded(
        jobs,
        Msg::new(keys::VACUUM_INPUT_JOBS_REFUSED),
        JOBS_MIN,
        JOBS_MAX,
    )
}

/// Reads the claim batch alone (the note under the form shows it).
pub fn parse_batch(batch: &str) -> Result<u32, Msg> {
    parse_bounded(
        batch,
        Msg::new(keys::VACUUM_INPUT_BATCH_REFUSED),
        BATCH_MIN,
        BATCH_MAX,
    )
}

/// Reads the three inputs; out-of-range or non-numbers are refused with the bounds, and a
/// run too big for the tab with the reason (see [`RUN_JOBS_MAX`], [`RUN_CLAIMS_MAX`]).
pub fn parse_config(
    jobs: &str,
    rounds: &str,
    batch: &str,
    strategies: Vec<Strategy>,
) -> Result<RunConfig, Msg> {
    Ok(RunConfig {
        jobs: parse_bounded(
            jobs,
            Msg::new(keys::VACUUM_INPUT_JOBS_REFUSED),
            JOBS_MIN,
            JOBS_MAX,
        )?,
        rounds: parse_bounded(
            rounds,
            Msg::new(keys::VACUUM_INPUT_ROUNDS_REFUSED),
            ROUNDS_MIN,
            ROUNDS_MAX,
        )?,
        batch: parse_batch(batch)?,
        strategies,
    })
    .and_then(limits::within_the_tab)
}

/// Per-table settings typed by the learner; an empty field means "the server's value".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutovacuumInput {
    pub threshold: Option<i32>,
    pub scale_factor: Option<f64>,
    pub max_threshold: Option<i32>,
}

pub fn parse_autovacuum(threshold: &str, scale: &str, max: &str) -> Result<AutovacuumInput, Msg> {
    fn int(text: &str, what: &'static str, min: i64, max: i64) -> Result<Option<i32>, Msg> {
        if text.trim().is_empty() {
            return Ok(None);
        }
        let refused = Msg::new(keys::VACUUM_INPUT_OUT_OF_RANGE).arg("what", what);
        whole_or_refused(text, min, max, refused, "text").map(|n| Some(n as i32))
    }
    let scale = scale.trim();
    let scale_factor = if scale.is_empty() {
        None
    } else {
        match scale.parse::<f64>() {
            Ok(f) if (0.0..=100.0).contains(&f) => Some(f),
            _ => {
                return Err(Msg::new(keys::VACUUM_INPUT_OUT_OF_RANGE)
                    .arg("what", "autovacuum_vacuum_scale_factor")
                    .arg("min", 0)
                    .arg("max", 100)
                    .arg("text", scale))
            }
        }
    };
    Ok(AutovacuumInput {
        threshold: int(threshold, "autovacuum_vacuum_threshold", 0, 2_147_483_647)?,
        scale_factor,
        max_threshold: int(max, "autovacuum_vacuum_max_threshold", -1, 2_147_483_647)?,
    })
}
/// Everything a learner can do in this lab.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The workload, continuing the tables' rounds.
    Run(RunConfig),
    /// VACUUM on each table, each measured again.
    Vacuum,
    /// The long transaction on (true) or off.
    LongTx(bool),
    /// The table the page map and the autovacuum figures show.
    Select(Strategy),
    /// Per-table autovacuum settings.
    Autovacuum(Strategy, AutovacuumInput),
    /// The claim-plan viewer on a table of that many ready jobs.
    Plans(u32),
    /// The lock VACUUM FULL takes, on a fresh scratch table.
    FullLock,
    /// VACUUM FULL of the scratch table.
    FullRun,
}

/// What the VACUUM button did to one table.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Removed {
    pub strategy: Strategy,
    pub removed: i64,
    pub dead_before: i64,
}

/// Where a running workload is, with what the view needs to say it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Running {
    pub at: Progress,
    pub last_round: u32,
    pub jobs: u32,
}

/// What the lab's actions left, as the view shows it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct State {
    /// Whether pageinspect and pg_visibility loaded (without them only the page map is lost).
    pub page_map: bool,
    pub selected: Strategy,
    pub records: Vec<Record>,
    /// The last VACUUM button's figures, until the next run.
    pub removed: Vec<Removed>,
    pub plans: Option<PlanComparison>,
    pub locks: Option<Vec<LockRow>>,
    pub rewrite: Option<(RelationFile, RelationFile)>,
    /// The ALTER TABLE the autovacuum settings ran last.
    pub autovacuum_ran: Option<String>,
    /// The last run was cancelled half-way (its Stop, or the learner left the lab): the
    /// tables hold part of a round, some strategies one round further than others. The next
    /// run starts over from fresh tables rather than continue them unevenly.
    pub interrupted: bool,
}

/// The lab: its state, and the actions done since the set-up (the share link); a cancelled
/// run is left out.
#[derive(Clone, Debug, PartialEq)]
pub struct Lab {
    pub state: State,
    pub history: Vec<Action>,
}

/// Everything the view shows: the lab's state, and what the tables say now.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    pub state: State,
    /// Set while a run goes on.
    pub running: Option<Running>,
    /// The selected table's pages (read during its rounds too, see `MAP_EVERY_MS`).
    pub pages: Option<(Strategy, Vec<PageCell>)>,
    pub autovac: Option<(Strategy, AutovacuumSettings)>,
    pub long_tx: Option<LongTx>,
}

/// What one action said: a run's end; the other actions are quiet (`None`) and show their
/// effect in their panel.
pub type Said = Option<Outcome>;

impl Lab {
    /// A fresh lab: the long transaction released, the tables dropped and created again.
    pub async fn setup(db: &Db) -> Result<Lab, DbError> {
        long_tx_release(db).await?;
        let page_map = reset(db).await?;
        Ok(Lab {
            state: State {
                page_map,
                ..State::default()
            },
            history: Vec::new(),
        })
    }

    /// The round the next run starts at: a second run continues the tables (after a
    /// cancelled one it starts over, see [`State::interrupted`]).
    pub fn next_round(&self) -> u32 {
        self.state
            .records
            .iter()
            .map(|r| r.round)
            .max()
            .unwrap_or(0)
            + 1
    }

    /// The workload. A cancelled run keeps the records measured so far and says so (with
    /// a warning tone); it is not added to the history.
    async fn run(
        &mut self,
        db: &Db,
        cfg: &RunConfig,
        cancel: &Cell<bool>,
        live: Live<'_, Snapshot>,
    ) -> Result<Said, DbError> {
        let fresh = self.state.interrupted;
        if fresh {
            // As Start over does: fresh tables, and a history that begins here, so a share
            // link replays what the tables hold. The table the page map shows stays.
            let selected = self.state.selected;
            *self = Lab::setup(db).await?;
            self.state.selected = selected;
        }
        self.state.removed.clear();
        let first_round = self.next_round();
        let last_round = first_round + cfg.rounds - 1;
        let jobs = cfg.jobs;
        let started = now_ms();
        let records = RefCell::new(std::mem::take(&mut self.state.records));
        let before = records.borrow().clone();
        live(&|s| {
            s.state.records.clone_from(&before);
            s.state.removed.clear();
        });
        let progress = |at: Progress| {
            live(&|s| {
                s.running = Some(Running {
                    at,
                    last_round,
                    jobs,
                })
            })
        };
        let record = |r: Record| {
            live(&|s| s.state.records.push(r.clone()));
            records.borrow_mut().push(r);
        };
        let selected = self.state.selected;
        let read = |pages: Vec<PageCell>| live(&|s| s.pages = Some((selected, pages.clone())));
        let hooks = Hooks {
            cancel,
            progress: &progress,
            record: &record,
            map: self.state.page_map.then_some(MapWatch {
                strategy: selected,
                every_ms: MAP_EVERY_MS,
                budget: Some(MAP_BUDGET),
                started,
                watched: &map_watched,
                read: &read,
                spent: Cell::default(),
            }),
        };
        let end = run(db, cfg, first_round, &hooks).await;
        self.state.records = records.into_inner();
        live(&|s| s.running = None);
        let end = end?;
        self.state.interrupted = end == RunEnd::Cancelled;
        Ok(match end {
            RunEnd::Cancelled => Some(Outcome::new(Msg::new(keys::VACUUM_CANCELLED), Tone::Warn)),
            RunEnd::Finished => Some(Outcome::new(
                Msg::new(if fresh {
                    keys::VACUUM_RUN_DONE_FRESH
                } else {
                    keys::VACUUM_RUN_DONE
                })
                .arg("rounds", cfg.rounds)
                .arg("jobs", group(i64::from(cfg.jobs)))
                .arg("seconds", seconds(now_ms() - started)),
                Tone::Good,
            )),
        })
    }
}

impl LabModel for Lab {
    crate::labs::harness::lab_model_common!(outcome: Said);

    async fn act(&mut self, db: &Db, action: Action) -> Result<Said, DbError> {
        self.act_live(db, action, &Cell::new(false), &|_| {}).await
    }
    /// Runs `action`; `cancel` stops a run between two batches, `live` shows its progress,
    /// its records as they are measured and the selected table's page map during its rounds.
    async fn act_live(
        &mut self,
        db: &Db,
        action: Action,
        cancel: &Cell<bool>,
        live: Live<'_, Snapshot>,
    ) -> Result<Said, DbError> {
        let outcome = match &action {
            Action::Run(cfg) => {
                let out = self.run(db, cfg, cancel, live).await?;
                if out.as_ref().is_some_and(|o| o.tone == Tone::Warn) {
                    // Cancelled: a link could not replay the part that ran.
                    return Ok(out);
                }
                out
            }
            Action::Vacuum => {
                self.state.removed.clear();
                for s in Strategy::ALL {
                    let v = vacuum_and_measure(db, s).await?;
                    let round = self
                        .state
                        .records
                        .iter()
                        .filter(|r| r.strategy == s)
                        .map(|r| r.round)
                        .max();
                    if let Some(round) = round {
                        self.state.records.push(Record {
                            strategy: s,
                            round,
                            step: Step::AfterVacuum,
                            measure: v.after.clone(),
                            jobs: 0,
                            round_ms: None,
                            auto: false,
                        });
                    }
                    self.state.removed.push(Removed {
                        strategy: s,
                        removed: v.removed(),
                        dead_before: v.dead_before,
                    });
                }
                None
            }
            Action::LongTx(on) => {
                if *on {
                    long_tx_begin(db).await?;
                } else {
                    long_tx_release(db).await?;
                }
                None
            }
            Action::Select(s) => {
                self.state.selected = *s;
                None
            }
            Action::Autovacuum(s, input) => {
                self.state.autovacuum_ran = Some(set_autovacuum(db, *s, *input).await?);
                None
            }
            Action::Plans(jobs) => {
                self.state.plans = Some(compare_plans(db, *jobs).await?);
                None
            }
            Action::FullLock => {
                self.state.rewrite = None;
                self.state.locks = Some(vacuum_full_lock(db).await?);
                None
            }
            Action::FullRun => {
                self.state.rewrite = Some(vacuum_full(db).await?);
                None
            }
        };
        self.history.push(action);
        Ok(outcome)
    }
    /// The long transaction, the selected table's autovacuum figures and page map.
    async fn snapshot(&self, db: &Db) -> Result<Snapshot, DbError> {
        let s = self.state.selected;
        Ok(Snapshot {
            long_tx: long_tx_status(db).await?,
            autovac: if s.partitioned() {
                None
            } else {
                Some((s, autovacuum_settings(db, s).await?))
            },
            pages: if self.state.page_map {
                Some((s, page_map(db, s).await?))
            } else {
                None
            },
            state: self.state.clone(),
            running: None,
        })
    }
}

/// The strategies a run covers: all five, or all but DELETE + VACUUM.
pub fn strategies(with_delete_vacuum: bool) -> Vec<Strategy> {
    Strategy::ALL
        .into_iter()
        .filter(|s| *s != Strategy::DeleteVacuum || with_delete_vacuum)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_out_of_range_are_refused_with_their_bounds() {
        let ok = parse_config("20,000", "3", "1000", vec![Strategy::Keep]).unwrap();
        assert_eq!((ok.jobs, ok.rounds, ok.batch), (20_000, 3, 1000));
        let e = parse_config("50001", "3", "500", vec![]).unwrap_err();
        assert_eq!(e.key, keys::VACUUM_INPUT_JOBS_REFUSED);
        assert!(e.args.contains(&("max", "50,000".into())));
        assert!(parse_config("99", "3", "500", vec![]).is_err());
        assert!(parse_config("ten", "3", "500", vec![]).is_err());
        assert!(parse_config("1000", "0", "500", vec![]).is_err());
        assert!(parse_config("1000", "6", "500", vec![]).is_err());
        assert!(parse_config("1000", "3", "0", vec![]).is_err());
        assert!(parse_config("1000", "3", "5001", vec![]).is_err());
    }

    #[test]
    fn five_strategies_complete_their_way_and_each_schema_is_set_up_and_torn_down() {
        assert_eq!(Strategy::ALL.len(), 5);
        for s in Strategy::ALL {
            assert_eq!(s.partitioned(), s == Strategy::Partition);
        }
        // Its jobs are kept as 'done' until the round's partition is dropped.
        assert_eq!(sql::complete_sql(Strategy::Partition), sql::COMPLETE_DONE);
        assert_eq!(sql::complete_sql(Strategy::Delete), sql::COMPLETE_DELETE);
        // Every schema is one use_strategy.sql accepts, and one teardown.sql drops.
        for s in Strategy::ALL {
            assert!(
                sql::USE_STRATEGY.contains(&format!("'{}'", s.schema())),
                "{s:?}"
            );
            assert!(sql::TEARDOWN.contains(s.schema()), "{s:?}");
        }
    }

    #[test]
    fn autovacuum_inputs_empty_means_server_value_and_bounds_are_checked() {
        let all_empty = parse_autovacuum("", " ", "").unwrap();
        assert_eq!(
            all_empty,
            AutovacuumInput {
                threshold: None,
                scale_factor: None,
                max_threshold: None
            }
        );
        let set = parse_autovacuum("100", "0.01", "-1").unwrap();
        assert_eq!(
            set,
            AutovacuumInput {
                threshold: Some(100),
                scale_factor: Some(0.01),
                max_threshold: Some(-1)
            }
        );
        assert!(parse_autovacuum("-1", "", "").is_err());
        assert!(parse_autovacuum("", "101", "").is_err());
        assert!(parse_autovacuum("", "NaN", "").is_err());
        assert!(parse_autovacuum("", "", "-2").is_err());
        assert!(parse_autovacuum("99999999999", "", "").is_err());
    }
}
