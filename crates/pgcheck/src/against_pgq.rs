//! `pgcheck pgq --against-pgq`: L4's engine held to PgQ itself. One script of queue
//! operations runs on PgQ's C extension (`create extension pgq`, Debian's
//! `postgresql-<major>-pgq3`) and on the lab's engine (schema `pgque`) in the same database,
//! and the two runs are printed side by side, step by step: what each batch holds (payloads
//! in order, with retry counts), in which batch a retried event comes back, whether a tick
//! happened, and which event table a rotation empties.
//!
//! For: knowing that what L4 teaches is what PgQ does. Not for: PgQue's own additions (dead
//! letters, `max_retries`, cooperative consumers), which PgQ does not have: the script stays
//! inside what both do, and [`NOTES`] names each difference by design instead of hiding it.
//!
//! Time: PgQ reads real time (`now()`, `current_timestamp`) for retries, rotation and ticker
//! lag; the lab's engine reads the lab's virtual clock (`lab.now()`). Each wait of the script
//! sleeps that long on PgQ's side and moves the lab's clock by the same amount. The ticker's
//! time thresholds are set to an hour on both, so no tick happens because real time passed:
//! every tick is either the event-count threshold (`ticker_max_count` = 3) or forced.

#[path = "against_pgq_lab.rs"]
mod lab;
#[path = "against_pgq_ext.rs"]
mod pgq_ext;

use crate::target::{self, table, CLOCK_SCHEMA};
use crate::CheckError;

/// The queue both engines make, and its two consumers.
pub const QUEUE: &str = "reality";
pub const BILLING: &str = "billing";
pub const EMAIL: &str = "email";
/// Events of the type every send uses.
pub const EVENT_TYPE: &str = "order.created";
/// The queue's settings, the same on both engines (`set_queue_config`).
pub const MAX_COUNT: i32 = 3;
pub const ROTATION_SECONDS: f64 = 1.0;

/// The queue's settings as `set_queue_config`'s (parameter, value) pairs, the same on both
/// engines.
fn queue_config() -> [(&'static str, String); 4] {
    [
        ("ticker_max_count", MAX_COUNT.to_string()),
        ("ticker_max_lag", "1 hour".into()),
        ("ticker_idle_period", "1 hour".into()),
        ("rotation_period", format!("{ROTATION_SECONDS} seconds")),
    ]
}
/// nack/event_retry's delay, and the length of each wait (a real sleep on PgQ's side).
pub const RETRY_SECONDS: i32 = 2;
pub const WAIT_SECONDS: f64 = 1.1;
/// Event tables per queue (PgQ's fixed default; the lab's `create_queue` takes it).
pub const NTABLES: i32 = 3;
/// The lab's default max_retries (PgQue's); PgQ has none.
pub const MAX_RETRIES: i32 = 5;

/// The differences by design, printed under the table.
pub const NOTES: [&str; 5] = [
    "Event ids are shown, not compared: PgQ's force_tick moves the event id sequence on by \
     2 x ticker_max_count + 1000 so that the next ticker() sees enough new events to tick, so \
     PgQ's ids jump after each forced tick; the lab's force_next_tick sets a flag instead, so \
     its ids do not.",
    "Time: PgQ reads real time; the lab's engine reads the lab's clock. Each wait sleeps on \
     PgQ's side and moves the lab's clock by as much.",
    "PgQ has no max_retries and no dead letter queue: event_retry re-queues an event however \
     often it failed. The lab's nack moves an event to its dead letter queue once it has been \
     retried max_retries times (5 by default): in the last cycle of d1 PgQ delivers it a \
     sixth time and the lab does not (rows marked \"by design\").",
    "PgQ's empty batch (a tick with no events for this consumer) is a batch id with no \
     events, finished here at once; the lab's receive finishes an empty batch itself and \
     returns no rows. Both move the consumer's cursor.",
    "Rotation on PgQ is two calls in two transactions: maint_rotate_tables_step1 (switch \
     and TRUNCATE), then step2 (records a later txid). The lab's maint() switches, or records \
     step 2 when it is pending (so does its ticker()); the script calls it twice.",
];

/// One event as a consumer received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ev {
    pub id: i64,
    pub payload: String,
    /// NULL on the first delivery, then how many times it was retried.
    pub retry: Option<i32>,
}

