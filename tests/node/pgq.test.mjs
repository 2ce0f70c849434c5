// Headless checks of the pgq engine (src/sql/pgq) on real PostgreSQL 18 in
// PGlite, in Node. Each test boots a fresh database with the lab's virtual
// clock, loads the engine's SQL files in name order, and proves one
// behaviour the L4 lab must show. Run: node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { CLOCK, advance } from './clock.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { PGlite } = await import(
  join(root, 'pglite-bridge/node_modules/@electric-sql/pglite/dist/index.js'));
// PGQ_SQL_DIR lets a mutation run point the suite at a broken copy of the engine.
const sqlDir = process.env.PGQ_SQL_DIR ?? join(root, 'src/sql/pgq');


const conf = 'max_prepared_transactions = 4';
// Booting PGlite from scratch costs seconds; each test starts from a copy of
// one installed data directory instead. The session setting is per session.
let installed;
/** A fresh database for test `t`, closed when the test ends (passed or not). */
async function boot(t) {
  if (!installed) {
    const db = await PGlite.create({ postgresqlconf: conf });
    await db.exec(CLOCK);
    for (const f of readdirSync(sqlDir).filter((f) => f.endsWith('.sql')).sort()) {
      await db.exec(readFileSync(join(sqlDir, f), 'utf8'));
    }
    installed = await db.dumpDataDir('none');
    await db.close();
  }
  const db = await PGlite.create({ loadDataDir: installed, postgresqlconf: conf });
  await db.exec(CLOCK);
  t.after(() => db.close());
  return db;
}

const rows = async (db, sql, params) => (await db.query(sql, params)).rows;
const one = async (db, sql, params) => (await rows(db, sql, params))[0];
const val = async (db, sql, params) => Object.values(await one(db, sql, params))[0];

async function send(db, queue, payload) {
  return val(db, `select pgq.send($1, 'test', $2)`, [queue, String(payload)]);
}
async function receive(db, queue, consumer, max = 100) {
  return rows(db, `select * from pgq.receive($1, $2, $3)`, [queue, consumer, max]);
}
/** Receives and acks until nothing is left; returns the payloads in order. */
async function drain(db, queue, consumer, max = 100) {
  const got = [];
  for (;;) {
    const page = await receive(db, queue, consumer, max);
    if (page.length === 0) return got;
    got.push(...page.map((r) => r.payload));
    await db.query(`select pgq.ack($1)`, [page[0].batch_id]);
  }
}
async function rejects(promise, code, pattern) {
  await assert.rejects(promise, (e) => {
    assert.equal(e.code, code, `expected SQLSTATE ${code}, got ${e.code}: ${e.message}`);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}
/** Everything the engine keeps, as one comparable value. */
async function state(db) {
  const parts = {};
  for (const t of ['queue', 'tick', 'subscription', 'retry_queue', 'dead_letter']) {
    parts[t] = await rows(db, `select * from pgq.${t} order by 1, 2`);
  }
  const tables = await rows(db, `select c.oid::regclass::text as name from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'pgq' and c.relname ~ '^event_[0-9]+_[0-9]+$' and c.relkind = 'r' order by 1`);
  for (const { name } of tables) {
    parts[name] = await rows(db, `select ev_id, ev_txid::text, ev_owner, ev_retry, ev_data from ${name} order by ev_id`);
  }
  parts.seq = await val(db, `select last_value from pgq.batch_id_seq`);
  return JSON.stringify(parts);
}
async function eventTableStats(db) {
  await db.query(`select pg_stat_force_next_flush()`);
  return rows(db, `select relname, n_dead_tup::int as dead, n_tup_upd::int as upd, n_tup_del::int as del
     from pg_stat_user_tables where schemaname = 'pgq' and relname ~ '^event_[0-9]+_[0-9]+$'
     order by relname`);
}

test('fan-out: every registered consumer receives every committed event exactly once across its batches', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('orders')`);
  for (const c of ['billing', 'mail', 'audit']) {
    await db.query(`select pgq.register_consumer('orders', $1)`, [c]);
  }
  const sent = [];
  const got = { billing: [], mail: [], audit: [] };
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 7; i++) {
      const p = `${round}.${i}`;
      await send(db, 'orders', p);
      sent.push(p);
    }
    await db.query(`select pgq.ticker()`);
    // consumers keep different paces and page sizes
    got.billing.push(...(await drain(db, 'orders', 'billing', 3)));
    if (round % 2 === 1) got.mail.push(...(await drain(db, 'orders', 'mail', 100)));
    if (round === 4) got.audit.push(...(await drain(db, 'orders', 'audit', 1)));
  }
  got.mail.push(...(await drain(db, 'orders', 'mail')));
  for (const c of Object.keys(got)) {
    assert.deepEqual([...got[c]].sort(), [...sent].sort(), `${c} received each event once`);
  }
});

test('a rolled-back send is never delivered to any consumer', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('q')`);
  await db.query(`select pgq.register_consumer('q', 'a')`);
  await db.query(`select pgq.register_consumer('q', 'b')`);
  await send(db, 'q', 'before');
  await db.exec(`begin; select pgq.send('q', 'test', 'rolled back'); rollback;`);
  await send(db, 'q', 'after');
  await db.query(`select pgq.ticker()`);
  await db.query(`select pgq.ticker()`);
  for (const c of ['a', 'b']) {
    assert.deepEqual((await drain(db, 'q', c)).sort(), ['after', 'before']);
  }
});

