// Figures for L3 "Bloat and VACUUM": runs the lab's own SQL (src/sql/vacuum) at full
// size and prints what it measures (it asserts nothing; the behaviour is pinned by
// vacuum.test.mjs).
//   1. The lab's default run: keep-rows, DELETE, rotation, 3 rounds of 20,000 jobs each,
//      claims in batches of 500; after each round the sizes, live/dead tuples and the
//      pages and time of the article's claim; VACUUM after round 3 (TRUNCATE for rotation
//      after every round) and the same again.
//   2. VACUUM after every round (keep-rows and DELETE + VACUUM): before/after each round.
//   (and the time of the heap page map over the largest table)
//   3. Claim throughput on 20,000 ready jobs: the article's claim against the
//      index-friendly claim, on the virtual clock and on the real now().
// Run:  node tests/node/vacuum.bench.mjs            (PGlite in Node)
//       VAC_JOBS=2000 VAC_ROUNDS=1 node tests/node/vacuum.bench.mjs   (quick)
// Native PostgreSQL for a ratio (not a dependency of the repo: give a `pg` module path):
//       VAC_PG_URL=postgres://postgres@127.0.0.1:55439/postgres \
//       VAC_PG_MODULE=/tmp/vacwork/node_modules/pg/lib/index.js node tests/node/vacuum.bench.mjs
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { CLOCK } from './clock.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const JOBS = Number(process.env.VAC_JOBS ?? 20000);
const ROUNDS = Number(process.env.VAC_ROUNDS ?? 3);
const BATCH = Number(process.env.VAC_BATCH ?? 500);
const CLAIM_SECONDS = Number(process.env.VAC_CLAIM_SECONDS ?? 3);
const native = process.env.VAC_PG_URL;

const sql = (name) => readFileSync(join(root, 'src/sql/vacuum', `${name}.sql`), 'utf8');

