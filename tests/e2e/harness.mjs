// Shared by the end-to-end tests: a static server for the release build (dist/), optionally
// under a sub-path, and a headless Chromium from the system (never a downloaded browser).
import { before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '../../pglite-bridge/node_modules/playwright-core/index.mjs';
import { listen } from '../../scripts/serve.mjs';
import { labs as registry } from '../../scripts/labs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../..');
export const DIST = process.env.QUEUE_LAB_DIST ? path.resolve(process.env.QUEUE_LAB_DIST) : path.join(ROOT, 'dist');
export const ARTIFACTS = path.join(here, 'artifacts');

/**
 * Serves dist/ at `prefix` (e.g. '/docs/queue-lab/') on 127.0.0.1 with scripts/serve.mjs (the
 * server `./lab serve` runs). Resolves to { url, close }. By default plain and uncacheable, so
 * every test downloads afresh; `options` (compress, brotli, cache, bytesPerSecond, contentLength) as in
 * scripts/serve.mjs.
 */
export function serve(prefix = '/', options = {}) {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    throw new Error(`no release build in ${DIST}: run "./lab test" (or "./lab serve") to build it`);
  }
  return listen({ root: DIST, prefix, compress: false, cache: false, ...options });
}

/**
 * One server (serving dist/ at `prefix`, `options` as for `serve`) and one browser for a test
 * file: started before its first test, closed after its last. Returns `site`, whose `server`
 * and `browser` are set once the tests run.
 */
export function useSite(prefix = '/', options = {}) {
  const site = { server: null, browser: null };
  before(async () => {
    site.server = await serve(prefix, options);
    site.browser = await launch();
  });
  after(async () => {
    await site.browser?.close();
    site.server?.close();
  });
  return site;
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** Pages opened by `newPage` during the test running now. */
const opened = new Set();

/**
 * A page that fails the test on any uncaught page error or unhandled promise rejection, with a
 * viewport of `width`. `page.errors` lists them as they happen (kept after the page closes);
 * after each test, the harness fails it if any page it opened has one.
 */
export async function newPage(browser, { width = 1200, height = 900, colorScheme = 'light' } = {}) {
  const page = await browser.newPage({ viewport: { width, height }, colorScheme });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
  await page.exposeFunction('__queueLabRejected', (message) => page.errors.push(`unhandledrejection: ${message}`));
  await page.addInitScript(() => {
    window.addEventListener('unhandledrejection', (event) => {
      const r = event.reason;
      window.__queueLabRejected(String((r && (r.message || r.stack)) || r));
    });
  });
  opened.add(page);
  return page;
}

afterEach(() => {
  const found = [...opened].flatMap((p) => p.errors);
  opened.clear();
  assert.deepEqual(found, [], 'no page error or unhandled promise rejection on any page the test opened');
});

export async function shot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Clicks the header's button for `lang` and waits until the page has switched: a switch to
 *  Korean waits for the Korean texts to arrive (src/ui/lang.rs), so it is not immediate. */
export async function switchLanguage(page, lang) {
  await page.click(`button.lang[lang="${lang}"]`);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang, { timeout: 30_000 });
}

/** Clicks Start Postgres and waits until the server version is on screen. */
export async function startPostgres(page) {
  await page.click('#start-postgres');
  await page.waitForSelector('#pg-version', { timeout: 120_000 });
  return page.textContent('#pg-version');
}

