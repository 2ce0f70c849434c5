// L3: the full default run, its floor on a bare PGlite worker, its frame gaps and memory.
import fs from 'node:fs';
import path from 'node:path';
import { RUNS, median, notes, report, say } from '../report.mjs';
import { labPage, tabMemory } from '../pages.mjs';
import { labLimits } from '../labs.mjs';
import { newPage, startPostgres, watchFrames, longestGap, DIST, ROOT } from '../../tests/e2e/harness.mjs';

/**
 * L3's floor: the statements of L3's full default run, read from the SQL files the app
 * includes (src/sql/vacuum), in the app's order, sent one by one through the same bridge and
 * worker on a page with no app: no rendering, no decoding into Rust, no pauses for the page.
 * What is left is PostgreSQL's own work plus one worker message per statement.
 */
const vacSql = (name) => fs.readFileSync(path.join(ROOT, 'src/sql/vacuum', `${name}.sql`), 'utf8');
const L3_SQL = Object.fromEntries(
  ['setup_check', 'setup_extensions', 'setup_tables', 'setup_helpers', 'use_strategy', 'reset_search_path', 'enqueue',
    'claim_batch', 'complete_done', 'complete_delete', 'plan_summary', 'flush_stats',
    'measure_table', 'measure_indexes', 'vacuum', 'rotate_truncate', 'enqueue_partition', 'partition_open',
    'partition_drop'].map((n) => [n, vacSql(n)]),
);
// The article's claim explained, as the app puts it together (db::sql_file!'s `explain`).
L3_SQL.explain_claim_article = vacSql('explain') + fs.readFileSync(path.join(ROOT, 'src/sql/jobs/claim_article.sql'), 'utf8');
// The one jobs DDL before the script that calls it, as the app's sql::SETUP_TABLES has it.
L3_SQL.setup_tables = vacSql('jobs_table') + L3_SQL.setup_tables;
// The walk over a plan's nodes before the file that reads them, as the app's sql::PLAN_SUMMARY has it.
L3_SQL.plan_summary = vacSql('plan_walk') + L3_SQL.plan_summary;
L3_SQL.clock_install = fs.readFileSync(path.join(ROOT, 'src/sql/lab/clock_install.sql'), 'utf8');
// The app's defaults (src/labs/vacuum/model/limits.tsv): 20,000 jobs, 3 rounds, batches of 2,000.
const L3_DEFAULTS = (() => {
  const c = labLimits('vacuum');
  return { jobs: c.jobs_default, rounds: c.rounds_default, batch: c.batch_default };
})();
async function l3Floor(server, browser) {
  const page = await newPage(browser);
  await page.goto(server.url + 'bench-bare.html');
  // PGlite's versioned folder, as the app finds it; the worker boots from the same prepared
  // data directory the app uses.
  const { dir } = JSON.parse(fs.readFileSync(path.join(DIST, 'pglite/pglite.json'), 'utf8'));
  const ms = await page.evaluate(async ([sql, base, run]) => {
    // @ts-expect-error: the page's own address (the app's bridge, copied into dist/ for the run).
    const { open } = await import('./bare-bridge.js');
    const db = await open(base, 'worker.js', () => {});
    // The lab's session: its search path and clock (clock_install.sql) as the app sets them.
    await db.exec(sql.clock_install);
    const check = (await db.query(sql.setup_check, [])).rows[0];
    if (!check.extensions) await db.exec(sql.setup_extensions).catch(() => {});
    if (!check.tables) {
      await db.exec(sql.setup_tables);
      await db.exec(sql.setup_helpers);
    }
    const strategies = [
      ['vac_keep', 'complete_done', null],
      ['vac_delete', 'complete_delete', null],
      ['vac_delete_vacuum', 'complete_delete', 'vacuum'],
      ['vac_rotate', 'complete_done', 'truncate'],
      ['vac_partition', 'complete_done', 'partition'],
    ];
    const withSchema = async (schema, body) => {
      await db.query(sql.use_strategy, [schema]);
      await body();
      await db.query(sql.reset_search_path, []);
    };
    const measure = async (schema) => {
      let plan;
      await withSchema(schema, async () => {
        const tx = await db.begin();
        plan = (await tx.query(sql.explain_claim_article, [])).rows[0]['QUERY PLAN'];
        await tx.rollback();
      });
      await db.query(sql.plan_summary, [JSON.stringify(plan)]);
      await db.query(sql.flush_stats, []);
      await db.query(sql.measure_table, [`${schema}.jobs`]);
      await db.query(sql.measure_indexes, [`${schema}.jobs`]);
    };
    const t0 = performance.now();
    for (let round = 1; round <= run.rounds; round++) {
      for (const [schema, complete, cleanup] of strategies) {
        if (cleanup === 'partition') await db.query(sql.partition_open, [round]);
        await withSchema(schema, async () => {
          if (cleanup === 'partition') await db.query(sql.enqueue_partition, [run.jobs, round]);
          else await db.query(sql.enqueue, [run.jobs]);
          for (;;) {
            const rows = (await db.query(sql.claim_batch, [run.batch])).rows;
            if (rows.length === 0) break;
            await db.query(sql[complete], [`{${rows.map((r) => r.id).join(',')}}`]);
          }
        });
        await measure(schema);
        if (cleanup === 'vacuum') {
          await withSchema(schema, async () => {
            await db.query(sql.flush_stats, []);
            await db.query(sql.vacuum, []);
          });
          await measure(schema);
        } else if (cleanup === 'truncate') {
          await withSchema(schema, () => db.query(sql.rotate_truncate, []));
          await measure(schema);
        } else if (cleanup === 'partition') {
          await db.query(sql.partition_open, [round + 1]);
          await db.query(sql.partition_drop, [round]);
          await measure(schema);
        }
      }
    }
    return performance.now() - t0;
  }, [L3_SQL, 'pglite/' + dir, L3_DEFAULTS]);
  await page.close();
  return ms;
}

