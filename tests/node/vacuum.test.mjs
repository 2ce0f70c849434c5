// Headless checks of the L3 "Bloat and VACUUM" SQL (src/sql/vacuum) on real
// PostgreSQL 18 in PGlite, in Node. Each test boots a fresh database with the
// lab's virtual clock and the lab's extensions (pageinspect, pg_visibility), runs
// the lab's own .sql files the way the lab calls them, and proves one behaviour
// the lab must show. Sizes are small (2,000 jobs a round) for speed.
// Run: node --test tests/node/vacuum.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { CLOCK, advance } from './clock.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'pglite-bridge/node_modules/@electric-sql/pglite/dist');
const { PGlite } = await import(join(dist, 'index.js'));
const { pageinspect } = await import(join(dist, 'contrib/pageinspect.js'));
const { pg_visibility } = await import(join(dist, 'contrib/pg_visibility.js'));

const JOBS = 2000;
const BATCH = 500;


const sqlCache = new Map();
/** The text of a statement exactly as the lab sends it: src/sql/vacuum/<name>.sql; the
 *  article's claim is L1's file (jobs/claim_article.sql); `explain_<claim>` is explain.sql
 *  followed by that claim's file, as the app's `sql_file!(…, explain …)` puts them together;
 *  setup_tables and vacuum_full_setup follow jobs_table.sql (the one jobs DDL they call);
 *  plan_summary and plan_nodes follow plan_walk.sql (the walk over a plan's nodes). */
function sql(name) {
  if (!sqlCache.has(name)) {
    const file = (n) => readFileSync(n === 'claim_article'
      ? join(root, 'src/sql/jobs/claim_article.sql')
      : join(root, 'src/sql/vacuum', `${n}.sql`), 'utf8');
    const explained = /^explain_(.+)$/.exec(name);
    // The scripts that call the one jobs DDL come after it, as the app's sql.rs puts them.
    const withTable = name === 'setup_tables' || name === 'vacuum_full_setup';
    // A reading of a plan follows the walk over its nodes, as the app's `sql_file!(…, plan …)`.
    const readsPlan = name === 'plan_summary' || name === 'plan_nodes';
    sqlCache.set(name, explained ? file('explain') + file(explained[1])
      : withTable ? file('jobs_table') + file(name)
        : readsPlan ? file('plan_walk') + file(name) : file(name));
  }
  return sqlCache.get(name);
}

async function boot() {
  const db = await PGlite.create({
    extensions: { pageinspect, pg_visibility },
    postgresqlconf: 'max_prepared_transactions = 4',
  });
  await db.exec(CLOCK);
  await db.exec(sql('setup_extensions'));
  await db.exec(sql('setup_tables'));
  await db.exec(sql('setup_helpers'));
  return db;
}

const rows = async (db, name, params) => (await db.query(sql(name), params)).rows;
const one = async (db, name, params) => (await rows(db, name, params))[0];

async function use(db, strategy) {
  const r = await rows(db, 'use_strategy', [strategy]);
  assert.equal(r.length, 1, `use_strategy refused ${strategy}`);
}

/** One round of the lab's workload on the current strategy's table. */
async function round(db, complete, jobs = JOBS) {
  await db.query(sql('enqueue'), [jobs]);
  let claimed = 0;
  for (;;) {
    const batch = await rows(db, 'claim_batch', [BATCH]);
    if (batch.length === 0) break;
    assert.ok(batch.length <= BATCH, 'a batch never claims more than its size');
    claimed += batch.length;
    await db.query(sql(complete), [batch.map((j) => j.id)]);
  }
  assert.equal(claimed, jobs, 'every enqueued job was claimed once');
}

/** VACUUM as the lab runs it: statistics flushed first (see vacuum.sql). */
async function vacuum(db) {
  await db.query(sql('flush_stats'));
  await db.query(sql('vacuum'));
}

async function measure(db, table) {
  await db.query(sql('flush_stats'));
  return one(db, 'measure_table', [table]);
}

