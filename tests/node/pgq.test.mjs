// Headless checks of the pgque engine (src/sql/pgque) on real PostgreSQL 18 in
// PGlite, in Node. Each test boots a fresh database with the lab's virtual
// clock, loads the engine's SQL files in name order, and proves one
// behaviour the L4 lab must show. Run: node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { advance } from './clock.mjs';
import { engineBoot, maintThenStep2, rotatingQueue } from './pgque.mjs';

/** A fresh database for test `t`, closed when the test ends (passed or not). */
const boot = engineBoot();

/** A fresh database for test `t` with queue 'q' (its defaults) and these consumers on it. */
async function bootQueue(t, consumers) {
  const db = await boot(t);
  await db.query(`select pgque.create_queue('q')`);
  for (const c of consumers) {
    await db.query(`select pgque.subscribe('q', $1)`, [c]);
  }
  return db;
}

const rows = async (db, sql, params) => (await db.query(sql, params)).rows;
const one = async (db, sql, params) => (await rows(db, sql, params))[0];
const val = async (db, sql, params) => Object.values(await one(db, sql, params))[0];

async function send(db, queue, payload) {
  return val(db, `select pgque.send($1, 'test', $2)`, [queue, String(payload)]);
}
async function receive(db, queue, consumer, max = 100) {
  return rows(db, `select * from pgque.receive($1, $2, $3)`, [queue, consumer, max]);
}
/** A tick now, whatever the ticker's thresholds (PgQue's idiom: force_next_tick, then ticker). */
async function tick(db, queue = 'q') {
  await db.query(`select pgque.force_next_tick($1)`, [queue]);
  return val(db, `select pgque.ticker($1)`, [queue]);
}
/** Receives whole batches and acks them until no tick is left; returns the payloads in order. */
async function drain(db, queue, consumer) {
  const got = [];
  for (let i = 0; i < 1000; i++) {
    const lag = await val(db, `select lag_ticks from pgque.consumer_report($1, $2)`, [queue, consumer]);
    if (lag === 0) return got;
    const batch = await receive(db, queue, consumer, 10000);
    got.push(...batch.map((r) => r.payload));
    if (batch.length) await db.query(`select pgque.ack($1)`, [batch[0].batch_id]);
  }
  throw new Error('drain did not end');
}
async function rejects(promise, code, pattern) {
  await assert.rejects(promise, (/** @type {any} */ e) => {
    assert.equal(e.code, code, `expected SQLSTATE ${code}, got ${e.code}: ${e.message}`);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}
/** Everything the engine keeps, as one comparable value. */
async function state(db) {
  const parts = {};
  for (const t of ['queue', 'tick', 'subscription', 'retry_queue', 'dead_letter']) {
    parts[t] = await rows(db, `select * from pgque.${t} order by 1, 2`);
  }
  const tables = await rows(db, `select c.oid::regclass::text as name from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'pgque' and c.relname ~ '^event_[0-9]+_[0-9]+$' and c.relkind = 'r' order by 1`);
  for (const { name } of tables) {
    parts[name] = await rows(db, `select ev_id, ev_txid::text, ev_owner, ev_retry, ev_data from ${name} order by ev_id`);
  }
  parts.seq = await val(db, `select last_value from pgque.batch_id_seq`);
  return JSON.stringify(parts);
}
async function eventTableStats(db) {
  await db.query(`select pg_stat_force_next_flush()`);
  return rows(db, `select relname, n_dead_tup::int as dead, n_tup_upd::int as upd, n_tup_del::int as del
     from pg_stat_user_tables where schemaname = 'pgque' and relname ~ '^event_[0-9]+_[0-9]+$'
     order by relname`);
}

test('fan-out: every registered consumer receives every committed event exactly once across its batches', async (t) => {
  const db = await bootQueue(t, ['billing', 'mail', 'audit']);
  const sent = [];
  const got = { billing: [], mail: [], audit: [] };
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 7; i++) {
      const p = `${round}.${i}`;
      await send(db, 'q', p);
      sent.push(p);
    }
    await tick(db);
    got.billing.push(...(await drain(db, 'q', 'billing')));
    if (round % 2 === 1) got.mail.push(...(await drain(db, 'q', 'mail')));
  }
  got.mail.push(...(await drain(db, 'q', 'mail')));
  got.audit.push(...(await drain(db, 'q', 'audit')));
  for (const c of Object.keys(got)) {
    assert.deepEqual([...got[c]].sort(), [...sent].sort(), `${c} received each event once`);
  }
});

