// Queue Lab's benchmarks: what a user waits for, printed as a markdown table and stored as
// JSON in bench/results/<date>.json. Run with `./lab bench` (builds the release first).
//
// Every timed figure is the median of RUNS runs (BENCH_RUNS, default 5) with their min and
// max; each run is a fresh page (and a fresh PGlite) unless said otherwise. Figures are
// reported against the issue's targets, never asserted. Beside the browser figures, the same
// work natively: the L2 simulator built --release (crates/sim/examples/bench.rs) and L1's and
// L3's SQL on a PostgreSQL server (crates/pgcheck/src/bin/bench-native.rs) that this script
// starts with scripts/pg-local.sh on its own port and data directory (QUEUE_LAB_BENCH_PG_URL
// points it at another server instead).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { serve, launch, newPage, startPostgres, watchFrames, longestGap, DIST, ROOT } from '../tests/e2e/harness.mjs';
import { L1_CYCLE, load1000Jobs, timeAction } from './l1-actions.mjs';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 5));
// BENCH_ONLY=l2,l3 runs only those parts (native, sizes, start, link, l1, l2, l2big, l3, l4, limits):
// for trying. `limits` runs each lab's largest inputs once (minutes of CPU): only when named.
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((x) => x.trim()) : null;
const want = (part) => !ONLY || ONLY.includes(part);
// The limits part's heaviest accepted inputs where the smallest value is the heaviest (L3's
// claim batch, L4's page): read from the app's source, so the bench follows the bounds.
const rustConst = (file, name) => Number(fs.readFileSync(path.join(ROOT, file), 'utf8').match(new RegExp(`pub const ${name}: [^=]+= ([0-9_]+)`))[1].replace(/_/g, ''));
// L3: a run is bounded by jobs × rounds (RUN_JOBS_MAX) and claims (RUN_CLAIMS_MAX) a table:
// the heaviest it accepts, at the most jobs a round and at the most rounds, each with the
// smallest batch allowed (the most claims, each reading the whole table); and the defaults.
const L3_LARGEST = (() => {
  const c = (name) => rustConst(/^RUN_/.test(name) ? 'src/labs/vacuum/model/limits.rs' : 'src/labs/vacuum/model.rs', name);
  const [jobsMax, roundsMax, runJobs, runClaims] = [c('JOBS_MAX'), c('ROUNDS_MAX'), c('RUN_JOBS_MAX'), c('RUN_CLAIMS_MAX')];
  const heaviest = (jobs, rounds) => `${jobs}x${rounds}x${Math.ceil(jobs / Math.floor(runClaims / rounds))}`;
  const rounds = Math.min(roundsMax, Math.floor(runJobs / jobsMax));
  const jobs = Math.min(jobsMax, Math.floor(runJobs / roundsMax));
  return [heaviest(jobsMax, rounds), heaviest(jobs, roundsMax), `${c('JOBS_DEFAULT')}x${c('ROUNDS_DEFAULT')}x${c('BATCH_DEFAULT')}`].join(',');
})();
// L4's side by side: at most RUN_PAGES_MAX pages a side (events ÷ page × rounds), so its
// heaviest accepted run is the most events and rounds at the smallest page allowed.
const L4_LARGEST = (() => {
  const compare = fs.readFileSync(path.join(ROOT, 'src/labs/pgq/model/compare.rs'), 'utf8');
  const bound = (name) => compare.match(new RegExp(`pub const ${name}: \\(i64, i64, i64\\) = \\(([0-9_]+), ([0-9_]+)`)).slice(1).map((x) => Number(x.replace(/_/g, '')));
  const pages = rustConst('src/labs/pgq/model/compare.rs', 'RUN_PAGES_MAX');
  const [events, rounds] = [bound('EVENTS')[1], bound('ROUNDS')[1]];
  return { events, rounds, page: Math.max(bound('PAGE')[0], Math.ceil(events / Math.floor(pages / rounds))) };
})();
const PG_PORT = process.env.QUEUE_LAB_BENCH_PG_PORT || '54339';
const PG_DATA = process.env.QUEUE_LAB_BENCH_PG_DATA || '/tmp/queue-lab-bench-pg/data';

function stats(xs) {
  const s = xs.filter((x) => x != null && Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return { median: null, n: 0 };
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { median, min: s[0], max: s[s.length - 1], p95: q(0.95), n: s.length };
}
const median = (xs) => stats(xs).median;
const digits = { KB: 0, MB: 1, ms: 1, s: 2, '%': 1, '×': 2 };
const fmt = (x, unit) => (x == null ? '–' : `${x.toLocaleString('en-US', { maximumFractionDigits: digits[unit] ?? 1, minimumFractionDigits: digits[unit] ?? 1 })} ${unit}`);

const rows = [];
const notes = [];
// The limits part: one entry per case, its own table, and PGlite's memory limit.
const limits = [];
const limitsTable = [];
let pgliteLimit = null;
/**
 * One row of the table. `samples`: one value per run (or a single value for a size).
 * `limit`: the target's bound on the median (lower is better). `native`: the same work on
 * native PostgreSQL / native Rust, samples per run, shown with the ratio in-tab / native.
 */
function report(name, samples, unit, target = '', { limit, native, nativeUnit } = {}) {
  const st = stats(Array.isArray(samples) ? samples : [samples]);
  const row = { name, ...st, unit, target, samples: Array.isArray(samples) ? samples : [samples] };
  if (limit != null && st.median != null) row.meets = st.median <= limit;
  if (native) {
    row.native = stats(native);
    row.native.unit = nativeUnit || unit;
    row.nativeSamples = native;
    if (row.native.median) row.ratio = st.median / row.native.median;
  }
  rows.push(row);
  const show = st.median == null ? 'not measured' : `${fmt(st.median, unit)} (${st.n} run${st.n === 1 ? '' : 's'})`;
  console.log(`  ${name}: ${show}`);
  return row;
}
const say = (s) => console.log(`\n== ${s}`);
const sh = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20, ...opts });

