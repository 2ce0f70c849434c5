//! L4 PgQ-style rotation queue: state and actions, no UI.
//!
//! The queue is the PL/pgSQL engine in `src/sql/pgque/` (schema `pgque`, PgQue's API); every
//! statement the lab runs is a file in `src/sql/pgque/lab/`, shown verbatim in the SQL log. This
//! module holds only what the database cannot: the events each consumer last received (what
//! it is "working on"), whether the in-flight demo transaction is prepared, and maint()'s
//! last answer. PgQue's schedule (its four jobs on the lab clock) is in the database
//! (`80_schedule.sql`): a clock move runs what falls due.

use crate::clock;
use crate::db::{Db, DbError};
use crate::keys;
use queue_lab_core::i18n::{Key, Msg};
use std::collections::{BTreeMap, BTreeSet};

pub mod compare;
pub mod consumers;
mod keep;
pub use keep::KEEPER;

pub use consumers::SubKey;

pub use super::rows::*;
use super::sql;
pub use super::sql::*;

/// Everything a learner can do in this lab.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    SendOne,
    Burst(i64),
    /// send inside a transaction that then rolls back.
    SendRollback,
    /// begin; send; PREPARE TRANSACTION, as one script: a transaction left open across ticks.
    Prepare,
    CommitPrepared,
    RollbackPrepared,
    Tick,
    Receive {
        consumer: String,
        max: i64,
    },
    Ack {
        consumer: String,
        batch: i64,
    },
    /// Acks the batch `consumer` holds, whatever its batch id (the tour's and a share
    /// link's "ack": a batch id depends on what ran before).
    AckHeld(String),
    Nack {
        consumer: String,
        batch: i64,
        msg: i64,
        delay: i64,
    },
    Maint,
    RetryEvents,
    Replay(i64),
    /// Moves the lab clock; PgQue's scheduled jobs that fall due on the way run.
    Advance(i64),
    /// `pgque.start()` / `pgque.stop()`: PgQue's four jobs on the lab clock, or none.
    Schedule(bool),
    /// `pgque.subscribe`: a new consumer with its own cursor from the newest tick.
    Subscribe(String),
    /// `pgque.unsubscribe`: the consumer, its cursor and its batch are gone.
    Unsubscribe(String),
    /// `pgque.register_subconsumer`: the consumer becomes a cooperative group.
    AddSub {
        consumer: String,
        sub: String,
    },
    RemoveSub {
        consumer: String,
        sub: String,
    },
    /// `pgque.receive_coop`: the subconsumer's own batch of the group's events.
    ReceiveCoop {
        consumer: String,
        sub: String,
        max: i64,
    },
    /// `pgque.ack` of the batch the subconsumer holds.
    AckCoop {
        consumer: String,
        sub: String,
    },
    /// The subconsumer's process dies: no statement; its batch stays un-acked.
    Kill {
        consumer: String,
        sub: String,
    },
}

pub use crate::labs::harness::Tone;

/// A whole number typed into a field, refused with the allowed range unless min ≤ n ≤ max.
/// Digit grouping is accepted ("20,000", "20_000") and the message groups the bounds.
pub fn parse_in(text: &str, min: i64, max: i64) -> Result<i64, Msg> {
    crate::ui::input::whole_or_refused(text, min, max, Msg::new(keys::PGQ_ERR_RANGE), "n")
}

/// An action's count outside `min..=max` (a share link or a test can hold any number),
/// refused as the field would refuse it.
fn refuse_outside(n: i64, min: i64, max: i64) -> Option<Outcome> {
    (!(min..=max).contains(&n)).then(|| {
        Outcome::new(
            Msg::new(keys::PGQ_ERR_RANGE)
                .arg("min", crate::ui::format::group(min))
                .arg("max", crate::ui::format::group(max))
                .arg("n", crate::ui::format::group(n)),
            Tone::Warn,
        )
    })
}

pub use crate::labs::harness::Outcome;

