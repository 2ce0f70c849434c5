// A click's floor: the calls one click really sends to the database worker, recorded in the
// app's page, then sent again on a bare page through the same bridge and worker (no app, no
// rendering, no decoding into Rust). What is left is PostgreSQL's work plus one worker message
// per call: the floor the click is measured against (L1 and L4 click / floor rows), which
// follows the app when it changes what a click sends. Not for: timing the click itself
// (bench/clicks.mjs, bench/figures/l4click.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { newPage, startPostgres, DIST } from '../tests/e2e/harness.mjs';

/**
 * @typedef {{ worker: number, msg: Record<string, any>, after: number, at: number, replyAt?: number, error?: boolean, result?: any }} Call
 * One call to a database worker: the message the bridge posted (op, sql, params, tx…), how many
 * replies the page had received when it was sent (`after`, in reply order), when it was sent and
 * answered (the page's clock, ms), whether its reply was an error, and for `begin` / `listen`
 * the handle the worker gave back.
 * @typedef {{ calls: Call[], replies: number[] }} Recording
 */

/**
 * Installs the recorder in `page` before its scripts run: every Worker the page creates gets
 * a listener ahead of the bridge's own, so a reply is recorded before the app can act on it,
 * and every `queueLab: 'call'` message posted to a worker is kept (pings and boots are not).
 * @param {any} page
 */
export async function recordCalls(page) {
  await page.addInitScript(() => {
    /** @type {Recording & { workers: number, byId: Map<string, number> }} */
    const rec = { calls: [], replies: [], workers: 0, byId: new Map() };
    window.__calls = rec;
    const Base = window.Worker;
    const index = new WeakMap();
    window.Worker = class extends Base {
      constructor(url, options) {
        super(url, options);
        const w = rec.workers++;
        index.set(this, w);
        this.addEventListener('message', (e) => {
          const m = e.data;
          if (!m || !m.queueLab || m.type !== 'reply') return;
          const i = rec.byId.get(`${w}:${m.id}`);
          if (i == null) return;
          const call = rec.calls[i];
          call.error = !!m.error;
          call.replyAt = performance.now();
          if (call.msg.op === 'begin' || call.msg.op === 'listen') call.result = m.result;
          rec.replies.push(i);
        });
      }
      /** @param {any} msg @param {any} [transfer] */
      postMessage(msg, transfer) {
        if (msg && msg.queueLab === 'call') {
          const w = index.get(this);
          rec.byId.set(`${w}:${msg.id}`, rec.calls.length);
          // The call without the bridge's tag and number (the bare page's bridge numbers its own).
          const kept = structuredClone(msg);
          delete kept.queueLab;
          delete kept.id;
          rec.calls.push({ worker: w, msg: kept, after: rec.replies.length, at: performance.now() });
        }
        return super.postMessage(msg, transfer);
      }
    };
  });
}

/** How many calls the page has recorded so far (the start or end of a click's window).
 * @param {any} page */
export const callsSoFar = (page) => page.evaluate(() => window.__calls.calls.length);

/**
 * Clicks through `cycle` ([label, selector] pairs) `cycles` times in `page`, each click timed
 * by `time(page, selector)`: each click's label, its ms, and its window of calls ([first, end)
 * of the recording), in click order, as addFloorRun takes them.
 * @param {any} page
 * @param {[string, string][]} cycle
 * @param {number} cycles
 * @param {(page: any, sel: string) => Promise<number>} time
 */
async function clickCycles(page, cycle, cycles, time) {
  /** @type {string[]} */
  const labels = [];
  /** @type {number[]} */
  const clicks = [];
  /** @type {[number, number][]} */
  const windows = [];
  for (let c = 0; c < cycles; c++) {
    for (const [label, sel] of cycle) {
      const from = await callsSoFar(page);
      clicks.push(await time(page, sel));
      windows.push([from, await callsSoFar(page)]);
      labels.push(label);
    }
  }
  return { labels, clicks, windows };
}