test('an in-flight (prepared) transaction is not in the batch cut while it is open, and arrives once in a later batch after COMMIT PREPARED', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('q')`);
  await db.query(`select pgq.register_consumer('q', 'a')`);
  await db.query(`select pgq.register_consumer('q', 'b')`);
  await send(db, 'q', 'e1');
  await db.exec(`begin; select pgq.send('q', 'test', 'in flight'); prepare transaction 'p1';`);
  await db.exec(`begin; select pgq.send('q', 'test', 'aborted in flight'); prepare transaction 'p2';`);
  await send(db, 'q', 'e2');
  await db.query(`select pgq.ticker()`);
  const first = await receive(db, 'q', 'a');
  assert.deepEqual(first.map((r) => r.payload), ['e1', 'e2'], 'the open transaction is not in this batch');
  await db.query(`select pgq.ack($1)`, [first[0].batch_id]);
  await db.query(`select pgq.ticker()`);
  assert.deepEqual(await receive(db, 'q', 'a'), [], 'still open: still not delivered');
  await db.exec(`commit prepared 'p1'`);
  await db.exec(`rollback prepared 'p2'`);
  assert.deepEqual(await receive(db, 'q', 'a'), [], 'committed after the last tick: waits for the next tick');
  await db.query(`select pgq.ticker()`);
  const later = await receive(db, 'q', 'a');
  assert.deepEqual(later.map((r) => r.payload), ['in flight']);
  assert.notEqual(later[0].batch_id, first[0].batch_id, 'a later batch');
  await db.query(`select pgq.ack($1)`, [later[0].batch_id]);
  await db.query(`select pgq.ticker()`);
  assert.deepEqual(await drain(db, 'q', 'a'), [], 'not delivered twice');
  // b, which never saw the earlier ticks separately, gets everything exactly once
  assert.deepEqual((await drain(db, 'q', 'b')).sort(), ['e1', 'e2', 'in flight']);
});

test('an un-acked batch is redelivered with the same batch id and events; a batch larger than the limit is handed out in pages', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('q')`);
  await db.query(`select pgq.register_consumer('q', 'a')`);
  for (let i = 1; i <= 5; i++) await send(db, 'q', i);
  await db.query(`select pgq.ticker()`);
  const p1 = await receive(db, 'q', 'a', 2);
  const again = await receive(db, 'q', 'a', 2);
  assert.deepEqual(again, p1, 'a consumer that did not ack gets the same page again');
  assert.deepEqual(p1.map((r) => r.payload), ['1', '2']);
  assert.equal(await val(db, `select pgq.ack($1)`, [p1[0].batch_id]), 0, 'more pages remain');
  const p2 = await receive(db, 'q', 'a', 2);
  assert.equal(p2[0].batch_id, p1[0].batch_id, 'same batch continues');
  assert.deepEqual(p2.map((r) => r.payload), ['3', '4']);
  assert.equal(await val(db, `select pgq.ack($1)`, [p2[0].batch_id]), 0);
  const p3 = await receive(db, 'q', 'a', 2);
  assert.deepEqual(p3.map((r) => r.payload), ['5']);
  assert.equal(await val(db, `select pgq.ack($1)`, [p3[0].batch_id]), 1, 'last page finishes the batch');
  assert.deepEqual(await receive(db, 'q', 'a'), []);
  const info = await one(db, `select * from pgq.get_consumer_info('q', 'a')`);
  assert.equal(info.batch_id, null);
  assert.equal(Number(info.last_tick), 2);
});

