//! The script's operations on the lab's engine (schema `pgque`, `src/sql/pgque/*.sql`), with
//! L4's own statements (`src/sql/pgque/lab/*.sql`), on the lab's clock and search path as
//! the app runs them. B, the connection that holds a transaction open, is a lab session too,
//! its clock set to A's before it begins.

use postgres::types::Type;
use postgres::Client;

use super::{Engine, Ev, Received, Tables, BILLING, EMAIL, EVENT_TYPE, NTABLES, QUEUE};
use crate::pgq::stmt::{
    ACK, CREATE_QUEUE, CURSOR_INFO, DLQ_INSPECT, FORCE_TICK, MAINT, NACK, QUEUE_CONFIG, QUEUE_INFO,
    RECEIVE, RETRY_EVENTS, ROTATE_STEP2, SEND, SUBSCRIBE, TABLE_INFO, TICK,
};
use crate::target;
use crate::{context, CheckError};

/// The most events one receive returns: above any batch of the script, so a receive returns
/// the whole batch.
const MAX_RETURN: i32 = 100;

/// Installs the engine (`create schema pgque` and its functions) on a lab session, and
/// opens B.
pub fn engine(url: &str) -> Result<LabEngine, CheckError> {
    let a = crate::pgq::engine_session(url)?;
    let b = target::lab_session(url, crate::pgq::lab_schema())?;
    Ok(LabEngine {
        a,
        b,
        b_open: false,
    })
}

pub struct LabEngine {
    a: Client,
    b: Client,
    b_open: bool,
}

fn send_on(c: &mut Client, payload: &str) -> Result<i64, CheckError> {
    let stmt = context(
        c.prepare_typed(SEND, &[Type::TEXT, Type::TEXT, Type::TEXT]),
        "send.sql",
    )?;
    Ok(context(
        c.query_one(&stmt, &[&QUEUE, &EVENT_TYPE, &payload]),
        "send.sql",
    )?
    .get("msg_id"))
}

impl LabEngine {
    fn on_queue(&mut self, sql: &str, what: &str) -> Result<Vec<postgres::Row>, CheckError> {
        let stmt = context(self.a.prepare_typed(sql, &[Type::TEXT]), what)?;
        context(self.a.query(&stmt, &[&QUEUE]), what)
    }
}

impl Engine for LabEngine {
    fn label(&self) -> String {
        "lab engine (pgque, PL/pgSQL, lab clock)".into()
    }

    fn setup(&mut self) -> Result<(), CheckError> {
        let stmt = context(
            self.a
                .prepare_typed(CREATE_QUEUE, &[Type::TEXT, Type::INT4]),
            "create_queue.sql",
        )?;
        context(self.a.query(&stmt, &[&QUEUE, &NTABLES]), "create_queue.sql")?;
        let config = context(
            self.a
                .prepare_typed(QUEUE_CONFIG, &[Type::TEXT, Type::TEXT, Type::TEXT]),
            "queue_config.sql",
        )?;
        for (param, value) in super::queue_config() {
            context(
                self.a.query(&config, &[&QUEUE, &param, &value]),
                "queue_config.sql",
            )?;
        }
        if self.force_tick()?.is_none() {
            return Err(CheckError(
                "lab: ticker() made no tick after force_next_tick()".into(),
            ));
        }
        let subscribe = context(
            self.a.prepare_typed(SUBSCRIBE, &[Type::TEXT, Type::TEXT]),
            "subscribe.sql",
        )?;
        for consumer in [BILLING, EMAIL] {
            context(
                self.a.query(&subscribe, &[&QUEUE, &consumer]),
                "subscribe.sql",
            )?;
        }
        Ok(())
    }

    fn send(&mut self, payloads: &[&str]) -> Result<Vec<i64>, CheckError> {
        context(self.a.batch_execute("begin"), "begin")?;
        let mut ids = Vec::new();
        for p in payloads {
            match send_on(&mut self.a, p) {
                Ok(id) => ids.push(id),
                Err(e) => {
                    let _ = self.a.batch_execute("rollback");
                    return Err(e);
                }
            }
        }
        context(self.a.batch_execute("commit"), "commit")?;
        Ok(ids)
    }

    fn send_open(&mut self, payload: &str) -> Result<i64, CheckError> {
        if !self.b_open {
            let clock: String = context(
                self.a.query_one("select current_setting('lab.clock')", &[]),
                "reading A's lab clock",
            )?
            .get(0);
            context(
                self.b
                    .query_one("select set_config('lab.clock', $1, false)", &[&clock]),
                "B: setting the lab clock",
            )?;
            context(self.b.batch_execute("begin"), "B: begin")?;
            self.b_open = true;
        }
        send_on(&mut self.b, payload)
    }

