//! L4's consumers as the learner changes them: subscribe and unsubscribe, and cooperative
//! consumers (PgQue's subconsumers: a group whose members share one cursor, each receiving a
//! batch of its own; see `src/sql/pgque/45_coop.sql`).
//!
//! A subconsumer "killed" here is a process that stopped: nothing reaches the database, its
//! batch stays un-acked, and the engine only finds out by its silence (another member's
//! receive_coop takes the batch over after [`DEAD_SECONDS`]).

use super::{refuse_outside, Event, Lab, Outcome, Tone};
use crate::db::{Db, DbError};
use crate::keys;
use crate::labs::pgq::sql::{self, Member, DEAD_SECONDS, MAX_RECEIVE, QUEUE};
use queue_lab_core::i18n::Msg;

/// A consumer and one of its subconsumers.
pub type SubKey = (String, String);

fn key(consumer: &str, sub: &str) -> SubKey {
    (consumer.to_owned(), sub.to_owned())
}

/// The lab queue's `consumer` and its member `sub`, for the cooperative statements.
fn member<'a>(consumer: &'a str, sub: &'a str) -> Member<'a> {
    Member {
        queue: QUEUE,
        consumer,
        sub,
    }
}

fn subscription(consumer: &str) -> sql::Subscription<'_> {
    sql::Subscription {
        queue: QUEUE,
        consumer,
    }
}