/// The lab's state beside the database.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lab {
    /// The events each consumer last received and has not acked yet.
    pub batches: BTreeMap<String, Vec<Event>>,
    /// Events nacked in the open batch, per consumer.
    pub nacked: BTreeMap<String, Vec<(i64, String)>>,
    /// The event the prepared in-flight transaction sent, while it is open.
    pub inflight: Option<i64>,
    /// maint()'s last answer.
    pub last_maint: Vec<MaintRow>,
    /// Events sent so far by "send one" (numbers the payloads).
    pub sent: i64,
    pub history: Vec<Action>,
    /// The batch each subconsumer last received and has not acked yet.
    pub parts: BTreeMap<SubKey, Vec<Event>>,
    /// Subconsumers the learner killed (their process stopped).
    pub killed: BTreeSet<SubKey>,
}

impl Lab {
    /// Installs the engine, resets lab time, creates `orders` with its consumers.
    pub async fn setup(db: &Db) -> Result<Lab, DbError> {
        install(db).await?;
        clock::reset(db).await?;
        let queue = sql::CreateQueue {
            queue: QUEUE,
            tables: NTABLES,
        };
        sql::create_queue(db, queue).await?;
        let period = format!("{ROTATION_SECONDS} seconds");
        let config = sql::QueueConfig {
            queue: QUEUE,
            name: "rotation_period",
            value: &period,
        };
        sql::set_queue_config(db, config).await?;
        for consumer in CONSUMERS {
            let s = sql::Subscription {
                queue: QUEUE,
                consumer,
            };
            sql::subscribe(db, s).await?;
        }
        Ok(Lab::default())
    }

    /// Runs one action. On an error the database changed nothing the lab relies on.
    pub async fn run(&mut self, db: &Db, action: Action) -> Result<Outcome, DbError> {
        let out = match action.clone() {
            Action::SendOne => self.send_one(db).await,
            Action::Burst(n) => self.burst(db, n).await,
            Action::SendRollback => self.send_rollback(db).await,
            Action::Prepare => self.prepare(db).await,
            Action::CommitPrepared => self.finish_prepared(db, true).await,
            Action::RollbackPrepared => self.finish_prepared(db, false).await,
            Action::Tick => self.tick(db).await,
            Action::Receive { consumer, max } => self.receive(db, &consumer, max).await,
            Action::Ack { consumer, batch } => self.ack(db, &consumer, batch).await,
            Action::AckHeld(consumer) => match self.batch(&consumer).first() {
                Some(e) => {
                    let batch = e.batch_id;
                    self.ack(db, &consumer, batch).await
                }
                None => Ok(Outcome::new(
                    Msg::new(keys::PGQ_OUT_NOTHING_HELD).arg("consumer", consumer.clone()),
                    Tone::Info,
                )),
            },
            Action::Nack {
                consumer,
                batch,
                msg,
                delay,
            } => self.nack(db, &consumer, batch, msg, delay).await,
            Action::Maint => self.maint(db).await,
            Action::RetryEvents => self.retry_events(db).await,
            Action::Replay(id) => self.replay(db, id).await,
            Action::Advance(s) => self.advance(db, s).await,
            Action::Schedule(on) => {
                sql::schedule(db, on).await?;
                Ok(switched(
                    on,
                    [keys::PGQ_OUT_SCHEDULE_OFF, keys::PGQ_OUT_SCHEDULE_ON],
                ))
            }
            Action::Subscribe(c) => self.subscribe(db, &c).await,
            Action::Unsubscribe(c) => self.unsubscribe(db, &c).await,
            Action::AddSub { consumer, sub } => self.add_sub(db, &consumer, &sub).await,
            Action::RemoveSub { consumer, sub } => self.remove_sub(db, &consumer, &sub).await,
            Action::ReceiveCoop { consumer, sub, max } => {
                self.receive_coop(db, &consumer, &sub, max).await
            }
            Action::AckCoop { consumer, sub } => self.ack_coop(db, &consumer, &sub).await,
            Action::Kill { consumer, sub } => Ok(self.kill(&consumer, &sub)),
        }?;
        self.history.push(action);
        Ok(out)
    }

