// What every figure of the benchmark shares: the run's settings (BENCH_RUNS, BENCH_ONLY),
// statistics, the table's rows with their notes (report), and two small helpers (say, sh).
// The figures are in bench/figures/, the runner that prints and stores them is bench/run.mjs.
import { execFileSync } from 'node:child_process';
import { ROOT } from '../tests/e2e/harness.mjs';

export const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 5));
// BENCH_ONLY=l2,l3 runs only those parts (native, sizes, start, link, l1, l2, l2big, l3, l4, l4click, limits):
// for trying. `limits` runs each lab's largest inputs once (minutes of CPU): only when named.
export const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((x) => x.trim()) : null;
export const want = (part) => !ONLY || ONLY.includes(part);

/**
 * @param {number[]} xs
 * @returns {{ median: number | null, min?: number, max?: number, p95?: number, n: number }}
 */
export function stats(xs) {
  const s = xs.filter((x) => x != null && Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return { median: null, n: 0 };
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { median, min: s[0], max: s[s.length - 1], p95: q(0.95), n: s.length };
}
export const median = (xs) => stats(xs).median;
const digits = { KB: 0, MB: 1, ms: 1, s: 2, '%': 1, '×': 2 };
export const fmt = (x, unit) => (x == null ? '–' : `${x.toLocaleString('en-US', { maximumFractionDigits: digits[unit] ?? 1, minimumFractionDigits: digits[unit] ?? 1 })} ${unit}`);

/**
 * @typedef {ReturnType<typeof stats> & { name: string, unit: string, target: string, samples: number[],
 *   meets?: boolean, native?: ReturnType<typeof stats> & { unit?: string }, nativeSamples?: number[], ratio?: number }} Row
 */
/** @type {Row[]} */
export const rows = [];
/** @type {string[]} */
export const notes = [];
/**
 * One row of the table. `samples`: one value per run (or a single value for a size).
 * `limit`: the target's bound on the median (lower is better). `native`: the same work on
 * native PostgreSQL / native Rust, samples per run, shown with the ratio in-tab / native.
 * @param {string} name
 * @param {number | number[]} samples
 * @param {string} unit
 * @param {string} [target]
 * @param {{ limit?: number, native?: number[], nativeUnit?: string }} [options]
 * @returns {Row}
 */
export function report(name, samples, unit, target = '', { limit, native, nativeUnit } = {}) {
  const st = stats(Array.isArray(samples) ? samples : [samples]);
  /** @type {Row} */
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
export const say = (s) => console.log(`\n== ${s}`);
export const sh = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20, ...opts });

/**
 * The rows of a lab's click against its floor (bench/click-floor.mjs): p50 and p95 of each
 * run's clicks and of the same calls on a bare worker, the ratio of each run's pair (≤ 1.2×,
 * the bound), and the worker round trips a click costs, with the count of each kind of
 * click in a note. Every argument but `lab` and `what` holds one array per run, one value per
 * click; `labels` names each click (the same in every run).
 * @param {string} lab
 * @param {string} what
 * @param {{ click: number[][], floor: number[][], calls: number[][], statements: number[][], differ: number[], labels: string[] }} runs
 */
export function clickFloorRows(lab, what, { click, floor, calls, statements, differ, labels }) {
  const per = (runs, q) => runs.map((xs) => stats(xs)[q]);
  const [c50, c95, f50, f95] = [per(click, 'median'), per(click, 'p95'), per(floor, 'median'), per(floor, 'p95')];
  const ratio = (a, b) => a.map((x, i) => (x != null && b[i] ? x / b[i] : null));
  report(`${lab} click: p50 of ${what}`, c50, 'ms');
  report(`${lab} click: p95 of ${what}`, c95, 'ms');
  report(`${lab} floor: the same calls on a bare PGlite worker (same bridge, no app), p50`, f50, 'ms');
  report(`${lab} floor: the same calls on a bare PGlite worker, p95`, f95, 'ms');
  report(`${lab} click / floor, p50 (per run pair)`, ratio(c50, f50), '×', '≤ 1.2×', { limit: 1.2 });
  report(`${lab} click / floor, p95 (per run pair)`, ratio(c95, f95), '×', '≤ 1.2×', { limit: 1.2 });
  report(`${lab} worker round trips per click (median of ${what})`, calls.map(median), '');
  report(`${lab} of those, calls that run SQL (query, exec, console)`, statements.map(median), '');
  if (calls.length && labels.length) {
    const kinds = [...new Set(labels)];
    const each = kinds.map((k) => {
      const n = calls[0].filter((_, i) => labels[i] === k);
      const s = statements[0].filter((_, i) => labels[i] === k);
      return `${k} ${median(n)} (${median(s)} with SQL)`;
    });
    notes.push(`${lab} worker round trips per click, by click (median, first run): ${each.join(', ')}`);
  }
  const wrong = differ.reduce((a, b) => a + b, 0);
  if (wrong) notes.push(`${lab} floor: ${wrong} replayed call(s) ended otherwise (error or not) than in the app`);
}
