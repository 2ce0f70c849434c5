// L1: action times with 1,000 jobs, beside the same SQL on native PostgreSQL, and beside the
// floor: the calls each click sent, again on a bare PGlite worker (bench/click-floor.mjs).
import { RUNS, stats, median, notes, report, say, clickFloorRows } from '../report.mjs';
import { labPage, tabMemory } from '../pages.mjs';
import { L1_CYCLE, load1000Jobs, timeAction } from '../clicks.mjs';
import { clickFloorRuns } from '../click-floor.mjs';

export async function l1({ server, browser, nativeSql }) {
  say(`L1: actions with 1,000 jobs, ${RUNS} runs of 10 × (enqueue, claim, complete, claim, fail)`);
  const kinds = ['enqueue', 'claim', 'complete', 'fail'];
  const perKind = Object.fromEntries(kinds.map((k) => [k, []]));
  const p50 = [];
  const p95 = [];
  const l1Heap = [];
  const l1Tab = [];
  // The first cycle of each run warms PGlite up: the click / floor rows are of the 45 after it.
  const floor = await clickFloorRuns({
    runs: RUNS, server, browser, open: labPage, lab: 'jobs', ready: '#jobs-table', timeout: 120000,
    prepare: load1000Jobs, cycle: L1_CYCLE, cycles: 10, time: timeAction,
    after: async (page, labels, clicks) => {
      /** @type {Record<string, number[]>} */
      const times = Object.fromEntries(kinds.map((k) => [k, []]));
      labels.forEach((kind, i) => times[kind].push(clicks[i]));
      const all = kinds.flatMap((k) => times[k]);
      p50.push(stats(all).median);
      p95.push(stats(all).p95);
      for (const k of kinds) perKind[k].push(median(times[k]));
      const mem = await tabMemory(page);
      l1Heap.push(mem.jsHeapMB);
      l1Tab.push(mem.tabMB);
      if (page.errors.length) notes.push(`L1 page errors: ${page.errors.join('; ')}`);
    },
  });
  const nativeL1 = (k) => nativeSql?.l1.map((run) => median(run[k]));
  const nativeL1All = (q) => nativeSql?.l1.map((run) => stats(Object.values(run).flat())[q]);
  report('L1 action, 1,000 jobs: p50 of 50 actions', p50, 'ms', '≤ 25 ms', { limit: 25, native: nativeL1All('median') });
  report('L1 action, 1,000 jobs: p95 of 50 actions', p95, 'ms', '≤ 50 ms', { limit: 50, native: nativeL1All('p95') });
  for (const k of kinds) report(`L1 ${k} (median of 10 or 20)`, perKind[k], 'ms', '', { native: nativeL1(k) });
  clickFloorRows('L1', '45 clicks after a first cycle', floor);
  report('after L1: JS heap of the page', l1Heap, 'MB');
  report('after L1: tab memory (JS heap, app and PGlite WebAssembly memory)', l1Tab, 'MB');
}