test('an event sent after the newest tick waits for the next tick (delivery latency is one tick)', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('q')`);
  await db.query(`select pgq.register_consumer('q', 'a')`);
  await send(db, 'q', 'x');
  assert.deepEqual(await receive(db, 'q', 'a'), []);
  const lag = await one(db, `select lag_events, lag_ticks from pgq.get_consumer_info('q', 'a')`);
  assert.equal(Number(lag.lag_events), 1);
  assert.equal(lag.lag_ticks, 0);
  await db.query(`select pgq.ticker('q')`);
  assert.deepEqual(await drain(db, 'q', 'a'), ['x']);
});

test('a nacked event returns to that consumer only, after its delay and after the batch is acked, and goes to dead letters after max retries', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('q', 3, '30 seconds', 2)`);
  await db.query(`select pgq.register_consumer('q', 'a')`);
  await db.query(`select pgq.register_consumer('q', 'b')`);
  await send(db, 'q', 'flaky');
  await send(db, 'q', 'fine');
  await db.query(`select pgq.ticker()`);
  assert.deepEqual((await drain(db, 'q', 'b')).sort(), ['fine', 'flaky']);

  let batch = await receive(db, 'q', 'a');
  const flaky = batch.find((r) => r.payload === 'flaky');
  assert.equal(await val(db, `select pgq.nack($1, $2, '30 seconds', 'timeout')`, [flaky.batch_id, flaky.msg_id]), 'retry');
  assert.equal(await val(db, `select pgq.nack($1, $2, '30 seconds', 'timeout')`, [flaky.batch_id, flaky.msg_id]), 'retry',
    'a second nack of the same event in the same batch changes nothing');
  await advance(db, 60);
  assert.equal(await val(db, `select pgq.maint_retry_events()`), 0, 'not released while its batch is still open');
  await db.query(`select pgq.ack($1)`, [flaky.batch_id]);
  await advance(db, -50); // 10 s after the nack
  assert.equal(await val(db, `select pgq.maint_retry_events()`), 0, 'not due before its delay');
  await advance(db, 19);
  assert.equal(await val(db, `select pgq.maint_retry_events()`), 0, 'not due at 29 s');
  await advance(db, 1);
  assert.equal(await val(db, `select pgq.maint_retry_events()`), 1, 'due at 30 s');
  await db.query(`select pgq.ticker()`);
  batch = await receive(db, 'q', 'a');
  assert.deepEqual(batch.map((r) => [r.payload, r.retry_count]), [['flaky', 1]]);
  assert.deepEqual(await drain(db, 'q', 'b'), [], 'the other consumer does not get the retry');

  // retry 1 -> nack -> retry 2 -> nack -> dead (max_retries = 2)
  assert.equal(await val(db, `select pgq.nack($1, $2, '0 seconds', 'again')`, [batch[0].batch_id, batch[0].msg_id]), 'retry');
  await db.query(`select pgq.ack($1)`, [batch[0].batch_id]);
  await db.query(`select * from pgq.maint('q')`);
  await db.query(`select pgq.ticker()`);
  batch = await receive(db, 'q', 'a');
  assert.deepEqual(batch.map((r) => [r.payload, r.retry_count]), [['flaky', 2]]);
  assert.equal(await val(db, `select pgq.nack($1, $2, '0 seconds', 'gave up')`, [batch[0].batch_id, batch[0].msg_id]), 'dead');
  await db.query(`select pgq.ack($1)`, [batch[0].batch_id]);
  await db.query(`select * from pgq.maint('q')`);
  await db.query(`select pgq.ticker()`);
  assert.deepEqual(await drain(db, 'q', 'a'), [], 'a dead event is not retried');
  const dead = await rows(db, `select * from pgq.dlq_inspect('q')`);
  assert.equal(dead.length, 1);
  assert.deepEqual([dead[0].consumer, dead[0].payload, dead[0].retry_count, dead[0].reason], ['a', 'flaky', 2, 'gave up']);
  const info = await one(db, `select dead_letters, retries_pending from pgq.get_queue_info('q')`);
  assert.deepEqual([info.dead_letters, info.retries_pending], [1, 0]);
});

