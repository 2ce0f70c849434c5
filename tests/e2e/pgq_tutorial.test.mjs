// PgQue's tutorial (NikolayS/PgQue docs/tutorial.md) and recipes of its docs/examples.md,
// replayed in L4's SQL console (#/pgq) in the tutorial's order, each code block pasted as a
// learner would paste it, checking what those pages show where the lab can give the same.
// The statements are written here (short SQL lines); the prose is PgQue's.
//
// Where the lab differs, and why (each noted again at its statement):
// - L4 has its own queue named `orders` (consumers billing and email), so the tutorial's
//   create_queue('orders') returns 0 (it already exists), and ids (event, batch, tick, dl_id)
//   are the lab's, not the tutorial's illustrative 1, 2, 3.
// - `\i sql/pgque.sql` gets the console's hint: the engine is installed already.
// - pg_cron lines get the console's hint: the lab clock is the scheduler.
// - version() and status() are the lab's (its version string, its scheduler rows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { newPage, startPostgres, useSite, pgqIdle, runInConsole } from './harness.mjs';

const site = useSite();
const SHOTS = '/tmp/console-shots';

/** A new page on L4 in English, PostgreSQL started, the lab idle, its console ready. */
async function openL4Console() {
  const page = await newPage(site.browser);
  await page.goto(`${site.server.url}?lang=en#/pgq`);
  await startPostgres(page);
  await page.waitForSelector('#tick', { timeout: 60_000 });
  await pgqIdle(page);
  await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('#console-run'))?.disabled, null, { timeout: 60_000 });
  return page;
}

/** Runs `sql` in the console and returns each step: { step, failed, stmt, summary, cells,
 * fields, notices, note, echo, error }. */
async function run(page, sql) {
  await runInConsole(page, sql);
  return page.$$eval('.console-result .console-step', (els) =>
    els.map((el) => {
      const text = (sel) => el.querySelector(sel)?.textContent.trim() ?? null;
      return {
        step: Number(el.dataset.step),
        failed: el.dataset.failed === 'true',
        stmt: text('pre.console-stmt'),
        summary: text('.console-summary'),
        fields: Array.from(el.querySelectorAll('table.result thead th'), (th) => th.textContent),
        cells: Array.from(el.querySelectorAll('table.result tbody tr'), (tr) => Array.from(tr.cells, (td) => td.textContent)),
        notices: text('pre.console-notices'),
        note: text('.console-note'),
        echo: text('pre.console-echo'),
        error: text('.error'),
      };
    }),
  );
}

/** Runs `sql`, asserts that no step failed, returns the steps. */
async function ok(page, sql) {
  const steps = await run(page, sql);
  const failed = steps.filter((s) => s.failed);
  assert.deepEqual(failed.map((s) => `${s.stmt ?? sql}: ${s.error}`), [], `no step fails in:\n${sql}`);
  return steps;
}

/** The one value of a step's one-row, one-column result. */
function value(step) {
  assert.equal(step.cells.length, 1, `one row from ${step.stmt}`);
  return step.cells[0][0];
}

/** A step's rows as objects by column name. */
function rows(step) {
  return step.cells.map((r) => Object.fromEntries(r.map((v, i) => [step.fields[i], v])));
}

const NACK_BLOCK = (reason) => `do $$
declare
    v_msg pgque.message;
begin
    select * into v_msg from pgque.receive('orders', 'processor', 1) limit 1;
    perform pgque.nack(v_msg.batch_id, v_msg, '0 seconds'::interval, '${reason}');
    perform pgque.ack(v_msg.batch_id);
end $$;`;