    fn commit_open(&mut self) -> Result<(), CheckError> {
        context(self.b.batch_execute("commit"), "B: commit")?;
        self.b_open = false;
        Ok(())
    }

    fn ticker(&mut self) -> Result<Option<i64>, CheckError> {
        let rows = self.on_queue(TICK, "tick.sql")?;
        Ok(rows.first().and_then(|r| r.get("tick_id")))
    }

    fn force_tick(&mut self) -> Result<Option<i64>, CheckError> {
        self.on_queue(FORCE_TICK, "force_tick.sql")?;
        self.ticker()
    }

    fn receive(&mut self, consumer: &str) -> Result<Received, CheckError> {
        let stmt = context(
            self.a
                .prepare_typed(RECEIVE, &[Type::TEXT, Type::TEXT, Type::INT4]),
            "receive.sql",
        )?;
        let rows = context(
            self.a.query(&stmt, &[&QUEUE, &consumer, &MAX_RETURN]),
            "receive.sql",
        )?;
        let events: Vec<Ev> = rows
            .iter()
            .map(|r| Ev {
                id: r.get("msg_id"),
                payload: r.get::<_, Option<String>>("payload").unwrap_or_default(),
                retry: r.get("retry_count"),
            })
            .collect();
        Ok(Received {
            batch: rows.first().map(|r| r.get("batch_id")),
            events,
            finished_empty: false,
            nothing: Some("no rows (no batch due, or an empty one it finished)"),
        })
    }

    fn ack(&mut self, batch: i64) -> Result<i32, CheckError> {
        let stmt = context(self.a.prepare_typed(ACK, &[Type::INT8]), "ack.sql")?;
        Ok(context(self.a.query_one(&stmt, &[&batch]), "ack.sql")?.get("finished"))
    }

    fn retry(&mut self, batch: i64, ev: &Ev, seconds: i32) -> Result<i32, CheckError> {
        let stmt = context(
            self.a
                .prepare_typed(NACK, &[Type::INT8, Type::INT8, Type::FLOAT8, Type::TEXT]),
            "nack.sql",
        )?;
        let reason: Option<&str> = None;
        Ok(context(
            self.a
                .query_one(&stmt, &[&batch, &ev.id, &f64::from(seconds), &reason]),
            "nack.sql",
        )?
        .get("nacked"))
    }

    fn retry_events(&mut self) -> Result<i32, CheckError> {
        Ok(context(self.a.query_one(RETRY_EVENTS, &[]), "retry_events.sql")?.get("released"))
    }

    fn rotate(&mut self) -> Result<(), CheckError> {
        // Rotation step 1 (maint_report, what maint() does), then step 2 in a transaction of
        // its own: the two calls PgQ's side makes.
        context(self.a.query(MAINT, &[]), "maint.sql")?;
        context(self.a.query(ROTATE_STEP2, &[]), "rotate_step2.sql")?;
        Ok(())
    }

    fn tables(&mut self) -> Result<Tables, CheckError> {
        let rows = self.on_queue(TABLE_INFO, "table_info.sql")?;
        let mut t = Tables::default();
        for r in rows {
            let no: i32 = r.get("table_no");
            if r.get::<_, bool>("is_current") {
                t.current = no;
            }
            t.counts.push(r.get("events"));
        }
        Ok(t)
    }

    fn cursors(&mut self) -> Result<Vec<(String, Option<i32>)>, CheckError> {
        let rows = self.on_queue(CURSOR_INFO, "cursor_info.sql")?;
        Ok(rows
            .iter()
            .map(|r| (r.get("consumer_name"), r.get("table_no")))
            .collect())
    }

    fn wait(&mut self, seconds: f64) -> Result<(), CheckError> {
        target::advance_clock(&mut self.a, seconds)
    }

    fn dead_letters(&mut self) -> Result<Option<i64>, CheckError> {
        let stmt = context(
            self.a.prepare_typed(DLQ_INSPECT, &[Type::TEXT, Type::INT4]),
            "dlq_inspect.sql",
        )?;
        let rows = context(self.a.query(&stmt, &[&QUEUE, &100i32]), "dlq_inspect.sql")?;
        Ok(Some(rows.len() as i64))
    }

    fn queue_info(&mut self) -> Result<(i32, i32), CheckError> {
        let rows = self.on_queue(QUEUE_INFO, "queue_info.sql")?;
        let r = rows
            .first()
            .ok_or_else(|| CheckError("queue_info.sql returned no row".into()))?;
        Ok((r.get("queue_ntables"), r.get("queue_cur_table")))
    }
}