/** A database with the lab's clock and tables: PGlite, or a fresh database on a server. */
async function boot(tag) {
  if (!native) {
    const dist = join(root, 'pglite-bridge/node_modules/@electric-sql/pglite/dist');
    const { PGlite } = await import(join(dist, 'index.js'));
    const { pageinspect } = await import(join(dist, 'contrib/pageinspect.js'));
    const { pg_visibility } = await import(join(dist, 'contrib/pg_visibility.js'));
    const db = await PGlite.create({
      extensions: { pageinspect, pg_visibility },
      postgresqlconf: 'max_prepared_transactions = 4',
    });
    await db.exec(CLOCK);
    await db.exec(sql('setup_extensions'));
    await db.exec(sql('setup_tables'));
    return {
      name: 'PGlite (Node)',
      query: async (text, params) => (await db.query(text, params)).rows,
      exec: (text) => db.exec(text),
      close: () => db.close(),
    };
  }
  const pg = (await import(process.env.VAC_PG_MODULE ?? 'pg')).default;
  pg.types.setTypeParser(20, Number); // int8 as numbers, as PGlite gives them
  const admin = new pg.Client({ connectionString: native });
  await admin.connect();
  const dbname = `vac_bench_${tag}`;
  await admin.query(`drop database if exists ${dbname}`);
  await admin.query(`create database ${dbname}`);
  await admin.end();
  const url = new URL(native);
  url.pathname = `/${dbname}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(CLOCK);
  await client.query(sql('setup_tables'));
  const version = (await client.query('show server_version')).rows[0].server_version;
  return {
    name: `native PostgreSQL ${version}`,
    query: async (text, params) => (await client.query(text, params)).rows,
    exec: (text) => client.query(text),
    close: () => client.end(),
  };
}

const ms = (t) => (performance.now() - t);
const fmt = (x, d = 0) => (typeof x === 'number' ? x.toFixed(d) : String(x));

async function round(db, complete) {
  const t = performance.now();
  await db.query(sql('enqueue'), [JOBS]);
  for (;;) {
    const batch = await db.query(sql('claim_batch'), [BATCH]);
    if (batch.length === 0) break;
    await db.query(sql(complete), [batch.map((j) => j.id)]);
  }
  return ms(t);
}

async function measure(db, table) {
  await db.query(sql('flush_stats'));
  const [m] = await db.query(sql('measure_table'), [table]);
  const idx = await db.query(sql('measure_indexes'), [table]);
  const [plan] = await db.query(sql('explain_claim_article'));
  const [p] = await db.query(sql('plan_summary'), [JSON.stringify(plan['QUERY PLAN'])]);
  return {
    heap_pages: m.heap_pages,
    heap_kb: m.heap_bytes / 1024,
    index_kb: idx.map((i) => `${i.index_name} ${fmt(i.bytes / 1024)}`).join(', '),
    live: m.n_live_tup,
    dead: m.n_dead_tup,
    claim_pages: p.pages,
    claim_ms: p.execution_ms,
  };
}

async function vacuum(db) {
  await db.query(sql('flush_stats'));
  const t = performance.now();
  await db.query(sql('vacuum'));
  return ms(t);
}

function print(rows) {
  const cols = Object.keys(rows[0]);
  const w = cols.map((c) => Math.max(c.length, ...rows.map((r) => fmt(r[c], typeof r[c] === 'number' && !Number.isInteger(r[c]) ? 2 : 0).length)));
  console.log(cols.map((c, i) => c.padEnd(w[i])).join('  '));
  for (const r of rows) {
    console.log(cols.map((c, i) => fmt(r[c], typeof r[c] === 'number' && !Number.isInteger(r[c]) ? 2 : 0).padEnd(w[i])).join('  '));
  }
}

async function defaultRun() {
  const db = await boot('default');
  console.log(`\n== 1. default run on ${db.name}: ${ROUNDS} rounds × ${JOBS} jobs, batches of ${BATCH}; no VACUUM between rounds`);
  const out = [];
  const t0 = performance.now();
  const per = {};
  for (const [strategy, complete] of [['vac_keep', 'complete_done'], ['vac_delete', 'complete_delete'], ['vac_rotate', 'complete_done']]) {
    await db.query(sql('use_strategy'), [strategy]);
    per[strategy] = 0;
    for (let r = 1; r <= ROUNDS; r++) {
      const roundMs = await round(db, complete);
      per[strategy] += roundMs;
      out.push({ strategy, round: r, step: 'after round', round_s: roundMs / 1000, ...(await measure(db, `${strategy}.jobs`)) });
      if (strategy === 'vac_rotate') {
        const t = performance.now();
        await db.query(sql('rotate_truncate'));
        out.push({ strategy, round: r, step: 'TRUNCATE', round_s: ms(t) / 1000, ...(await measure(db, `${strategy}.jobs`)) });
      }
    }
    if (strategy !== 'vac_rotate') {
      const vms = await vacuum(db);
      out.push({ strategy, round: ROUNDS, step: 'VACUUM', round_s: vms / 1000, ...(await measure(db, `${strategy}.jobs`)) });
    }
  }
  const total = ms(t0);
  print(out);
  if (!native) {
    // The page map over the largest table of the run (keep-rows, all rounds).
    const t = performance.now();
    const pages = await db.query(sql('page_map'), ['vac_keep.jobs']);
    console.log(`page map of vac_keep.jobs: ${pages.length} pages in ${fmt(ms(t))} ms`);
  }
  console.log(`workload time (enqueue + claim + complete only): ${Object.entries(per).map(([s, v]) => `${s} ${fmt(v / 1000, 2)} s`).join(', ')}; `
    + `sum ${fmt(Object.values(per).reduce((a, b) => a + b) / 1000, 2)} s; whole run with measurements ${fmt(total / 1000, 2)} s`);
  await db.close();
}

async function vacuumEveryRound() {
  const db = await boot('every');
  console.log(`\n== 2. VACUUM after every round on ${db.name}`);
  const out = [];
  for (const [strategy, complete] of [['vac_keep', 'complete_done'], ['vac_delete_vacuum', 'complete_delete']]) {
    await db.query(sql('use_strategy'), [strategy]);
    for (let r = 1; r <= ROUNDS; r++) {
      const roundMs = await round(db, complete);
      out.push({ strategy, round: r, step: 'after round', secs: roundMs / 1000, ...(await measure(db, `${strategy}.jobs`)) });
      const vms = await vacuum(db);
      out.push({ strategy, round: r, step: 'VACUUM', secs: vms / 1000, ...(await measure(db, `${strategy}.jobs`)) });
    }
  }
  print(out);
  await db.close();
}

async function throughput(clock) {
  const db = await boot(`tp_${clock ? 'clock' : 'real'}`);
  const use = clock
    ? sql('use_strategy')
    : `select set_config('search_path', format('%I, pg_catalog, public', $1::text), false)`;
  const out = [];
  for (const [name, params] of [['claim_article', []], ['claim_indexed', ['default']]]) {
    await db.query(use, ['vac_plan']);
    await db.exec('truncate jobs');
    await db.query(sql('enqueue'), [JOBS]);
    await db.query(sql('analyze'));
    let n = 0;
    const t = performance.now();
    while (ms(t) < CLAIM_SECONDS * 1000) {
      const got = await db.query(sql(name), params);
      if (got.length !== 1) throw new Error(`${name} claimed ${got.length}`);
      n++;
    }
    const el = ms(t);
    out.push({ claim: name, now: clock ? 'lab.now() (virtual clock)' : 'pg_catalog.now()', jobs: n, jobs_per_s: n / el * 1000, ms_per_claim: el / n });
  }
  console.log(`\n== 3. claim throughput on ${db.name}, ${JOBS} ready jobs, ${CLAIM_SECONDS} s each, one claim per statement`);
  print(out);
  await db.close();
}

await defaultRun();
await vacuumEveryRound();
await throughput(true);
await throughput(false);