test('a batch spans one tick interval: a consumer behind by three ticks gets three batches, in ev_id order', async (t) => {
  const db = await bootQueue(t, ['a']);
  for (const group of [['1', '2'], ['3'], ['4', '5']]) {
    for (const p of group) await send(db, 'q', p);
    await tick(db);
  }
  const batches = [];
  for (let i = 0; i < 3; i++) {
    const b = await receive(db, 'q', 'a');
    batches.push(b.map((r) => r.payload));
    await db.query(`select pgque.ack($1)`, [b[0].batch_id]);
  }
  assert.deepEqual(batches, [['1', '2'], ['3'], ['4', '5']]);
  assert.deepEqual(await receive(db, 'q', 'a'), []);
});

test('a rolled-back send is never delivered to any consumer', async (t) => {
  const db = await bootQueue(t, ['a', 'b']);
  await send(db, 'q', 'before');
  await db.exec(`begin; select pgque.send('q', 'test', 'rolled back'); rollback;`);
  await send(db, 'q', 'after');
  await tick(db);
  await tick(db);
  for (const c of ['a', 'b']) {
    assert.deepEqual((await drain(db, 'q', c)).sort(), ['after', 'before']);
  }
});

test('an in-flight (prepared) transaction is not in the batch cut while it is open, and arrives once in a later batch after COMMIT PREPARED', async (t) => {
  const db = await bootQueue(t, ['a', 'b']);
  await send(db, 'q', 'e1');
  await db.exec(`begin; select pgque.send('q', 'test', 'in flight'); prepare transaction 'p1';`);
  await db.exec(`begin; select pgque.send('q', 'test', 'aborted in flight'); prepare transaction 'p2';`);
  await send(db, 'q', 'e2');
  await tick(db);
  const first = await receive(db, 'q', 'a');
  assert.deepEqual(first.map((r) => r.payload), ['e1', 'e2'], 'the open transaction is not in this batch');
  await db.query(`select pgque.ack($1)`, [first[0].batch_id]);
  await tick(db);
  assert.deepEqual(await drain(db, 'q', 'a'), [], 'still open: still not delivered');
  await db.exec(`commit prepared 'p1'`);
  await db.exec(`rollback prepared 'p2'`);
  assert.deepEqual(await drain(db, 'q', 'a'), [], 'committed after the last tick: waits for the next tick');
  await tick(db);
  const later = await receive(db, 'q', 'a');
  assert.deepEqual(later.map((r) => r.payload), ['in flight']);
  assert.notEqual(later[0].batch_id, first[0].batch_id, 'a later batch');
  await db.query(`select pgque.ack($1)`, [later[0].batch_id]);
  await tick(db);
  assert.deepEqual(await drain(db, 'q', 'a'), [], 'not delivered twice');
  assert.deepEqual((await drain(db, 'q', 'b')).sort(), ['e1', 'e2', 'in flight']);
});

test('receive returns the whole batch when its limit is at least the batch size; ack finishes it; an un-acked batch comes back after a restart', async (t) => {
  const db = await bootQueue(t, ['a']);
  for (let i = 1; i <= 5; i++) await send(db, 'q', i);
  await tick(db);
  const b = await receive(db, 'q', 'a', 5);
  assert.deepEqual(b.map((r) => r.payload), ['1', '2', '3', '4', '5']);
  assert.equal(b[0].retry_count, null, 'retry_count is null on a first delivery');
  // the consumer "crashes" before its ack: the next receive is the same batch
  const again = await receive(db, 'q', 'a', 5);
  assert.deepEqual(again, b, 'same batch id, same events');
  assert.equal(await val(db, `select pgque.ack($1)`, [b[0].batch_id]), 1);
  assert.equal(await val(db, `select pgque.ack($1)`, [b[0].batch_id]), 0, 'a second ack finds no open batch');
  const info = await one(db, `select * from pgque.consumer_report('q', 'a')`);
  assert.equal(info.current_batch, null);
  assert.equal(Number(info.last_tick), 2);
});

