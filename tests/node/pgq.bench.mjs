// Benchmark, not a test: the pgq rotation queue against the article's SKIP LOCKED
// `jobs` table with DELETE on completion, under the same load, in PGlite in Node.
//
//   node tests/node/pgq.bench.mjs            (N=20000 ROUNDS=3 BATCH=500 by default)
//   N=5000 BATCH=100 node tests/node/pgq.bench.mjs
//
// Per round: enqueue N, consume all, then housekeeping, then measure.
//   pgq   one send_batch of N events; ticker; two consumers each receive(BATCH) +
//         ack until drained (fan-out: 2 × N deliveries); then one more tick,
//         which each consumer steps over (an empty span), and maint(): the
//         rotation rule needs every cursor on a tick taken after step 2, which
//         the round's first tick recorded. The lab clock moves 30 s a round.
//   jobs  one INSERT … SELECT of N jobs; one worker claims BATCH at a time with
//         the article's claim (limit raised to BATCH, as src/sql/vacuum/claim_batch.sql)
//         and DELETEs them; then VACUUM, standing in for autovacuum (which never
//         runs in PGlite).
// Each twice: without and with a long transaction (a prepared one holding an
// xid, so the xmin horizon is pinned, as in L3).
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { CLOCK, advance } from './clock.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { PGlite } = await import(
  join(root, 'pglite-bridge/node_modules/@electric-sql/pglite/dist/index.js'));