/** Watches #w-run's aria-busy go true then false (the panel is updated in place). */
async function armRunDone(page) {
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
const L2_STRATEGIES = ['skip-locked-lease', 'skip-locked-tx', 'for-update', 'naive'];

/** A page (from `open`) on L2, once it can run. */
async function workersPage(browser, open = newPage) {
  const page = await open(browser);
  await page.goto(server.url + '?lang=en#/workers');
  await page.waitForSelector('#w-results');
  await page.waitForFunction(() => !document.querySelector('#w-run')?.disabled, null, { timeout: 120000 });
  return page;
}

/** Sets L2's strategy, and its workers and jobs (as typed). */
async function chooseRun(page, strategy, workers, jobs) {
  await page.selectOption('#w-strategy', strategy);
  await page.fill('#w-workers', workers);
  await page.fill('#w-jobs', jobs);
}

/** L2's inputs of the native simulator's bench (`crates/sim/examples/bench.rs`): 16 workers ×
 * 100,000 jobs of 5–15 ms, 1 ms round trips, seed 42. */
async function chooseBenchRun(page, strategy) {
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
async function postJobAgain() {
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
async function runWorkers(page, strategy, timeout) {
  await armRunDone(page);
  await page.click('#w-run');
  await page.waitForFunction(
    (s) => window.__runDone && !document.querySelector('#w-run').disabled && document.querySelector(`#w-results td[data-strategy="${s}"]`),
    strategy,
    { timeout },
  );
}


/** A page that keeps the app's wasm exports (Trunk hands them to TrunkApplicationStarted). */
async function labPage(browser) {
  const page = await newPage(browser);
  await page.addInitScript(() => addEventListener('TrunkApplicationStarted', (e) => (window.__appWasm = e.detail.wasm)));
  return page;
}

/**
 * Memory of the tab, in MB: the page's JS heap after a GC (CDP Runtime.getHeapUsage), the
 * app's WebAssembly memory, and PGlite's WebAssembly memory in its worker (read through the
 * DevTools protocol from the hook in pglite-bridge/worker.js).
 */
async function tabMemory(page) {
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
function pgliteMemoryLimit() {
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

// ---------------------------------------------------------------------------------------
// Native side: built first, so a build failure shows before the long browser part.
let nativeSim = null;
let nativeSql = null;
let pgStarted = false;
// The bench's own server (port and data directory), apart from the one ./lab test starts.
const pgEnv = { ...process.env, QUEUE_LAB_PG_PORT: PG_PORT, QUEUE_LAB_PG_DATA: PG_DATA };
if (want('native')) {
  say(`native: the L2 simulator (--release), ${RUNS} repeats per strategy`);
  try {
    const out = sh('cargo', ['run', '--release', '-q', '-p', 'queue-sim', '--example', 'bench', '--', 'all', String(RUNS), '--json']);
    nativeSim = JSON.parse(out.trim().split('\n').pop());
  } catch (e) {
    notes.push(`native simulator did not run: ${e.message.split('\n')[0]}`);
  }
  say(`native: L1 and L3 SQL on PostgreSQL, ${RUNS} runs`);
  try {
    let url = process.env.QUEUE_LAB_BENCH_PG_URL;
    if (!url) {
      url = sh('scripts/pg-local.sh', ['start'], { env: pgEnv }).trim();
      pgStarted = true;
    }
    const out = sh('cargo', ['run', '--release', '-q', '-p', 'pgcheck', '--bin', 'bench-native', '--', '--database-url', url, '--runs', String(RUNS)]);
    nativeSql = JSON.parse(out.trim().split('\n').pop());
    console.log(`  PostgreSQL ${nativeSql.server_version}`);
  } catch (e) {
    notes.push(`native PostgreSQL part did not run: ${e.message.split('\n')[0]}`);
  } finally {
    if (pgStarted) {
      try {
        sh('scripts/pg-local.sh', ['stop'], { env: pgEnv, stdio: 'ignore' });
      } catch {
        /* the next start finds it running */
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
if (want('sizes')) {
  say('sizes');
  // The app's own .wasm (queue-lab-<hash>_bg.wasm), not L2's simulator worker beside it.
  const wasmFile = fs.readdirSync(DIST).find((f) => f.startsWith('queue-lab-') && f.endsWith('_bg.wasm'));
  const wasm = fs.readFileSync(path.join(DIST, wasmFile));
  report('app .wasm raw', wasm.length / 1024, 'KB');
  const gz = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length;
  report('app .wasm gzipped', gz(wasm) / 1024, 'KB', '≤ 550 KB (the main module)', { limit: 550 });
  // The release split by lab (scripts/split-release.mjs): what a lab's page loads besides the
  // main module, its own module and the shared ones it needs, as __wasm_split.js lists them.
  const loaderFile = path.join(DIST, '__wasm_split.js');
  if (fs.existsSync(loaderFile)) {
    const loader = fs.readFileSync(loaderFile, 'utf8');
    const size = (file) => gz(fs.readFileSync(path.join(DIST, file)));
    const chunks = new Map();
    for (const m of loader.matchAll(/const (__chunk_\d+) = makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([^"]+)"/g)) {
      chunks.set(m[1], m[2]);
    }
    let all = gz(wasm) + [...chunks.values()].reduce((n, f) => n + size(f), 0);
    const splits = new Map();
    for (const m of loader.matchAll(/__wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([^"]+)"[\s\S]*?\n, \[([^\]]*)\]/g)) {
      splits.set(m[1], { file: m[2], deps: m[3].split(',').map((d) => d.trim()).filter(Boolean) });
      all += size(m[2]);
    }
    // A lab's view (`<View>Lab`) is a lab's page; the other split points load on a click.
    for (const [name, { file, deps }] of splits) {
      if (!name.endsWith('Lab')) continue;
      const bytes = gz(wasm) + size(file) + deps.reduce((n, d) => n + size(chunks.get(d)), 0);
      const first = name === 'JobsLab';
      report(`${name} as the first lab: main + its module + ${deps.length} shared, gzipped`, bytes / 1024, 'KB',
        first ? '≤ 450 KB' : '', first ? { limit: 450 } : {});
    }
    // Taking a lab home (src/ui/take_home.rs, the split point `Keep`: Save, Open, the downloads
    // for a server): what L1's first such click adds, its module and the shared ones L1 has not
    // loaded.
    const keep = splits.get('Keep');
    const jobs = splits.get('JobsLab');
    if (keep && jobs) {
      const more = keep.deps.filter((d) => !jobs.deps.includes(d));
      const bytes = size(keep.file) + more.reduce((n, d) => n + size(chunks.get(d)), 0);
      report(`taking a lab home on L1 (Save, Open or a download), first click: its module + ${more.length} shared, gzipped`, bytes / 1024, 'KB');
    }
    report('all modules of the split release, gzipped', all / 1024, 'KB');
  }
  const simWasm = path.join(DIST, 'sim-worker_bg.wasm');
  if (fs.existsSync(simWasm)) {
    const sim = fs.readFileSync(simWasm);
    report("L2 simulator worker's .wasm gzipped (loaded on L2's first run)", zlib.gzipSync(sim, { level: 9 }).length / 1024, 'KB');
  }
}

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
L3_SQL.clock_install = fs.readFileSync(path.join(ROOT, 'src/sql/lab/clock_install.sql'), 'utf8');
async function l3Floor(browser) {
  const page = await newPage(browser);
  await page.goto(server.url + 'bench-bare.html');
  // PGlite's versioned folder, as the app finds it; the worker boots from the same prepared
  // data directory the app uses.
  const { dir } = JSON.parse(fs.readFileSync(path.join(DIST, 'pglite/pglite.json'), 'utf8'));
  const ms = await page.evaluate(async ([sql, base]) => {
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
    // The app's defaults (src/labs/vacuum/model.rs): 20,000 jobs, 3 rounds, batches of 2,000.
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
    for (let round = 1; round <= 3; round++) {
      for (const [schema, complete, cleanup] of strategies) {
        if (cleanup === 'partition') await db.query(sql.partition_open, [round]);
        await withSchema(schema, async () => {
          if (cleanup === 'partition') await db.query(sql.enqueue_partition, [20000, round]);
          else await db.query(sql.enqueue, [20000]);
          for (;;) {
            const rows = (await db.query(sql.claim_batch, [2000])).rows;
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
  }, [L3_SQL, 'pglite/' + dir]);
  await page.close();
  return ms;
}

// The bare page lives beside the build for the duration of the run.
fs.copyFileSync(path.join(ROOT, 'bench/bare.html'), path.join(DIST, 'bench-bare.html'));
fs.copyFileSync(path.join(ROOT, 'bench/bare-worker.js'), path.join(DIST, 'bench-bare-worker.js'));
// L3's floor page imports the app's own bridge (the same worker, no app).
fs.copyFileSync(path.join(ROOT, 'pglite-bridge/bridge.js'), path.join(DIST, 'bare-bridge.js'));

const server = await serve('/');
const browser = await launch();
try {
  // -------------------------------------------------------------------------------------
  if (want('start')) {
    // Served as a host should (scripts/serve.mjs: gzip, PGlite's versioned folder immutable,
    // the rest revalidated). A first visit is a fresh browser context (empty HTTP and code
    // caches); the repeat visit is a second page in the same context. The bare PGlite boot
    // (bench/bare.html: PGlite.create() with its defaults, initdb included) is measured the
    // same two ways in its own context, in the same run.
    const host = await serve('/', { compress: true, cache: true });
    say(`start-up, ${RUNS} runs (app first and repeat visit, then bare PGlite first and repeat)`);
    const paint = [];
    const bytes = [];
    const app = { first: [], repeat: [] };
    const bare = { first: [], repeat: [] };
    const ratio = { first: [], repeat: [] };
    const how = [];
    const appVisit = async (context, visit) => {
      const page = await context.newPage();
      // Body bytes as the host sent them (compressed), the worker's requests included: this
      // host serves only this page, one visit at a time.
      const sentBefore = host.sent();
      await page.goto(host.url + '?lang=en#/jobs');
      await page.waitForSelector('#start-postgres');
      if (visit === 'first') {
        paint.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? performance.now()));
      }
      // Clicked as soon as the button is there: the idle prefetch has had no head start.
      const t0 = Date.now();
      await page.click('#start-postgres');
      // Polled every animation frame, as the bare page's bootMs is below. (waitForSelector
      // polls ever less often, up to every 500 ms, so it noticed the app's ready up to half a
      // second late while the bare boot was seen within a frame: an unfair pair.)
      await page.waitForFunction(() => document.querySelector('#pg-version'), null, { timeout: 120000, polling: 'raf' });
      app[visit].push(Date.now() - t0);
      how.push((await page.locator('#boot-fallback').count()) ? 'initdb' : 'datadir');
      if (visit === 'first') bytes.push((host.sent() - sentBefore) / 1024);
      await page.close();
    };
    const bareVisit = async (context, visit) => {
      const b = await context.newPage();
      await b.goto(host.url + 'bench-bare.html');
      const t1 = Date.now();
      await b.click('#go');
      await b.waitForFunction(() => window.bootMs, null, { timeout: 120000, polling: 'raf' });
      bare[visit].push(Date.now() - t1);
      await b.close();
    };
    // Each visit pair in a browser of its own: a new context alone is not a cold start, as
    // V8 keeps compiled WebAssembly per process for identical bytes (pglite.wasm is the same
    // file for the app and the bare boot), so every first visit after the first one of a
    // browser found PGlite compiled already.
    for (let i = 0; i < RUNS; i++) {
      const own = await launch();
      const a = await own.newContext();
      await appVisit(a, 'first');
      await appVisit(a, 'repeat');
      await own.close();
      const other = await launch();
      const b = await other.newContext();
      await bareVisit(b, 'first');
      await bareVisit(b, 'repeat');
      await other.close();
      for (const v of ['first', 'repeat']) ratio[v].push((app[v][i] / bare[v][i]) * 100);
    }
    host.close();
    if (how.some((h) => h !== 'datadir')) notes.push(`start-up: some starts fell back to initdb (${how.join(', ')})`);
    report('bytes over the wire until the lab is usable (brotli, first visit)', bytes, 'KB', '≤ 6.5 MB', { limit: 6.5 * 1024 });
    report('shell first paint', paint, 'ms', '≤ 500 ms', { limit: 500 });
    report('Start Postgres → ready, first visit (cold cache)', app.first, 'ms');
    report('bare PGlite boot, first visit (cold cache)', bare.first, 'ms');
    report('first visit: app start / bare boot (per run pair)', ratio.first, '%', '≤ 70 %', { limit: 70 });
    report('Start Postgres → ready, repeat visit (warm cache)', app.repeat, 'ms');
    report('bare PGlite boot, repeat visit (warm cache)', bare.repeat, 'ms');
    report('repeat visit: app start / bare boot (per run pair)', ratio.repeat, '%', '≤ 50 %', { limit: 50 });
    const againstColdBare = app.repeat.map((x, i) => (x / bare.first[i]) * 100);
    report('repeat visit: app start / bare first-visit boot', againstColdBare, '%');
  }

  // -------------------------------------------------------------------------------------
  if (want('link')) {
    // A first visit over a throttled link: Chromium's network emulation (CDP
    // Network.emulateNetworkConditions: 10 Mbit/s down, 40 ms latency per request, upload not
    // throttled) with the HTTP cache disabled, each visit in a browser of its own (cold: no
    // HTTP cache, no compiled WebAssembly), from a host that compresses as scripts/serve.mjs does.
    // The app: first paint (first-contentful-paint) and the home page usable (the app mounted,
    // from navigation start); then L1, from the click on Start until the lab is usable (its
    // controls are drawn and it is idle). The bare PGlite boot over the same link in the same
    // run, and the ratio per run pair.
    const LINK = { offline: false, latency: 40, downloadThroughput: (10 * 1e6) / 8, uploadThroughput: -1 };
    const host = await serve('/', { compress: true, cache: true });
    say(`over a throttled link (10 Mbit/s down, 40 ms latency, cache disabled, cold), ${RUNS} runs`);
    const paint = [];
    const home = [];
    const l1 = [];
    const bareLink = [];
    const ratio = [];
    const throttled = async (b) => {
      const page = await (await b.newContext()).newPage();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', LINK);
      return page;
    };
    for (let i = 0; i < RUNS; i++) {
      const own = await launch();
      const page = await throttled(own);
      await page.goto(host.url + '?lang=en#/', { waitUntil: 'commit', timeout: 120000 });
      // Seen within a frame of the mount; first paint once the browser has recorded it (with
      // no first screen, the mount's frame is the first paint, recorded after it).
      const usable = await page.waitForFunction(() => document.querySelector('#main') && performance.now(), null, { timeout: 120000, polling: 'raf' });
      home.push(await usable.jsonValue());
      const fcp = await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime, null, { timeout: 120000 });
      paint.push(await fcp.jsonValue());
      await page.evaluate(() => (location.hash = '#/jobs'));
      await page.waitForSelector('#start-postgres', { timeout: 120000 });
      const t0 = Date.now();
      await page.evaluate(() => document.querySelector('#start-postgres').click());
      await page.waitForFunction(() => document.querySelector('.jobs-lab[aria-busy="false"] .lab-split'), null, { timeout: 300000, polling: 'raf' });
      l1.push(Date.now() - t0);
      await own.close();
      const other = await launch();
      const b = await throttled(other);
      await b.goto(host.url + 'bench-bare.html', { timeout: 120000 });
      const t1 = Date.now();
      await b.evaluate(() => document.querySelector('#go').click());
      await b.waitForFunction(() => window.bootMs, null, { timeout: 300000, polling: 'raf' });
      bareLink.push(Date.now() - t1);
      await other.close();
      ratio.push(l1[i] / bareLink[i]);
    }
    host.close();
    report('link: first paint (first-contentful-paint)', paint, 'ms', '≤ 300 ms', { limit: 300 });
    report('link: home page usable (app mounted, from navigation start)', home, 'ms');
    report('link: L1 usable after Start', l1, 'ms');
    report('link: bare PGlite boot', bareLink, 'ms');
    report('link: L1 usable after Start / bare boot (per run pair)', ratio, '×', '≤ 1.00 ×', { limit: 1 });
  }

  // -------------------------------------------------------------------------------------
  if (want('l1')) {
    say(`L1: actions with 1,000 jobs, ${RUNS} runs of 10 × (enqueue, claim, complete, claim, fail)`);
    const kinds = ['enqueue', 'claim', 'complete', 'fail'];
    const perKind = Object.fromEntries(kinds.map((k) => [k, []]));
    const p50 = [];
    const p95 = [];
    const l1Heap = [];
    const l1Tab = [];
    for (let r = 0; r < RUNS; r++) {
      const page = await labPage(browser);
      await page.goto(server.url + '?lang=en#/jobs');
      await startPostgres(page);
      await page.waitForSelector('#jobs-table', { timeout: 120000 });
      await load1000Jobs(page);
      const times = Object.fromEntries(kinds.map((k) => [k, []]));
      for (let c = 0; c < 10; c++) {
        for (const [kind, sel] of L1_CYCLE) times[kind].push(await timeAction(page, sel));
      }
      const all = kinds.flatMap((k) => times[k]);
      p50.push(stats(all).median);
      p95.push(stats(all).p95);
      for (const k of kinds) perKind[k].push(median(times[k]));
      const mem = await tabMemory(page);
      l1Heap.push(mem.jsHeapMB);
      l1Tab.push(mem.tabMB);
      if (page.errors.length) notes.push(`L1 page errors: ${page.errors.join('; ')}`);
      await page.close();
    }
    const nativeL1 = (k) => nativeSql?.l1.map((run) => median(run[k]));
    const nativeL1All = (q) => nativeSql?.l1.map((run) => stats(Object.values(run).flat())[q]);
    report('L1 action, 1,000 jobs: p50 of 50 actions', p50, 'ms', '≤ 25 ms', { limit: 25, native: nativeL1All('median') });
    report('L1 action, 1,000 jobs: p95 of 50 actions', p95, 'ms', '≤ 50 ms', { limit: 50, native: nativeL1All('p95') });
    for (const k of kinds) report(`L1 ${k} (median of 10 or 20)`, perKind[k], 'ms', '', { native: nativeL1(k) });
    report('after L1: JS heap of the page', l1Heap, 'MB');
    report('after L1: tab memory (JS heap, app and PGlite WebAssembly memory)', l1Tab, 'MB');
  }

  // -------------------------------------------------------------------------------------
  if (want('l2')) {
    say(`L2: simulator, 16 workers × 100,000 jobs, ${RUNS} runs per strategy`);
    const strategies = L2_STRATEGIES;
    const simBrowser = Object.fromEntries(strategies.map((s) => [s, []]));
    const simIdle = Object.fromEntries(strategies.map((s) => [s, []]));
    {
      // Keeps the worker and the last job the page posted it, to post that job again
      // from a page doing nothing else (below).
      const page = await workersPage(browser, async (b) => {
        const p = await newPage(b);
        await p.addInitScript(() => {
          const Base = window.Worker;
          window.Worker = class extends Base {
            constructor(...args) {
              super(...args);
              window.__simWorker = this;
            }
            postMessage(message, ...rest) {
              if (message && message.kind === 'run') window.__simJob = message.job.slice();
              return super.postMessage(message, ...rest);
            }
          };
        });
        return p;
      });
      for (let r = 0; r < RUNS; r++) {
        for (const strategy of strategies) {
          await chooseBenchRun(page, strategy);
          await runWorkers(page, strategy, 120000);
          simBrowser[strategy].push(Number(await page.getAttribute('#w-took', 'data-ms')));
          await page.waitForTimeout(300);
          simIdle[strategy].push(await page.evaluate(postJobAgain));
        }
      }
      if (page.errors.length) notes.push(`L2 page errors: ${page.errors.join('; ')}`);
      await page.close();
    }
    // What a learner meets: the lab just opened (its opening run done), then this run, the
    // first of its size in that tab.
    const firstRun = Object.fromEntries(strategies.map((s) => [s, []]));
    for (let r = 0; r < RUNS; r++) {
      for (const strategy of strategies) {
        const page = await workersPage(browser);
        await chooseBenchRun(page, strategy);
        await runWorkers(page, strategy, 120000);
        firstRun[strategy].push(Number(await page.getAttribute('#w-took', 'data-ms')));
        if (page.errors.length) notes.push(`L2 first run page errors: ${page.errors.join('; ')}`);
        await page.close();
      }
    }
    for (const s of strategies) {
      report(`L2 simulator ${s}: native`, nativeSim?.ms[s] ?? [], 'ms', '≤ 50 ms', { limit: 50 });
      report(`L2 simulator ${s}: in the browser`, simBrowser[s], 'ms', '≤ 250 ms', { limit: 250, native: nativeSim?.ms[s] });
      report(`L2 simulator ${s}: in the browser, the first run, clicked as soon as a freshly opened L2 can run`, firstRun[s], 'ms', '', { native: nativeSim?.ms[s] });
      report(`L2 simulator ${s}: in the browser, the same job posted to the worker from an idle page`, simIdle[s], 'ms', '≤ 1.3 × native', { native: nativeSim?.ms[s] });
    }
  }

  // -------------------------------------------------------------------------------------
  // L2 at its largest inputs, the simulator in its worker: the longest main-thread task (a
  // 'longtask' PerformanceObserver) from Run until the results are drawn, drawing included,
  // per strategy; and the simulation's own time in the worker (#w-took).
  if (want('l2big')) {
    say(`L2: 64 workers × 200,000 jobs, the longest main-thread task, ${RUNS} runs per strategy`);
    const strategies = L2_STRATEGIES;
    const longest = Object.fromEntries(strategies.map((s) => [s, []]));
    const took = Object.fromEntries(strategies.map((s) => [s, []]));
    const page = await workersPage(browser);
    for (let r = 0; r < RUNS; r++) {
      for (const strategy of strategies) {
        await chooseRun(page, strategy, '64', '200000');
        await page.evaluate(() => {
          window.__longTasks = [];
          window.__longObserver?.disconnect();
          window.__longObserver = new PerformanceObserver((list) => {
            for (const e of list.getEntries()) window.__longTasks.push(e.duration);
          });
          window.__longObserver.observe({ type: 'longtask' });
        });
        await runWorkers(page, strategy, 600000);
        // The observer reports a task a little after it ends.
        await page.waitForTimeout(300);
        longest[strategy].push(await page.evaluate(() => Math.max(0, ...window.__longTasks)));
        took[strategy].push(Number(await page.getAttribute('#w-took', 'data-ms')));
      }
    }
    if (page.errors.length) notes.push(`L2 (64 × 200,000) page errors: ${page.errors.join('; ')}`);
    await page.close();
    for (const s of strategies) {
      report(`L2 64 × 200,000 ${s}: longest main-thread task (0: none over 50 ms)`, longest[s], 'ms', '≤ 50 ms', { limit: 50 });
      report(`L2 64 × 200,000 ${s}: simulated in the worker`, took[s], 'ms');
    }
  }

  // -------------------------------------------------------------------------------------
  if (want('l3')) {
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
      l3Bare.push(await l3Floor(browser));
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
      await mapPage.evaluate(() => document.querySelector('#vacuum-run').click());
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

  // -------------------------------------------------------------------------------------
  if (want('l4')) {
    say(`L4: side by side with SKIP LOCKED, 20,000 events × 3 rounds, without and with the pin, ${RUNS} runs`);
    const l4 = { plain: { total: [], pgq: [], jobs: [] }, pinned: { total: [], pgq: [], jobs: [] } };
    const cmp = '[data-testid=pgq-compare]';
    const button = '[data-testid=pgq-compare-run]';
    for (let r = 0; r < RUNS; r++) {
      const page = await newPage(browser);
      await page.goto(server.url + '?lang=en#/pgq');
      await startPostgres(page);
      // Without the long transaction, then with it (the e2e test's printed figure), on one page.
      for (const pinned of [false, true]) {
        await page.waitForSelector(`[aria-busy="false"] ${button}:not([disabled])`, { timeout: 120000 });
        await page.fill('[data-testid=pgq-compare-n]', '20000');
        await page.fill('[data-testid=pgq-compare-rounds]', '3');
        await page.setChecked('[data-testid=pgq-compare-pin]', pinned);
        const t0 = Date.now();
        await page.click(button);
        await page.waitForSelector(`${cmp}[data-state="running"]`, { timeout: 30000 });
        await page.waitForSelector(`${cmp}[data-state="done"]`, { timeout: 600000 });
        const wall = Date.now() - t0;
        const attr = async (a) => Number(await page.getAttribute(cmp, a));
        const side = l4[pinned ? 'pinned' : 'plain'];
        const total = await attr('data-total-ms');
        side.total.push(Number.isFinite(total) && total > 0 ? total : wall);
        side.pgq.push(await attr('data-pgq-ms'));
        side.jobs.push(await attr('data-jobs-ms'));
      }
      if (page.errors.length) notes.push(`L4 page errors: ${page.errors.join('; ')}`);
      await page.close();
    }
    for (const [key, label] of [['plain', 'no long transaction'], ['pinned', 'long transaction pinning xmin']]) {
      const side = l4[key];
      if (!side.total.length) continue;
      report(`L4 side by side, 20,000 events × 3 rounds, ${label}: whole run`, side.total, 'ms', '≤ 20 s', { limit: 20000 });
      report(`L4 ${label}: PgQ rotation side`, side.pgq, 'ms');
      report(`L4 ${label}: SKIP LOCKED jobs side`, side.jobs, 'ms');
    }
  }
  // -------------------------------------------------------------------------------------
  if (ONLY && ONLY.includes('limits')) {
    // Each lab's largest accepted inputs, run once each to the end on a fresh page (a fresh
    // PGlite), then the tab's memory; and one input above each bound, with what the page
    // says instead of running it. CPU-heavy: minutes. Not part of the default runs' loop.
    say("limits: each lab's largest inputs, end to end, once each; then the inputs just above the bounds");
    pgliteLimit = pgliteMemoryLimit();
    if (pgliteLimit) console.log(`  PGlite's WebAssembly memory: ${pgliteLimit.initialMB} MB at start, ${pgliteLimit.maximumMB} MB at most (${pgliteLimit.file})`);
    else notes.push("limits: PGlite's memory limit not found in its JavaScript");
    const record = async (lab, inputs, ms, page, done = true) => {
      const mem = await tabMemory(page);
      limits.push({ lab, inputs, ms, done, ...mem });
      const name = `limits, ${lab} ${inputs}`;
      report(`${name}: time`, ms, 'ms');
      report(`${name}: app WebAssembly memory`, mem.appWasmMB, 'MB');
      const max = pgliteLimit?.maximumMB;
      report(`${name}: PGlite WebAssembly memory`, mem.pgliteMB, 'MB', max ? `≤ ${fmt(max, 'MB')} (its maximum)` : '', { limit: max });
      report(`${name}: PGlite's files (its data directory, in the worker's JS memory)`, mem.pgliteFilesMB, 'MB');
      report(`${name}: JS heap of the page`, mem.jsHeapMB, 'MB');
      if (!done) notes.push(`limits: ${lab} ${inputs} did not finish within its timeout`);
      if (page.errors.length) notes.push(`limits: ${lab} ${inputs}: page errors: ${page.errors.join('; ')}`);
    };
    /** Clicks `button` and waits until the lab's `aria-busy` has gone true and back to false. */
    const busyRun = (page, lab, button, timeout) =>
      page.evaluate(
        ([lab, button, timeout]) =>
          new Promise((resolve) => {
            const el = document.querySelector(lab);
            let seen = false;
            const t0 = performance.now();
            const obs = new MutationObserver(() => {
              if (el.getAttribute('aria-busy') === 'true') seen = true;
              else if (seen) {
                obs.disconnect();
                resolve({ ms: performance.now() - t0, done: true });
              }
            });
            obs.observe(el, { attributes: true, attributeFilter: ['aria-busy'] });
            setTimeout(() => resolve({ ms: performance.now() - t0, done: false }), timeout);
            document.querySelector(button).click();
          }),
        [lab, button, timeout],
      );
    /** Types `value` into `field`, submits with `button`, and returns the refusal shown. */
    const refusal = async (page, fills, button, errorSel) => {
      for (const [sel, value] of fills) await page.fill(sel, value);
      await page.click(button);
      const el = await page.waitForSelector(errorSel, { timeout: 10000 }).catch(() => null);
      return el ? (await el.textContent()).trim() : null;
    };
    const openLab = async (route, ready) => {
      const page = await labPage(browser);
      await page.goto(server.url + `?lang=en#/${route}`);
      await startPostgres(page);
      await page.waitForSelector(ready, { timeout: 120000 });
      return page;
    };
    const refusedAt = {};
    // LIMITS_LABS=L3,L4 runs only those labs' cases; LIMITS_TIMEOUT_S bounds each case (a
    // case still running then is reported as not finished, with the time so far).
    const labs = process.env.LIMITS_LABS ? process.env.LIMITS_LABS.split(',') : ['L1', 'L2', 'L3', 'L4'];
    const CASE_TIMEOUT = Number(process.env.LIMITS_TIMEOUT_S || 1200) * 1000;
    // LIMITS_REFUSALS=0 skips typing the inputs above the bounds (on a build without them,
    // they would start the very runs the bounds refuse).
    const refusals = process.env.LIMITS_REFUSALS !== '0';
    // LIMITS_CASES=0 only types the inputs above the bounds (what is refused, and how).
    const cases = process.env.LIMITS_CASES !== '0';

    // L1: the NOTIFY burst (§5), its largest count, while the listening session is busy.
    if (labs.includes('L1')) {
      const page = await openLab('jobs', '[aria-busy="false"] #burst-send:not([disabled])');
      if (cases) {
        await page.fill('#burst-count', '10000');
        const r = await busyRun(page, '.jobs-lab', '#burst-send', 600000);
        await record('L1', 'NOTIFY burst of 10,000', r.ms, page, r.done);
      }
      if (refusals) refusedAt.L1 = await refusal(page, [['#burst-count', '10001']], '#burst-send', '#err-burst');
      await page.close();
    }

    // L2: 64 workers × 200,000 jobs, each strategy, in one page (the simulator runs in L2's
    // simulator worker; no PostgreSQL).
    if (labs.includes('L2')) {
      const page = await workersPage(browser, labPage);
      const strategies = await page.$$eval('#w-strategy option', (os) => os.map((o) => o.value).filter((v) => v !== 'all'));
      for (const strategy of cases ? strategies : []) {
        await chooseRun(page, strategy, '64', '200000');
        await armRunDone(page);
        const t0 = Date.now();
        await page.click('#w-run');
        const done = await page
          .waitForFunction(
            (s) => window.__runDone && !document.querySelector('#w-run').disabled && document.querySelector(`#w-results td[data-strategy="${s}"]`),
            strategy,
            { timeout: 600000 },
          )
          .then(() => true)
          .catch(() => false);
        await record('L2', `64 workers × 200,000 jobs, ${strategy}`, Date.now() - t0, page, done);
      }
      if (refusals) refusedAt.L2 = [
        await refusal(page, [['#w-workers', '65'], ['#w-jobs', '200000']], '#w-run', '#w-workers-err'),
        await refusal(page, [['#w-workers', '64'], ['#w-jobs', '200001']], '#w-run', '#w-jobs-err'),
      ];
      await page.close();
    }

    // L3: the largest run the inputs accept: 50,000 jobs × 5 rounds × all five tables, with
    // the claim batch given (LIMITS_L3, e.g. "50000x5x5000,50000x5x500": jobs x rounds x batch).
    const l3Cases = labs.includes('L3') && cases ? (process.env.LIMITS_L3 || L3_LARGEST).split(',').map((c) => c.split('x')) : [];
    for (const [jobs, rounds, batch] of l3Cases) {
      const page = await openLab('vacuum', '[aria-busy="false"] #vacuum-run:not([disabled])');
      await page.fill('#vacuum-jobs', jobs);
      await page.fill('#vacuum-rounds', rounds);
      await page.fill('#vacuum-batch', batch);
      await page.setChecked('#vacuum-include-dv', true);
      const t0 = Date.now();
      await page.click('#vacuum-run');
      const done = await page.waitForSelector('#vacuum-notice', { timeout: CASE_TIMEOUT }).then(() => true).catch(() => false);
      const g = (x) => Number(x).toLocaleString('en-US');
      await record('L3', `${g(jobs)} jobs × ${rounds} rounds × 5 tables, claim batch ${g(batch)}`, Date.now() - t0, page, done);
      if (!done) await page.click('#vacuum-cancel').catch(() => {});
      await page.close();
    }
    if (labs.includes('L3') && refusals) {
      const page = await openLab('vacuum', '[aria-busy="false"] #vacuum-run:not([disabled])');
      refusedAt.L3 = [
        await refusal(page, [['#vacuum-jobs', '50001']], '#vacuum-run', '#vacuum-input-error'),
        await refusal(page, [['#vacuum-jobs', '50000'], ['#vacuum-rounds', '5'], ['#vacuum-batch', '5000']], '#vacuum-run', '#vacuum-input-error'),
        await refusal(page, [['#vacuum-jobs', '50000'], ['#vacuum-rounds', '1'], ['#vacuum-batch', '1']], '#vacuum-run', '#vacuum-input-error'),
      ];
      await page.close();
    }

    // L4: its largest burst, then the side by side at its heaviest accepted (the most events
    // and rounds, the smallest page RUN_PAGES_MAX allows: the most receives and claims), with
    // the long transaction.
    if (labs.includes('L4')) {
      const page = await openLab('pgq', '[aria-busy="false"] #send-burst:not([disabled])');
      if (cases) {
        await page.fill('#burst-n', '5000');
        const r = await busyRun(page, '.pgq-lab', '#send-burst', 600000);
        await record('L4', 'burst of 5,000 events', r.ms, page, r.done);
      }
      const before = await page.$$eval('.field-error', (es) => es.length);
      await page.fill('#burst-n', '5001');
      await page.click('#send-burst');
      await page.waitForFunction((n) => document.querySelectorAll('.field-error').length > n, before, { timeout: 10000 }).catch(() => {});
      if (refusals) refusedAt.L4 = [(await page.$$eval('.field-error', (es) => es.map((e) => e.textContent.trim()))).pop() ?? null];
      await page.close();
    }
    const l4 = L4_LARGEST;
    const l4Page = process.env.LIMITS_L4_PAGE || String(l4.page);
    if (labs.includes('L4')) {
      const cmp = '[data-testid=pgq-compare]';
      const button = '[data-testid=pgq-compare-run]';
      const page = await openLab('pgq', `[aria-busy="false"] ${button}:not([disabled])`);
      if (cases) {
        await page.fill('[data-testid=pgq-compare-n]', String(l4.events));
        await page.fill('[data-testid=pgq-compare-rounds]', String(l4.rounds));
        await page.fill('[data-testid=pgq-compare-page]', l4Page);
        await page.setChecked('[data-testid=pgq-compare-pin]', true);
        const t0 = Date.now();
        await page.click(button);
        await page.waitForSelector(`${cmp}[data-state="running"]`, { state: 'attached', timeout: 30000 });
        const done = await page
          .waitForSelector(`${cmp}[data-state="done"]`, { state: 'attached', timeout: CASE_TIMEOUT })
          .then(() => true)
          .catch(() => false);
        const g = (x) => Number(x).toLocaleString('en-US');
        await record('L4', `side by side, ${g(l4.events)} events × ${l4.rounds} rounds, page ${g(l4Page)}, long transaction`, Date.now() - t0, page, done);
        if (!done) {
          await page.click('#pgq-compare-cancel').catch(() => {});
          await page.waitForSelector(`[aria-busy="false"] ${button}:not([disabled])`, { timeout: 600000 });
      }
      }
      if (refusals) {
        (refusedAt.L4 ??= []).push(
          await refusal(page, [['[data-testid=pgq-compare-n]', '20001']], button, '#pgq-compare-panel .field-error'),
          await refusal(page, [['[data-testid=pgq-compare-n]', '20000'], ['[data-testid=pgq-compare-rounds]', '5'], ['[data-testid=pgq-compare-page]', '10']], button, '#pgq-compare-panel .field-error'),
        );
      }
      await page.close();
    }
    for (const [lab, text] of Object.entries(refusedAt)) {
      for (const t of [text].flat()) {
        if (t == null) notes.push(`limits: ${lab}: an input above its bound was not refused with a message`);
      }
    }
    const m = (x) => (x == null ? '–' : fmt(x, 'MB'));
    limitsTable.push(
      `PGlite's WebAssembly memory: ${pgliteLimit ? `${fmt(pgliteLimit.initialMB, 'MB')} at start, at most ${fmt(pgliteLimit.maximumMB, 'MB')}` : 'limit not found'}.`,
      '',
      "| lab | largest inputs | time | app WebAssembly | PGlite WebAssembly | PGlite's files | page JS heap |",
      '|---|---|---|---|---|---|---|',
      ...limits.map((c) => `| ${c.lab} | ${c.inputs} | ${c.done ? fmt(c.ms / 1000, 's') : `over ${fmt(c.ms / 1000, 's')} (not finished)`} | ${m(c.appWasmMB)} | ${m(c.pgliteMB)} | ${m(c.pgliteFilesMB)} | ${m(c.jsHeapMB)} |`),
      '',
      '| lab | refused (English message) |',
      '|---|---|',
      ...Object.entries(refusedAt).flatMap(([lab, t]) => [t].flat().map((x) => `| ${lab} | ${x ?? 'NOT REFUSED'} |`)),
    );
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(path.join(DIST, 'bench-bare.html'), { force: true });
  fs.rmSync(path.join(DIST, 'bench-bare-worker.js'), { force: true });
  fs.rmSync(path.join(DIST, 'bare-bridge.js'), { force: true });
}

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
