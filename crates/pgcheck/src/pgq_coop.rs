//! L4's cooperative consumers and unsubscribe on a real server, with L4's own statements
//! (`src/sql/pgque/lab/*.sql` over `45_coop.sql`), the steps of the lab's headless tests
//! (tests/pgq.rs):
//!
//! - a group (`audit`) of two subconsumers, `w1` and `w2`, receives one batch as two disjoint
//!   parts whose union is the batch (as a plain consumer over the same ticks received it);
//!   the group's cursor moves only when both parts are acked;
//! - a consumer that never reads (`email`) holds rotation back; once unsubscribed, maint()
//!   rotates past it.

use postgres::types::Type;
use postgres::Client;

use super::{advance, ROTATION_SECONDS};
use crate::target::{lab_sql, table};
use crate::{context, CheckError};

const CREATE_QUEUE: &str = lab_sql!("pgq/lab/create_queue.sql");
const SUBSCRIBE: &str = lab_sql!("pgq/lab/subscribe.sql");
const UNSUBSCRIBE: &str = lab_sql!("pgq/lab/unsubscribe.sql");
const SUB_ADD: &str = lab_sql!("pgq/lab/sub_add.sql");
const RECEIVE_PART: &str = lab_sql!("pgq/lab/receive_part.sql");
const ACK_PART: &str = lab_sql!("pgq/lab/ack_part.sql");
const CONSUMER_INFO: &str = lab_sql!("pgq/lab/consumer_info.sql");
const MAINT_ALL: &str = lab_sql!("pgq/lab/maint.sql");
const SEND_BURST: &str = lab_sql!("pgq/lab/send_burst.sql");
const TICK: &str = lab_sql!("pgq/lab/tick.sql");
const RECEIVE: &str = lab_sql!("pgq/lab/receive.sql");
const ACK: &str = lab_sql!("pgq/lab/ack.sql");

/// As in the lab (src/labs/pgq/sql.rs): tables, retries, the dead interval of a part.
const NTABLES: i32 = 3;
const MAX_RETRIES: i32 = 3;
const DEAD_SECONDS: f64 = 30.0;
const EVENT_TYPE: &str = "order.created";
/// The queues this check makes (beside the side by side's `compare`).
const GROUP_QUEUE: &str = "coop";
const ROTATION_QUEUE: &str = "unsub";
const GROUP: &str = "audit";
const PLAIN: &str = "billing";
const LAGGING: &str = "email";
/// Events in the group's batch (as in the lab's test).
const BATCH: i32 = 6;

/// maint()'s reason to wait, as a code and its values (e.g. `consumer`, [`email`, …]).
pub type Reason = (String, Vec<String>);

/// What the server did.
#[derive(Clone, Debug, Default)]
pub struct Coop {
    /// The batch as the plain consumer received it (event ids).
    pub batch: Vec<i64>,
    /// Each subconsumer's part: (name, batch id, event ids).
    pub parts: Vec<(String, i64, Vec<i64>)>,
    /// The group's cursor (last tick) before, after the first ack, after the second.
    pub cursor: [i64; 3],
    /// Whether each ack_part finished the batch.
    pub finished: [bool; 2],
    /// maint() with the lagging consumer subscribed: its actions, and its reason to wait.
    pub held: Vec<String>,
    pub held_reason: Option<Reason>,
    /// maint() once it is unsubscribed.
    pub after_unsubscribe: Vec<String>,
}