/**
 * `runs` runs of a lab's clicks, each beside its floor (L1 and L4 click / floor rows). A run:
 * a page from `open(browser)` with the recorder installed (`recordCalls`), lab `lab` (its route,
 * in English) opened on it, PostgreSQL started, `ready` (a selector) waited for within
 * `timeout` ms and `prepare(page)` awaited; then `cycle` clicked through `cycles` times, each
 * click timed by `time(page, selector)`; `after(page, labels, clicks)` reads what else it needs
 * (each click's label and ms, in click order) before the page closes; then the run's calls are
 * replayed on a bare page (addFloorRun). The first cycle of each run warms PGlite up and is
 * left out of the figures (addFloorRun); the first run's later labels name the floor's clicks.
 * @param {{ runs: number, server: { url: string }, browser: any, open: (browser: any) => Promise<any>,
 *   lab: string, ready: string, timeout: number, prepare: (page: any) => Promise<unknown>,
 *   cycle: [string, string][], cycles: number, time: (page: any, sel: string) => Promise<number>,
 *   after: (page: any, labels: string[], clicks: number[]) => Promise<void> | void }} o
 */
export async function clickFloorRuns(o) {
  const floor = floorRuns();
  for (let r = 0; r < o.runs; r++) {
    const page = await o.open(o.browser);
    await recordCalls(page);
    await page.goto(o.server.url + `?lang=en#/${o.lab}`);
    await startPostgres(page);
    await page.waitForSelector(o.ready, { timeout: o.timeout });
    await o.prepare(page);
    const { labels, clicks, windows } = await clickCycles(page, o.cycle, o.cycles, o.time);
    if (r === 0) floor.labels.push(...labels.slice(o.cycle.length));
    const calls = await recording(page);
    await o.after(page, labels, clicks);
    await page.close();
    // The floor on a page of its own, once the app's page is closed.
    await addFloorRun(floor, calls, windows, clicks, o.server, o.browser, o.cycle.length);
  }
  return floor;
}

/** The page's recording (all calls since it opened, in the order they were sent).
 * @param {any} page
 * @returns {Promise<Recording>} */
export const recording = (page) => page.evaluate(() => ({ calls: window.__calls.calls, replies: window.__calls.replies }));

/**
 * Sends the recorded calls again, in order, on a bare page (bench/bare.html with the app's
 * bridge, a fresh PGlite booted from the same prepared data directory), each once the replies
 * the app had before sending it are in, so calls the app sent together go together again.
 * Calls outside the windows bring the database to the state the click found, untimed; for each
 * window [from, to) of call indices (one click), the time from its first call sent, once every
 * earlier call has replied, until its last reply. Returns the times (ms) and how many replayed
 * calls ended differently (error or not) from the recorded ones.
 * @param {Recording} rec the app page's calls (`recording`)
 * @param {{ url: string }} server
 * @param {any} browser
 * @param {[number, number][]} windows
 * @returns {Promise<{ ms: number[], differ: number, workers: number }>}
 */
