// The benchmark's page helpers: L2's controls and its simulator worker, a lab page that keeps
// the app's WebAssembly exports, the tab's memory, and PGlite's memory limit. Used by the
// figures in bench/figures/.
import fs from 'node:fs';
import path from 'node:path';
import { newPage, DIST } from '../tests/e2e/harness.mjs';

/** Watches #w-run's aria-busy go true then false (the panel is updated in place). */
export async function armRunDone(page) {
  await page.evaluate(() => {
    const run = document.querySelector('#w-run');
    window.__runDone = false;
    let seen = false;
    window.__runObserver?.disconnect();
    window.__runObserver = new MutationObserver(() => {
      if (run.getAttribute('aria-busy') === 'true') seen = true;
      else if (seen) window.__runDone = true;
    });
    window.__runObserver.observe(run, { attributes: true, attributeFilter: ['aria-busy'] });
  });
}

/** L2's four strategies, in the order the benchmark runs them. */
export const L2_STRATEGIES = ['skip-locked-lease', 'skip-locked-tx', 'for-update', 'naive'];

/** A page (from `open`) on L2, once it can run. */
export async function workersPage(server, browser, open = newPage) {
  const page = await open(browser);
  await page.goto(server.url + '?lang=en#/workers');
  await page.waitForSelector('#w-results');
  await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('#w-run'))?.disabled, null, { timeout: 120000 });
  return page;
}

/** Sets L2's strategy, and its workers and jobs (as typed). */
export async function chooseRun(page, strategy, workers, jobs) {
  await page.selectOption('#w-strategy', strategy);
  await page.fill('#w-workers', workers);
  await page.fill('#w-jobs', jobs);
}

/** L2's inputs of the native simulator's bench (`crates/sim/examples/bench.rs`): 16 workers ×
 * 100,000 jobs of 5–15 ms, 1 ms round trips, seed 42. */
export async function chooseBenchRun(page, strategy) {
  await chooseRun(page, strategy, '16', '100000');
  await page.selectOption('#w-shape', 'uniform');
  await page.fill('#w-dur-a', '5');
  await page.fill('#w-dur-b', '15');
  await page.fill('#w-latency', '1');
  await page.fill('#w-seed', '42');
}

/**
 * In the page: posts the last job L2 sent its worker to that worker again, from the page
 * alone (no click, no drawing while it computes), and returns the worker's time for its first
 * group, the chosen strategy. Reads the answer's bytes as `queue_sim_worker::Done` lays them
 * out: a u32 count of groups, then the first group's `took_ms` as a little-endian f64.
 */
export async function postJobAgain() {
  const done = await new Promise((resolve) => {
    const onAnswer = (e) => {
      if (e.data.id !== 'bench' || e.data.kind === 'progress') return;
      window.__simWorker.removeEventListener('message', onAnswer);
      resolve(e.data.done);
    };
    window.__simWorker.addEventListener('message', onAnswer);
    window.__simWorker.postMessage({ kind: 'run', id: 'bench', job: window.__simJob });
  });
  return new DataView(done.buffer, done.byteOffset).getFloat64(4, true);
}

/** Runs L2 and waits until the run went busy and back and the results are `strategy`'s. */
export async function runWorkers(page, strategy, timeout) {
  await armRunDone(page);
  await page.click('#w-run');
  await page.waitForFunction(
    (s) => window.__runDone && !/** @type {HTMLButtonElement} */ (document.querySelector('#w-run')).disabled && document.querySelector(`#w-results td[data-strategy="${s}"]`),
    strategy,
    { timeout },
  );
}

/** A page that keeps the app's wasm exports (Trunk hands them to TrunkApplicationStarted). */
export async function labPage(browser) {
  const page = await newPage(browser);
  await page.addInitScript(() => addEventListener('TrunkApplicationStarted', (/** @type {CustomEvent} */ e) => (window.__appWasm = e.detail.wasm)));
  return page;
}

/**
 * Memory of the tab, in MB: the page's JS heap after a GC (CDP Runtime.getHeapUsage), the
 * app's WebAssembly memory, and PGlite's WebAssembly memory in its worker (read through the
 * DevTools protocol from the hook in pglite-bridge/worker.js).
 */
export async function tabMemory(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage').catch(() => {});
  const heap = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  const app = await page.evaluate(() => window.__appWasm?.memory?.buffer.byteLength ?? null);
  let pglite = null;
  let files = null;
  for (const w of page.workers()) {
    const bytes = await w
      .evaluate(() => (self.queueLabWasmBytes ? [self.queueLabWasmBytes(), self.queueLabFileBytes ? self.queueLabFileBytes() : null] : null))
      .catch(() => null);
    if (bytes != null) [pglite, files] = bytes;
  }
  const mb = (b) => (b == null ? null : b / 1048576);
  const jsHeapMB = heap.usedSize / 1048576;
  return {
    jsHeapMB,
    appWasmMB: mb(app),
    pgliteMB: mb(pglite),
    // PGlite's files (its in-memory data directory), held in the worker's JS memory.
    pgliteFilesMB: mb(files),
    tabMB: app == null || pglite == null ? null : jsHeapMB + mb(app) + mb(pglite),
  };
}

/**
 * PGlite's memory limit, read from the PGlite build the app serves: the WebAssembly memory
 * it creates for PostgreSQL (`new WebAssembly.Memory({initial, maximum})`, in pages of
 * 64 KiB). Returns { initialMB, maximumMB, file } or null when the pattern is not found.
 */
export function pgliteMemoryLimit() {
  const { dir } = JSON.parse(fs.readFileSync(path.join(DIST, 'pglite/pglite.json'), 'utf8'));
  const folder = path.join(DIST, 'pglite', dir);
  for (const f of fs.readdirSync(folder).filter((x) => x.endsWith('.js'))) {
    const m = fs
      .readFileSync(path.join(folder, f), 'utf8')
      .match(/new WebAssembly\.Memory\(\{initial:r\.initialMemory\?[^:]*:(\d+),maximum:(\d+)\}/);
    if (m) return { initialMB: (Number(m[1]) * 65536) / 1048576, maximumMB: (Number(m[2]) * 65536) / 1048576, file: f };
  }
  return null;
}
