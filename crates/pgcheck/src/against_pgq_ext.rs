//! The script's operations on PgQ's C extension (schema `pgq`), by PgQ's own functions:
//! `create_queue`, `set_queue_config`, `register_consumer`, `insert_event`, `ticker`,
//! `force_tick`, `next_batch`, `get_batch_events`, `finish_batch`, `event_retry`,
//! `maint_retry_events`, `maint_rotate_tables_step1/2`, `get_queue_info`.
//!
//! The connections here are plain ones, without the lab's clock: PgQ's functions call
//! `now()` unqualified, and on the lab's search path that would be the lab's clock.

use std::time::Duration;

use postgres::Client;

use super::{Engine, Ev, Received, Tables, BILLING, EMAIL, EVENT_TYPE, QUEUE};
use crate::target;
use crate::{context, CheckError};

pub struct PgqExt {
    a: Client,
    b: Option<Client>,
    b_open: bool,
    version: String,
}

impl PgqExt {
    /// `create extension pgq` on `admin`'s database, and the script's two connections.
    /// Fails with what to install when the server has no PgQ.
    pub fn install(url: &str, admin: &mut Client) -> Result<PgqExt, CheckError> {
        let available = context(
            admin.query_opt(
                "select default_version from pg_available_extensions where name = 'pgq'",
                &[],
            ),
            "looking for PgQ among the server's extensions",
        )?;
        if available.is_none() {
            let major: i32 = context(
                admin.query_one(
                    "select current_setting('server_version_num')::int / 10000",
                    &[],
                ),
                "reading server_version_num",
            )?
            .get(0);
            return Err(CheckError(format!(
                "PgQ is not installed on this server, so L4's engine cannot be checked \
                 against it. On Debian or Ubuntu: apt-get install postgresql-{major}-pgq3 \
                 (`./lab setup` does it for the newest installed server)."
            )));
        }
        // The connections first: once the extension exists, the caller's uninstall drops it.
        let a = target::connect(url)?;
        let b = target::connect(url)?;
        context(
            admin.batch_execute("create extension pgq"),
            "create extension pgq",
        )?;
        let version = match admin.query_one(
            "select extversion from pg_extension where extname = 'pgq'",
            &[],
        ) {
            Ok(r) => r.get(0),
            Err(e) => {
                let _ = admin.batch_execute("drop extension if exists pgq cascade");
                return Err(CheckError(format!("reading PgQ's version: {e}")));
            }
        };
        Ok(PgqExt {
            a,
            b: Some(b),
            b_open: false,
            version,
        })
    }

    /// Ends B's transaction, if any, and drops the extension with its queues.
    pub fn uninstall(&mut self, admin: &mut Client) -> Result<(), CheckError> {
        // B's open transaction holds a lock on an event table: end it before the drop.
        drop(self.b.take());
        context(
            admin.batch_execute("drop extension if exists pgq cascade"),
            "drop extension pgq",
        )?;
        Ok(())
    }

    fn b(&mut self) -> &mut Client {
        self.b.as_mut().expect("B is open until uninstall")
    }

    fn one_i32(&mut self, sql: &str, what: &str) -> Result<i32, CheckError> {
        Ok(context(self.a.query_one(sql, &[]), what)?.get(0))
    }
}

impl Engine for PgqExt {
    fn label(&self) -> String {
        format!("PgQ {} (C extension)", self.version)
    }

    fn setup(&mut self) -> Result<(), CheckError> {
        let a = &mut self.a;
        context(
            a.query_one("select pgq.create_queue($1)", &[&QUEUE]),
            "pgq.create_queue()",
        )?;
        for (param, value) in super::queue_config() {
            context(
                a.query_one(
                    "select pgq.set_queue_config($1, $2, $3)",
                    &[&QUEUE, &param, &value],
                ),
                "pgq.set_queue_config()",
            )?;
        }
        if self.force_tick()?.is_none() {
            return Err(CheckError(
                "PgQ: ticker() made no tick after force_tick()".into(),
            ));
        }
        for consumer in [BILLING, EMAIL] {
            context(
                self.a
                    .query_one("select pgq.register_consumer($1, $2)", &[&QUEUE, &consumer]),
                "pgq.register_consumer()",
            )?;
        }
        Ok(())
    }