test('dlq_replay delivers a dead letter again, to the consumer that gave up only, and removes it from the dead letters', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('q', 3, '30 seconds', 0)`);
  await db.query(`select pgq.register_consumer('q', 'a')`);
  await db.query(`select pgq.register_consumer('q', 'b')`);
  await send(db, 'q', 'poison');
  await db.query(`select pgq.ticker()`);
  const [ev] = await receive(db, 'q', 'a');
  assert.equal(await val(db, `select pgq.nack($1, $2, '1 minute', 'bad input')`, [ev.batch_id, ev.msg_id]), 'dead',
    'max_retries 0: the first nack is final');
  await db.query(`select pgq.ack($1)`, [ev.batch_id]);
  assert.deepEqual(await drain(db, 'q', 'b'), ['poison']);
  const [dl] = await rows(db, `select * from pgq.dlq_inspect('q', 10)`);
  const newId = await val(db, `select pgq.dlq_replay($1)`, [dl.dl_id]);
  assert.ok(Number(newId) > Number(ev.msg_id));
  assert.equal((await rows(db, `select * from pgq.dlq_inspect('q')`)).length, 0);
  await db.query(`select pgq.ticker()`);
  const again = await receive(db, 'q', 'a');
  assert.deepEqual(again.map((r) => [r.payload, r.retry_count, String(r.msg_id)]), [['poison', 0, String(newId)]]);
  await db.query(`select pgq.ack($1)`, [again[0].batch_id]);
  assert.deepEqual(await drain(db, 'q', 'b'), [], 'the consumer that processed it is not sent it again');
  await rejects(db.query(`select pgq.dlq_replay($1)`, [dl.dl_id]), 'PQ008', /no dead letter/);
});

test('maint() truncates only a table every consumer has passed; a lagging consumer holds rotation back', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('q', 3, '0 seconds')`);
  await db.query(`select pgq.register_consumer('q', 'fast')`);
  await db.query(`select pgq.register_consumer('q', 'slow')`);
  const actions = async () => (await rows(db, `select action, detail from pgq.maint('q')`)).map((r) => r.action);
  const tables = async () => Object.fromEntries(
    (await rows(db, `select table_no, events from pgq.get_table_info('q')`)).map((r) => [r.table_no, Number(r.events)]));
  const cur = async () => (await one(db, `select cur_table from pgq.get_queue_info('q')`)).cur_table;

  // a round: 4 events into the current table, two ticks (the first records step 2)
  let n = 0;
  const round = async () => {
    for (let i = 0; i < 4; i++) await send(db, 'q', `e${n++}`);
    await db.query(`select pgq.ticker()`);
    await db.query(`select pgq.ticker()`);
  };
  const gotFast = [];
  const gotSlow = [];

  await round(); // e0..e3 in table 0
  gotFast.push(...(await drain(db, 'q', 'fast')));
  assert.ok((await actions()).includes('wait'), 'slow has not acked anything: no rotation');
  assert.equal(await cur(), 0);
  const info = await rows(db, `select consumer_name, holds_rotation from pgq.get_consumer_info('q') order by 1`);
  assert.deepEqual(info.map((r) => [r.consumer_name, r.holds_rotation]), [['fast', false], ['slow', true]]);

  gotSlow.push(...(await drain(db, 'q', 'slow')));
  assert.ok((await actions()).includes('rotate'));
  assert.equal(await cur(), 1);
  await round(); // e4..e7 in table 1
  gotFast.push(...(await drain(db, 'q', 'fast')));
  gotSlow.push(...(await drain(db, 'q', 'slow')));
  assert.ok((await actions()).includes('rotate'));
  assert.equal(await cur(), 2);
  assert.deepEqual(await tables(), { 0: 4, 1: 4, 2: 0 });

  await round(); // e8..e11 in table 2; slow stops consuming
  gotFast.push(...(await drain(db, 'q', 'fast')));
  for (let i = 0; i < 3; i++) {
    const a = await actions();
    assert.ok(!a.includes('rotate'), 'slow still has events outside... holds the switch into table 0');
    await db.query(`select pgq.ticker()`);
  }
  assert.deepEqual(await tables(), { 0: 4, 1: 4, 2: 4 }, 'nothing truncated while slow lags');
  assert.equal(await cur(), 2);

  gotSlow.push(...(await drain(db, 'q', 'slow')));
  const a = await rows(db, `select action, detail from pgq.maint('q')`);
  assert.ok(a.some((r) => r.action === 'rotate' && /truncated event_\d+_0 \(4 events\)/.test(r.detail)), JSON.stringify(a));
  assert.deepEqual(await tables(), { 0: 0, 1: 4, 2: 4 }, 'only the table both had passed was truncated');

  const all = Array.from({ length: 12 }, (_, i) => `e${i}`).sort();
  assert.deepEqual([...gotFast].sort(), all);
  assert.deepEqual([...gotSlow].sort(), all);
});