/// What a receive got: no batch at all (no new tick), or a batch and its events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Received {
    pub batch: Option<i64>,
    pub events: Vec<Ev>,
    /// The engine finished the batch itself (it held no events).
    pub finished_empty: bool,
    /// What no batch means for this engine, when it is more than "no batch".
    pub nothing: Option<&'static str>,
}

/// The queue's event tables: which is current, and how many events each holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tables {
    pub current: i32,
    pub counts: Vec<i64>,
}

/// A queue engine as the script drives it. Two connections: `A` does everything but the
/// transaction left open, which is `B`'s.
pub trait Engine {
    /// The column heading, e.g. `PgQ 3.5 (C extension)`.
    fn label(&self) -> String;
    /// Creates the queue with the script's settings and one forced tick, then registers
    /// `BILLING` and `EMAIL` (each starts at that tick).
    fn setup(&mut self) -> Result<(), CheckError>;
    /// Sends `payloads` in one transaction on A; their event ids.
    fn send(&mut self, payloads: &[&str]) -> Result<Vec<i64>, CheckError>;
    /// Sends one event on B inside B's open transaction (begun if none is open).
    fn send_open(&mut self, payload: &str) -> Result<i64, CheckError>;
    fn commit_open(&mut self) -> Result<(), CheckError>;
    /// ticker(queue): the new tick's id, or None when no tick is due.
    fn ticker(&mut self) -> Result<Option<i64>, CheckError>;
    /// Forces the next tick, then ticker(queue).
    fn force_tick(&mut self) -> Result<Option<i64>, CheckError>;
    fn receive(&mut self, consumer: &str) -> Result<Received, CheckError>;
    /// Finishes the batch; the engine's return value.
    fn ack(&mut self, batch: i64) -> Result<i32, CheckError>;
    /// Puts `ev` of `batch` back for a retry after `seconds`; the engine's return value.
    fn retry(&mut self, batch: i64, ev: &Ev, seconds: i32) -> Result<i32, CheckError>;
    /// Moves due retries back into the queue; how many.
    fn retry_events(&mut self) -> Result<i32, CheckError>;
    /// Rotation, as the engine's maintenance does it.
    fn rotate(&mut self) -> Result<(), CheckError>;
    fn tables(&mut self) -> Result<Tables, CheckError>;
    /// Each consumer, by name, with the event table its oldest un-acked committed event is
    /// in (the oldest table in rotation order holding one), or None when it has none.
    fn cursors(&mut self) -> Result<Vec<(String, Option<i32>)>, CheckError>;
    /// Lets `seconds` pass for the engine: a sleep, or a move of the lab's clock.
    fn wait(&mut self, seconds: f64) -> Result<(), CheckError>;
    /// get_queue_info(queue): (tables, current table).
    fn queue_info(&mut self) -> Result<(i32, i32), CheckError>;
    /// The queue's dead letters, or None for an engine that has no dead letter queue.
    fn dead_letters(&mut self) -> Result<Option<i64>, CheckError>;
}

/// One step of the script as one engine did it: `compared` must be equal on both engines,
/// `shown` adds what is shown but not compared (event ids, batch ids, tick ids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub step: String,
    pub compared: String,
    pub shown: String,
    /// A step where the engines differ by design (see [`NOTES`]): shown, not compared.
    pub by_design: bool,
}