const N = Number(process.env.N ?? 20000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const BATCH = Number(process.env.BATCH ?? 500);


// The article's table and partial index, verbatim.
const JOBS = `
  create table jobs (
    id bigint generated always as identity primary key,
    queue text not null default 'default',
    payload jsonb not null,
    status text not null default 'ready',
    priority int not null default 0,
    run_at timestamptz not null default now(),
    attempts int not null default 0,
    max_attempts int not null default 5,
    locked_until timestamptz,
    last_error text);
  create index jobs_ready on jobs (queue, priority desc, run_at) where status = 'ready';`;

const CLAIM = `
  update jobs
     set status = 'running', attempts = attempts + 1,
         locked_until = (select now()) + interval '30 seconds'
   where id = any(array(
     select id from jobs
      where (status = 'ready' and run_at <= (select now()))
         or (status = 'running' and locked_until < (select now()))
      order by priority desc, run_at
      for update skip locked
      limit $1))
  returning id`;

async function boot() {
  const db = await PGlite.create({ postgresqlconf: 'max_prepared_transactions = 4' });
  await db.exec(CLOCK);
  for (const f of readdirSync(join(root, 'src/sql/pgq')).filter((f) => f.endsWith('.sql')).sort()) {
    await db.exec(readFileSync(join(root, 'src/sql/pgq', f), 'utf8'));
  }
  await db.exec(JOBS);
  return db;
}
const ms = (t0) => performance.now() - t0;
const kb = (b) => Math.round(Number(b) / 1024);

async function tableStats(db, pattern) {
  await db.query(`select pg_stat_force_next_flush()`);
  return (await db.query(`
    select relname, n_live_tup::int as live, n_dead_tup::int as dead,
           pg_total_relation_size(relid)::bigint as bytes
      from pg_stat_user_tables where relname ~ $1 order by relname`, [pattern])).rows;
}

async function pin(db) {
  await db.exec(`begin; select txid_current(); prepare transaction 'bench_pin';`);
}
async function unpin(db) {
  await db.exec(`rollback prepared 'bench_pin'`);
}

async function benchPgq(pinned) {
  const db = await boot();
  await db.query(`select pgq.create_queue('bench')`);
  await db.query(`select pgq.register_consumer('bench', 'c1')`);
  await db.query(`select pgq.register_consumer('bench', 'c2')`);
  if (pinned) await pin(db);
  const out = [];
  for (let round = 1; round <= ROUNDS; round++) {
    let t = performance.now();
    await db.query(`select cardinality(pgq.send_batch('bench', 'job',
        array(select jsonb_build_object('job', g)::text from generate_series(1, $1::int) g)))`, [N]);
    const enqueueMs = ms(t);
    await db.query(`select pgq.ticker()`);
    t = performance.now();
    let calls = 0;
    let delivered = 0;
    for (const c of ['c1', 'c2']) {
      for (;;) {
        const page = (await db.query(`select batch_id, msg_id from pgq.receive('bench', $1, $2)`, [c, BATCH])).rows;
        calls++;
        if (page.length === 0) break;
        delivered += page.length;
        await db.query(`select pgq.ack($1)`, [page[0].batch_id]);
      }
    }
    const consumeMs = ms(t);
    await advance(db, 30);
    await db.query(`select pgq.ticker()`);
    for (const c of ['c1', 'c2']) await db.query(`select * from pgq.receive('bench', $1, 1)`, [c]);
    t = performance.now();
    const maintRows = (await db.query(`select action, detail from pgq.maint()`)).rows;
    const maintMs = ms(t);
    const maint = maintRows.filter((r) => r.action !== 'ticks').map((r) => r.action === 'rotate'
      ? `rotate, truncated ${/\((\d+) events\)/.exec(r.detail)[1]} events` : `${r.action}: ${r.detail.slice(0, 30)}…`).join('; ');
    const tables = await tableStats(db, '^event_');
    const meta = await tableStats(db, '^(tick|subscription|queue|retry_queue|dead_letter)$');
    out.push({
      round, enqueueMs, consumeMs, calls, delivered,
      msPerReceive: consumeMs / calls, usPerDelivery: (consumeMs * 1000) / delivered,
      maintMs, maint,
      eventDead: tables.reduce((s, r) => s + r.dead, 0),
      eventKB: tables.filter((r) => /_\d+_/.test(r.relname)).map((r) => kb(r.bytes)).join(' / '),
      metaDead: meta.reduce((s, r) => s + r.dead, 0),
    });
  }
  if (pinned) {
    await unpin(db);
    const after = [];
    for (let i = 0; i < 3; i++) {
      await db.query(`select pgq.ticker()`);
      await db.query(`select pgq.ticker()`);
      for (const c of ['c1', 'c2']) await db.query(`select * from pgq.receive('bench', $1, 1)`, [c]);
      await advance(db, 30);
      after.push(...(await db.query(`select action, detail from pgq.maint()`)).rows
        .filter((r) => r.action === 'rotate').map((r) => /\((\d+) events\)/.exec(r.detail)[1]));
    }
    const tables = await tableStats(db, '^event_');
    out.push({ maint: `after the pin ends: truncated ${after.join(', ')} events`,
      eventKB: tables.filter((r) => /_\d+_/.test(r.relname)).map((r) => kb(r.bytes)).join(' / ') });
  }
  await db.close();
  return out;
}

async function benchJobs(pinned) {
  const db = await boot();
  if (pinned) await pin(db);
  const out = [];
  for (let round = 1; round <= ROUNDS; round++) {
    let t = performance.now();
    await db.query(`insert into jobs (payload)
      select jsonb_build_object('job', g) from generate_series(1, $1::int) g`, [N]);
    const enqueueMs = ms(t);
    t = performance.now();
    let calls = 0;
    let done = 0;
    let first = null;
    let last = null;
    for (;;) {
      const c0 = performance.now();
      const ids = (await db.query(CLAIM, [BATCH])).rows.map((r) => r.id);
      const claimMs = ms(c0);
      calls++;
      if (ids.length === 0) break;
      first ??= claimMs;
      last = claimMs;
      await db.query(`delete from jobs where id = any($1::bigint[])`, [ids]);
      done += ids.length;
    }
    const consumeMs = ms(t);
    const [before] = await tableStats(db, '^jobs$');
    t = performance.now();
    await db.exec(`vacuum jobs`);
    const vacuumMs = ms(t);
    const [after] = await tableStats(db, '^jobs$');
    out.push({
      round, enqueueMs, consumeMs, calls, done,
      msPerClaim: consumeMs / calls, usPerJob: (consumeMs * 1000) / done,
      firstClaimMs: first, lastClaimMs: last,
      deadBeforeVacuum: before.dead, deadAfterVacuum: after.dead, vacuumMs,
      tableKB: kb(after.bytes),
    });
  }
  if (pinned) await unpin(db);
  await db.close();
  return out;
}

const fmt = (rows) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) =>
  [k, typeof v === 'number' && !Number.isInteger(v) ? Number(v.toFixed(2)) : v])));

console.log(`N=${N} ROUNDS=${ROUNDS} BATCH=${BATCH} (PGlite in Node ${process.version}); eventKB: the 3 event tables, heap + index`);
const total = performance.now();
for (const pinned of [false, true]) {
  const label = pinned ? 'with a prepared transaction pinning xmin' : 'no long transaction';
  let t = performance.now();
  const p = await benchPgq(pinned);
  console.log(`\npgq, 2 consumers, ${label} (${(ms(t) / 1000).toFixed(1)} s incl. boot)`);
  console.table(fmt(p));
  t = performance.now();
  const j = await benchJobs(pinned);
  console.log(`\njobs SKIP LOCKED + DELETE + VACUUM after each round, ${label} (${(ms(t) / 1000).toFixed(1)} s incl. boot)`);
  console.table(fmt(j));
}
console.log(`\ntotal ${(ms(total) / 1000).toFixed(1)} s`);