    /// The events of the open batch a consumer holds, if any.
    pub fn batch(&self, consumer: &str) -> &[Event] {
        self.batches.get(consumer).map_or(&[], Vec::as_slice)
    }

    async fn send_one(&mut self, db: &Db) -> Result<Outcome, DbError> {
        let n = self.sent + 1;
        let payload = serde_json::json!({"order": n}).to_string();
        let s = sql::send(
            db,
            sql::NewEvent {
                queue: QUEUE,
                event_type: EVENT_TYPE,
                payload: &payload,
            },
        )
        .await?;
        self.sent = n;
        Ok(Outcome::new(
            Msg::new(keys::PGQ_RESULT_SENT)
                .arg("id", s.msg_id)
                .arg("txid", s.txid),
            Tone::Good,
        ))
    }

    async fn burst(&mut self, db: &Db, n: i64) -> Result<Outcome, DbError> {
        if let Some(refused) = refuse_outside(n, 1, MAX_BURST) {
            return Ok(refused);
        }
        let burst = sql::SendBurst {
            queue: QUEUE,
            event_type: "order.bulk",
            count: n,
        };
        let sent = sql::send_burst(db, burst).await?;
        Ok(Outcome::new(
            Msg::new(keys::PGQ_RESULT_SENT_BURST).arg("count", sent),
            Tone::Good,
        ))
    }

    async fn send_rollback(&mut self, db: &Db) -> Result<Outcome, DbError> {
        let tx = db.begin().await?;
        let payload = serde_json::json!({"order": "cancelled"}).to_string();
        let sent = sql::send(
            &tx,
            sql::NewEvent {
                queue: QUEUE,
                event_type: EVENT_TYPE,
                payload: &payload,
            },
        )
        .await;
        tx.rollback().await?;
        let id = sent?.msg_id;
        Ok(Outcome::new(
            Msg::new(keys::PGQ_OUT_ROLLED_BACK).arg("id", id),
            Tone::Warn,
        ))
    }

    /// The in-flight demo: an event sent in a transaction that is prepared and left open
    /// across ticks (see [`inflight_prepare`]).
    async fn prepare(&mut self, db: &Db) -> Result<Outcome, DbError> {
        if sql::inflight_open(db).await? {
            return Ok(Outcome::new(
                Msg::new(keys::PGQ_OUT_INFLIGHT_ALREADY),
                Tone::Info,
            ));
        }
        let Some((id, txid)) = sql::inflight_prepare(db).await? else {
            return Err(DbError::other(
                "the prepared transaction did not appear in pg_prepared_xacts",
            ));
        };
        self.inflight = Some(id);
        Ok(Outcome::new(
            Msg::new(keys::PGQ_OUT_PREPARED)
                .arg("id", id)
                .arg("txid", txid),
            Tone::Warn,
        ))
    }

    async fn finish_prepared(&mut self, db: &Db, commit: bool) -> Result<Outcome, DbError> {
        if !sql::inflight_open(db).await? {
            self.inflight = None;
            return Ok(Outcome::new(
                Msg::new(keys::PGQ_OUT_INFLIGHT_NONE),
                Tone::Info,
            ));
        }
        sql::finish_prepared(db, commit).await?;
        let id = self.inflight.take().unwrap_or(0);
        Ok(Outcome::either(
            commit,
            (keys::PGQ_OUT_COMMITTED_PREPARED, Tone::Good),
            (keys::PGQ_OUT_ROLLED_BACK_PREPARED, Tone::Warn),
        )
        .arg("id", id))
    }