test('batch-ownership caveat: with a limit below the batch size, ack finishes the whole batch and the events not returned are skipped for that consumer', async (t) => {
  const db = await bootQueue(t, ['a', 'b']);
  for (let i = 1; i <= 5; i++) await send(db, 'q', i);
  await tick(db);
  const part = await receive(db, 'q', 'a', 2);
  assert.deepEqual(part.map((r) => r.payload), ['1', '2']);
  const all = await rows(db, `select ev_data from pgque.get_batch_events($1)`, [part[0].batch_id]);
  assert.deepEqual(all.map((r) => r.ev_data), ['1', '2', '3', '4', '5'], 'the batch holds all five');
  assert.equal(await val(db, `select pgque.ack($1)`, [part[0].batch_id]), 1);
  await tick(db);
  assert.deepEqual(await drain(db, 'q', 'a'), [], '3, 4 and 5 are never delivered to a');
  assert.deepEqual(await drain(db, 'q', 'b'), ['1', '2', '3', '4', '5'], 'b, receiving the whole batch, gets all');
});

test('ticker() ticks only when due: at once for the first event after create_queue (as PgQue), then max_count events, or max_lag with new events, or after force_next_tick', async (t) => {
  const db = await boot(t);
  await db.query(`select pgque.create_queue('q')`);
  await db.query(`select pgque.set_queue_config('q', 'ticker_max_count', '3')`);
  await db.query(`select pgque.subscribe('q', 'a')`);
  await send(db, 'q', 'first');
  assert.equal(Number(await val(db, `select pgque.ticker('q')`)), 2,
    'the first send: the sequence reads 1 as before it (last_value), and a single tick has no gap to wait on');
  await send(db, 'q', 'x');
  assert.equal(await val(db, `select pgque.ticker('q')`), null, '1 event, 0 s: not due');
  await advance(db, 2);
  assert.equal(await val(db, `select pgque.ticker('q')`), null, '2 s < ticker_max_lag 3 s');
  await advance(db, 1);
  assert.equal(Number(await val(db, `select pgque.ticker('q')`)), 3, 'max_lag reached: tick');
  await send(db, 'q', 'y1'); await send(db, 'q', 'y2');
  assert.equal(await val(db, `select pgque.ticker('q')`), null);
  await send(db, 'q', 'y3');
  assert.equal(Number(await val(db, `select pgque.ticker('q')`)), 4, 'ticker_max_count events: tick at once');
  assert.equal(await val(db, `select pgque.ticker('q')`), null, 'nothing new');
  await db.query(`select pgque.force_next_tick('q')`);
  assert.equal(Number(await val(db, `select pgque.ticker('q')`)), 5, 'forced');
  const info = await one(db, `select ev_new, last_tick_id, queue_ticker_max_count from pgque.get_queue_info('q')`);
  assert.deepEqual([Number(info.ev_new), Number(info.last_tick_id), info.queue_ticker_max_count], [0, 5, 3]);
});

test('a retry put back by maint_retry_events advances the event sequence, so the ticker ticks at ticker_max_lag (not after the idle period); at most 10 move per call', async (t) => {
  const db = await bootQueue(t, ['a']);
  for (let i = 0; i < 12; i++) await send(db, 'q', `e${i}`);
  await tick(db);
  const batch = await receive(db, 'q', 'a');
  assert.equal(batch.length, 12);
  await db.query(`select pgque.nack($1, m, '0 seconds', 'x') from pgque.receive('q', 'a') m`, [batch[0].batch_id]);
  await db.query(`select pgque.ack($1)`, [batch[0].batch_id]);
  const seq = async () => Number(await val(db, `select last_value from pgque.event_1_id_seq`));
  const before = await seq();
  assert.equal(await val(db, `select pgque.maint_retry_events()`), 10, 'at most 10 a call (PgQ)');
  assert.equal(await seq(), before + 10, 'each retry put back draws from the sequence');
  assert.equal(await val(db, `select pgque.maint_retry_events()`), 2);
  assert.equal(await val(db, `select pgque.maint_retry_events()`), 0);
  await advance(db, 2);
  assert.equal(await val(db, `select pgque.ticker('q')`), null, 'new events, 2 s: not yet');
  await advance(db, 1);
  assert.ok(await val(db, `select pgque.ticker('q')`), 'new events at ticker_max_lag (3 s): a tick, not one after the 1 min idle period');
  const again = await receive(db, 'q', 'a');
  assert.deepEqual(again.map((r) => [r.payload, r.retry_count]), batch.map((r) => [r.payload, 1]));
});