    fn send(&mut self, payloads: &[&str]) -> Result<Vec<i64>, CheckError> {
        let mut tx = context(self.a.transaction(), "begin")?;
        let mut ids = Vec::new();
        for p in payloads {
            let r = context(
                tx.query_one(
                    "select pgq.insert_event($1, $2, $3)",
                    &[&QUEUE, &EVENT_TYPE, p],
                ),
                "pgq.insert_event()",
            )?;
            ids.push(r.get(0));
        }
        context(tx.commit(), "commit")?;
        Ok(ids)
    }

    fn send_open(&mut self, payload: &str) -> Result<i64, CheckError> {
        if !self.b_open {
            context(self.b().batch_execute("begin"), "B: begin")?;
            self.b_open = true;
        }
        let r = context(
            self.b().query_one(
                "select pgq.insert_event($1, $2, $3)",
                &[&QUEUE, &EVENT_TYPE, &payload],
            ),
            "B: pgq.insert_event",
        )?;
        Ok(r.get(0))
    }

    fn commit_open(&mut self) -> Result<(), CheckError> {
        context(self.b().batch_execute("commit"), "B: commit")?;
        self.b_open = false;
        Ok(())
    }

    fn ticker(&mut self) -> Result<Option<i64>, CheckError> {
        Ok(context(
            self.a.query_one("select pgq.ticker($1)", &[&QUEUE]),
            "pgq.ticker()",
        )?
        .get(0))
    }

    fn force_tick(&mut self) -> Result<Option<i64>, CheckError> {
        context(
            self.a.query_one("select pgq.force_tick($1)", &[&QUEUE]),
            "pgq.force_tick()",
        )?;
        self.ticker()
    }

    fn receive(&mut self, consumer: &str) -> Result<Received, CheckError> {
        let batch: Option<i64> = context(
            self.a
                .query_one("select pgq.next_batch($1, $2)", &[&QUEUE, &consumer]),
            "pgq.next_batch()",
        )?
        .get(0);
        let Some(b) = batch else {
            return Ok(Received::default());
        };
        let rows = context(
            self.a.query(
                "select ev_id, ev_data, ev_retry from pgq.get_batch_events($1)",
                &[&b],
            ),
            "pgq.get_batch_events()",
        )?;
        let events: Vec<Ev> = rows
            .iter()
            .map(|r| Ev {
                id: r.get(0),
                payload: r.get::<_, Option<String>>(1).unwrap_or_default(),
                retry: r.get(2),
            })
            .collect();
        let finished_empty = events.is_empty();
        if finished_empty {
            self.ack(b)?;
        }
        Ok(Received {
            batch: Some(b),
            events,
            finished_empty,
            nothing: None,
        })
    }

    fn ack(&mut self, batch: i64) -> Result<i32, CheckError> {
        Ok(context(
            self.a.query_one("select pgq.finish_batch($1)", &[&batch]),
            "pgq.finish_batch()",
        )?
        .get(0))
    }

    fn retry(&mut self, batch: i64, ev: &Ev, seconds: i32) -> Result<i32, CheckError> {
        Ok(context(
            self.a.query_one(
                "select pgq.event_retry($1::bigint, $2::bigint, $3::integer)",
                &[&batch, &ev.id, &seconds],
            ),
            "pgq.event_retry()",
        )?
        .get(0))
    }

    fn retry_events(&mut self) -> Result<i32, CheckError> {
        self.one_i32(
            "select pgq.maint_retry_events()",
            "pgq.maint_retry_events()",
        )
    }