test('maint() never truncates under an open prepared transaction that wrote to the queue, and its event survives rotation', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('q', 2, '0 seconds')`);
  await db.query(`select pgq.register_consumer('q', 'a')`);
  await db.exec(`begin; select pgq.send('q', 'test', 'pinned'); prepare transaction 'p1';`);
  for (let i = 0; i < 6; i++) {
    await send(db, 'q', `x${i}`);
    await db.query(`select pgq.ticker()`);
    await db.query(`select pgq.ticker()`);
    await drain(db, 'q', 'a');
    await db.query(`select * from pgq.maint('q')`);
  }
  const tbls = await rows(db, `select table_no, events from pgq.get_table_info('q') order by 1`);
  assert.equal(Number(tbls[0].events), 1, 'the table the prepared transaction wrote to was not truncated');
  await db.exec(`commit prepared 'p1'`);
  await db.query(`select pgq.ticker()`);
  assert.deepEqual(await drain(db, 'q', 'a'), ['pinned']);
});

test('event tables get no updates or deletes and hold 0 dead tuples after a full scenario; a rolled-back send\'s dead tuple goes with the next TRUNCATE', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('q', 3, '0 seconds', 1)`);
  await db.query(`select pgq.register_consumer('q', 'a')`);
  await db.query(`select pgq.register_consumer('q', 'b')`);
  for (let r = 0; r < 6; r++) {
    await db.query(`select pgq.send_batch('q', 'bulk', array(select g::text from generate_series(1, 50) g))`);
    await db.query(`select pgq.ticker()`);
    await db.query(`select pgq.ticker()`);
    for (const c of ['a', 'b']) {
      const page = await receive(db, 'q', c, 1000);
      await db.query(`select pgq.nack($1, $2, '0 seconds', 'x')`, [page[0].batch_id, page[0].msg_id]);
      await db.query(`select pgq.ack($1)`, [page[0].batch_id]);
    }
    await db.query(`select * from pgq.maint()`);
  }
  for (const s of await eventTableStats(db)) {
    assert.deepEqual([s.dead, s.upd, s.del], [0, 0, 0], `${s.relname} has no dead tuples, updates or deletes`);
  }
  const total = await val(db, `select sum(n_tup_ins)::int from pg_stat_user_tables where schemaname = 'pgq' and relname ~ '^event_'`);
  assert.ok(total >= 300);

  // a rolled-back INSERT is the one way to leave a dead tuple; TRUNCATE clears it
  const cur = (await one(db, `select cur_table from pgq.get_queue_info('q')`)).cur_table;
  await db.exec(`begin; select pgq.send('q', 'test', 'oops'); rollback;`);
  let s = (await eventTableStats(db)).find((r) => r.relname.endsWith(`_${cur}`));
  assert.equal(s.dead, 1);
  for (let i = 0; i < 4; i++) {
    await db.query(`select pgq.ticker()`);
    await db.query(`select pgq.ticker()`);
    for (const c of ['a', 'b']) await drain(db, 'q', c);
    await db.query(`select * from pgq.maint()`);
  }
  for (const st of await eventTableStats(db)) assert.equal(st.dead, 0, st.relname);
});