test('an event sent after the newest tick waits for the next tick (delivery latency is one tick)', async (t) => {
  const db = await bootQueue(t, ['a']);
  await send(db, 'q', 'x');
  assert.deepEqual(await receive(db, 'q', 'a'), []);
  const lag = await one(db, `select lag_events, lag_ticks from pgque.consumer_report('q', 'a')`);
  assert.equal(Number(lag.lag_events), 1);
  assert.equal(lag.lag_ticks, 0);
  await tick(db);
  assert.deepEqual(await drain(db, 'q', 'a'), ['x']);
});

test('a nacked event returns to that consumer only, with the same id, after its delay; after 5 retries (the default) the next nack sends it to dead letters', async (t) => {
  const db = await bootQueue(t, ['a', 'b']);
  await send(db, 'q', 'flaky');
  await send(db, 'q', 'fine');
  await tick(db);
  assert.deepEqual((await drain(db, 'q', 'b')).sort(), ['fine', 'flaky']);

  let batch = await receive(db, 'q', 'a');
  const flaky = batch.find((r) => r.payload === 'flaky');
  const nack = (ev, delay, reason) => db.query(
    `select pgque.nack($1, row($2::bigint, $1::bigint, null, null, null, null, null, null, null, null)::pgque.message, $3::interval, $4)`,
    [ev.batch_id, ev.msg_id, delay, reason]);
  await nack(flaky, '30 seconds', 'timeout');
  await nack(flaky, '30 seconds', 'timeout'); // a second nack changes nothing
  assert.equal(await val(db, `select count(*)::int from pgque.retry_queue`), 1);
  await db.query(`select pgque.ack($1)`, [flaky.batch_id]);
  await advance(db, 29);
  assert.equal(await val(db, `select pgque.maint_retry_events()`), 0, 'not due at 29 s');
  await advance(db, 1);
  assert.equal(await val(db, `select pgque.maint_retry_events()`), 1, 'due at 30 s');
  await tick(db);
  batch = await receive(db, 'q', 'a');
  assert.deepEqual(batch.map((r) => [r.payload, r.retry_count, String(r.msg_id)]), [['flaky', 1, String(flaky.msg_id)]],
    'the same event id, retry_count 1');
  assert.deepEqual(await drain(db, 'q', 'b'), [], 'the other consumer does not get the retry');

  for (let retry = 1; retry <= 5; retry++) {
    assert.equal(batch[0].retry_count, retry);
    await nack(batch[0], '0 seconds', `attempt ${retry}`);
    await db.query(`select pgque.ack($1)`, [batch[0].batch_id]);
    const dead = await val(db, `select count(*)::int from pgque.dead_letter`);
    if (retry < 5) {
      assert.equal(dead, 0, `retry ${retry} < max_retries 5: retried`);
      assert.equal(await val(db, `select pgque.maint_retry_events()`), 1);
      await tick(db);
      batch = await receive(db, 'q', 'a');
    } else {
      assert.equal(dead, 1, 'retry 5 = max_retries: dead letter');
    }
  }
  assert.equal(await val(db, `select pgque.maint_retry_events()`), 0);
  await tick(db);
  assert.deepEqual(await drain(db, 'q', 'a'), [], 'a dead event is not retried');
  const dead = await rows(db, `select c.co_name as dl_consumer, d.* from pgque.dlq_inspect('q') d join pgque.consumer c on c.co_id = d.dl_consumer_id`);
  assert.deepEqual(dead.map((d) => [d.dl_consumer, d.ev_data, d.ev_retry, d.dl_reason]), [['a', 'flaky', 5, 'attempt 5']]);
  const info = await one(db, `select dead_letters, retries_pending, max_retries from pgque.queue_report('q')`);
  assert.deepEqual([info.dead_letters, info.retries_pending, info.max_retries], [1, 0, 5]);
});