    /// PgQue's demo idiom: force_next_tick, then ticker: a tick now, whatever the thresholds.
    async fn tick(&mut self, db: &Db) -> Result<Outcome, DbError> {
        sql::force_next_tick(db, QUEUE).await?;
        let Some(tick) = sql::ticker(db, QUEUE).await? else {
            return Err(DbError::other("ticker made no tick after force_next_tick"));
        };
        let snap = sql::tick_snapshot(db, sql::TickOf { queue: QUEUE, tick }).await?;
        Ok(Outcome::new(
            Msg::new(keys::PGQ_RESULT_TICKED)
                .arg("tick", tick)
                .arg("snapshot", snap),
            Tone::Good,
        ))
    }

    async fn receive(&mut self, db: &Db, consumer: &str, max: i64) -> Result<Outcome, DbError> {
        if let Some(refused) = refuse_outside(max, 1, MAX_RECEIVE) {
            return Ok(refused);
        }
        let of = sql::Receive {
            queue: QUEUE,
            consumer,
            max,
        };
        let rows: Vec<Event> = sql::receive(db, of).await?;
        let Some(first) = rows.first() else {
            self.batches.remove(consumer);
            let info = sql::consumer_info(db, QUEUE)
                .await?
                .into_iter()
                .find(|c| c.consumer_name == consumer)
                .unwrap_or_default();
            // Exact: committed events for this consumer after its cursor, none ticked yet
            // (PgQue's ev_new reads the event sequence, one short on a fresh queue).
            let waiting = info.lag_events;
            let msg = if info.lag_ticks > 0 {
                // receive found a batch with nothing for this consumer and finished it.
                Msg::new(keys::PGQ_OUT_EMPTY_BATCH)
                    .arg("consumer", consumer)
                    .arg("count", info.lag_ticks)
            } else if waiting > 0 {
                Msg::new(keys::PGQ_OUT_WAITING_TICK)
                    .arg("consumer", consumer)
                    .arg("count", waiting)
            } else {
                Msg::new(keys::PGQ_RESULT_NOTHING)
            };
            return Ok(Outcome::new(msg, Tone::Info));
        };
        let batch = first.batch_id;
        let count = rows.len();
        let again = self
            .batch(consumer)
            .first()
            .is_some_and(|e| e.batch_id == batch);
        if self
            .batch(consumer)
            .first()
            .is_some_and(|e| e.batch_id != batch)
        {
            self.nacked.remove(consumer);
        }
        let size = sql::batch_events(db, batch).await?.len();
        self.batches.insert(consumer.to_owned(), rows);
        let msg = if again {
            Msg::new(keys::PGQ_RESULT_RECEIVED_AGAIN).arg("id", batch)
        } else if size > count {
            Msg::new(keys::PGQ_OUT_RECEIVED_PART)
                .arg("consumer", consumer)
                .arg("id", batch)
                .arg("count", count)
                .arg("size", size)
                .arg("skipped", size - count)
        } else {
            Msg::new(keys::PGQ_OUT_RECEIVED)
                .arg("consumer", consumer)
                .arg("id", batch)
                .arg("count", count)
        };
        Ok(Outcome::new(
            msg,
            if again || size > count {
                Tone::Warn
            } else {
                Tone::Good
            },
        ))
    }