test('bad calls (unknown queue or consumer, foreign, unknown or finished batch, undelivered event) raise PQ errors and change nothing', async (t) => {
  const db = await boot(t);
  await db.query(`select pgq.create_queue('q')`);
  await db.query(`select pgq.register_consumer('q', 'a')`);
  await db.query(`select pgq.register_consumer('q', 'b')`);
  await send(db, 'q', 'one');
  await send(db, 'q', 'two');
  await db.query(`select pgq.ticker()`);
  const [first] = await receive(db, 'q', 'a', 1);
  const before = await state(db);

  await rejects(db.query(`select pgq.send('nope', 't', 'p')`), 'PQ001', /unknown queue "nope"/);
  await rejects(db.query(`select * from pgq.receive('nope', 'a')`), 'PQ001', /unknown queue/);
  await rejects(db.query(`select pgq.ticker('nope')`), 'PQ001');
  await rejects(db.query(`select * from pgq.maint('nope')`), 'PQ001');
  await rejects(db.query(`select pgq.register_consumer('nope', 'a')`), 'PQ001');
  await rejects(db.query(`select * from pgq.receive('q', 'ghost')`), 'PQ002', /consumer "ghost" is not registered on queue "q"/);
  await rejects(db.query(`select pgq.unregister_consumer('q', 'ghost')`), 'PQ002');
  await rejects(db.query(`select * from pgq.get_consumer_info('q', 'ghost')`), 'PQ002');
  await rejects(db.query(`select pgq.ack(999)`), 'PQ003', /batch 999 is not open/);
  await rejects(db.query(`select pgq.ack($1, 'b')`, [first.batch_id]), 'PQ005', /belongs to consumer "a", not "b"/);
  await rejects(db.query(`select pgq.nack($1, $2, '1 s', 'x', 'b')`, [first.batch_id, first.msg_id]), 'PQ005');
  await rejects(db.query(`select pgq.nack($1, $2)`, [first.batch_id, Number(first.msg_id) + 1]), 'PQ007',
    /was not delivered in batch/);
  await rejects(db.query(`select pgq.nack($1, $2, '-1 s')`, [first.batch_id, first.msg_id]), '22023');
  await rejects(db.query(`select * from pgq.receive('q', 'a', 0)`), '22023');
  await rejects(db.query(`select pgq.dlq_replay(12345)`), 'PQ008');
  assert.equal(await state(db), before, 'nothing changed');

  // finishing the batch, then acking it again
  assert.equal(await val(db, `select pgq.ack($1, 'a')`, [first.batch_id]), 0);
  await receive(db, 'q', 'a', 1);
  assert.equal(await val(db, `select pgq.ack($1, 'a')`, [first.batch_id]), 1);
  const finished = await state(db);
  await rejects(db.query(`select pgq.ack($1)`, [first.batch_id]), 'PQ004', /already acked by consumer "a"/);
  await rejects(db.query(`select pgq.nack($1, $2)`, [first.batch_id, first.msg_id]), 'PQ004');
  assert.equal(await state(db), finished, 'nothing changed');
});

// --- randomized -----------------------------------------------------------

