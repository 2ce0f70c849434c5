// Where an L1 or L4 click's time goes between the page and the database worker, from the
// recorder's timestamps (bench/click-floor.mjs): head, from the click to its first call;
// worker, the calls' round trips; gaps, from a reply to the next call (the app's work between
// round trips); tail, from the last reply until the outcome shows (decoding the new state and
// drawing it). Medians of 8 cycles after a first. For looking, not a figure. Run:
//   QUEUE_LAB_DIST=dist node bench/click-parts.mjs [jobs|pgq]
import { serve, launch } from '../tests/e2e/harness.mjs';
import { recordCalls } from './click-floor.mjs';
import { clickLabPage, clickRecorded } from './clicks.mjs';
import { median } from './report.mjs';

/** @type {'jobs' | 'pgq'} */
const lab = process.argv[2] === 'pgq' ? 'pgq' : 'jobs';
const CYCLES = 9;

const server = await serve('/');
const browser = await launch();
try {
  const { page, cycle, shows } = await clickLabPage(browser, server, lab, { record: recordCalls });
  /** @type {Map<string, { total: number[], head: number[], worker: number[], gaps: number[], tail: number[], calls: number[] }>} */
  const parts = new Map();
  for (let c = 0; c < CYCLES; c++) {
    for (const [label, sel] of cycle) {
      const { ms, at, calls } = await clickRecorded(page, lab, sel, shows);
      // The first cycle warms PGlite up.
      if (c === 0 || !calls.length) continue;
      const p = parts.get(label) ?? { total: [], head: [], worker: [], gaps: [], tail: [], calls: [] };
      parts.set(label, p);
      const replied = calls.map((x) => x.replyAt ?? x.at);
      p.total.push(ms);
      p.head.push(calls[0].at - at);
      p.worker.push(calls.reduce((s, x, i) => s + (replied[i] - x.at), 0));
      p.gaps.push(calls.slice(1).reduce((s, x, i) => s + Math.max(0, x.at - replied[i]), 0));
      p.tail.push(at + ms - Math.max(...replied));
      p.calls.push(calls.length);
    }
  }
  console.log(`${lab}: ms per click, medians of ${CYCLES - 1} cycles (worker: the round trips summed; pipelined calls overlap)`);
  console.log('click      total   head  worker  gaps   tail  calls');
  for (const [label, p] of parts) {
    const f = (/** @type {number[]} */ a) => (median(a) ?? 0).toFixed(1).padStart(6);
    console.log(`${label.padEnd(9)} ${f(p.total)} ${f(p.head)} ${f(p.worker)} ${f(p.gaps)} ${f(p.tail)}  ${median(p.calls)}`);
  }
} finally {
  await browser.close();
  server.close();
}