fn events_text(events: &[Ev], with_ids: bool) -> String {
    if events.is_empty() {
        return "(no events)".into();
    }
    events
        .iter()
        .map(|e| {
            let mut s = e.payload.clone();
            if with_ids {
                s.push_str(&format!("#{}", e.id));
            }
            if let Some(r) = e.retry {
                s.push_str(&format!(" (retry {r})"));
            }
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Compared: the events only. The lab's receive returns no rows both when no batch is due
/// and when it finished an empty one, so "no batch" and an empty batch compare equal; the
/// shown text keeps PgQ's distinction.
fn received_text(r: &Received, with_ids: bool) -> String {
    match r.batch {
        None if with_ids => r.nothing.unwrap_or("no batch").into(),
        None => events_text(&[], false),
        Some(b) if with_ids => {
            let mut s = format!("batch {b}: {}", events_text(&r.events, true));
            if r.finished_empty {
                s.push_str(", finished at once");
            }
            s
        }
        Some(_) => events_text(&r.events, false),
    }
}

/// The script, driving one engine; the rows it did.
pub struct Script<'e> {
    e: &'e mut dyn Engine,
    pub rows: Vec<Row>,
    /// Each consumer's open batch and its events.
    open: Vec<(String, Received)>,
}

impl<'e> Script<'e> {
    pub fn new(e: &'e mut dyn Engine) -> Self {
        Script {
            e,
            rows: Vec::new(),
            open: Vec::new(),
        }
    }

    fn row(&mut self, step: impl Into<String>, compared: impl Into<String>, shown: String) {
        self.rows.push(Row {
            step: step.into(),
            compared: compared.into(),
            shown,
            by_design: false,
        });
    }

    fn send(&mut self, payloads: &[&str]) -> Result<(), CheckError> {
        let ids = self.e.send(payloads)?;
        let ids: Vec<String> = ids.iter().map(|i| format!("#{i}")).collect();
        self.row(
            format!("A: send {} in one transaction, commit", payloads.join(", ")),
            "sent",
            format!("ids {}", ids.join(", ")),
        );
        Ok(())
    }

    fn ticker(&mut self, forced: bool) -> Result<(), CheckError> {
        let t = if forced {
            self.e.force_tick()?
        } else {
            self.e.ticker()?
        };
        let step = if forced {
            "force the next tick; ticker(queue)"
        } else {
            "ticker(queue)"
        };
        let compared = if t.is_some() { "tick" } else { "no tick" };
        let shown = t.map_or("no tick (NULL)".into(), |t| format!("tick {t}"));
        self.row(step, compared, shown);
        Ok(())
    }

    /// Receives for `consumer`; an empty or absent batch leaves nothing open.
    fn receive(&mut self, consumer: &str) -> Result<(), CheckError> {
        let r = self.e.receive(consumer)?;
        self.row(
            format!("{consumer}: receive"),
            received_text(&r, false),
            received_text(&r, true),
        );
        if r.batch.is_some() && !r.finished_empty {
            self.open.push((consumer.to_string(), r));
        }
        Ok(())
    }

    /// Acks the consumer's open batch; with none open (its receive got nothing), says so,
    /// so that both engines' runs have the same steps whatever they received.
    fn ack(&mut self, consumer: &str) -> Result<(), CheckError> {
        let Some(i) = self.open.iter().position(|(c, _)| c == consumer) else {
            self.row(
                format!("{consumer}: ack the batch"),
                "nothing open",
                "nothing open".into(),
            );
            return Ok(());
        };
        let (_, r) = self.open.remove(i);
        let batch = r.batch.expect("an open batch has an id");
        let n = self.e.ack(batch)?;
        self.row(
            format!("{consumer}: ack the batch"),
            format!("returns {n}"),
            format!("batch {batch}: returns {n}"),
        );
        Ok(())
    }

    fn receive_ack(&mut self, consumer: &str) -> Result<(), CheckError> {
        self.receive(consumer)?;
        self.ack(consumer)
    }

    /// Retries `payload` of the consumer's open batch; when the batch does not hold it (the
    /// engines differ already), the step says so and the script goes on.
    fn retry(&mut self, consumer: &str, payload: &str) -> Result<(), CheckError> {
        self.retry_after(consumer, payload, RETRY_SECONDS)
    }

    fn retry_after(&mut self, consumer: &str, payload: &str, secs: i32) -> Result<(), CheckError> {
        let step = format!("{consumer}: retry {payload} after {secs} s");
        let found = self
            .open
            .iter()
            .find(|(c, _)| c == consumer)
            .and_then(|(_, r)| {
                let e = r.events.iter().find(|e| e.payload == payload)?;
                Some((r.batch?, e.clone()))
            });
        let Some((batch, ev)) = found else {
            let text = format!("{payload} is not in an open batch of {consumer}");
            self.row(step, text.clone(), text);
            return Ok(());
        };
        let n = self.e.retry(batch, &ev, secs)?;
        self.row(
            step,
            format!("returns {n}"),
            format!("event #{}: returns {n}", ev.id),
        );
        Ok(())
    }

    fn wait(&mut self, seconds: f64) -> Result<(), CheckError> {
        self.e.wait(seconds)?;
        self.row(format!("{seconds} s pass"), "waited", "waited".to_string());
        Ok(())
    }

    fn retry_events(&mut self) -> Result<(), CheckError> {
        let n = self.e.retry_events()?;
        self.row(
            "maint_retry_events()",
            format!("{n} moved back"),
            format!("{n} moved back"),
        );
        Ok(())
    }

    fn rotate(&mut self) -> Result<(), CheckError> {
        let before = self.e.tables()?;
        self.e.rotate()?;
        let after = self.e.tables()?;
        let text = rotation_text(&before, &after);
        self.row("rotate the event tables", text.clone(), text);
        Ok(())
    }

    fn cursors(&mut self) -> Result<(), CheckError> {
        let text = cursors_text(&self.e.cursors()?);
        self.row(
            "each consumer's cursor: the table of its oldest un-acked event",
            text.clone(),
            text,
        );
        Ok(())
    }

    /// Billing, then email, each receives its batch and acks it.
    fn both_receive_ack(&mut self) -> Result<(), CheckError> {
        self.receive_ack(BILLING)?;
        self.receive_ack(EMAIL)
    }

    /// The whole script.
    pub fn run(&mut self) -> Result<(), CheckError> {
        self.e.setup()?;
        self.row(
            format!("set up (create, configure, force a tick, register {BILLING}, {EMAIL})"),
            "ready",
            "ready".into(),
        );
        // Transactions and the ticker's event-count threshold.
        self.send(&["o1"])?;
        self.ticker(false)?;
        let id = self.e.send_open("b1")?;
        self.row("B: begin; send b1 (left open)", "sent", format!("id #{id}"));
        self.send(&["o2", "o3"])?;
        self.ticker(false)?;
        self.both_receive_ack()?;
        let id = self.e.send_open("b2")?;
        self.e.commit_open()?;
        self.row("B: send b2; commit", "committed", format!("id #{id}"));
        self.send(&["o4"])?;
        self.ticker(true)?;
        // A retry: billing's o4 comes back after the delay, to billing only.
        self.receive(BILLING)?;
        self.retry(BILLING, "o4")?;
        self.ack(BILLING)?;
        self.cursors()?;
        self.receive_ack(EMAIL)?;
        for _ in 0..2 {
            self.wait(WAIT_SECONDS)?;
            self.retry_events()?;
            self.ticker(true)?;
            self.both_receive_ack()?;
        }
        // Rotation: switch, period not passed, the slowest consumer holds it back.
        self.rotate()?;
        self.send(&["o5"])?;
        self.cursors()?;
        self.ticker(true)?;
        self.both_receive_ack()?;
        self.rotate()?;
        self.wait(WAIT_SECONDS)?;
        self.rotate()?;
        self.ticker(true)?;
        self.receive_ack(BILLING)?;
        self.wait(WAIT_SECONDS)?;
        self.rotate()?;
        self.receive_ack(EMAIL)?;
        self.rotate()?;
        let (n, cur) = self.e.queue_info()?;
        let text = format!("{n} tables, current {cur}");
        self.row("get_queue_info(queue)", text.clone(), text);
        self.max_retries()
    }

    /// Where the engines differ by design: billing retries d1 at once, again and again. PgQ
    /// has no limit; the lab's nack moves d1 to the dead letter queue once it has been
    /// retried max_retries (5) times. The last cycle and the dead letters are by design.
    fn max_retries(&mut self) -> Result<(), CheckError> {
        self.send(&["d1"])?;
        self.ticker(true)?;
        self.receive(BILLING)?;
        for cycle in 1..=MAX_RETRIES + 1 {
            let n = self.rows.len();
            self.retry_now(BILLING, "d1")?;
            self.ack(BILLING)?;
            self.retry_events()?;
            self.ticker(true)?;
            self.receive(BILLING)?;
            // One row for the cycle: all of it compared; shown: moved back, tick, what came
            // back.
            let parts: Vec<Row> = self.rows.drain(n..).collect();
            let compared: Vec<&str> = parts.iter().map(|r| r.compared.as_str()).collect();
            let shown: Vec<&str> = parts[2..].iter().map(|r| r.shown.as_str()).collect();
            self.rows.push(Row {
                step: format!(
                    "cycle {cycle}: {BILLING} retries d1 (0 s), acks; maint_retry_events(); \
                     tick; receive"
                ),
                compared: compared.join("; "),
                shown: shown.join("; "),
                by_design: cycle > MAX_RETRIES,
            });
        }
        // Only PgQ delivered d1 a sixth time, so only PgQ has a batch to ack.
        self.ack(BILLING)?;
        if let Some(last) = self.rows.last_mut() {
            last.by_design = true;
        }
        let dead = self.e.dead_letters()?;
        let text = dead.map_or("no dead letter queue".into(), |n| {
            format!("dead letters: {n}")
        });
        self.rows.push(Row {
            step: "dead letters (dlq_inspect)".into(),
            compared: text.clone(),
            shown: text,
            by_design: true,
        });
        Ok(())
    }

    fn retry_now(&mut self, consumer: &str, payload: &str) -> Result<(), CheckError> {
        self.retry_after(consumer, payload, 0)
    }
}

/// What a rotation did, from the event tables before and after: the switch, and each table
/// it emptied with how many events it held.
pub fn rotation_text(before: &Tables, after: &Tables) -> String {
    let emptied: Vec<String> = before
        .counts
        .iter()
        .zip(&after.counts)
        .enumerate()
        .filter(|(_, (b, a))| *a < *b)
        .map(|(i, (b, a))| format!("table {i} emptied ({} events)", b - a))
        .collect();
    let mut s = if before.current == after.current {
        format!("no switch (current {})", after.current)
    } else {
        format!("switch {} → {}", before.current, after.current)
    };
    if !emptied.is_empty() {
        s.push_str("; ");
        s.push_str(&emptied.join(", "));
    }
    s
}

/// Each consumer's cursor table, e.g. `billing: caught up; email: table 0`.
pub fn cursors_text(cursors: &[(String, Option<i32>)]) -> String {
    cursors
        .iter()
        .map(|(c, t)| match t {
            Some(t) => format!("{c}: table {t}"),
            None => format!("{c}: caught up"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Both runs of the script, row by row.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub server: String,
    pub pgq_label: String,
    pub pgq: Vec<Row>,
    pub lab_label: String,
    pub lab: Vec<Row>,
}

impl Comparison {
    /// The steps where the two engines differ in what is compared.
    pub fn differences(&self) -> Vec<String> {
        let lab = &self.lab;
        let mut out = Vec::new();
        if lab.len() != self.pgq.len() {
            out.push(format!(
                "PgQ did {} steps, the lab's engine {}",
                self.pgq.len(),
                lab.len()
            ));
        }
        for (i, (p, l)) in self.pgq.iter().zip(lab).enumerate() {
            if p.compared != l.compared && !p.by_design {
                out.push(format!(
                    "step {} ({}): PgQ {:?}, lab {:?}",
                    i + 1,
                    p.step,
                    p.compared,
                    l.compared
                ));
            }
        }
        out
    }

    /// The side-by-side table and the notes on differences by design.
    pub fn table(&self) -> String {
        let header = vec![
            "#".to_string(),
            "step".to_string(),
            self.pgq_label.clone(),
            self.lab_label.clone(),
            "same".to_string(),
        ];
        let rows: Vec<Vec<String>> = self
            .pgq
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let l = self.lab.get(i);
                vec![
                    (i + 1).to_string(),
                    p.step.clone(),
                    p.shown.clone(),
                    l.map_or("(no such step)".into(), |l| l.shown.clone()),
                    match l {
                        Some(l) if l.compared == p.compared => "yes".into(),
                        Some(_) if p.by_design => "by design".into(),
                        _ => "NO".into(),
                    },
                ]
            })
            .collect();
        let mut out = format!(
            "L4's engine against PgQ, one script on both.\nserver: {}\nqueue {QUEUE}: \
             {NTABLES} event tables, ticker_max_count {MAX_COUNT}, ticker_max_lag and \
             ticker_idle_period 1 hour, rotation_period {ROTATION_SECONDS} s; consumers \
             {BILLING} and {EMAIL}; A and B are two connections.\n\n{}",
            self.server,
            table(&header, &rows, 4)
        );
        out.push_str(
            "\n\nCompared on each step: payloads in order with retry counts, tick or no \
             tick, return values, the rotation's switch and emptied tables. Differences by \
             design:",
        );
        for n in NOTES {
            out.push_str("\n- ");
            out.push_str(n);
        }
        out
    }
}

/// Runs the script on PgQ and on the lab's engine in the database at `url`. Installs PgQ
/// (`create extension pgq`) for the run and drops it at the end; refuses to run when PgQ is
/// already installed there (it would drop someone's queues).
pub fn run(url: &str) -> Result<Comparison, CheckError> {
    target::run_in_schemas(
        url,
        "pgq --against-pgq",
        &[CLOCK_SCHEMA, crate::pgq::lab_schema()],
        &["pgq", "pgque"],
        || {
            let mut admin = target::connect(url)?;
            let server = target::server_version(&mut admin)?;
            let mut ext = pgq_ext::PgqExt::install(url, &mut admin)?;
            let pgq = (|| {
                let mut s = Script::new(&mut ext);
                s.run()?;
                Ok(s.rows)
            })();
            let label = ext.label();
            let dropped = ext.uninstall(&mut admin);
            let pgq = pgq?;
            dropped?;
            let mut engine = lab::engine(url)?;
            let lab_label = engine.label();
            let mut s = Script::new(&mut engine);
            s.run()?;
            let lab = s.rows;
            Ok(Comparison {
                server,
                pgq_label: label,
                pgq,
                lab_label,
                lab,
            })
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rotation_names_the_switch_and_each_table_it_emptied() {
        let before = Tables {
            current: 2,
            counts: vec![7, 1, 0],
        };
        let after = Tables {
            current: 0,
            counts: vec![0, 1, 0],
        };
        assert_eq!(
            rotation_text(&before, &after),
            "switch 2 → 0; table 0 emptied (7 events)"
        );
        assert_eq!(rotation_text(&after, &after), "no switch (current 0)");
    }

    #[test]
    fn a_step_differs_only_in_what_is_compared() {
        let row = |c: &str, s: &str| Row {
            step: "x".into(),
            compared: c.into(),
            shown: s.into(),
            by_design: false,
        };
        let mut cmp = Comparison {
            server: "s".into(),
            pgq_label: "PgQ".into(),
            pgq: vec![row("o1", "o1#1"), row("tick", "tick 3")],
            lab_label: "lab".into(),
            lab: vec![row("o1", "o1#1"), row("tick", "tick 2")],
        };
        assert!(cmp.differences().is_empty(), "{:?}", cmp.differences());
        cmp.lab = vec![row("o1", "o1#1"), row("no tick", "no tick")];
        assert_eq!(cmp.differences().len(), 1);
        assert!(cmp.table().contains("NO"));
        cmp.pgq[1].by_design = true;
        assert!(
            cmp.differences().is_empty(),
            "a step by design is shown, not compared"
        );
        assert!(cmp.table().contains("by design"));
        cmp.lab.pop();
        assert_eq!(cmp.differences().len(), 1, "a missing step is a difference");
    }
}