function mulberry32(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('a seeded random sequence of sends, rollbacks, prepared transactions, ticks, receives, acks, nacks, maint and clock moves keeps every invariant after each step', async (t) => {
  const db = await boot(t);
  const rnd = mulberry32(20260105);
  const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
  const MAX_RETRIES = 2;
  await db.query(`select pgq.create_queue('q', 3, '0 seconds', $1)`, [MAX_RETRIES]);
  const consumers = ['a', 'b', 'c'];
  for (const c of consumers) await db.query(`select pgq.register_consumer('q', $1)`, [c]);

  let n = 0;
  const committed = new Set();
  const acked = Object.fromEntries(consumers.map((c) => [c, new Map()])); // "payload|retry" -> count
  const nacks = new Map(); // "consumer|payload|retry" -> outcome
  const open = Object.fromEntries(consumers.map((c) => [c, null])); // last received page
  const abortedSince = [0, 0, 0]; // rolled-back inserts per table since its last TRUNCATE
  let prepared = null; // { payload, table }
  const curTable = async () => (await one(db, `select queue_cur_table from pgq.queue`)).queue_cur_table;
  const rotations = { n: 0 };

  const ackPage = async (c) => {
    const page = open[c];
    for (const r of page) {
      const key = `${r.payload}|${r.retry_count}`;
      const m = acked[c];
      m.set(key, (m.get(key) ?? 0) + 1);
      assert.equal(m.get(key), 1, `${c} acked ${key} once only`);
      assert.ok(r.retry_count <= MAX_RETRIES);
    }
    await db.query(`select pgq.ack($1, $2)`, [page[0].batch_id, c]);
    open[c] = null;
  };
  const maint = async () => {
    for (const r of await rows(db, `select action, detail from pgq.maint()`)) {
      if (r.action === 'rotate') {
        const t = Number(/truncated event_\d+_(\d+)/.exec(r.detail)[1]);
        abortedSince[t] = 0;
        rotations.n++;
      }
    }
  };
  const checkTables = async () => {
    for (const s of await eventTableStats(db)) {
      const t = Number(s.relname.split('_').pop());
      assert.equal(s.upd, 0, `${s.relname} never updated`);
      assert.equal(s.del, 0, `${s.relname} never deleted from`);
      assert.equal(s.dead, abortedSince[t], `${s.relname}: dead tuples only from rolled-back sends since its TRUNCATE`);
    }
  };

  for (let step = 0; step < 400; step++) {
    const r = rnd();
    if (r < 0.22) {
      const p = String(n++);
      await send(db, 'q', p);
      committed.add(p);
    } else if (r < 0.27) {
      const t = await curTable();
      await db.exec(`begin; select pgq.send('q', 'test', 'never-${n++}'); rollback;`);
      abortedSince[t]++;
    } else if (r < 0.31) {
      if (prepared === null) {
        const p = String(n++);
        prepared = { payload: p, table: await curTable() };
        await db.exec(`begin; select pgq.send('q', 'test', '${p}'); prepare transaction 'rand';`);
      } else if (rnd() < 0.7) {
        await db.exec(`commit prepared 'rand'`);
        committed.add(prepared.payload);
        prepared = null;
      } else {
        await db.exec(`rollback prepared 'rand'`);
        abortedSince[prepared.table]++;
        prepared = null;
      }
    } else if (r < 0.45) {
      await db.query(`select pgq.ticker()`);
    } else if (r < 0.80) {
      const c = pick(consumers);
      const page = await receive(db, 'q', c, 1 + Math.floor(rnd() * 4));
      if (open[c] !== null && page.length > 0) {
        assert.deepEqual(page.map((x) => x.msg_id).slice(0, 1), open[c].map((x) => x.msg_id).slice(0, 1),
          'an un-acked page comes back first');
      }
      open[c] = page.length ? page : null;
      if (page.length && rnd() < 0.3) {
        const ev = pick(page);
        const outcome = await val(db, `select pgq.nack($1, $2, make_interval(secs => $3), 'random', $4)`,
          [ev.batch_id, ev.msg_id, Math.floor(rnd() * 40), c]);
        const key = `${c}|${ev.payload}|${ev.retry_count}`;
        if (nacks.has(key)) assert.equal(nacks.get(key), outcome, 'a repeated nack keeps its outcome');
        nacks.set(key, outcome);
        assert.equal(outcome, ev.retry_count >= MAX_RETRIES ? 'dead' : 'retry');
      }
      if (page.length && rnd() < 0.75) await ackPage(c);
    } else if (r < 0.92) {
      await maint();
    } else {
      await advance(db, 10);
    }
    await checkTables();
  }

  // settle: finish the prepared transaction, then tick, consume and maintain until quiet
  if (prepared !== null) {
    await db.exec(`commit prepared 'rand'`);
    committed.add(prepared.payload);
  }
  for (let i = 0; i < 10; i++) {
    await advance(db, 60);
    await maint();
    await db.query(`select pgq.ticker()`);
    for (const c of consumers) {
      for (;;) {
        const page = await receive(db, 'q', c, 50);
        if (!page.length) break;
        open[c] = page;
        await ackPage(c);
      }
    }
    await checkTables();
  }
  assert.ok(rotations.n >= 3, `tables rotated (${rotations.n} times)`);
  for (const c of consumers) {
    for (const p of committed) assert.equal(acked[c].get(`${p}|0`), 1, `${c} got ${p} once`);
    const originals = [...acked[c].keys()].filter((k) => k.endsWith('|0'));
    assert.equal(originals.length, committed.size, `${c} got nothing that was not committed`);
    for (const [key, outcome] of nacks) {
      const [who, p, retry] = key.split('|');
      if (who !== c) continue;
      const next = `${p}|${Number(retry) + 1}`;
      if (outcome === 'retry') assert.equal(acked[c].get(next), 1, `${c}: retry of ${key} delivered once`);
      else assert.equal(acked[c].get(next), undefined, `${c}: dead ${key} not retried`);
    }
  }
  const dead = await rows(db, `select consumer, payload, retry_count from pgq.dlq_inspect('q', 1000)`);
  const deadNacks = [...nacks].filter(([, o]) => o === 'dead').map(([k]) => k).sort();
  assert.deepEqual(dead.map((d) => `${d.consumer}|${d.payload}|${d.retry_count}`).sort(), deadNacks);
});