test('dlq_replay sends a dead letter again as a new event to every consumer, and removes it from the dead letters', async (t) => {
  const db = await boot(t);
  await db.query(`select pgque.create_queue('q')`);
  await db.query(`select pgque.set_queue_config('q', 'max_retries', '0')`);
  await db.query(`select pgque.subscribe('q', 'a')`);
  await db.query(`select pgque.subscribe('q', 'b')`);
  await send(db, 'q', 'poison');
  await tick(db);
  const [ev] = await receive(db, 'q', 'a');
  await db.query(`select pgque.nack($1, m, '1 minute', 'bad input') from pgque.receive('q', 'a') m`, [ev.batch_id]);
  assert.equal(await val(db, `select count(*)::int from pgque.dead_letter`), 1, 'max_retries 0: the first nack is final');
  await db.query(`select pgque.ack($1)`, [ev.batch_id]);
  assert.deepEqual(await drain(db, 'q', 'b'), ['poison']);
  const [dl] = await rows(db, `select * from pgque.dlq_inspect('q', 10)`);
  const newId = await val(db, `select pgque.dlq_replay($1)`, [dl.dl_id]);
  assert.ok(Number(newId) > Number(ev.msg_id));
  assert.equal((await rows(db, `select * from pgque.dlq_inspect('q')`)).length, 0);
  await tick(db);
  const again = await receive(db, 'q', 'a');
  assert.deepEqual(again.map((r) => [r.payload, r.retry_count, String(r.msg_id)]), [['poison', null, String(newId)]]);
  await db.query(`select pgque.ack($1)`, [again[0].batch_id]);
  assert.deepEqual(await drain(db, 'q', 'b'), ['poison'], 'as PgQue: the replay goes to every consumer, b too');
  await rejects(db.query(`select pgque.dlq_replay($1)`, [dl.dl_id]), 'P0001', /^dead letter entry not found/);
});

test('maint() truncates only a table every consumer has passed; a lagging consumer holds rotation back, and the reason names it', async (t) => {
  const db = await boot(t);
  await rotatingQueue(db, 3, '1 second', ['fast', 'slow']);
  const maint = async () => { await advance(db, 1); return maintThenStep2(db, 'action, detail, reason, args'); };
  const actions = async () => (await maint()).map((r) => r.action);
  const tables = async () => Object.fromEntries(
    (await rows(db, `select table_no, events from pgque.get_table_info('q')`)).map((r) => [r.table_no, Number(r.events)]));
  const cur = async () => (await one(db, `select queue_cur_table from pgque.get_queue_info('q')`)).queue_cur_table;

  let n = 0;
  const round = async () => {
    for (let i = 0; i < 4; i++) await send(db, 'q', `e${n++}`);
    await tick(db);
    await tick(db);
  };
  const gotFast = [];
  const gotSlow = [];

  await round();
  gotFast.push(...(await drain(db, 'q', 'fast')));
  const wait = (await maint()).find((r) => r.action === 'wait');
  assert.deepEqual([wait.reason, wait.args[0]], ['consumer', 'slow'], 'the wait names the consumer that holds it');
  assert.equal(await cur(), 0);
  const info = await rows(db, `select consumer_name, holds_rotation from pgque.consumer_report('q') order by 1`);
  assert.deepEqual(info.map((r) => [r.consumer_name, r.holds_rotation]), [['fast', false], ['slow', true]]);

  gotSlow.push(...(await drain(db, 'q', 'slow')));
  assert.ok((await actions()).includes('rotate'));
  assert.equal(await cur(), 1);
  await round();
  gotFast.push(...(await drain(db, 'q', 'fast')));
  gotSlow.push(...(await drain(db, 'q', 'slow')));
  assert.ok((await actions()).includes('rotate'));
  assert.equal(await cur(), 2);
  assert.deepEqual(await tables(), { 0: 4, 1: 4, 2: 0 });

  await round();
  gotFast.push(...(await drain(db, 'q', 'fast')));
  for (let i = 0; i < 3; i++) {
    assert.ok(!(await actions()).includes('rotate'), 'slow holds the switch into table 0');
    await tick(db);
  }
  assert.deepEqual(await tables(), { 0: 4, 1: 4, 2: 4 }, 'nothing truncated while slow lags');

  gotSlow.push(...(await drain(db, 'q', 'slow')));
  const a = await maint();
  assert.ok(a.some((r) => r.action === 'rotate' && /truncated event_\d+_0 \(4 events\)/.test(r.detail)), JSON.stringify(a));
  assert.deepEqual(await tables(), { 0: 0, 1: 4, 2: 4 }, 'only the table both had passed was truncated');

  const all = Array.from({ length: 12 }, (_, i) => `e${i}`).sort();
  assert.deepEqual([...gotFast].sort(), all);
  assert.deepEqual([...gotSlow].sort(), all);
});

