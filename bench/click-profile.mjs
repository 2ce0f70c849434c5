// Which of the app's parts an L1 or L4 click's tail (its last reply until the outcome shows,
// bench/click-parts.mjs) is spent in: a CPU profile of 8 cycles after a first, its samples
// inside the tails only, each put to the innermost frame that names an app item
// (queue_lab::…), then summed by app item over the whole stack. For looking, not a figure.
// Needs a release that keeps its function names, with Rust's v0 names so that Leptos' generic
// render functions name the view they update (docs/testing.md); `rustfilt` on the PATH reads
// them (`cargo install rustfilt`), else they print as they are. Run:
//   QUEUE_LAB_DIST=dist node bench/click-profile.mjs [jobs|pgq] [how many rows, 30]
import { execFileSync } from 'node:child_process';
import { serve, launch } from '../tests/e2e/harness.mjs';
import { recordCalls } from './click-floor.mjs';
import { clickLabPage, clickRecorded } from './clicks.mjs';

/** @type {'jobs' | 'pgq'} */
const lab = process.argv[2] === 'pgq' ? 'pgq' : 'jobs';
const TOP = Number(process.argv[3]) || 30;
const CYCLES = 9;
const APP = /queue_lab::(labs|ui|ctx|db|runner|app)\b/;

/** Demangled names, by mangled name: rustfilt's where it is installed. @param {string[]} raw */
function demangle(raw) {
  try {
    const out = execFileSync('rustfilt', { input: raw.join('\n') + '\n', maxBuffer: 1 << 28 }).toString().split('\n');
    return new Map(raw.map((r, i) => [r, (out[i] || r).replace(/\[[0-9a-f]{16}\]/g, '')]));
  } catch {
    return new Map(raw.map((r) => [r, r]));
  }
}

const server = await serve('/');
const browser = await launch();
try {
  const { page, cycle, shows } = await clickLabPage(browser, server, lab, { record: recordCalls });
  const cdp = await page.context().newCDPSession(page);
  /** @type {{ from: number, to: number }[]} */
  const tails = [];
  let marker = 0;
  for (let c = 0; c < CYCLES; c++) {
    if (c === 1) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 40 });
      await cdp.send('Profiler.start');
      // A named 5 ms busy loop: where it is in the profile gives the profile's clock against
      // the page's (performance.now()).
      marker = await page.evaluate(() => {
        const t = performance.now();
        const w = /** @type {any} */ (window);
        w.__clickProfileMarker = function __clickProfileMarker() {
          while (performance.now() - t < 5);
        };
        w.__clickProfileMarker();
        return t;
      });
    }
    for (const [, sel] of cycle) {
      const { ms, at, calls } = await clickRecorded(page, lab, sel, shows);
      if (c > 0 && calls.length) tails.push({ from: Math.max(...calls.map((x) => x.replyAt ?? x.at)), to: at + ms });
    }
  }
  const { profile } = await cdp.send('Profiler.stop');
  /** @type {Map<number, any>} */
  const byId = new Map(profile.nodes.map((/** @type {any} */ n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const n of profile.nodes) for (const ch of n.children || []) parent.set(ch, n.id);
  const names = demangle([...new Set(profile.nodes.map((/** @type {any} */ n) => String(n.callFrame.functionName)))]);
  /** @param {number} id */
  const stack = (id) => {
    const s = [];
    for (let x = /** @type {number | undefined} */ (id); x != null; x = parent.get(x)) s.push(names.get(byId.get(x).callFrame.functionName) ?? '');
    return s;
  };
  let t = profile.startTime;
  const times = profile.timeDeltas.map((/** @type {number} */ d) => (t += d) / 1000);
  const at = profile.samples.findIndex((/** @type {number} */ id) => stack(id).some((f) => f.includes('__clickProfileMarker')));
  if (at < 0) throw new Error('the marker is not in the profile: no clock to align the tails with');
  const offset = times[at] - marker;
  /** @type {Map<string, number>} */
  const inner = new Map();
  /** @type {Map<string, number>} */
  const whole = new Map();
  let total = 0;
  profile.samples.forEach((/** @type {number} */ id, /** @type {number} */ i) => {
    const ms = times[i] - offset;
    if (!tails.some((w) => ms >= w.from && ms < w.to)) return;
    const d = (times[i + 1] ?? times[i]) - times[i];
    total += d;
    const s = stack(id);
    const f = s.find((x) => APP.test(x));
    const item = f?.match(/queue_lab::[A-Za-z0-9_:]+(::\{closure#\d+\})*/g)?.at(-1) ?? `(not the app) ${s[0] ?? ''}`.slice(0, 100);
    inner.set(item, (inner.get(item) ?? 0) + d);
    const seen = new Set();
    for (const x of s) {
      for (const m of x.match(/queue_lab::[A-Za-z0-9_:]+/g) ?? []) {
        const k = m.replace(/::\{.*$/, '');
        if (!seen.has(k)) {
          seen.add(k);
          whole.set(k, (whole.get(k) ?? 0) + d);
        }
      }
    }
  });
  const n = tails.length;
  /** @param {Map<string, number>} m */
  const print = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP).forEach(([k, v]) => console.log(`${(v / n).toFixed(3).padStart(7)}  ${k.slice(0, 160)}`));
  console.log(`${lab}: tail ${(total / n).toFixed(2)} ms a click (profiled, so slower than click-parts.mjs says), ${n} clicks`);
  console.log('-- ms a click, by the innermost frame that names an app item');
  print(inner);
  console.log('-- ms a click, by app item anywhere on the stack (a sample counts once for each)');
  print(whole);
} finally {
  await browser.close();
  server.close();
}