    /// `pgque.ack`: the whole batch is finished. The events of the batch that no receive
    /// returned (a limit below its size) are read first, so the page can name what the ack
    /// skipped.
    async fn ack(&mut self, db: &Db, consumer: &str, batch: i64) -> Result<Outcome, DbError> {
        let held: BTreeSet<i64> = self.batch(consumer).iter().map(|e| e.msg_id).collect();
        let skipped: Vec<i64> = match sql::batch_events(db, batch).await {
            Ok(ids) => ids.into_iter().filter(|id| !held.contains(id)).collect(),
            // Not open (acked already): the ack below says so.
            Err(_) => Vec::new(),
        };
        let finished = sql::ack(db, batch).await?;
        if finished != 1 {
            // Nothing finished: the lab forgets the batch it holds only if that is the one
            // acked (finished elsewhere already); another batch it holds is still open.
            if self
                .batch(consumer)
                .first()
                .is_some_and(|e| e.batch_id == batch)
            {
                self.batches.remove(consumer);
                self.nacked.remove(consumer);
            }
            return Ok(Outcome::new(
                Msg::new(keys::PGQ_RESULT_ACK_NOT_OPEN).arg("id", batch),
                Tone::Warn,
            ));
        }
        self.batches.remove(consumer);
        self.nacked.remove(consumer);
        let tick = sql::consumer_info(db, QUEUE)
            .await?
            .into_iter()
            .find(|c| c.consumer_name == consumer)
            .map_or(0, |c| c.last_tick);
        if skipped.is_empty() {
            return Ok(Outcome::new(
                Msg::new(keys::PGQ_RESULT_ACKED)
                    .arg("id", batch)
                    .arg("tick", tick),
                Tone::Good,
            ));
        }
        let ids = skipped
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        Ok(Outcome::new(
            Msg::new(keys::PGQ_RESULT_ACKED_SKIPPED)
                .arg("id", batch)
                .arg("tick", tick)
                .arg("consumer", consumer)
                .arg("count", skipped.len())
                .arg("ids", ids),
            Tone::Warn,
        ))
    }

    async fn nack(
        &mut self,
        db: &Db,
        consumer: &str,
        batch: i64,
        msg: i64,
        delay: i64,
    ) -> Result<Outcome, DbError> {
        if let Some(refused) = refuse_outside(delay, 0, MAX_DELAY) {
            return Ok(refused);
        }
        let reason = format!("{consumer} failed event {msg}");
        let nacked = sql::Nack {
            batch,
            msg,
            delay,
            reason: &reason,
        };
        sql::nack(db, nacked).await?;
        // nack returns 1 either way; where the event went is read back from the tables.
        let nacked = sql::NackedEvent {
            queue: QUEUE,
            consumer,
            msg,
        };
        let outcome = sql::nack_outcome(db, nacked).await?;
        let list = self.nacked.entry(consumer.to_owned()).or_default();
        list.retain(|(m, _)| *m != msg);
        list.push((msg, outcome.clone()));
        Ok(if outcome == "dead" {
            Outcome::new(
                Msg::new(keys::PGQ_RESULT_NACK_DEAD).arg("id", msg),
                Tone::Warn,
            )
        } else {
            Outcome::new(
                Msg::new(keys::PGQ_RESULT_NACK_RETRY)
                    .arg("id", msg)
                    .arg("consumer", consumer)
                    .arg("delay", format!("{delay} s")),
                Tone::Warn,
            )
        })
    }

    async fn maint(&mut self, db: &Db) -> Result<Outcome, DbError> {
        let rows = sql::maint(db).await?;
        let rotated = rows.iter().any(|r| r.action == "rotate");
        let main = rows
            .iter()
            .find(|r| r.action == "rotate")
            .or_else(|| rows.iter().find(|r| r.action == "wait"))
            .or_else(|| rows.first())
            .map(MaintRow::msg)
            .unwrap_or_else(|| Msg::new(keys::PGQ_OUT_MAINT_NOTHING));
        self.last_maint = rows;
        Ok(Outcome::new(
            main,
            if rotated { Tone::Good } else { Tone::Info },
        ))
    }

    async fn retry_events(&mut self, db: &Db) -> Result<Outcome, DbError> {
        let n = sql::retry_events(db).await?;
        Ok(Outcome::new(
            Msg::new(keys::PGQ_OUT_RELEASED).arg("count", n),
            if n > 0 { Tone::Good } else { Tone::Info },
        ))
    }

    async fn replay(&mut self, db: &Db, dl_id: i64) -> Result<Outcome, DbError> {
        let consumer = sql::dead_letter(db, dl_id)
            .await?
            .map(|d| d.consumer)
            .unwrap_or_default();
        let id = sql::dlq_replay(db, dl_id).await?;
        Ok(Outcome::new(
            Msg::new(keys::PGQ_RESULT_REPLAYED)
                .arg("id", dl_id)
                .arg("event", id)
                .arg("consumer", consumer),
            Tone::Good,
        ))
    }