impl Lab {
    /// The batch a subconsumer holds (received, not acked), if any.
    pub fn part(&self, consumer: &str, sub: &str) -> &[Event] {
        self.parts
            .get(&key(consumer, sub))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether the learner killed this subconsumer.
    pub fn is_killed(&self, consumer: &str, sub: &str) -> bool {
        self.killed.contains(&key(consumer, sub))
    }

    pub(super) async fn subscribe(&mut self, db: &Db, consumer: &str) -> Result<Outcome, DbError> {
        let n = sql::subscribe(db, subscription(consumer)).await?;
        Ok(Outcome::either(
            n == 1,
            (keys::PGQ_OUT_SUBSCRIBED, Tone::Good),
            (keys::PGQ_OUT_ALREADY_SUBSCRIBED, Tone::Info),
        )
        .arg("consumer", consumer))
    }

    pub(super) async fn unsubscribe(
        &mut self,
        db: &Db,
        consumer: &str,
    ) -> Result<Outcome, DbError> {
        sql::unsubscribe(db, subscription(consumer)).await?;
        self.batches.remove(consumer);
        self.nacked.remove(consumer);
        self.parts.retain(|(c, _), _| c != consumer);
        self.killed.retain(|(c, _)| c != consumer);
        Ok(Outcome::new(
            Msg::new(keys::PGQ_OUT_UNSUBSCRIBED).arg("consumer", consumer),
            Tone::Warn,
        ))
    }

    pub(super) async fn add_sub(
        &mut self,
        db: &Db,
        consumer: &str,
        sub: &str,
    ) -> Result<Outcome, DbError> {
        let n = sql::sub_add(db, member(consumer, sub)).await?;
        self.killed.remove(&key(consumer, sub));
        Ok(Outcome::either(
            n == 1,
            (keys::PGQ_OUT_SUB_ADDED, Tone::Good),
            (keys::PGQ_OUT_SUB_ALREADY, Tone::Good),
        )
        .arg("consumer", consumer)
        .arg("sub", sub))
    }

    pub(super) async fn remove_sub(
        &mut self,
        db: &Db,
        consumer: &str,
        sub: &str,
    ) -> Result<Outcome, DbError> {
        if sql::sub_remove(db, member(consumer, sub)).await? == 0 {
            // PgQue returns 0 for a subconsumer that is not registered: nothing changed.
            return Ok(Outcome::new(Msg::new(keys::PGQ_ERROR_PQ010), Tone::Info));
        }
        let held = self
            .parts
            .remove(&key(consumer, sub))
            .map_or(0, |p| p.len());
        self.killed.remove(&key(consumer, sub));
        if !self.parts.keys().any(|(c, _)| c == consumer) {
            // the group may have become a plain consumer: its batch went back to its cursor
            self.batches.remove(consumer);
        }
        Ok(Outcome::new(
            Msg::new(keys::PGQ_OUT_SUB_REMOVED)
                .arg("consumer", consumer)
                .arg("sub", sub)
                .arg("count", held),
            Tone::Warn,
        ))
    }

    pub(super) async fn receive_coop(
        &mut self,
        db: &Db,
        consumer: &str,
        sub: &str,
        max: i64,
    ) -> Result<Outcome, DbError> {
        if let Some(refused) = refuse_outside(max, 1, MAX_RECEIVE) {
            return Ok(refused);
        }
        if self.is_killed(consumer, sub) {
            return Ok(self.stopped(sub));
        }
        let of = sql::ReceiveCoop {
            member: member(consumer, sub),
            max,
            dead_seconds: DEAD_SECONDS,
        };
        let rows = sql::receive_coop(db, of).await?;
        let Some(first) = rows.first().cloned() else {
            self.parts.remove(&key(consumer, sub));
            return Ok(Outcome::new(
                Msg::new(keys::PGQ_OUT_PART_NOTHING).arg("sub", sub),
                Tone::Info,
            ));
        };
        // Taken over: the same events another member of the group held, under a new batch
        // (a killed member, or one only silent past the dead interval: the engine cannot
        // tell them apart).
        let ids: Vec<i64> = rows.iter().map(|e| e.msg_id).collect();
        let from = self
            .parts
            .iter()
            .find(|((c, s), held)| {
                c == consumer
                    && s != sub
                    && held.first().is_some_and(|h| h.batch_id != first.batch_id)
                    && held.iter().map(|e| e.msg_id).collect::<Vec<_>>() == ids
            })
            .map(|((_, s), _)| s.clone());
        let count = rows.len();
        if let Some(dead) = &from {
            self.parts.remove(&key(consumer, dead));
        }
        self.parts.insert(key(consumer, sub), rows);
        Ok(match from {
            Some(dead) => Outcome::new(
                Msg::new(keys::PGQ_OUT_PART_TAKEN_OVER)
                    .arg("sub", sub)
                    .arg("dead", dead)
                    .arg("batch", first.batch_id)
                    .arg("count", count),
                Tone::Warn,
            ),
            None => Outcome::new(
                Msg::new(keys::PGQ_OUT_PART_RECEIVED)
                    .arg("sub", sub)
                    .arg("batch", first.batch_id)
                    .arg("count", count),
                Tone::Good,
            ),
        })
    }

    pub(super) async fn ack_coop(
        &mut self,
        db: &Db,
        consumer: &str,
        sub: &str,
    ) -> Result<Outcome, DbError> {
        if self.is_killed(consumer, sub) {
            return Ok(self.stopped(sub));
        }
        let Some(first) = self.part(consumer, sub).first().cloned() else {
            return Ok(Outcome::new(
                Msg::new(keys::PGQ_OUT_NOTHING_HELD).arg("consumer", sub),
                Tone::Info,
            ));
        };
        let finished = sql::ack(db, first.batch_id).await?;
        self.parts.remove(&key(consumer, sub));
        Ok(Outcome::either(
            finished == 1,
            (keys::PGQ_OUT_PART_ACKED, Tone::Good),
            (keys::PGQ_RESULT_ACK_NOT_OPEN, Tone::Warn),
        )
        .arg("sub", sub)
        .arg("id", first.batch_id)
        .arg("consumer", consumer))
    }

    /// The learner's "kill": the process stops; no statement runs.
    pub(super) fn kill(&mut self, consumer: &str, sub: &str) -> Outcome {
        let held = self.part(consumer, sub).len();
        self.killed.insert(key(consumer, sub));
        Outcome::new(
            Msg::new(keys::PGQ_OUT_KILLED)
                .arg("sub", sub)
                .arg("count", held)
                .arg("secs", DEAD_SECONDS),
            Tone::Warn,
        )
    }

    fn stopped(&self, sub: &str) -> Outcome {
        Outcome::new(Msg::new(keys::PGQ_OUT_STOPPED).arg("sub", sub), Tone::Info)
    }
}