test('PgQue\'s tutorial, statement by statement, in L4\'s console', { timeout: 600_000 }, async () => {
  const page = await openL4Console();

  // Step 1: install. `\i` gets the hint; the transaction around it opens and commits.
  let s = await ok(page, 'begin;\n\\i sql/pgque.sql\ncommit;');
  assert.equal(s.length, 3);
  assert.equal(s[0].summary, 'BEGIN');
  assert.match(s[1].note, /^\\i sql\/pgque\.sql reads a file.*installed already/);
  assert.equal(s[2].summary, 'COMMIT');
  s = await ok(page, 'select pgque.version();');
  // The tutorial shows 0.2.0; the lab's engine names itself.
  assert.match(value(s[0]), /^\d+\.\d+\.\d+/);
  // The grants of step 1 name the reader's own roles (app_orders…), which the tutorial says
  // to skip when following as the install owner; the roles themselves exist:
  s = await ok(page, "select string_agg(rolname, ',' order by rolname) as roles from pg_roles where rolname like 'pgque\\_%';");
  assert.equal(value(s[0]), 'pgque_admin,pgque_reader,pgque_writer');
  // The grants themselves, once the app roles they name exist (the tutorial assumes them).
  await ok(page, 'create role app_orders; create role app_webhook; create role metrics;');
  s = await ok(page, `-- produce and consume:
grant pgque_reader, pgque_writer to app_orders;

-- produce only:
grant pgque_writer to app_webhook;

-- consume only (dashboard, metrics):
grant pgque_reader to metrics;`);
  assert.deepEqual(s.map((x) => x.summary), ['GRANT ROLE', 'GRANT ROLE', 'GRANT ROLE']);

  // Step 2: create the queue and the consumer. L4's own queue is already named `orders`, so
  // create_queue returns 0 here where the tutorial shows 1 (it documents 0 for an existing one).
  s = await ok(page, "select pgque.create_queue('orders');\nselect pgque.subscribe('orders', 'processor');");
  assert.deepEqual(s.map((x) => x.fields), [['create_queue'], ['subscribe']]);
  assert.equal(value(s[0]), '0');
  assert.equal(value(s[1]), '1');

  // Step 3: send an order (jsonb). The id is the lab's next event id.
  s = await ok(page, `select pgque.send('orders', '{"order_id": 42, "total": 99.95}'::jsonb);`);
  assert.deepEqual(s[0].fields, ['send']);
  const first = Number(value(s[0]));
  assert.ok(first >= 1);

  // Step 4: receive before a tick: zero rows, no error.
  s = await ok(page, "select * from pgque.receive('orders', 'processor', 100);");
  assert.equal(s[0].cells.length, 0);
  assert.deepEqual(s[0].fields.slice(0, 6), ['msg_id', 'batch_id', 'type', 'payload', 'retry_count', 'created_at']);
  assert.match(s[0].summary, /^0 rows$/);

  // Step 5: force the next tick, tick, receive.
  s = await ok(page, "select pgque.force_next_tick('orders');\nselect pgque.ticker();");
  assert.deepEqual(s.map((x) => x.fields), [['force_next_tick'], ['ticker']]);
  assert.ok(Number(value(s[1])) >= 1, 'ticker() ticked at least the orders queue');
  s = await ok(page, "select * from pgque.receive('orders', 'processor', 100);");
  let got = rows(s[0]);
  assert.equal(got.length, 1);
  assert.equal(Number(got[0].msg_id), first);
  assert.equal(got[0].type, 'default');
  assert.equal(got[0].payload, '{"total": 99.95, "order_id": 42}', 'jsonb canonical order, as the tutorial shows');
  assert.equal(got[0].retry_count, 'NULL');
  const batch = Number(got[0].batch_id);

  // Step 6: ack with \gset and :batch_id (bound as a parameter).
  s = await ok(page, "select batch_id from pgque.receive('orders', 'processor', 100) limit 1 \\gset\nselect pgque.ack(:batch_id);");
  assert.match(s[0].summary, /stored batch_id/);
  assert.deepEqual(s[1].fields, ['ack']);
  assert.equal(value(s[1]), '1');
  assert.equal(s[1].stmt, 'select pgque.ack($1)');
  s = await ok(page, '\\echo :batch_id');
  assert.equal(s[0].echo, String(batch));
  s = await ok(page, "select * from pgque.receive('orders', 'processor', 100);");
  assert.equal(s[0].cells.length, 0);

  // Step 7: a bad order, nack with a delay, watch it come back.
  await ok(page, "select pgque.set_queue_config('orders', 'max_retries', '2');");
  s = await ok(page, `select pgque.send('orders', '{"order_id": 43, "total": 10.00}'::jsonb);
select pgque.force_next_tick('orders');
select pgque.ticker();
select * from pgque.receive('orders', 'processor', 100);`);
  const bad = Number(value(s[0]));
  got = rows(s[3]);
  assert.equal(got.length, 1);
  assert.equal(Number(got[0].msg_id), bad);
  assert.equal(got[0].payload, '{"total": 10.00, "order_id": 43}');
  assert.equal(got[0].retry_count, 'NULL');
  s = await ok(page, NACK_BLOCK('simulated failure'));
  assert.equal(s[0].summary, 'DO');
  s = await ok(page, `select pgque.maint_retry_events();
select pgque.force_next_tick('orders');
select pgque.ticker();
select * from pgque.receive('orders', 'processor', 100);`);
  assert.equal(value(s[0]), '1', 'maint_retry_events moved the one due retry');
  got = rows(s[3]);
  assert.equal(got.length, 1);
  assert.equal(Number(got[0].msg_id), bad, 'the same msg_id');
  assert.equal(got[0].retry_count, '1');
  assert.ok(Number(got[0].batch_id) > batch, 'a new batch');

  // Step 8: twice more: the first redelivers with retry_count 2, the second dead-letters.
  const tickAgain = "\n\nselect pgque.maint_retry_events();\nselect pgque.force_next_tick('orders');\nselect pgque.ticker();";
  s = await ok(page, NACK_BLOCK('still failing') + tickAgain);
  assert.deepEqual(s.map((x) => x.step), [1, 2, 3, 4]);
  assert.equal(value(s[1]), '1');
  s = await ok(page, "select retry_count from pgque.receive('orders', 'processor', 100);");
  assert.equal(value(s[0]), '2');
  s = await ok(page, NACK_BLOCK('still failing') + tickAgain);
  assert.equal(value(s[1]), '0', 'nothing to move: the event went to the dead letters');
  s = await ok(page, "select * from pgque.receive('orders', 'processor', 100);");
  assert.equal(s[0].cells.length, 0, 'receive returns nothing: the event left the main queue');
  s = await ok(page, "select dl_id, dl_reason, ev_id, ev_retry, ev_data\nfrom pgque.dlq_inspect('orders');");
  got = rows(s[0]);
  assert.equal(got.length, 1);
  assert.equal(got[0].dl_reason, 'still failing');
  assert.equal(Number(got[0].ev_id), bad);
  assert.equal(got[0].ev_retry, '2');
  assert.equal(got[0].ev_data, '{"total": 10.00, "order_id": 43}');
  // The tutorial replays dl_id 1: the lab's first dead letter is 1 too.
  assert.equal(got[0].dl_id, '1');
  s = await ok(page, 'select pgque.dlq_replay(1);');
  assert.ok(Number(value(s[0])) > bad, 'replayed with a fresh event id');
  s = await ok(page, "select pgque.dlq_purge('orders', '0 seconds'::interval);");
  assert.equal(value(s[0]), '0', 'the replay removed the only dead letter');

  // Step 9: health.
  s = await ok(page, "select queue_name, ticker_lag, ev_new, last_tick_id\nfrom pgque.get_queue_info('orders');");
  got = rows(s[0]);
  assert.equal(got.length, 1);
  assert.equal(got[0].queue_name, 'orders');
  assert.match(got[0].ticker_lag, /^\d\d:\d\d:\d\d/);
  s = await ok(page, "select queue_name, consumer_name, lag, last_seen, pending_events\nfrom pgque.get_consumer_info('orders', 'processor');");
  got = rows(s[0]);
  assert.equal(got.length, 1);
  assert.equal(got[0].consumer_name, 'processor');
  s = await ok(page, 'select * from pgque.status();');
  assert.deepEqual(s[0].fields, ['component', 'status', 'detail']);
  const components = s[0].cells.map((r) => r[0]);
  for (const c of ['postgresql', 'pgque', 'scheduler', 'ticker', 'maintenance', 'pg_cron', 'queues', 'consumers']) {
    assert.ok(components.includes(c), `status() has a ${c} row`);
  }

  // Where to go from here: pgque.start() schedules on the lab clock (pg_cron's place).
  await ok(page, 'select pgque.start();');
  await ok(page, 'select pgque.stop();');

  // The tutorial's last step drops the queue, here the lab's own: the page says so, an action
  // is refused with PgQue's words and the way out, and Reset makes the queue again.
  s = await ok(page, "select pgque.drop_queue('orders', true);");
  assert.equal(value(s[0]), '1');
  await pgqIdle(page);
  await page.waitForSelector('#queue-gone', { timeout: 30_000 });
  assert.match(await page.textContent('#queue-gone'), /orders does not exist any more/);
  await page.click('#send-one');
  await pgqIdle(page);
  const refused = await page.textContent('#last-error');
  assert.match(refused, /queue not found: orders/);
  assert.match(refused, /“Reset the queue” creates it again/);
  await page.screenshot({ path: path.join(SHOTS, 'tutorial-end-en.png'), fullPage: false });
  await page.click('#pgq-reset');
  await pgqIdle(page);
  await page.waitForSelector('#queue-gone', { state: 'detached', timeout: 30_000 });
  assert.equal(await page.locator('#last-error, #last-outcome').count(), 0,
    'after Reset, the refusal from before it is gone');
  await page.click('#send-one');
  await pgqIdle(page);
  assert.match(await page.textContent('#last-outcome'), /Event 1 sent/);
});