/** EXPLAIN (ANALYZE, BUFFERS) of a claim, read back through plan_summary.sql. */
async function explain(db, name, params) {
  const plan = (await one(db, name, params))['QUERY PLAN'];
  return one(db, 'plan_summary', [JSON.stringify(plan)]);
}

async function pageMap(db, table) {
  const pages = await rows(db, 'page_map', [table]);
  const sum = (k) => pages.reduce((a, p) => a + p[k], 0);
  return {
    pages: pages.length,
    live: sum('live'),
    dead: sum('dead'),
    unused: sum('unused'),
    redirect: sum('redirect'),
    freeBytes: sum('free_bytes'),
    allVisible: pages.filter((p) => p.all_visible).length,
  };
}

test('keep-rows and DELETE: dead tuples and heap pages grow round after round without VACUUM', async () => {
  const db = await boot();
  for (const [strategy, complete] of [['vac_keep', 'complete_done'], ['vac_delete', 'complete_delete']]) {
    await use(db, strategy);
    const seen = [];
    for (let r = 0; r < 3; r++) {
      await round(db, complete);
      seen.push(await measure(db, `${strategy}.jobs`));
    }
    for (let r = 1; r < 3; r++) {
      assert.ok(seen[r].n_dead_tup > seen[r - 1].n_dead_tup,
        `${strategy}: dead tuples grow in round ${r + 1}: ${seen.map((s) => s.n_dead_tup)}`);
      assert.ok(seen[r].heap_pages > seen[r - 1].heap_pages,
        `${strategy}: heap grows in round ${r + 1}: ${seen.map((s) => s.heap_pages)}`);
    }
    // Each job leaves two dead versions: "ready" (replaced at claim) and "running"
    // (replaced at completion) — the batch does not change that.
    assert.equal(seen[0].n_dead_tup, 2 * JOBS, `${strategy}: two dead versions per job`);
    assert.equal(seen[2].n_live_tup, strategy === 'vac_keep' ? 3 * JOBS : 0);
    assert.equal(seen[2].vacuum_count, 0);
  }
});

test('rotation: TRUNCATE of the finished round leaves 0 dead tuples and 0 pages with no VACUUM', async () => {
  const db = await boot();
  await use(db, 'vac_rotate');
  for (let r = 0; r < 2; r++) {
    await round(db, 'complete_done');
    const done = await measure(db, 'vac_rotate.jobs');
    assert.equal(done.n_dead_tup, 2 * JOBS, 'the round itself bloats like keep-rows');
    assert.ok(done.heap_pages > 0);
    await db.query(sql('rotate_truncate'));
    const after = await measure(db, 'vac_rotate.jobs');
    assert.equal(after.n_dead_tup, 0, 'no dead tuples after TRUNCATE');
    assert.equal(after.n_live_tup, 0);
    assert.equal(after.heap_pages, 0, 'no heap pages after TRUNCATE');
    assert.equal(after.vacuum_count, 0, 'VACUUM never ran');
    const map = await pageMap(db, 'vac_rotate.jobs');
    assert.equal(map.pages, 0);
  }
  // The article's claim on the emptied table reads nothing.
  const plan = await explain(db, 'explain_claim_article');
  assert.equal(plan.pages, 0, `pages read after rotation: ${plan.pages}`);
});

test("DELETE: VACUUM clears every dead tuple and the article's claim drops from every page to a handful", async () => {
  const db = await boot();
  await use(db, 'vac_delete');
  await round(db, 'complete_delete');
  const before = await measure(db, 'vac_delete.jobs');
  const planBefore = await explain(db, 'explain_claim_article');
  assert.ok(planBefore.seq_scan, 'the article claim scans the table');
  assert.ok(planBefore.pages >= before.heap_pages,
    `reads every heap page before VACUUM: ${planBefore.pages} of ${before.heap_pages}`);

  await vacuum(db);
  const after = await measure(db, 'vac_delete.jobs');
  assert.equal(after.n_dead_tup, 0);
  const planAfter = await explain(db, 'explain_claim_article');
  assert.ok(planAfter.pages <= 5, `a handful of pages after VACUUM: ${planAfter.pages}`);
  assert.ok(planAfter.pages < planBefore.pages / 10);
});