test('maint() never truncates a table an open prepared transaction wrote to; the wait says a long transaction holds it, and its event survives', async (t) => {
  const db = await boot(t);
  await rotatingQueue(db, 2, '1 second', ['a']);
  await db.exec(`begin; select pgque.send('q', 'test', 'pinned'); prepare transaction 'p1';`);
  const reasons = new Set();
  for (let i = 0; i < 6; i++) {
    await send(db, 'q', `x${i}`);
    await tick(db);
    await tick(db);
    await drain(db, 'q', 'a');
    await advance(db, 1);
    for (const r of await maintThenStep2(db, 'action, reason')) {
      if (r.action === 'wait') reasons.add(r.reason);
    }
  }
  assert.ok(reasons.has('long_tx'), `the wait reason is the long transaction: ${[...reasons]}`);
  await db.exec(`commit prepared 'p1'`);
  await tick(db);
  assert.deepEqual(await drain(db, 'q', 'a'), ['pinned']);
});

test('event tables get no updates or deletes and hold 0 dead tuples after a full scenario; the bookkeeping tables do get dead tuples', async (t) => {
  const db = await boot(t);
  await db.query(`select pgque.create_queue('q', 3)`);
  await db.query(`select pgque.set_queue_config('q', 'rotation_period', '1 second')`);
  await db.query(`select pgque.set_queue_config('q', 'max_retries', '1')`);
  await db.query(`select pgque.subscribe('q', 'a')`);
  await db.query(`select pgque.subscribe('q', 'b')`);
  for (let r = 0; r < 6; r++) {
    await db.query(`select pgque.send_batch('q', 'bulk', array(select g::text from generate_series(1, 50) g))`);
    await tick(db);
    await tick(db);
    for (const c of ['a', 'b']) {
      for (;;) {
        const page = await receive(db, 'q', c, 1000);
        if (!page.length) break;
        await db.query(`select pgque.nack($1, m, '0 seconds', 'x') from pgque.receive('q', $2, 1) m`, [page[0].batch_id, c]);
        await db.query(`select pgque.ack($1)`, [page[0].batch_id]);
      }
    }
    await db.query(`select pgque.maint_retry_events()`);
    await advance(db, 1);
    await db.query(`select pgque.maint()`);
    await db.query(`select pgque.maint_rotate_tables_step2()`);
  }
  for (const s of await eventTableStats(db)) {
    assert.deepEqual([s.dead, s.upd, s.del], [0, 0, 0], `${s.relname} has no dead tuples, updates or deletes`);
  }
  await db.query(`select pg_stat_force_next_flush()`);
  const sub = await one(db, `select n_tup_upd::int as upd, n_dead_tup::int as dead from pg_stat_user_tables
     where schemaname = 'pgque' and relname = 'subscription'`);
  assert.ok(sub.upd > 0 && sub.dead > 0, `subscription rows are updated on every receive and ack: ${JSON.stringify(sub)}`);
});