test('PgQue\'s examples: fan-out, batch send, pg_cron, the dead-letter recipe, payload overloads', { timeout: 600_000 }, async () => {
  const page = await openL4Console();

  // Fan-out: three consumers, one event, each receives it through its own cursor.
  let s = await ok(page, `select pgque.subscribe('orders', 'audit_logger');
select pgque.subscribe('orders', 'notification_sender');
select pgque.subscribe('orders', 'analytics_pipeline');
select pgque.send('orders', 'order.created', '{"order_id": 1}'::jsonb);
select pgque.force_next_tick('orders');  -- separate transaction; skip if pg_cron ticks
select pgque.ticker();                    -- separate transaction; skip if pg_cron ticks
select * from pgque.receive('orders', 'audit_logger', 500);
select * from pgque.receive('orders', 'notification_sender', 500);
select * from pgque.receive('orders', 'analytics_pipeline', 500);`);
  assert.equal(s.length, 9);
  const sent = value(s[3]);
  for (const i of [6, 7, 8]) {
    const got = rows(s[i]);
    assert.equal(got.length, 1, `${s[i].stmt}: one event`);
    assert.equal(got[0].msg_id, sent);
    assert.equal(got[0].type, 'order.created');
    assert.equal(got[0].payload, '{"order_id": 1}');
  }

  // Batch send: the new ids in array order.
  s = await ok(page, `select pgque.send_batch('orders', 'order.created', array[
  '{"order_id": 1}'::jsonb,
  '{"order_id": 2}'::jsonb,
  '{"order_id": 3}'::jsonb
]);`);
  // (The console shows an array as PGlite parses it, JSON's [a,b,c], where psql prints {a,b,c}.)
  const ids = value(s[0]).replace(/[[\]{}]/g, '').split(',').map(Number);
  assert.equal(ids.length, 3);
  assert.ok(ids[0] < ids[1] && ids[1] < ids[2]);

  // Recurring jobs with pg_cron: the hint, not an error.
  s = await ok(page, `select cron.schedule('daily_report',
  '0 9 * * *',
  $$select pgque.send('jobs', 'report.generate', '{"type": "daily"}'::jsonb)$$);`);
  assert.match(s[0].note, /a tab has no pg_cron/);

  // Dead-letter recipe (nothing dead-lettered in this tab yet: empty results, counts 0).
  s = await ok(page, `-- inspect failed events for a queue (default limit 100)
select dl_id, dl_reason, ev_type, ev_data
from pgque.dlq_inspect('orders');
select * from pgque.dlq_replay_all('orders');
select pgque.dlq_purge('orders', interval '7 days');`);
  assert.equal(s[0].cells.length, 0);
  assert.deepEqual(s[1].fields, ['replayed', 'failed', 'first_error']);
  assert.deepEqual(s[1].cells, [['0', '0', 'NULL']]);
  assert.equal(value(s[2]), '0');

  // Payload overloads: text stored as typed, jsonb canonical.
  s = await ok(page, `select pgque.send('orders', 'order.created', '{"order_id": 1}');         -- text, stored as-is
select pgque.send('orders', 'order.created', '{"order_id": 1}'::jsonb);  -- jsonb, validated`);
  assert.equal(s.length, 2);
});