    fn rotate(&mut self) -> Result<(), CheckError> {
        // Two statements, so two transactions, as PgQ's docs require.
        context(
            self.a
                .query_one("select pgq.maint_rotate_tables_step1($1)", &[&QUEUE]),
            "pgq.maint_rotate_tables_step1()",
        )?;
        self.one_i32(
            "select pgq.maint_rotate_tables_step2()",
            "pgq.maint_rotate_tables_step2()",
        )?;
        Ok(())
    }

    fn tables(&mut self) -> Result<Tables, CheckError> {
        let q = context(
            self.a.query_one(
                "select queue_id, queue_cur_table, queue_ntables from pgq.queue
                  where queue_name = $1",
                &[&QUEUE],
            ),
            "reading pgq.queue",
        )?;
        let (id, current, n): (i32, i32, i32) = (q.get(0), q.get(1), q.get(2));
        // Each table's rows, counted by a statement that names the table (an identifier,
        // quoted by format's %I), run by query_to_xml.
        let rows = context(
            self.a.query(
                "select (xpath('/row/c/text()',
                               query_to_xml(format('select count(*) as c from only pgq.%I',
                                                   'event_' || $1::int || '_' || t),
                                            false, true, '')))[1]::text::bigint
                   from generate_series(0, $2::int - 1) t order by t",
                &[&id, &n],
            ),
            "counting the events of each event table",
        )?;
        Ok(Tables {
            current,
            counts: rows.iter().map(|r| r.get(0)).collect(),
        })
    }

    fn cursors(&mut self) -> Result<Vec<(String, Option<i32>)>, CheckError> {
        // PgQ has no call for it: its own tables, read as the lab's get_cursor_info reads
        // the lab's. Per consumer, the events its cursor tick's snapshot does not see (and
        // addressed to all, or to it), table by table from the oldest (the one after the
        // current) round to the current; each table counted by a statement that names it
        // (format's %I and %L), run by query_to_xml.
        let rows = context(
            self.a.query(
                "select co.co_name,
                        (select x.t from generate_series(1, q.queue_ntables) k,
                                lateral (select (q.queue_cur_table + k) % q.queue_ntables as t) x
                          where (xpath('/row/c/text()', query_to_xml(format(
                                   'select count(*) as c from only pgq.%I e
                                     where e.ev_txid >= txid_snapshot_xmin(%L::txid_snapshot)
                                       and not txid_visible_in_snapshot(e.ev_txid, %L::txid_snapshot)
                                       and (e.ev_owner is null or e.ev_owner = %s)',
                                   'event_' || q.queue_id || '_' || x.t, tk.tick_snapshot,
                                   tk.tick_snapshot, s.sub_id),
                                 false, true, '')))[1]::text::bigint > 0
                          order by k limit 1)
                   from pgq.queue q
                   join pgq.subscription s on s.sub_queue = q.queue_id
                   join pgq.consumer co on co.co_id = s.sub_consumer
                   join pgq.tick tk on tk.tick_queue = q.queue_id and tk.tick_id = s.sub_last_tick
                  where q.queue_name = $1
                  order by co.co_name",
                &[&QUEUE],
            ),
            "reading each consumer's oldest un-acked event table",
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    fn wait(&mut self, seconds: f64) -> Result<(), CheckError> {
        std::thread::sleep(Duration::from_secs_f64(seconds));
        Ok(())
    }

    fn dead_letters(&mut self) -> Result<Option<i64>, CheckError> {
        Ok(None)
    }

    fn queue_info(&mut self) -> Result<(i32, i32), CheckError> {
        let r = context(
            self.a.query_one(
                "select queue_ntables, queue_cur_table from pgq.get_queue_info($1)",
                &[&QUEUE],
            ),
            "pgq.get_queue_info()",
        )?;
        Ok((r.get(0), r.get(1)))
    }
}