export async function l3({ server, browser, nativeSql }) {
  say(`L3: the full default run (5 tables × 3 rounds × 20,000 jobs), ${RUNS} runs`);
  const l3Total = [];
  const l3Stall = [];
  const l3Round = { keep: [], delete: [] };
  const l3Heap = [];
  const l3App = [];
  const l3Pglite = [];
  const l3Tab = [];
  const l3Bare = [];
  const l3Map = [];
  const l3MapReads = [];
  for (let r = 0; r < RUNS; r++) {
    l3Bare.push(await l3Floor(server, browser));
    const page = await labPage(browser);
    await page.goto(server.url + '?lang=en#/vacuum');
    await startPostgres(page);
    await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])', { timeout: 60000 });
    await watchFrames(page);
    const t0 = Date.now();
    await page.click('#vacuum-run');
    await page.waitForSelector('#vacuum-notice', { timeout: 600000 });
    l3Total.push(Date.now() - t0);
    l3Stall.push(await longestGap(page));
    for (const s of ['keep', 'delete']) {
      const secs = await page.$$eval(`#vacuum-table tr[data-strategy="${s}"] td:last-child`, (tds) =>
        tds.map((t) => parseFloat(t.textContent)).filter((x) => Number.isFinite(x)),
      );
      l3Round[s].push(median(secs.map((x) => x * 1000)));
    }
    const mem = await tabMemory(page);
    l3Heap.push(mem.jsHeapMB);
    l3App.push(mem.appWasmMB);
    l3Pglite.push(mem.pgliteMB);
    l3Tab.push(mem.tabMB);
    if (page.errors.length) notes.push(`L3 page errors: ${page.errors.join('; ')}`);
    await page.close();
    // The same run with the page map scrolled into view (read during the selected table's
    // rounds while on screen): what a learner who watches the map gets.
    const mapPage = await labPage(browser);
    await mapPage.goto(server.url + '?lang=en#/vacuum');
    await startPostgres(mapPage);
    await mapPage.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])', { timeout: 60000 });
    await mapPage.evaluate(() => {
      document.querySelector('#vacuum-page-map-title').scrollIntoView({ block: 'start' });
      // Changes of the map's summary while the run goes on: reads during rounds.
      window.__mapReads = 0;
      let last = document.querySelector('#vacuum-page-map-summary')?.textContent;
      new MutationObserver(() => {
        const text = document.querySelector('#vacuum-page-map-summary')?.textContent;
        if (text !== last) {
          last = text;
          if (document.querySelector('#vacuum-progress-bar')) window.__mapReads++;
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await mapPage.waitForTimeout(200);
    const t1 = Date.now();
    // Clicked from script: a click by the mouse would scroll the button into view.
    await mapPage.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#vacuum-run')).click());
    await mapPage.waitForSelector('#vacuum-notice', { timeout: 600000 });
    l3Map.push(Date.now() - t1);
    l3MapReads.push(await mapPage.evaluate(() => window.__mapReads));
    if (mapPage.errors.length) notes.push(`L3 (map on screen) page errors: ${mapPage.errors.join('; ')}`);
    await mapPage.close();
  }
  const n3 = nativeSql?.l3.runs;
  report('L3 full default run', l3Total, 'ms', '≤ 12 s', { limit: 12000, native: n3?.map((x) => x.total_ms) });
  report("L3 floor: the run's statements on a bare PGlite worker (same bridge, no app)", l3Bare, 'ms');
  report('L3 full run / floor (per run pair)', l3Total.map((t, i) => t / l3Bare[i]), '×', '≤ 1.15×', { limit: 1.15 });
  report('L3 longest frame gap during the run', l3Stall, 'ms', '≤ 100 ms', { limit: 100 });
  report('L3 full default run, the page map on screen (scrolled into view)', l3Map, 'ms');
  report('L3 with the map on screen / floor (per run pair)', l3Map.map((t, i) => t / l3Bare[i]), '×');
  report('L3 with the map on screen: page map reads during rounds', l3MapReads, '');
  report('L3 in tab / native, full run', l3Total.map((t, i) => (n3?.[i] ? t / n3[i].total_ms : null)), '×', '≤ 2×', { limit: 2 });
  report('L3 keep-rows round, 20,000 jobs (median of 3 rounds)', l3Round.keep, 'ms', '', { native: n3?.map((x) => median(x.round_ms.keep)) });
  report('L3 DELETE round, 20,000 jobs (median of 3 rounds)', l3Round.delete, 'ms', '', { native: n3?.map((x) => median(x.round_ms.delete)) });
  report('after L3: JS heap of the page', l3Heap, 'MB');
  report("after L3: the app's WebAssembly memory", l3App, 'MB');
  report("after L3: PGlite's WebAssembly memory (its worker)", l3Pglite, 'MB');
  report('after L3: tab memory (the three above)', l3Tab, 'MB', '≤ 300 MB', { limit: 300 });
}