test('PgQue\'s examples: cooperative consumers (its msg_ids, force_next_tick\'s jumps included) and exactly-once processing', { timeout: 600_000 }, async () => {
  const page = await openL4Console();

  // Cooperative consumers on a fresh queue `demo`, as the recipe runs them: a tick before
  // registering, three events, a tick, three more, a tick. PgQue's page shows w1 with
  // 2002-2004 and w2 with 4006-4008: each force_next_tick moves the event sequence ahead by
  // ticker_max_count * 2 + 1000, and the lab's engine does the same.
  let s = await ok(page, `select pgque.create_queue('demo');
select pgque.force_next_tick('demo');  -- separate transaction; skip if pg_cron ticks
select pgque.ticker('demo');           -- separate transaction; skip if pg_cron ticks
select pgque.register_subconsumer('demo', 'workers', 'w1');
select pgque.register_subconsumer('demo', 'workers', 'w2');
select pgque.send('demo', 'n', '{"n": 1}'::jsonb);
select pgque.send('demo', 'n', '{"n": 2}'::jsonb);
select pgque.send('demo', 'n', '{"n": 3}'::jsonb);
select pgque.force_next_tick('demo');
select pgque.ticker('demo');
select pgque.send('demo', 'n', '{"n": 4}'::jsonb);
select pgque.send('demo', 'n', '{"n": 5}'::jsonb);
select pgque.send('demo', 'n', '{"n": 6}'::jsonb);
select pgque.force_next_tick('demo');
select pgque.ticker('demo');
-- worker w1 (its own process / connection)
select msg_id, batch_id, payload
from pgque.receive_coop('demo', 'workers', 'w1', 100);
-- worker w2 (a different process / connection)
select msg_id, batch_id, payload
from pgque.receive_coop('demo', 'workers', 'w2', 100);`);
  assert.equal(s.length, 17);
  const w1 = rows(s[15]);
  const w2 = rows(s[16]);
  assert.deepEqual(w1.map((r) => [r.msg_id, r.payload]), [['2002', '{"n": 1}'], ['2003', '{"n": 2}'], ['2004', '{"n": 3}']],
    'w1 gets the first batch, with PgQue\'s ids');
  assert.deepEqual(w2.map((r) => [r.msg_id, r.payload]), [['4006', '{"n": 4}'], ['4007', '{"n": 5}'], ['4008', '{"n": 6}']],
    'w2 gets the next one, with PgQue\'s ids');
  const [b1, b2] = [Number(w1[0].batch_id), Number(w2[0].batch_id)];
  assert.equal(b2, b1 + 1, 'one batch each, one apart');
  s = await ok(page, `select pgque.ack(${b1});  -- w1's batch
select pgque.ack(${b2});  -- w2's batch
select pgque.touch_subconsumer('demo', 'workers', 'w1');
select pgque.unregister_subconsumer('demo', 'workers', 'w2');
select consumer_name from pgque.get_consumer_info('demo');`);
  assert.deepEqual(s.slice(0, 4).map(value), ['1', '1', '1', '1']);
  assert.deepEqual(s[4].cells.map((r) => r[0]), ['workers', 'workers.w1'], 'the group and its remaining member');

  // Exactly-once: receive, the business write and ack in one transaction.
  await ok(page, `create table processed_orders (order_id int, status text);
select pgque.subscribe('orders', 'processor');
select pgque.send('orders', 'order.created', '{"order_id": 7}'::jsonb);
select pgque.force_next_tick('orders');
select pgque.ticker();`);
  s = await ok(page, `begin;
  with msgs as (
    select * from pgque.receive('orders', 'processor', 500)
  ),
  inserted as (
    insert into processed_orders (order_id, status)
    select (payload::jsonb->>'order_id')::int, 'done'
    from msgs
  )
  select pgque.ack((select batch_id from msgs limit 1));
commit;
select order_id, status from processed_orders;
select count(*) from pgque.receive('orders', 'processor', 500);`);
  assert.equal(value(s[1]), '1', 'the batch acked in the same transaction');
  assert.deepEqual(s[3].cells, [['7', 'done']], 'and the business row written with it');
  assert.equal(value(s[4]), '0', 'nothing is delivered again');

  // The snapshot rule: all in one transaction, the consumer sees 0 rows.
  s = await ok(page, `-- WRONG -- consumer sees 0 rows
begin;
  select pgque.send('orders', 'order.created', '{"id": 1}'::jsonb);
  select pgque.force_next_tick('orders');
  select pgque.ticker();
  select * from pgque.receive('orders', 'processor', 100);  -- 0 rows
commit;`);
  assert.equal(s[4].cells.length, 0, 'the event is in progress at tick time: not in the batch');
});