test("keep-rows: after VACUUM dead tuples are 0 yet the article's claim still reads every heap page", async () => {
  const db = await boot();
  await use(db, 'vac_keep');
  await round(db, 'complete_done');
  const planBefore = await explain(db, 'explain_claim_article');
  await vacuum(db);
  const after = await measure(db, 'vac_keep.jobs');
  assert.equal(after.n_dead_tup, 0);
  assert.equal(after.n_live_tup, JOBS, 'the done rows stay, live');
  const planAfter = await explain(db, 'explain_claim_article');
  assert.ok(planAfter.seq_scan);
  assert.ok(planAfter.pages >= after.heap_pages,
    `still reads every page: ${planAfter.pages} of ${after.heap_pages}`);
  assert.ok(after.heap_pages > 10);
  assert.equal(planAfter.pages, planBefore.pages, 'VACUUM does not shrink a table of live rows');
});

test('long transaction: VACUUM removes no dead tuple while it is prepared, and all of them once it is rolled back', async () => {
  const db = await boot();
  await use(db, 'vac_delete');
  await db.exec(sql('long_tx_begin'));
  try {
    assert.equal((await rows(db, 'long_tx_status')).length, 1);
    await round(db, 'complete_delete');
    const before = await measure(db, 'vac_delete.jobs');
    assert.equal(before.n_dead_tup, 2 * JOBS);

    await vacuum(db);
    const pinned = await measure(db, 'vac_delete.jobs');
    assert.equal(pinned.n_dead_tup, before.n_dead_tup, 'VACUUM removed nothing');
    assert.equal(pinned.heap_pages, before.heap_pages);
    const map = await pageMap(db, 'vac_delete.jobs');
    assert.equal(map.dead, before.n_dead_tup, 'every dead tuple is still on its page');
  } finally {
    await db.query(sql('long_tx_release'));
  }
  assert.equal((await rows(db, 'long_tx_status')).length, 0);
  await vacuum(db);
  const released = await measure(db, 'vac_delete.jobs');
  assert.equal(released.n_dead_tup, 0, 'VACUUM removed them all after release');
  assert.equal((await pageMap(db, 'vac_delete.jobs')).dead, 0);
});

test("claim plans: the index-friendly claim reads jobs_ready in order; the article's claim scans and sorts", async () => {
  const db = await boot();
  // On a strategy table (only the article's index) the article's claim is a seq scan.
  await use(db, 'vac_delete');
  await db.query(sql('enqueue'), [JOBS]);
  await db.query(sql('analyze'));
  const onArticleTable = await explain(db, 'explain_claim_article');
  assert.ok(onArticleTable.seq_scan && onArticleTable.sort && !onArticleTable.uses_jobs_ready,
    `article claim on the article's table: ${onArticleTable.scans}`);

  // On the plan table (plus jobs_lease), side by side on the same rows.
  await use(db, 'vac_plan');
  await db.query(sql('enqueue'), [JOBS]);
  await db.query(sql('analyze'));
  const article = await explain(db, 'explain_claim_article');
  const indexed = await explain(db, 'explain_claim_indexed', ['default']);
  assert.ok(!article.uses_jobs_ready && article.seq_scan && article.sort, `article: ${article.scans}`);
  assert.ok(indexed.uses_jobs_ready && !indexed.seq_scan && !indexed.sort, `indexed: ${indexed.scans}`);
  assert.match(indexed.scans, /Index Scan using jobs_lease/);
  assert.ok(indexed.pages <= 30, `indexed claim pages: ${indexed.pages}`);
  // Buffers of the whole statement (heap, indexes, the UPDATE's index inserts): at 2,000 jobs
  // the heap is small, so the difference is modest here; the heap reads below are the measure.
  assert.ok(article.pages > indexed.pages, `${article.pages} vs ${indexed.pages}`);

  // The table's own heap pages read by each claim.
  const io = async (name, params) => {
    await db.query(sql('flush_stats'));
    const a = await one(db, 'statio', ['vac_plan.jobs']);
    await db.query(sql(name), params);
    await db.query(sql('flush_stats'));
    const b = await one(db, 'statio', ['vac_plan.jobs']);
    return b.heap_blks - a.heap_blks;
  };
  const heapArticle = await io('claim_article');
  const heapIndexed = await io('claim_indexed', ['default']);
  const pages = (await measure(db, 'vac_plan.jobs')).heap_pages;
  assert.ok(heapArticle >= pages, `article claim heap pages ${heapArticle} of ${pages}`);
  assert.ok(heapIndexed <= 10, `indexed claim heap pages ${heapIndexed}`);

  // Both claim the job at the head: same order for equal priorities.
  const a = await one(db, 'claim_article');
  const b = await one(db, 'claim_indexed', ['default']);
  assert.equal(b.id, a.id + 1);
  assert.equal(a.attempts, 1);

  // A lease that ran out is taken back by the index-friendly claim first.
  await advance(db, 31);
  const back = await one(db, 'claim_indexed', ['default']);
  assert.ok(back.id <= b.id && back.attempts === 2,
    `expired lease reclaimed: ${JSON.stringify(back)}`);
});