impl Coop {
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut union: Vec<i64> = self.parts.iter().flat_map(|p| p.2.clone()).collect();
        let total = union.len();
        union.sort_unstable();
        union.dedup();
        if self.batch.len() != BATCH as usize {
            out.push(format!(
                "coop: the plain consumer received {:?}",
                self.batch
            ));
        }
        if self.parts.len() != 2 || self.parts.iter().any(|p| p.2.is_empty()) {
            out.push(format!("coop: not two parts: {:?}", self.parts));
        }
        if union.len() != total {
            out.push(format!("coop: the parts overlap: {:?}", self.parts));
        }
        if union != self.batch {
            out.push(format!(
                "coop: the parts {union:?} are not the batch {:?}",
                self.batch
            ));
        }
        if self.parts.windows(2).any(|w| w[0].1 != w[1].1) {
            out.push(format!(
                "coop: the parts come from different batches: {:?}",
                self.parts
            ));
        }
        let [before, first, second] = self.cursor;
        if first != before || self.finished[0] {
            out.push("coop: the group's cursor moved with one part still unacked".into());
        }
        if second <= before || !self.finished[1] {
            out.push("coop: the group's cursor did not move when both parts were acked".into());
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

    /// The parts, the cursor and the rotation, as a table.
    pub fn table(&self) -> String {
        let ids = |v: &[i64]| match (v.first(), v.last()) {
            (Some(a), Some(b)) => format!("{a}–{b} ({})", v.len()),
            _ => "none".into(),
        };
        let mut rows = vec![vec![
            format!("{PLAIN} (plain consumer)"),
            "batch".into(),
            ids(&self.batch),
        ]];
        for (name, batch, events) in &self.parts {
            rows.push(vec![
                format!("{GROUP}/{name}"),
                format!("part of batch {batch}"),
                ids(events),
            ]);
        }
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
            "\nCooperative consumers: group {GROUP}, subconsumers w1 and w2, one batch of {BATCH} \
             events\n{}\n{GROUP}'s cursor: tick {before} → {first} after w1's ack → {second} after \
             w2's.\nUnsubscribe: with {LAGGING} lagging, maint() did: {}{reason}; after \
             unsubscribe({LAGGING}) it did: {}.",
            table(&header, &rows, 3),
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
        &[Type::TEXT, Type::INT4, Type::FLOAT8, Type::INT4],
        &[&queue, &NTABLES, &ROTATION_SECONDS, &MAX_RETRIES],
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

fn tick(c: &mut Client, queue: &str) -> Result<(), CheckError> {
    exec(c, TICK, "tick.sql", &[Type::TEXT], &[&queue])?;
    Ok(())
}

/// receive.sql then ack.sql until nothing comes; the event ids received.
fn drain(c: &mut Client, queue: &str, consumer: &str) -> Result<Vec<i64>, CheckError> {
    let mut got = Vec::new();
    loop {
        let rows = exec(
            c,
            RECEIVE,
            "receive.sql",
            &[Type::TEXT, Type::TEXT, Type::INT4],
            &[&queue, &consumer, &100i32],
        )?;
        let Some(batch) = rows.first().map(|r| r.get::<_, i64>("batch_id")) else {
            return Ok(got);
        };
        got.extend(rows.iter().map(|r| r.get::<_, i64>("msg_id")));
        exec(
            c,
            ACK,
            "ack.sql",
            &[Type::INT8, Type::TEXT],
            &[&batch, &consumer],
        )?;
    }
}

fn cursor(c: &mut Client, queue: &str, consumer: &str) -> Result<i64, CheckError> {
    let rows = exec(
        c,
        CONSUMER_INFO,
        "consumer_info.sql",
        &[Type::TEXT],
        &[&queue],
    )?;
    rows.iter()
        .find(|r| r.get::<_, String>("consumer_name") == consumer)
        .map(|r| r.get("last_tick"))
        .ok_or_else(|| CheckError(format!("consumer_info.sql: no row for {consumer}")))
}

/// maint.sql (every queue, as the lab runs it): this queue's actions and its reason to wait.
fn maint(c: &mut Client, queue: &str) -> Result<(Vec<String>, Option<Reason>), CheckError> {
    let rows = exec(c, MAINT_ALL, "maint.sql", &[], &[])?;
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

/// Runs both cases on `c`, a lab session with the engine (45_coop.sql included) installed.
pub fn run(c: &mut Client) -> Result<Coop, CheckError> {
    let mut out = Coop::default();

    // A group of two subconsumers and a plain consumer over the same ticks.
    make_queue(c, GROUP_QUEUE, &[PLAIN, GROUP])?;
    for sub in ["w1", "w2"] {
        exec(
            c,
            SUB_ADD,
            "sub_add.sql",
            &[Type::TEXT, Type::TEXT, Type::TEXT],
            &[&GROUP_QUEUE, &GROUP, &sub],
        )?;
    }
    send(c, GROUP_QUEUE, BATCH)?;
    tick(c, GROUP_QUEUE)?;
    out.batch = drain(c, GROUP_QUEUE, PLAIN)?;
    out.batch.sort_unstable();
    out.cursor[0] = cursor(c, GROUP_QUEUE, GROUP)?;
    for sub in ["w1", "w2"] {
        let rows = exec(
            c,
            RECEIVE_PART,
            "receive_part.sql",
            &[Type::TEXT, Type::TEXT, Type::TEXT, Type::INT4, Type::FLOAT8],
            &[&GROUP_QUEUE, &GROUP, &sub, &100i32, &DEAD_SECONDS],
        )?;
        let batch = rows.first().map_or(0, |r| r.get::<_, i64>("batch_id"));
        let ids = rows.iter().map(|r| r.get::<_, i64>("msg_id")).collect();
        out.parts.push((sub.to_string(), batch, ids));
    }
    for (i, sub) in ["w1", "w2"].into_iter().enumerate() {
        let batch = out.parts[i].1;
        let rows = exec(
            c,
            ACK_PART,
            "ack_part.sql",
            &[Type::INT8, Type::TEXT, Type::TEXT],
            &[&batch, &GROUP, &sub],
        )?;
        out.finished[i] = rows
            .first()
            .is_some_and(|r| r.get::<_, i32>("finished") == 1);
        out.cursor[i + 1] = cursor(c, GROUP_QUEUE, GROUP)?;
    }

    // A consumer that never reads holds rotation back until it is unsubscribed.
    make_queue(c, ROTATION_QUEUE, &[PLAIN, LAGGING])?;
    send(c, ROTATION_QUEUE, 4)?;
    tick(c, ROTATION_QUEUE)?;
    tick(c, ROTATION_QUEUE)?;
    drain(c, ROTATION_QUEUE, PLAIN)?;
    advance(c, ROTATION_SECONDS + 1.0)?;
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