test('bad calls (unknown queue or consumer, unknown batch, event not in the batch, bad limits) raise with a reason and change nothing', async (t) => {
  const db = await bootQueue(t, ['a', 'b']);
  await send(db, 'q', 'one');
  await send(db, 'q', 'two');
  await tick(db);
  const [first] = await receive(db, 'q', 'a', 1);
  const before = await state(db);
  const msg = (id) => `row(${id}::bigint, null, null, null, null, null, null, null, null, null)::pgque.message`;

  // PgQue's refusals: P0001 (raise_exception) with PgQue's own words for each function.
  const E = 'P0001';
  await rejects(db.query(`select pgque.send('nope', 't', 'p')`), E, /^queue not found: nope$/);
  await rejects(db.query(`select * from pgque.receive('nope', 'a')`), E, /^Not subscriber to queue: nope\/a$/);
  await rejects(db.query(`select pgque.ticker('nope')`), E, /^no such queue$/);
  await rejects(db.query(`select * from pgque.maint_report('nope')`), E, /^queue not found: nope$/);
  await rejects(db.query(`select pgque.subscribe('nope', 'a')`), E, /^Event queue not created yet$/);
  await rejects(db.query(`select * from pgque.receive('q', 'ghost')`), E, /^Not subscriber to queue: q\/ghost$/);
  assert.equal(await val(db, `select pgque.unsubscribe('q', 'ghost')`), 0, 'unsubscribing a stranger returns 0, as PgQue');
  assert.equal((await rows(db, `select * from pgque.get_consumer_info('q', 'ghost')`)).length, 0);
  await rejects(db.query(`select pgque.nack(999, ${msg(1)})`), E, /^batch not found: 999$/);
  await rejects(db.query(`select pgque.nack($1, ${msg(9999)})`, [first.batch_id]), E, /^msg_id 9999 not found in batch \d+$/);
  await rejects(db.query(`select * from pgque.receive('q', 'a', 0)`), E, /^pgque.receive: max_return must be >= 1, got 0$/);
  await rejects(db.query(`select pgque.set_queue_config('q', 'max_retries', '-1')`), E, /^set_queue_config: max_retries must be >= 0, got -1$/);
  await rejects(db.query(`select pgque.set_queue_config('q', 'colour', 'blue')`), E, /^cannot change parameter "colours"$/);
  await rejects(db.query(`select pgque.dlq_replay(12345)`), E, /^dead letter entry not found: 12345$/);
  await rejects(db.query(`select pgque.drop_queue('q')`), E, /^cannot drop queue, consumers still attached$/);
  assert.equal(await val(db, `select pgque.ack(999)`), 0, 'ack of an unknown batch returns 0, as PgQue');
  assert.equal(await state(db), before, 'nothing changed');
});

test('receive_coop gives two members two different batches; the group cursor moves past both; a plain receive on the group is refused', async (t) => {
  const db = await bootQueue(t, ['g']);
  await rejects(db.query(`select pgque.register_subconsumer('q', 'g', 'w1')`), 'P0001', /already a normal consumer; explicit conversion is required/);
  await db.query(`select pgque.register_subconsumer('q', 'g', 'w1', true)`);
  for (const group of [['1', '2'], ['3', '4']]) {
    for (const p of group) await send(db, 'q', p);
    await tick(db);
  }
  const w1 = await rows(db, `select * from pgque.receive_coop('q', 'g', 'w1')`);
  const w2 = await rows(db, `select * from pgque.receive_coop('q', 'g', 'w2')`); // registered on the fly
  assert.deepEqual(w1.map((r) => r.payload), ['1', '2']);
  assert.deepEqual(w2.map((r) => r.payload), ['3', '4']);
  assert.notEqual(w1[0].batch_id, w2[0].batch_id);
  assert.equal(Number(await val(db, `select last_tick from pgque.get_consumer_info('q', 'g')`)), 3, 'the group cursor passed both batches');
  await rejects(db.query(`select * from pgque.receive('q', 'g')`), 'P0001', /is a cooperative main consumer/);
  await rejects(db.query(`select pgque.unregister_subconsumer('q', 'g', 'w1')`), 'P0001', /without batch_handling = 1/);
  const info = await rows(db, `select subconsumer, batch_id, batch_events from pgque.get_subconsumer_info('q')`);
  assert.deepEqual(info.map((r) => [r.subconsumer, r.batch_events]), [['w1', 2], ['w2', 2]]);
  assert.equal(await val(db, `select pgque.ack($1)`, [w1[0].batch_id]), 1);
  assert.equal(await val(db, `select pgque.ack($1)`, [w2[0].batch_id]), 1);
});

test('a dead member\'s batch is taken over only after the dead interval, under a new batch id; its late ack finishes nothing', async (t) => {
  const db = await boot(t);
  await db.query(`select pgque.create_queue('q')`);
  await db.query(`select pgque.register_subconsumer('q', 'g', 'w1')`); // a new consumer: made a group at once
  await send(db, 'q', 'job');
  await tick(db);
  const w1 = await rows(db, `select * from pgque.receive_coop('q', 'g', 'w1', 100, '30 seconds')`);
  assert.deepEqual(w1.map((r) => r.payload), ['job']);
  // w1 dies. w2 finds nothing of its own; 29 s is not yet the dead interval
  await advance(db, 29);
  assert.deepEqual(await rows(db, `select * from pgque.receive_coop('q', 'g', 'w2', 100, '30 seconds')`), []);
  await advance(db, 2);
  const w2 = await rows(db, `select * from pgque.receive_coop('q', 'g', 'w2', 100, '30 seconds')`);
  assert.deepEqual(w2.map((r) => r.payload), ['job'], 'the same events');
  assert.notEqual(w2[0].batch_id, w1[0].batch_id, 'a new batch id');
  assert.equal(await val(db, `select pgque.ack($1)`, [w1[0].batch_id]), 0, 'the dead member\'s late ack finishes nothing');
  assert.equal(await val(db, `select pgque.ack($1)`, [w2[0].batch_id]), 1);
});

