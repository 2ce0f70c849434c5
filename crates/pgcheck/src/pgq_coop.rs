//! L4's cooperative consumers and unsubscribe on a real server, with L4's own statements
//! (`src/sql/pgque/lab/*.sql` over `45_coop.sql`), the steps of the lab's tests
//! (tests/node/pgq.test.mjs):
//!
//! - a group (`audit`, a plain consumer converted by `register_subconsumer(…, true)`) of two
//!   subconsumers, `w1` and `w2`: each `receive_coop` hands its member a batch of its own (a
//!   tick interval), so over two ticks w1 and w2 get two different batches whose union is
//!   what a plain consumer (`billing`) receives over the same ticks; the group's cursor moves
//!   past each batch as it is handed out;
//! - a member that dies holding a batch: another member's `receive_coop` takes it over only
//!   once the dead interval has passed, under a new batch id, so the dead one's late ack
//!   finishes nothing (0);
//! - a consumer that never reads (`email`) holds rotation back; once unsubscribed, maint()
//!   rotates past it.

use postgres::types::Type;
use postgres::Client;

use super::stmt::{
    ACK, CONSUMER_INFO, CREATE_QUEUE, FORCE_TICK, MAINT, QUEUE_CONFIG, RECEIVE, RECEIVE_COOP,
    SEND_BURST, SUBSCRIBE, SUB_ADD, TICK, UNSUBSCRIBE,
};
use super::ROTATION_SECONDS;
use crate::target::{advance_clock, table};
use crate::{context, CheckError};

/// As in the lab (src/labs/pgq/sql.rs): event tables; the dead interval of a member.
const NTABLES: i32 = 3;
const DEAD_SECONDS: f64 = 30.0;
const EVENT_TYPE: &str = "order.created";
/// The queues this check makes (beside the side by side's `compare`).
const GROUP_QUEUE: &str = "coop";
const ROTATION_QUEUE: &str = "unsub";
const GROUP: &str = "audit";
const MEMBERS: [&str; 2] = ["w1", "w2"];
const PLAIN: &str = "billing";
const LAGGING: &str = "email";
/// Events sent before each of the group's two ticks, and before the dead member's tick.
const BATCH: i32 = 3;
/// Above any batch here: every receive returns its batch whole.
const MAX_RETURN: i32 = 100;

/// maint()'s reason to wait, as a code and its values (e.g. `consumer`, [`email`, …]).
pub type Reason = (String, Vec<String>);

/// A batch as a receive returned it: (batch id, event ids).
pub type Batch = (i64, Vec<i64>);

/// What the server did.
#[derive(Clone, Debug, Default)]
pub struct Coop {
    /// The plain consumer's batches over the group's two ticks.
    pub plain: Vec<Batch>,
    /// Each member's batch: (member, batch id, event ids).
    pub members: Vec<(String, i64, Vec<i64>)>,
    /// The group's cursor (last tick): before, after w1's receive_coop, after w2's.
    pub cursor: [i64; 3],
    /// What each member's ack returned (1: finished).
    pub acks: [i32; 2],
    /// The batch w1 held when it died.
    pub dead: Batch,
    /// What w2's receive_coop returned before the dead interval had passed.
    pub early: Vec<i64>,
    /// What it returned after: the dead member's events, under a new batch id.
    pub taken: Batch,
    /// The dead member's late ack of its old batch id, then the taker's ack.
    pub late_ack: i32,
    pub taker_ack: i32,
    /// maint() with the lagging consumer subscribed: its actions, and its reason to wait.
    pub held: Vec<String>,
    pub held_reason: Option<Reason>,
    /// maint() once it is unsubscribed.
    pub after_unsubscribe: Vec<String>,
}