    /// Moves the lab clock through `pgque.run_jobs`: each of PgQue's scheduled jobs that falls
    /// due on the way runs at its time, in a transaction of its own; with none scheduled, only
    /// the clock moves. One statement, which says what the jobs did.
    async fn advance(&mut self, db: &Db, seconds: i64) -> Result<Outcome, DbError> {
        let run = sql::run_jobs(db, seconds).await?;
        let now = clock::time_of_day(&run.now_text);
        let msg = if run.scheduled {
            Msg::new(keys::PGQ_OUT_ADVANCED_JOBS)
                .arg("secs", seconds)
                .arg("now", now)
                .arg("ticks", run.ticks)
                .arg("retries", run.retries)
                .arg("maint", run.maint_runs)
                .arg("step2", run.step2_runs)
        } else {
            Msg::new(keys::PGQ_OUT_ADVANCED)
                .arg("secs", seconds)
                .arg("now", now)
        };
        if run.maint_runs > 0 {
            // The maint job ran after the Maint button's last answer: that answer is stale.
            self.last_maint.clear();
        }
        Ok(Outcome::new(msg, Tone::Info))
    }
}

/// Reads the queue for the view: statistics flushed first (flush_stats.sql: Postgres flushes
/// them only after a statement ends, so the flush is a statement of its own), then
/// everything else in one statement (snapshot.sql).
pub async fn snapshot(db: &Db) -> Result<Snapshot, DbError> {
    sql::flush_stats(db).await?;
    let of = sql::SnapshotOf {
        queue: QUEUE,
        dead_letters: DLQ_LIMIT,
    };
    match sql::snapshot(db, of).await {
        Ok(row) => row.decode(),
        Err(e) => {
            // Schema pgque is gone (pgque.uninstall() from the SQL console): the page says so
            // and offers Reset, which installs the engine again. Any other failure is the
            // error it was.
            let gone = match sql::uninstalled(db).await {
                Ok(gone) if gone.uninstalled => gone,
                _ => return Err(e),
            };
            Ok(Snapshot {
                now: gone.now,
                uninstalled: true,
                inflight_open: gone.inflight_open,
                ..Snapshot::default()
            })
        }
    }
}

/// What switching one of the lab's loops (ticks, housekeeping) off or on says: `says[on]`.
fn switched(on: bool, says: [Key; 2]) -> Outcome {
    Outcome::new(Msg::new(says[usize::from(on)]), Tone::Info)
}

impl crate::labs::harness::LabModel for Lab {
    crate::labs::harness::lab_model_common!(outcome: Outcome, act: run);

    async fn snapshot(&self, db: &Db) -> Result<Snapshot, DbError> {
        snapshot(db).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_in_flight_script_sends_to_the_labs_queue_and_prepares_the_transaction_the_lab_finds() {
        let script = INFLIGHT_PREPARE_SQL;
        assert!(script.contains(&format!("pgque.send('{QUEUE}', '{EVENT_TYPE}', ")));
        let gid = "'pgq_inflight'";
        assert!(script.contains(&format!("prepare transaction {gid};")));
        for other in [
            INFLIGHT_FIND_SQL,
            COMMIT_PREPARED_SQL,
            ROLLBACK_PREPARED_SQL,
        ] {
            assert!(other.contains(gid), "{other}");
        }
        // One call: begin, then send, then PREPARE, then the read-back outside the transaction.
        let code: String = script.lines().filter(|l| !l.starts_with("--")).collect();
        let statements: Vec<&str> = code
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        assert_eq!(statements.len(), 4, "{statements:?}");
        assert_eq!(statements[0], "begin");
        assert!(statements[2].starts_with("prepare transaction"));
        assert!(statements[3].starts_with("select lastval()"));
    }
}