export async function replayFloor(rec, server, browser, windows) {
  const bare = await newPage(browser);
  await bare.goto(server.url + 'bench-bare.html');
  const { dir } = JSON.parse(fs.readFileSync(path.join(DIST, 'pglite/pglite.json'), 'utf8'));
  const out = await bare.evaluate(
    async ([rec, windows, base]) => {
      // @ts-expect-error: the page's own address (the app's bridge, copied into dist/ for the run).
      const { open } = await import('./bare-bridge.js');
      const db = await open(base, 'worker.js', () => {});
      // The bridge's numbered calls, as the app's Session methods make them.
      const conn = db.conn;
      const { calls, replies } = rec;
      // The first worker the app sent calls to is its database; any other is left out.
      const main = calls.length ? calls[0].worker : 0;
      const handles = new Map();
      /** @type {Promise<void>[]} */
      const sent = [];
      /** @type {number[]} */
      const endAt = [];
      let differ = 0;
      let heard = 0;
      const await_ = async (n) => {
        for (; heard < n; heard++) await sent[replies[heard]];
      };
      const send = (i) => {
        const c = calls[i];
        const msg = { ...c.msg };
        if (msg.tx != null) msg.tx = handles.get(`tx:${msg.tx}`) ?? msg.tx;
        if (msg.listen != null) msg.listen = handles.get(`listen:${msg.listen}`) ?? msg.listen;
        sent[i] = conn.call(msg).then(
          (r) => {
            if (c.msg.op === 'begin') handles.set(`tx:${c.result}`, r);
            if (c.msg.op === 'listen') handles.set(`listen:${c.result}`, r);
            if (c.error) differ++;
            endAt[i] = performance.now();
          },
          () => {
            if (!c.error) differ++;
            endAt[i] = performance.now();
          },
        );
      };
      const ms = [];
      let next = 0;
      const upTo = async (end) => {
        for (; next < end; next++) {
          if (calls[next].worker !== main) {
            sent[next] = Promise.resolve();
            continue;
          }
          await await_(calls[next].after);
          send(next);
        }
      };
      for (const [from, to] of windows) {
        await upTo(from);
        await Promise.all(sent);
        // The worker idles as long as it did in the app before this click (at most 1 s): what
        // the browser does in a worker's idle time (collecting garbage, optimizing) happens
        // between clicks here too, not inside the next one.
        const idle = from > 0 && calls[from - 1].replyAt != null && to > from ? calls[from].at - calls[from - 1].replyAt : 0;
        if (idle > 0) await new Promise((r) => setTimeout(r, Math.min(1000, idle)));
        const t0 = performance.now();
        await upTo(to);
        await Promise.all(sent.slice(from, to));
        ms.push(to > from ? Math.max(...endAt.slice(from, to).filter((x) => x != null)) - t0 : 0);
      }
      await db.close();
      return { ms, differ, workers: new Set(calls.map((c) => c.worker)).size };
    },
    /** @type {[Recording, [number, number][], string]} */ ([rec, windows, 'pglite/' + dir]),
  );
  await bare.close();
  return out;
}

/**
 * The calls of each window, counted by kind (for the report): round trips per click, and of
 * those how many ran statements (query, exec, console) and how many were begin / commit /
 * rollback.
 * @param {Recording} rec
 * @param {[number, number][]} windows
 */
export function countCalls(rec, windows) {
  return windows.map(([from, to]) => {
    const ops = rec.calls.slice(from, to).map((c) => c.msg.op);
    return { calls: ops.length, statements: ops.filter((o) => o === 'query' || o === 'exec' || o === 'console').length };
  });
}

/**
 * A new set of runs for `clickFloorRows` (bench/report.mjs): one array per run, one value per
 * click.
 */
export const floorRuns = () => ({ click: [], floor: [], calls: [], statements: [], differ: [], labels: [] });

/**
 * One run's clicks added to `runs` (from `floorRuns`): their times, their floor (the recorded
 * calls replayed on a bare page, `replayFloor`; call it once the app's page is closed) and
 * their calls counted. The first `warm` clicks are replayed like the others but left out of
 * the figures: the first time a statement runs, in the app and on the bare page alike, it
 * waits for PGlite's WebAssembly to be compiled again by the browser's optimizing tier
 * (measured: the first L4 clicks' floors took 200–500 ms, the later ones 30–70 ms).
 * @param {ReturnType<typeof floorRuns>} runs
 * @param {Recording} rec
 * @param {[number, number][]} windows
 * @param {number[]} clicks
 * @param {{ url: string }} server
 * @param {any} browser
 * @param {number} warm
 */
export async function addFloorRun(runs, rec, windows, clicks, server, browser, warm) {
  const bare = await replayFloor(rec, server, browser, windows);
  runs.click.push(clicks.slice(warm));
  runs.floor.push(bare.ms.slice(warm));
  runs.differ.push(bare.differ);
  const counted = countCalls(rec, windows).slice(warm);
  runs.calls.push(counted.map((x) => x.calls));
  runs.statements.push(counted.map((x) => x.statements));
}
