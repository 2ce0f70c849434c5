// Queue Lab's benchmarks: what a user waits for, printed as a markdown table and stored as
// JSON in bench/results/<date>.json. Run with `./lab bench` (builds the release first).
//
// Every timed figure is the median of RUNS runs (BENCH_RUNS, default 5) with their min and
// max; each run is a fresh page (and a fresh PGlite) unless said otherwise. Figures are
// reported against the issue's targets, never asserted. Beside the browser figures, the same
// work natively (bench/figures/native.mjs).
//
// This file is the runner: it runs the figures of bench/figures/ in order, one module each
// (BENCH_ONLY=l2,l3 runs only those: native, sizes, start, link, l1, l2, l2big, l3, l4, l4click, challenges, and
// limits, which runs only when named), then prints the table and stores it. What the figures
// share is bench/report.mjs (rows, statistics), bench/pages.mjs (page helpers) and
// bench/labs.mjs (what the bench reads of the labs' sources).
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, DIST, ROOT } from '../tests/e2e/harness.mjs';
import { RUNS, ONLY, want, fmt, rows, notes, sh } from './report.mjs';
import { native } from './figures/native.mjs';
import { sizes } from './figures/sizes.mjs';
import { start } from './figures/start.mjs';
import { link } from './figures/link.mjs';
import { l1 } from './figures/l1.mjs';
import { l2 } from './figures/l2.mjs';
import { l2big } from './figures/l2big.mjs';
import { l3 } from './figures/l3.mjs';
import { l4 } from './figures/l4.mjs';
import { l4click } from './figures/l4click.mjs';
import { challenges, pgqChallenges, vacuumChallenges } from './figures/challenges.mjs';
import { limits as limitsFigure, limitsOut } from './figures/limits.mjs';

const { sim: nativeSim, sql: nativeSql } = want('native') ? await native() : { sim: null, sql: null };
if (want('sizes')) sizes();

// The bare page lives beside the build for the duration of the run.
fs.copyFileSync(path.join(ROOT, 'bench/bare.html'), path.join(DIST, 'bench-bare.html'));
fs.copyFileSync(path.join(ROOT, 'bench/bare-worker.js'), path.join(DIST, 'bench-bare-worker.js'));
// L3's floor page imports the app's own bridge (the same worker, no app).
fs.copyFileSync(path.join(ROOT, 'pglite-bridge/bridge.js'), path.join(DIST, 'bare-bridge.js'));

const server = await serve('/');
const browser = await launch();
try {
  const ctx = { server, browser, nativeSim, nativeSql };
  if (want('start')) await start();
  if (want('link')) await link();
  if (want('l1')) await l1(ctx);
  if (want('l2')) await l2(ctx);
  if (want('l2big')) await l2big(ctx);
  if (want('l3')) await l3(ctx);
  if (want('l4')) await l4(ctx);
  if (want('l4click')) await l4click(ctx);
  if (want('challenges')) await challenges(ctx);
  if (want('challenges')) await vacuumChallenges(ctx);
  if (want('challenges')) await pgqChallenges(ctx);
  if (ONLY && ONLY.includes('limits')) await limitsFigure(ctx);
} finally {
  await browser.close();
  server.close();
  fs.rmSync(path.join(DIST, 'bench-bare.html'), { force: true });
  fs.rmSync(path.join(DIST, 'bench-bare-worker.js'), { force: true });
  fs.rmSync(path.join(DIST, 'bare-bridge.js'), { force: true });
}

const limits = limitsOut.cases;
const limitsTable = limitsOut.table;
const pgliteLimit = limitsOut.pglite;
// ---------------------------------------------------------------------------------------
const mark = (r) => (r.meets == null ? '' : r.meets ? ' ✓' : ' ✗');
const table = [
  `Median of ${RUNS} run${RUNS === 1 ? '' : 's'} (min … max).${nativeSql ? ` Native: PostgreSQL ${nativeSql.server_version.split(' ')[0]} on this machine; L2 native: the simulator built --release.` : ''}`,
  '',
  '| figure | median | min … max | target | native (median) | in tab / native |',
  '|---|---|---|---|---|---|',
];
for (const r of rows) {
  const range = r.n > 1 ? `${fmt(r.min, r.unit)} … ${fmt(r.max, r.unit)}` : '';
  const native = r.native?.median != null ? fmt(r.native.median, r.native.unit) : '';
  const ratio = r.ratio != null ? fmt(r.ratio, '×') : '';
  table.push(`| ${r.name} | ${fmt(r.median, r.unit)} | ${range} | ${r.target}${mark(r)} | ${native} | ${ratio} |`);
}
console.log('\n' + table.join('\n'));
if (limitsTable.length) console.log('\n' + limitsTable.join('\n'));
for (const n of notes) console.log(`\nnote: ${n}`);
// A partial run (BENCH_ONLY) goes to bench/tmp/, not among the results.
const outDir = path.join(ROOT, ONLY ? 'bench/tmp' : 'bench/results');
fs.mkdirSync(outDir, { recursive: true });
const out = path.join(outDir, `${new Date().toISOString().slice(0, 10)}.json`);
fs.writeFileSync(
  out,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      runs: RUNS,
      only: ONLY,
      // The commit measured (the build may hold uncommitted changes: QUEUE_LAB_DIST).
      commit: (() => {
        try {
          return sh('git', ['rev-parse', 'HEAD']).trim();
        } catch {
          return null;
        }
      })(),
      machine: { cores: (await import('node:os')).cpus().length, node: process.version },
      native: { simulator: nativeSim, sql: nativeSql },
      notes,
      limits: limits.length ? { pglite: pgliteLimit, cases: limits, table: limitsTable.join('\n') } : undefined,
      rows,
      table: table.join('\n'),
    },
    null,
    2,
  ),
);
console.log(`\nstored in ${path.relative(ROOT, out)}`);