/** Longest gap between animation frames from now on (the main thread's longest stall). */
export async function watchFrames(page) {
  await page.evaluate(() => {
    window.__gaps = { max: 0, last: performance.now(), on: true };
    const tick = (t) => {
      const g = window.__gaps;
      g.max = Math.max(g.max, t - g.last);
      g.last = t;
      if (g.on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
export async function longestGap(page) {
  return page.evaluate(() => {
    window.__gaps.on = false;
    return window.__gaps.max;
  });
}

/**
 * Waits until the button `selector` exists and is enabled, and its lab is idle: the lab's
 * section says `aria-busy="false"`. The buttons alone do not say a lab's work is done: they
 * show busy only once work has lasted a while (BUSY_SHOWN_AFTER_MS in src/labs/harness.rs),
 * so right after a click they are still enabled. Tests that wait with a selector prefix it
 * with `[aria-busy="false"]` for the same reason. It checks every 50 ms on a timer, not at
 * each animation frame (Playwright's default): a page's frames are the compositor's to give,
 * and a wait that needs none cannot then hang for want of one.
 */
export async function enabled(page, selector, timeout = 120_000) {
  try {
    await page.waitForFunction((s) => {
      const b = /** @type {HTMLButtonElement | null} */ (document.querySelector(s));
      return b && !b.disabled && b.closest('[aria-busy]')?.getAttribute('aria-busy') !== 'true';
    }, selector, { timeout, polling: 50 });
  } catch (e) {
    const seen = await page.evaluate(whatHolds, selector).catch((f) => ({ unreadable: String(f) }));
    throw new Error(`${selector} did not become enabled in an idle lab within ${timeout} ms: ${JSON.stringify(seen)}; page errors: ${JSON.stringify(page.errors ?? [])}`, { cause: e });
  }
}

/** What the page shows that could hold `selector` back (for a wait that timed out): the
 *  button, its lab's busy state, the database's status line and notes, the last outcome. */
function whatHolds(selector) {
  const text = (/** @type {string} */ s) => document.querySelector(s)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
  const b = /** @type {HTMLButtonElement | null} */ (document.querySelector(selector));
  return {
    button: b ? { disabled: b.disabled } : null,
    busy: b?.closest('[aria-busy]')?.getAttribute('aria-busy') ?? null,
    status: text('.status-line'),
    dead: text('#worker-dead'),
    notes: [...document.querySelectorAll('.note, .error')].map((n) => n.textContent?.replace(/\s+/g, ' ').trim()),
    outcome: text('#last-outcome'),
    visibility: document.visibilityState,
  };
}


/** L1 on `site` with its download of pglite.wasm failing, PostgreSQL asked to start;
 *  `unblock()` lets the next download through. */
export async function blockedStart(site) {
  const page = await newPage(site.browser);
  let block = true;
  await page.route('**/pglite.wasm', (route) => (block ? route.abort('failed') : route.continue()));
  await page.goto(site.server.url + '?lang=en#/jobs');
  await page.click('#start-postgres');
  return { page, unblock: () => { block = false; } };
}

/** Clicks each selector in turn, waiting after each until `idle(page)` finds the lab idle
 *  again: a test's walk through a lab's buttons. */
export async function clickEach(page, idle, ...selectors) {
  for (const selector of selectors) {
    await page.click(selector);
    await idle(page);
  }
}

/** Fills each of `fields` (selector: text), in order, then clicks `button`. */
export async function fillAndClick(page, fields, button) {
  for (const [selector, text] of Object.entries(fields)) await page.fill(selector, text);
  await page.click(button);
}

/** Waits until L4 is idle again: Tick enabled and the lab's section not busy (every action
 *  disables the buttons while it runs). */
export async function pgqIdle(page) {
  await enabled(page, '#tick', 60_000);
}

/** Waits until L1 is idle again: Enqueue enabled and the lab's section not busy. */
export async function jobsIdle(page) {
  await enabled(page, '#enqueue', 60_000);
}

/** Starts PostgreSQL unless this tab has it running already, then waits until `button` is
 *  enabled. */
async function startedThen(page, button) {
  if (await page.locator('#start-postgres').count()) await startPostgres(page);
  await enabled(page, button);
}

/** The cargo features the site in dist/ was built with (`QUEUE_LAB_FEATURES=stub-lab`). */
const FEATURES = (process.env.QUEUE_LAB_FEATURES ?? '').split(',').filter(Boolean);

/**
 * What each lab's page does in the scans, by its slug: `open` brings the page up (starting
 * Postgres the first time a lab needs it), `act` runs the actions a newcomer tries first (null
 * for a page without actions). Both take the page. A lab the registry has and this does not
 * gets the plain page (`plainPage`); an entry for no lab of the registry is refused.
 */
const LAB_PAGES = {
  jobs: {
    open: async (page) => {
      if (await page.locator('#start-postgres').count()) await startPostgres(page);
      await page.waitForSelector('#jobs-table');
      await enabled(page, '#enqueue');
    },
    act: async (page) => {
      for (const step of [0, 2, 3, 4, 5]) {
        await page.click(`button.tour-run[data-step="${step}"]`);
        await enabled(page, '#enqueue');
      }
    },
  },
  workers: {
    open: async (page) => enabled(page, '#w-run'),
    act: async (page) => {
      await page.click('#w-run');
      await page.waitForSelector('#w-results');
      await enabled(page, '#w-run');
    },
  },
  vacuum: {
    open: async (page) => startedThen(page, '#vacuum-run'),
    act: async (page) => {
      await page.fill('#vacuum-jobs', '2,000');
      await page.fill('#vacuum-rounds', '2');
      await page.click('#vacuum-run');
      await page.waitForSelector('#vacuum-notice', { timeout: 180_000 });
      await enabled(page, '#vacuum-run');
      await page.click('#vacuum-vacuum');
      await page.waitForSelector('#vacuum-removed', { timeout: 60_000 });
      await enabled(page, '#vacuum-run');
    },
  },
  pgq: {
    open: async (page) => startedThen(page, '#tick'),
    act: async (page) => {
      const steps = ['#send-one', '#tick', '#consumer-billing [data-act="receive"]',
        '#consumer-billing [data-act="ack"]', '#maint'];
      await clickEach(page, (p) => enabled(p, '#tick'), ...steps);
    },
  },
  leave: {
    open: async (page) => page.waitForSelector('main h1'),
    act: null,
  },
  // The test-only stub lab (cargo feature stub-lab): only in a dist/ built with it.
  stub: {
    open: async (page) => {
      if (await page.locator('#start-postgres').count()) await startPostgres(page);
      await page.waitForSelector('#stub-search-path');
    },
    act: null,
  },
};

/** The page of a lab without an entry in LAB_PAGES: Postgres started if the lab needs it, then
 *  its heading; no actions. */
function plainPage(lab) {
  return {
    open: async (page) => {
      if (lab.needsPostgres && (await page.locator('#start-postgres').count())) await startPostgres(page);
      await page.waitForSelector('main h1');
    },
    act: null,
  };
}

/**
 * Every page of the site, in the order a learner meets them: the home page, then every lab of
 * the registry (scripts/labs.mjs: src/labs/ORDER and each lab's lab.tsv) in the site's order,
 * a test-only lab only when dist/ was built with its cargo feature. Used by the scans that
 * look at every page (language, accessibility) and the shell's tests. `root` and `features`
 * for a test that reads another copy of the registry.
 * @param {{ root?: string, features?: string[] | true }} [options]
 */
export function pageList({ root, features = FEATURES } = {}) {
  const every = registry({ root, features: true }).map((l) => l.slug);
  const stray = Object.keys(LAB_PAGES).filter((slug) => !every.includes(slug));
  if (stray.length) throw new Error(`harness.mjs LAB_PAGES: no lab in src/labs/ORDER is ${stray.join(', ')}`);
  return [
    { name: 'home', route: '', open: async () => {}, act: null },
    ...registry({ root, features }).map((lab) => ({
      name: lab.slug,
      route: `#/${lab.slug}`,
      ...(LAB_PAGES[lab.slug] ?? plainPage(lab)),
    })),
  ];
}

/** The pages the suites visit (`pageList`). */
export const PAGES = pageList();

/** Opens `p` (an entry of PAGES) in `lang` on `page`, which keeps its tab and database. */
export async function visit(page, server, p, lang) {
  await page.goto(`${server.url}?lang=${lang}${p.route}`);
  // The app, not the static first screen it replaces (scripts/first-screen.mjs): its <main> has the id.
  await page.waitForSelector('#main');
  await p.open(page);
}

const AXE = path.join(ROOT, 'pglite-bridge/node_modules/axe-core/axe.min.js');
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe-core's WCAG 2.0/2.1 A and AA violations on the page as it is now: one line per rule
 *  and element. */
export async function violations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.addScriptTag({ path: AXE });
  }
  const found = await page.evaluate(async (tags) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  }, WCAG);
  return found.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n}`));
}

/** L2: waits until a simulator run has finished (results shown, the Run button enabled). */
export async function simulated(page) {
  await page.waitForSelector('#w-results');
  await page.waitForFunction(() => {
    const b = /** @type {HTMLButtonElement | null} */ (document.querySelector('#w-run'));
    return b && !b.disabled;
  }, null, { timeout: 120_000 });
}

/** Types `sql` into the page's SQL console and runs it; waits until its answer (rows, text,
 * an error) is shown and the console takes input again. */
export async function runInConsole(page, sql) {
  const before = Number(await page.getAttribute('.console-result', 'data-answers'));
  await page.fill('#console-input', sql);
  await page.click('#console-run');
  await page.waitForFunction((n) => Number(/** @type {HTMLElement} */ (document.querySelector('.console-result')).dataset.answers) > n, before, { timeout: 60_000 });
  await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('#console-run')).disabled);
}

/** Each step of the SQL console's last answer: { step, failed, stmt, summary, fields, cells,
 * notices, note, echo, error, caret, params } (a text is null where the step has none). */
export async function consoleSteps(page) {
  return page.$$eval('.console-result .console-step', (els) =>
    els.map((el) => {
      const text = (sel) => el.querySelector(sel)?.textContent.trim() ?? null;
      return {
        step: Number(/** @type {HTMLElement} */ (el).dataset.step),
        failed: /** @type {HTMLElement} */ (el).dataset.failed === 'true',
        stmt: text('pre.console-stmt'),
        summary: text('.console-summary'),
        fields: Array.from(el.querySelectorAll('table.result thead th'), (th) => th.textContent),
        cells: Array.from(el.querySelectorAll('table.result tbody tr'), (tr) => Array.from(/** @type {HTMLTableRowElement} */ (tr).cells, (td) => td.textContent)),
        notices: text('pre.console-notices'),
        note: text('.console-note'),
        echo: text('pre.console-echo'),
        error: text('.error'),
        caret: text('.error .caret'),
        params: text('.console-params'),
      };
    }),
  );
}