test('page map: live and dead counts equal pg_stat_user_tables, before and after VACUUM and under the long transaction', async () => {
  const db = await boot();
  const check = async (table, label) => {
    const st = await measure(db, table);
    const map = await pageMap(db, table);
    assert.equal(map.pages, st.heap_pages, `${label}: one row per heap page`);
    assert.equal(map.live, st.n_live_tup, `${label}: live`);
    assert.equal(map.dead, st.n_dead_tup, `${label}: dead`);
    return map;
  };
  await use(db, 'vac_keep');
  await round(db, 'complete_done');
  const keep = await check('vac_keep.jobs', 'keep after round');
  assert.equal(keep.allVisible, 0, 'no page is all-visible before VACUUM');
  await vacuum(db);
  const kept = await check('vac_keep.jobs', 'keep after VACUUM');
  assert.equal(kept.dead, 0);
  // Page pruning during the round already freed most dead tuples' space (leaving
  // LP_DEAD pointers); VACUUM frees the pointers (and drops unused ones at the end of a
  // page's pointer array, so `unused` is not simply the dead count).
  assert.ok(kept.freeBytes > keep.freeBytes, `free bytes ${keep.freeBytes} -> ${kept.freeBytes}`);
  assert.ok(kept.unused > 0);
  assert.equal(kept.allVisible, kept.pages, 'VACUUM sets every page all-visible');

  await use(db, 'vac_delete');
  await round(db, 'complete_delete');
  await check('vac_delete.jobs', 'delete after round');
  await db.exec(sql('long_tx_begin'));
  try {
    await round(db, 'complete_delete');
    await vacuum(db);
    const pinned = await check('vac_delete.jobs', 'delete, VACUUM under the long transaction');
    assert.equal(pinned.dead, 2 * JOBS, 'only the dead tuples made after it began stay');
  } finally {
    await db.query(sql('long_tx_release'));
  }
  await vacuum(db);
  await check('vac_delete.jobs', 'delete after release and VACUUM');

  // Fast enough for the lab's tables: 1,000+ pages in well under a couple of seconds.
  await use(db, 'vac_keep');
  await round(db, 'complete_done', 20000);
  const t = performance.now();
  const big = await check('vac_keep.jobs', 'keep, 22,000 jobs');
  const ms = performance.now() - t;
  assert.ok(big.pages > 700, `pages: ${big.pages}`);
  assert.ok(ms < 5000, `page map of ${big.pages} pages took ${ms.toFixed(0)} ms`);
});

