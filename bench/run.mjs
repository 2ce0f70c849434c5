// Queue Lab's benchmarks: what a user waits for, printed as a table and stored as JSON.
// Run with `./lab bench` (builds the release first). Each timed figure is the median of
// RUNS runs with min and max. Figures are reported against targets, never asserted.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, newPage, DIST, ROOT } from '../tests/e2e/harness.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 5);

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), min: s[0], max: s[s.length - 1], p95: q(0.95), n: s.length };
}
const fmt = (x, unit) => (x == null ? '–' : `${x.toFixed(unit === 'KB' ? 0 : 1)} ${unit}`);

const rows = [];
function report(name, st, unit, target) {
  rows.push({ name, ...st, unit, target });
}

// Sizes.
const wasmFile = fs.readdirSync(DIST).find((f) => f.endsWith('.wasm'));
const wasm = fs.readFileSync(path.join(DIST, wasmFile));
report('app .wasm raw', { median: wasm.length / 1024 }, 'KB', '');
report('app .wasm gzipped', { median: zlib.gzipSync(wasm, { level: 9 }).length / 1024 }, 'KB', '≤ 300 KB');

// The bare page lives beside the build for the duration of the run.
fs.copyFileSync(path.join(ROOT, 'bench/bare.html'), path.join(DIST, 'bench-bare.html'));
fs.copyFileSync(path.join(ROOT, 'pglite-bridge/bridge.js'), path.join(DIST, 'bare-bridge.js'));

const server = await serve('/');
const browser = await launch();
try {
  const paint = [];
  const ready = [];
  const bare = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const page = await newPage(browser);
    let total = 0;
    page.on('response', async (r) => {
      const len = Number((await r.allHeaders())['content-length'] || 0);
      total += len;
    });
    await page.goto(server.url + '?lang=en#/jobs');
    await page.waitForSelector('#start-postgres');
    paint.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? performance.now()));
    const t0 = Date.now();
    await page.click('#start-postgres');
    await page.waitForSelector('#pg-version', { timeout: 120000 });
    ready.push(Date.now() - t0);
    bytes = total;
    await page.close();

    const b = await newPage(browser);
    await b.goto(server.url + 'bench-bare.html');
    const t1 = Date.now();
    await b.click('#go');
    await b.waitForFunction(() => window.bootMs, null, { timeout: 120000 });
    bare.push(Date.now() - t1);
    await b.close();
  }
  report('bytes downloaded until the lab is usable', { median: bytes / 1024 }, 'KB', '');
  report('shell first paint', stats(paint), 'ms', '≤ 500 ms');
  report('Start Postgres → ready (app)', stats(ready), 'ms', '');
  report('bare PGlite boot (same bridge, no app)', stats(bare), 'ms', '');
  const overhead = (stats(ready).median / stats(bare).median - 1) * 100;
  report('start-up overhead over bare PGlite', { median: overhead }, '%', '≤ 10 %');

  // L1: per-action time including the table refresh, with 1,000 jobs in the table.
  const page = await newPage(browser);
  await page.goto(server.url + '?lang=en#/jobs');
  await page.click('#start-postgres');
  await page.waitForSelector('#jobs-table', { timeout: 120000 });
  await page.fill('#console-input', "insert into jobs (payload) select jsonb_build_object('n', g) from generate_series(1, 1000) g");
  await page.click('#console-run');
  await page.waitForSelector('#console-summary');
  await page.waitForFunction(() => /1000 jobs/.test(document.querySelector('#job-counts')?.textContent || ''), null, { timeout: 60000 });
  const action = [];
  for (let i = 0; i < 20 * Math.max(1, Math.floor(RUNS / 5)); i++) {
    const sel = i % 2 === 0 ? '#worker-A [data-act="claim"]' : '#worker-A [data-act="complete"]';
    const before = await page.evaluate(() => document.querySelector('#job-counts').textContent);
    const t = await page.evaluate(async ([s, b]) => {
      const t0 = performance.now();
      document.querySelector(s).click();
      await new Promise((resolve) => {
        const check = () => (document.querySelector('#job-counts').textContent !== b && !document.querySelector('#enqueue').disabled ? resolve() : requestAnimationFrame(check));
        check();
      });
      return performance.now() - t0;
    }, [sel, before]);
    action.push(t);
  }
  const a = stats(action);
  report('L1 action (claim/complete) with 1,000 jobs, p50', { median: a.median, min: a.min, max: a.max }, 'ms', '');
  report('L1 action (claim/complete) with 1,000 jobs, p95', { median: a.p95 }, 'ms', '≤ 50 ms');
  const mem = await page.evaluate(() => performance.memory ? performance.memory.usedJSHeapSize / 1048576 : null);
  report('JS heap of the page after L1 (MB)', { median: mem }, 'MB', '');
} finally {
  await browser.close();
  server.close();
  fs.rmSync(path.join(DIST, 'bench-bare.html'), { force: true });
  fs.rmSync(path.join(DIST, 'bare-bridge.js'), { force: true });
}

console.log(`\n| figure | median | min | max | target |\n|---|---|---|---|---|`);
for (const r of rows) {
  console.log(`| ${r.name} | ${fmt(r.median, r.unit)} | ${fmt(r.min, r.unit)} | ${fmt(r.max, r.unit)} | ${r.target} |`);
}
const out = path.join(ROOT, 'bench/results', `${new Date().toISOString().slice(0, 10)}.json`);
fs.writeFileSync(out, JSON.stringify({ runs: RUNS, rows }, null, 2));
console.log(`\nstored in ${path.relative(ROOT, out)}`);
