// Start-up: Start Postgres → ready on a first and a repeat visit, against a bare PGlite boot.
import { RUNS, notes, report, say } from '../report.mjs';
import { serve, launch } from '../../tests/e2e/harness.mjs';

export async function start() {
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