test('autovacuum panel: 50 + 20 % by default, per-table settings move the threshold, unsafe values are refused, and autovacuum never runs', async () => {
  const db = await boot();
  await use(db, 'vac_delete');
  await round(db, 'complete_delete');
  await vacuum(db); // sets reltuples
  await db.query(sql('enqueue'), [JOBS]); // JOBS live rows for the next check
  await db.query(sql('analyze'));
  await db.query(sql('flush_stats'));
  let s = await one(db, 'autovacuum_settings', ['vac_delete.jobs']);
  assert.equal(s.vacuum_threshold, 50);
  assert.equal(s.scale_factor, 0.2);
  assert.equal(s.max_threshold, 100000000);
  assert.equal(s.threshold_from_table, false);
  assert.equal(s.reltuples, JOBS);
  assert.equal(s.dead_threshold, 50 + 0.2 * JOBS);
  assert.equal(s.autovacuum_on, true);

  const set = await one(db, 'set_autovacuum', ['vac_delete.jobs', 100, 0.01, 110]);
  assert.match(set.statement, /^alter table vac_delete\.jobs set \(autovacuum_vacuum_threshold = '100'/);
  s = await one(db, 'autovacuum_settings', ['vac_delete.jobs']);
  assert.equal(s.threshold_from_table, true);
  assert.equal(s.scale_factor, 0.01);
  assert.equal(s.dead_threshold, 110, 'capped by the max threshold (100 + 0.01 × 2000 = 120)');

  await one(db, 'set_autovacuum', ['vac_delete.jobs', 100, 0.01, -1]);
  s = await one(db, 'autovacuum_settings', ['vac_delete.jobs']);
  assert.equal(s.dead_threshold, 120, 'no cap with -1');

  await one(db, 'set_autovacuum', ['vac_delete.jobs', null, null, null]);
  s = await one(db, 'autovacuum_settings', ['vac_delete.jobs']);
  assert.equal(s.threshold_from_table, false);
  assert.equal(s.dead_threshold, 50 + 0.2 * JOBS, 'reset to the server settings');

  await assert.rejects(db.query(sql('set_autovacuum'), ['vac_delete.jobs', -5, 0.2, null]),
    /autovacuum_vacuum_threshold must be 0 or more/);
  await assert.rejects(db.query(sql('set_autovacuum'), ['vac_delete.jobs', 50, 1e9, null]),
    /scale_factor must be between 0 and 100/);
  await assert.rejects(db.query(sql('set_autovacuum'), ['pg_catalog.pg_class', 50, 0.2, null]),
    /not one of the lab's tables/);
  await assert.rejects(db.query(sql('set_autovacuum'), ["vac_delete.jobs set (fillfactor = 10) --", 50, 0.2, null]));

  // Way past the threshold, and still nothing ran it.
  await db.query(sql('claim_batch'), [JOBS]);
  await db.query(sql('flush_stats'));
  s = await one(db, 'autovacuum_settings', ['vac_delete.jobs']);
  assert.ok(s.n_dead_tup > s.dead_threshold && s.would_vacuum_dead);
  assert.equal(s.autovacuum_count, 0);
});

test('VACUUM FULL holds ACCESS EXCLUSIVE (blocks SELECT and INSERT) and rewrites the scratch table into a new, smaller file', async () => {
  const db = await boot();
  await db.exec(sql('vacuum_full_setup'));
  const results = await db.exec(sql('vacuum_full_lock'));
  const locks = results.find((r) => r.rows.length > 0).rows;
  assert.deepEqual(locks.map((l) => [l.mode, l.granted, l.conflicts_with_select, l.conflicts_with_insert]),
    [['AccessExclusiveLock', true, true, true]]);
  assert.equal((await db.query(`select count(*)::int n from pg_locks where locktype = 'relation' and relation = 'vac_scratch.jobs'::regclass`)).rows[0].n, 0,
    'the demonstration rolled back and released the lock');

  const before = await one(db, 'relation_file', ['vac_scratch.jobs']);
  await db.query(sql('vacuum_full'));
  const after = await one(db, 'relation_file', ['vac_scratch.jobs']);
  assert.notEqual(after.filenode, before.filenode, 'a new file');
  assert.ok(after.heap_pages < before.heap_pages, `${before.heap_pages} -> ${after.heap_pages} pages`);
});

test('use_strategy accepts only the lab tables and reset_search_path restores the default', async () => {
  const db = await boot();
  assert.equal((await rows(db, 'use_strategy', ['public; drop table x'])).length, 0);
  assert.equal((await rows(db, 'use_strategy', ['pg_catalog'])).length, 0);
  const r = await one(db, 'use_strategy', ['vac_keep']);
  assert.equal(r.search_path, 'lab, vac_keep, pg_catalog, public');
  assert.equal((await db.query('select now()::text t')).rows[0].t, '2026-01-05 09:00:00+00',
    'now() is still the virtual clock');
  assert.equal((await one(db, 'reset_search_path')).search_path, 'lab, pg_catalog, public');
});

test("partitions: DETACH + DROP of the finished round leaves 0 dead tuples and 0 pages, the next round's partition made first", async () => {
  const db = await boot();
  const parts = async () =>
    (await db.query(`select c.relname::text as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
                      where i.inhparent = 'vac_partition.jobs'::regclass order by 1`)).rows.map((r) => r.name);
  assert.deepEqual(await parts(), [], 'no partition before the first round');
  const claims = [];
  for (let r = 1; r <= 2; r++) {
    const opened = await one(db, 'partition_open', [r]);
    assert.equal(opened.statement, r === 1
      ? 'create table vac_partition.jobs_r1 partition of vac_partition.jobs for values in (\'1\')'
      : null, 'the first is made before its round, the next ones ahead');
    await use(db, 'vac_partition');
    await db.query(sql('enqueue_partition'), [JOBS, r]);
    let claimed = 0;
    for (;;) {
      const batch = await rows(db, 'claim_batch', [BATCH]);
      if (batch.length === 0) break;
      await db.query(sql('complete_done'), [`{${batch.map((b) => b.id).join(',')}}`]);
      claimed += batch.length;
    }
    assert.equal(claimed, JOBS);
    const plan = await explain(db, 'explain_claim_article');
    claims.push(plan.pages);
    await one(db, 'reset_search_path');
    const done = await measure(db, 'vac_partition.jobs');
    assert.equal(done.n_dead_tup, 2 * JOBS, 'the round bloats its partition, summed up to the parent');
    assert.equal(done.n_live_tup, JOBS);
    assert.ok(done.heap_pages > 0);
    const idx = await rows(db, 'measure_indexes', ['vac_partition.jobs']);
    assert.deepEqual(idx.map((i) => i.index_name), ['jobs_pkey', 'jobs_ready'], 'under the parent index names');
    assert.ok(idx.every((i) => i.bytes > 0), 'with the partition\'s sizes');
    const map = await pageMap(db, 'vac_partition.jobs');
    assert.equal(map.pages, done.heap_pages, 'the page map shows the partition\'s pages');
    assert.deepEqual(await parts(), [`jobs_r${r}`]);

    // A live table: the next round's partition takes a job while the finished one goes.
    await one(db, 'partition_open', [r + 1]);
    const dropped = await one(db, 'partition_drop', [r]);
    assert.match(dropped.statement, new RegExp(`detach partition vac_partition.jobs_r${r}; drop table vac_partition.jobs_r${r}$`));
    assert.equal((await db.query(`select to_regclass('vac_partition.jobs_r${r}') as t`)).rows[0].t, null);
    assert.deepEqual(await parts(), [`jobs_r${r + 1}`]);
    const after = await measure(db, 'vac_partition.jobs');
    assert.equal(after.n_dead_tup, 0, 'no dead tuples after DETACH + DROP');
    assert.equal(after.n_live_tup, 0);
    assert.equal(after.heap_pages, 0, 'no heap pages after DETACH + DROP');
    assert.equal(after.vacuum_count, 0, 'VACUUM never ran');
    assert.equal((await pageMap(db, 'vac_partition.jobs')).pages, 0);
  }
  assert.ok(Math.abs(claims[1] - claims[0]) <= 2, `the claim reads as many pages each round: ${claims}`);
  // Dropping a round with no partition does nothing; a round below 1 is refused.
  assert.equal((await one(db, 'partition_drop', [1])).statement, null);
  await assert.rejects(db.query(sql('partition_open'), [0]), /round must be 1 or more/);
});

test("every L3 table is the article's table and index (L1's schema.sql), column for column; the claim is verbatim, its EXPLAIN one line before it", async () => {
  const db = await boot();
  await db.exec(sql('vacuum_full_setup'));
  // The article's table and index as L1 creates them (the first two statements of
  // src/sql/jobs/schema.sql), in a schema of their own.
  const article = readFileSync(join(root, 'src/sql/jobs/schema.sql'), 'utf8').split(';').slice(0, 2).join(';') + ';';
  await db.exec(`create schema article; set search_path = article, lab, pg_catalog, public; ${article} set search_path = lab, pg_catalog, public;`);
  const columns = async (schema) => (await db.query(
    `select column_name, data_type, is_nullable, column_default, is_identity, identity_generation
       from information_schema.columns where table_schema = $1 and table_name = 'jobs' order by ordinal_position`, [schema])).rows;
  const indexes = async (schema) => (await db.query(
    `select indexname, replace(indexdef, $1 || '.', 'S.') as def from pg_indexes
      where schemaname = $1 and tablename = 'jobs' order by indexname`, [schema])).rows;
  const want = await columns('article');
  const wantIndexes = await indexes('article');
  assert.equal(want.length, 10, "the article's ten columns");
  assert.match(want.find((c) => c.column_name === 'run_at').column_default, /^lab\.now\(\)|^now\(\)/);
  for (const schema of ['vac_keep', 'vac_delete', 'vac_delete_vacuum', 'vac_rotate', 'vac_plan', 'vac_scratch']) {
    assert.deepEqual(await columns(schema), want, `${schema}: the article's columns`);
    const got = await indexes(schema);
    const extra = schema === 'vac_plan' ? [{ indexname: 'jobs_lease', def: 'CREATE INDEX jobs_lease ON S.jobs USING btree (locked_until) WHERE (status = \'running\'::text)' }] : [];
    assert.deepEqual(got, [...wantIndexes, ...extra].sort((a, b) => a.indexname.localeCompare(b.indexname)), `${schema}: the article's indexes`);
  }
  // The partitioned table: the article's columns with `round` after id, the key (id, round).
  const partitioned = await columns('vac_partition');
  assert.deepEqual(partitioned.map((c) => c.column_name), ['id', 'round', ...want.slice(1).map((c) => c.column_name)]);
  assert.deepEqual(partitioned.filter((c) => c.column_name !== 'round'), want);
  const shape = (await db.query(
    `select pg_get_partkeydef('vac_partition.jobs'::regclass) as key,
            (select pg_get_constraintdef(oid) from pg_constraint where conrelid = 'vac_partition.jobs'::regclass and contype = 'p') as pk,
            (select indexdef from pg_indexes where schemaname = 'vac_partition' and indexname = 'jobs_ready') as ready`)).rows[0];
  assert.deepEqual(shape, {
    key: 'LIST (round)',
    pk: 'PRIMARY KEY (id, round)',
    ready: wantIndexes.find((i) => i.indexname === 'jobs_ready').def.replace('S.jobs USING', 'ONLY vac_partition.jobs USING'),
  });
  await db.close();
  const norm = (s) => s.replace(/--[^\n]*/g, '').replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();
  const claim = norm(`update jobs set status = 'running', attempts = attempts + 1, locked_until = now() + interval '30 seconds' where id = (select id from jobs where (status = 'ready' and run_at <= now()) or (status = 'running' and locked_until < now()) order by priority desc, run_at for update skip locked limit 1) returning id, payload, attempts`);
  assert.equal(norm(sql('claim_article')), claim);
  assert.equal(norm(sql('explain')), 'explain (analyze, buffers, format json)');
});