test('get_cursor_info puts each consumer on the oldest table holding an event it has not read: before and after receive + ack, and after a rotation', async (t) => {
  const db = await boot(t);
  await rotatingQueue(db, 3, '1 second', ['fast', 'slow']);
  const cursors = async () => Object.fromEntries(
    (await rows(db, `select * from pgque.get_cursor_info('q')`)).map((r) => [r.consumer_name,
      [r.table_no, r.table_name, Number(r.unread), r.next_msg_id === null ? null : Number(r.next_msg_id), r.tables]]));
  const lag = async (c) => Number(await val(db, `select lag_events from pgque.consumer_report('q', $1)`, [c]));
  const cur = async () => (await one(db, `select queue_cur_table from pgque.get_queue_info('q')`)).queue_cur_table;
  // The period passes and maint() runs: it rotates, and the current table is then `table`.
  const rotatesTo = async (table) => {
    await advance(db, 2);
    const acts = (await maintThenStep2(db, 'action, detail')).map((r) => `${r.action}: ${r.detail}`);
    assert.ok(acts.some((a) => a.startsWith('rotate')), `maint rotated: ${acts}`);
    assert.equal(await cur(), table);
  };

  assert.deepEqual(await cursors(), { fast: [null, null, 0, null, []], slow: [null, null, 0, null, []] }, 'nothing sent: both caught up');
  for (let i = 1; i <= 3; i++) await send(db, 'q', `e${i}`);
  // Sent, not ticked yet: still unread, in the current table.
  assert.deepEqual(await cursors(), {
    fast: [0, 'pgque.event_1_0', 3, 1, [0]], slow: [0, 'pgque.event_1_0', 3, 1, [0]] });
  await tick(db);
  const batch = await receive(db, 'q', 'fast');
  assert.equal(batch.length, 3);
  assert.equal((await cursors()).fast[0], 0, 'received, not acked: the cursor has not moved');
  await db.query(`select pgque.ack($1)`, [batch[0].batch_id]);
  const after = await cursors();
  assert.deepEqual(after.fast, [null, null, 0, null, []], 'acked: fast is caught up');
  assert.deepEqual(after.slow, [0, 'pgque.event_1_0', 3, 1, [0]], 'slow still has all three in table 0');
  assert.equal(await lag('slow'), 3, 'the same count as consumer_report.lag_events');

  // Rotation: once slow has read them too, both cursors are past table 0 and the period has
  // passed, so maint switches to table 1 (truncating it: it is empty).
  await drain(db, 'q', 'slow');
  await rotatesTo(1);
  // Event ids are PgQue's: each forced tick moved the sequence ahead, so they are read back.
  const e4 = Number(await send(db, 'q', 'e4'));
  assert.deepEqual((await cursors()).slow, [1, 'pgque.event_1_1', 1, e4, [1]], 'after the rotation the next event is in the new current table');
  // Both read e4 (the ticks record step 2 and pass it); e5 goes into table 1 unread by
  // either; fast reads it, slow does not, and the next rotation leaves slow's cursor on
  // table 1, behind the new current table 2.
  await tick(db);
  await tick(db);
  await drain(db, 'q', 'fast');
  await drain(db, 'q', 'slow');
  const e5 = Number(await send(db, 'q', 'e5'));
  await tick(db);
  await drain(db, 'q', 'fast');
  await rotatesTo(2);
  const e6 = Number(await send(db, 'q', 'e6'));
  const c = await cursors();
  assert.deepEqual(c.fast, [2, 'pgque.event_1_2', 1, e6, [2]], 'fast: only e6, in the current table');
  assert.deepEqual(c.slow, [1, 'pgque.event_1_1', 2, e5, [1, 2]], 'slow: e5 in table 1 (older), then e6 in table 2');
  assert.equal(await lag('slow'), 2);
  await rejects(db.query(`select * from pgque.get_cursor_info('nope')`), 'P0001', /^queue not found: nope$/);
});
