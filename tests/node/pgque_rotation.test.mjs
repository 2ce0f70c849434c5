// L4's rotation held to what holds it back, each with its reason: the rotation period (and
// until when), a consumer that has not acked past step 2, and a long (prepared) transaction
// open since before step 2 — on the engine's own files (src/sql/pgque) in PGlite, in Node.
// pgq.test.mjs covers the engine at large; these pin the waits' reasons that a planted fault
// (tests/mutants/) showed unguarded.
// Run: node --test tests/node/pgque_rotation.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { advance } from './clock.mjs';
import { engineBoot, maintThenStep2, rotatingQueue } from './pgque.mjs';

const boot = engineBoot();

const rows = async (db, sql, params) => (await db.query(sql, params)).rows;
const val = async (db, sql, params) => Object.values((await rows(db, sql, params))[0])[0];
const send = (db, payload) => db.query(`select pgque.send('q', 'test', $1)`, [payload]);
async function tick(db) {
  await db.query(`select pgque.force_next_tick('q')`);
  return val(db, `select pgque.ticker('q')`);
}
/** Receives whole batches and acks them until the consumer has no tick left. */
async function drain(db, consumer) {
  const got = [];
  for (let i = 0; i < 100; i++) {
    const lag = await val(db, `select lag_ticks from pgque.consumer_report('q', $1)`, [consumer]);
    if (lag === 0) return got;
    const batch = await rows(db, `select * from pgque.receive('q', $1, 10000)`, [consumer]);
    got.push(...batch.map((r) => r.payload));
    if (batch.length) await db.query(`select pgque.ack($1)`, [batch[0].batch_id]);
  }
  throw new Error('drain did not end');
}
const maint = (db) => maintThenStep2(db, 'action, reason, args');
const curTable = (db) => val(db, `select queue_cur_table from pgque.get_queue_info('q')`);

test('maint() waits out the rotation period, saying until when, and switches once it has passed', async (t) => {
  const db = await boot(t);
  await rotatingQueue(db, 3, '60 seconds', ['a']);
  const switched = await val(db, `select queue_switch_time::text from pgque.queue where queue_name = 'q'`);
  const until = await val(db, `select ($1::timestamptz + interval '60 seconds')::text`, [switched]);
  await send(db, 'e1');
  await tick(db);
  await tick(db);
  assert.deepEqual(await drain(db, 'a'), ['e1']);

  await advance(db, 30);
  const early = await maint(db);
  assert.ok(!early.some((r) => r.action === 'rotate'), JSON.stringify(early));
  const wait = early.find((r) => r.action === 'wait');
  assert.deepEqual([wait?.reason, wait?.args], ['period', [until]], 'the wait is the period, until its end');
  assert.equal(await curTable(db), 0);

  await advance(db, 31);
  const late = await maint(db);
  assert.ok(late.some((r) => r.action === 'rotate'), JSON.stringify(late));
  assert.equal(await curTable(db), 1);
});

test('a lagging consumer holds rotation back and the wait names it and its cursor tick; once it acks, maint() switches', async (t) => {
  const db = await boot(t);
  await rotatingQueue(db, 3, '1 second', ['fast', 'slow']);
  const slowTick = await val(db, `select last_tick from pgque.get_consumer_info('q', 'slow')`);
  await send(db, 'e1');
  await tick(db);
  await tick(db);
  await drain(db, 'fast');
  await advance(db, 2);
  const held = await maint(db);
  const wait = held.find((r) => r.action === 'wait');
  assert.deepEqual([wait?.reason, wait?.args], ['consumer', ['slow', String(slowTick)]], JSON.stringify(held));
  assert.equal(await curTable(db), 0);
  assert.deepEqual(await drain(db, 'slow'), ['e1']);
  await advance(db, 1);
  assert.ok((await maint(db)).some((r) => r.action === 'rotate'));
});

test('a prepared transaction open since before step 2 holds rotation back with the reason long_tx and its txid, whatever the consumers acked', async (t) => {
  const db = await boot(t);
  await rotatingQueue(db, 2, '1 second', ['a']);
  await db.exec(`begin; select pgque.send('q', 'test', 'pinned'); prepare transaction 'p1';`);
  const txid = await val(db, `select transaction::text from pg_prepared_xacts where gid = 'p1'`);
  // The switch from table 0 (where the prepared transaction wrote) to table 1 may happen: it
  // truncates table 1. The switch back into table 0 would truncate its event: it must wait.
  let rotations = 0;
  const waits = [];
  for (let i = 0; i < 6; i++) {
    await send(db, `x${i}`);
    await tick(db);
    await tick(db);
    await drain(db, 'a');
    await advance(db, 2);
    for (const r of await maint(db)) {
      if (r.action === 'rotate') rotations += 1;
      else if (r.action === 'wait' && rotations === 1) waits.push([r.reason, r.args]);
    }
  }
  assert.equal(rotations, 1, 'one switch (0 -> 1), none back into table 0 while the prepared transaction is open');
  assert.ok(waits.length >= 3, JSON.stringify(waits));
  for (const w of waits) assert.deepEqual(w, ['long_tx', [txid]], 'the wait names the long transaction');
  await db.exec(`commit prepared 'p1'`);
  await tick(db);
  assert.deepEqual(await drain(db, 'a'), ['pinned']);
});