impl Coop {
    /// The plain consumer's events, sorted.
    pub fn plain_events(&self) -> Vec<i64> {
        let mut v: Vec<i64> = self.plain.iter().flat_map(|b| b.1.clone()).collect();
        v.sort_unstable();
        v
    }

    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let plain = self.plain_events();
        if self.plain.len() != 2 || plain.len() != 2 * BATCH as usize {
            out.push(format!(
                "coop: the plain consumer received {:?}, not two batches of {BATCH}",
                self.plain
            ));
        }
        if self.members.len() != 2 || self.members.iter().any(|m| m.2.is_empty()) {
            out.push(format!(
                "coop: not one non-empty batch per member: {:?}",
                self.members
            ));
        }
        if self.members.windows(2).any(|w| w[0].1 == w[1].1) {
            out.push(format!(
                "coop: the members got the same batch: {:?}",
                self.members
            ));
        }
        let mut union: Vec<i64> = self.members.iter().flat_map(|m| m.2.clone()).collect();
        let total = union.len();
        union.sort_unstable();
        union.dedup();
        if union.len() != total {
            out.push(format!(
                "coop: the members' batches overlap: {:?}",
                self.members
            ));
        }
        if union != plain {
            out.push(format!(
                "coop: the members' events {union:?} are not the plain consumer's {plain:?}"
            ));
        }
        let [before, first, second] = self.cursor;
        if !(before < first && first < second) {
            out.push(format!(
                "coop: the group's cursor did not move past each batch as it was handed out: \
                 {before} → {first} → {second}"
            ));
        }
        if self.acks != [1, 1] {
            out.push(format!(
                "coop: the members' acks returned {:?}, not [1, 1]",
                self.acks
            ));
        }
        if self.dead.1.len() != BATCH as usize {
            out.push(format!("dead member: w1 held {:?}", self.dead));
        }
        if !self.early.is_empty() {
            out.push(format!(
                "dead member: w2 took {:?} before the dead interval had passed",
                self.early
            ));
        }
        if self.taken.1 != self.dead.1 || self.taken.0 == self.dead.0 {
            out.push(format!(
                "dead member: w2 took {:?}, not w1's events {:?} under a new batch id",
                self.taken, self.dead
            ));
        }
        if (self.late_ack, self.taker_ack) != (0, 1) {
            out.push(format!(
                "dead member: the late ack returned {} (not 0), the taker's {} (not 1)",
                self.late_ack, self.taker_ack
            ));
        }
        if self.held.iter().any(|a| a == "rotate") {
            out.push(format!(
                "unsubscribe: maint() rotated although {LAGGING} lagged: {:?}",
                self.held
            ));
        }
        match &self.held_reason {
            Some((reason, args))
                if reason == "consumer" && args.first().map(String::as_str) == Some(LAGGING) => {}
            other => out.push(format!(
                "unsubscribe: maint() did not name {LAGGING} as holding rotation: {other:?}"
            )),
        }
        if !self.after_unsubscribe.iter().any(|a| a == "rotate") {
            out.push(format!(
                "unsubscribe: maint() did not rotate once {LAGGING} was gone: {:?}",
                self.after_unsubscribe
            ));
        }
        out
    }

    /// The batches, the cursor, the takeover and the rotation, as a table and lines.
    pub fn table(&self) -> String {
        let ids = |v: &[i64]| match (v.first(), v.last()) {
            (Some(a), Some(b)) => format!("{a}–{b} ({})", v.len()),
            _ => "none".into(),
        };
        let batches = |v: &[Batch]| {
            v.iter()
                .map(|b| b.0.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut rows = vec![vec![
            format!("{PLAIN} (plain consumer)"),
            format!("batches {}", batches(&self.plain)),
            ids(&self.plain_events()),
        ]];
        for (name, batch, events) in &self.members {
            rows.push(vec![
                format!("{GROUP}/{name}"),
                format!("batch {batch}"),
                ids(events),
            ]);
        }
        rows.push(vec![
            format!("{GROUP}/w1, then dies"),
            format!("batch {}", self.dead.0),
            ids(&self.dead.1),
        ]);
        rows.push(vec![
            format!("{GROUP}/w2 at {:.0} s", DEAD_SECONDS - 1.0),
            if self.early.is_empty() {
                "nothing".into()
            } else {
                "events".into()
            },
            ids(&self.early),
        ]);
        rows.push(vec![
            format!("{GROUP}/w2 at {:.0} s", DEAD_SECONDS + 1.0),
            format!("batch {} (taken over)", self.taken.0),
            ids(&self.taken.1),
        ]);
        let [before, first, second] = self.cursor;
        let header = ["who".to_string(), "received".into(), "events".into()];
        let actions = |v: &[String]| {
            if v.is_empty() {
                "nothing".to_string()
            } else {
                v.join(", ")
            }
        };
        let reason = self
            .held_reason
            .as_ref()
            .map_or(String::new(), |(r, args)| {
                format!(" (reason {r}: {})", args.join(", "))
            });
        format!(
            "\nCooperative consumers: group {GROUP}, subconsumers w1 and w2, two ticks of \
             {BATCH} events; dead interval {DEAD_SECONDS:.0} s\n{}\n{GROUP}'s cursor: tick \
             {before} → {first} at w1's receive_coop → {second} at w2's; their acks returned \
             {} and {}. The dead member's late ack of batch {} returned {}; the taker's ack \
             returned {}.\nUnsubscribe: with {LAGGING} lagging, maint() did: {}{reason}; after \
             unsubscribe({LAGGING}) it did: {}.",
            table(&header, &rows, 3),
            self.acks[0],
            self.acks[1],
            self.dead.0,
            self.late_ack,
            self.taker_ack,
            actions(&self.held),
            actions(&self.after_unsubscribe),
        )
    }
}

fn exec(
    c: &mut Client,
    sql: &str,
    file: &str,
    types: &[Type],
    params: &[&(dyn postgres::types::ToSql + Sync)],
) -> Result<Vec<postgres::Row>, CheckError> {
    let stmt = context(c.prepare_typed(sql, types), file)?;
    context(c.query(&stmt, params), file)
}

fn make_queue(c: &mut Client, queue: &str, consumers: &[&str]) -> Result<(), CheckError> {
    exec(
        c,
        CREATE_QUEUE,
        "create_queue.sql",
        &[Type::TEXT, Type::INT4],
        &[&queue, &NTABLES],
    )?;
    let period = format!("{ROTATION_SECONDS} seconds");
    exec(
        c,
        QUEUE_CONFIG,
        "queue_config.sql",
        &[Type::TEXT, Type::TEXT, Type::TEXT],
        &[&queue, &"rotation_period", &period],
    )?;
    for consumer in consumers {
        exec(
            c,
            SUBSCRIBE,
            "subscribe.sql",
            &[Type::TEXT, Type::TEXT],
            &[&queue, consumer],
        )?;
    }
    Ok(())
}

fn send(c: &mut Client, queue: &str, n: i32) -> Result<(), CheckError> {
    exec(
        c,
        SEND_BURST,
        "send_burst.sql",
        &[Type::TEXT, Type::TEXT, Type::INT4],
        &[&queue, &EVENT_TYPE, &n],
    )?;
    Ok(())
}

/// A tick now: force_tick.sql, then tick.sql.
fn tick(c: &mut Client, queue: &str) -> Result<(), CheckError> {
    exec(c, FORCE_TICK, "force_tick.sql", &[Type::TEXT], &[&queue])?;
    let rows = exec(c, TICK, "tick.sql", &[Type::TEXT], &[&queue])?;
    match rows
        .first()
        .and_then(|r| r.get::<_, Option<i64>>("tick_id"))
    {
        Some(_) => Ok(()),
        None => Err(CheckError(format!(
            "tick.sql made no tick on {queue} after force_tick.sql"
        ))),
    }
}

fn ack(c: &mut Client, batch: i64) -> Result<i32, CheckError> {
    let rows = exec(c, ACK, "ack.sql", &[Type::INT8], &[&batch])?;
    Ok(rows.first().map_or(0, |r| r.get("finished")))
}

/// The batch id (0 when none) and event ids of a receive's rows.
fn batch_of(rows: &[postgres::Row]) -> Batch {
    (
        rows.first().map_or(0, |r| r.get("batch_id")),
        rows.iter().map(|r| r.get("msg_id")).collect(),
    )
}

/// receive.sql then ack.sql while the consumer's cursor has ticks after it (an empty
/// batch returns nothing but is finished all the same); its non-empty batches.
fn drain(c: &mut Client, queue: &str, consumer: &str) -> Result<Vec<Batch>, CheckError> {
    let mut got = Vec::new();
    while lag_ticks(c, queue, consumer)? > 0 {
        let rows = exec(
            c,
            RECEIVE,
            "receive.sql",
            &[Type::TEXT, Type::TEXT, Type::INT4],
            &[&queue, &consumer, &MAX_RETURN],
        )?;
        if rows.is_empty() {
            continue;
        }
        let batch = batch_of(&rows);
        ack(c, batch.0)?;
        got.push(batch);
    }
    Ok(got)
}

fn receive_coop(c: &mut Client, member: &str) -> Result<Batch, CheckError> {
    let rows = exec(
        c,
        RECEIVE_COOP,
        "receive_coop.sql",
        &[Type::TEXT, Type::TEXT, Type::TEXT, Type::INT4, Type::FLOAT8],
        &[&GROUP_QUEUE, &GROUP, &member, &MAX_RETURN, &DEAD_SECONDS],
    )?;
    Ok(batch_of(&rows))
}

fn consumer_row(c: &mut Client, queue: &str, consumer: &str) -> Result<postgres::Row, CheckError> {
    let rows = exec(
        c,
        CONSUMER_INFO,
        "consumer_info.sql",
        &[Type::TEXT],
        &[&queue],
    )?;
    rows.into_iter()
        .find(|r| r.get::<_, String>("consumer_name") == consumer)
        .ok_or_else(|| CheckError(format!("consumer_info.sql: no row for {consumer}")))
}

fn cursor(c: &mut Client, queue: &str, consumer: &str) -> Result<i64, CheckError> {
    Ok(consumer_row(c, queue, consumer)?.get("last_tick"))
}

fn lag_ticks(c: &mut Client, queue: &str, consumer: &str) -> Result<i32, CheckError> {
    Ok(consumer_row(c, queue, consumer)?.get("lag_ticks"))
}

/// maint.sql (every queue, as the lab runs it): this queue's actions and its reason to wait.
fn maint(c: &mut Client, queue: &str) -> Result<(Vec<String>, Option<Reason>), CheckError> {
    let rows = exec(c, MAINT, "maint.sql", &[], &[])?;
    let mine: Vec<&postgres::Row> = rows
        .iter()
        .filter(|r| r.get::<_, Option<String>>("queue_name").as_deref() == Some(queue))
        .collect();
    let actions = mine.iter().map(|r| r.get::<_, String>("action")).collect();
    let reason = mine
        .iter()
        .find(|r| r.get::<_, String>("action") == "wait")
        .and_then(|r| {
            let reason: Option<String> = r.get("reason");
            let args: Option<Vec<Option<String>>> = r.get("args");
            reason.map(|x| (x, args.unwrap_or_default().into_iter().flatten().collect()))
        });
    Ok((actions, reason))
}

/// Runs the three cases on `c`, a lab session with the engine (45_coop.sql included)
/// installed.
pub fn run(c: &mut Client) -> Result<Coop, CheckError> {
    let mut out = Coop::default();

    // A group of two subconsumers and a plain consumer over the same two ticks.
    make_queue(c, GROUP_QUEUE, &[PLAIN, GROUP])?;
    for member in MEMBERS {
        exec(
            c,
            SUB_ADD,
            "sub_add.sql",
            &[Type::TEXT, Type::TEXT, Type::TEXT],
            &[&GROUP_QUEUE, &GROUP, &member],
        )?;
    }
    for _ in 0..2 {
        send(c, GROUP_QUEUE, BATCH)?;
        tick(c, GROUP_QUEUE)?;
    }
    out.plain = drain(c, GROUP_QUEUE, PLAIN)?;
    out.cursor[0] = cursor(c, GROUP_QUEUE, GROUP)?;
    for (i, member) in MEMBERS.into_iter().enumerate() {
        let (batch, events) = receive_coop(c, member)?;
        out.members.push((member.to_string(), batch, events));
        out.cursor[i + 1] = cursor(c, GROUP_QUEUE, GROUP)?;
    }
    for i in 0..2 {
        out.acks[i] = ack(c, out.members[i].1)?;
    }

    // w1 takes the next batch and dies; w2 takes it over once the dead interval has passed.
    send(c, GROUP_QUEUE, BATCH)?;
    tick(c, GROUP_QUEUE)?;
    out.dead = receive_coop(c, MEMBERS[0])?;
    advance_clock(c, DEAD_SECONDS - 1.0)?;
    out.early = receive_coop(c, MEMBERS[1])?.1;
    advance_clock(c, 2.0)?;
    out.taken = receive_coop(c, MEMBERS[1])?;
    out.late_ack = ack(c, out.dead.0)?;
    out.taker_ack = ack(c, out.taken.0)?;

    // A consumer that never reads holds rotation back until it is unsubscribed.
    make_queue(c, ROTATION_QUEUE, &[PLAIN, LAGGING])?;
    send(c, ROTATION_QUEUE, 4)?;
    tick(c, ROTATION_QUEUE)?;
    tick(c, ROTATION_QUEUE)?;
    drain(c, ROTATION_QUEUE, PLAIN)?;
    advance_clock(c, ROTATION_SECONDS + 1.0)?;
    (out.held, out.held_reason) = maint(c, ROTATION_QUEUE)?;
    exec(
        c,
        UNSUBSCRIBE,
        "unsubscribe.sql",
        &[Type::TEXT, Type::TEXT],
        &[&ROTATION_QUEUE, &LAGGING],
    )?;
    out.after_unsubscribe = maint(c, ROTATION_QUEUE)?.0;
    Ok(out)
}
