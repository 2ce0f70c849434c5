// Where an L1 action's time goes: a Chromium trace (DevTools protocol) of 20 actions on 1,000
// jobs, summed by what the page's main thread did. For looking, not a benchmark: tracing
// itself slows the page. Run: QUEUE_LAB_DIST=dist node bench/trace-l1.mjs [out.json]
import fs from 'node:fs';
import { serve, launch, newPage, startPostgres } from '../tests/e2e/harness.mjs';
import { L1_CYCLE, load1000Jobs, timeAction } from './clicks.mjs';

const server = await serve('/');
const browser = await launch();
try {
  const page = await newPage(browser);
  await page.goto(server.url + '?lang=en#/jobs');
  await startPostgres(page);
  await load1000Jobs(page);
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,blink.user_timing,v8.execute,disabled-by-default-devtools.timeline',
    transferMode: 'ReportEvents',
  });
  const took = [];
  for (let c = 0; c < 4; c++) {
    for (const [, sel] of L1_CYCLE) took.push(await timeAction(page, sel, { marks: true }));
  }
  await cdp.send('Tracing.end');
  await done;
  if (process.argv[2]) fs.writeFileSync(process.argv[2], JSON.stringify(events));
  // The page's main thread: the renderer thread named CrRendererMain of the page's process.
  const names = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  const main = events.filter((e) => names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain' && e.ph === 'X' && e.dur);
  const sum = new Map();
  const count = new Map();
  for (const e of main) {
    sum.set(e.name, (sum.get(e.name) || 0) + e.dur / 1000);
    count.set(e.name, (count.get(e.name) || 0) + 1);
  }
  const n = took.length;
  console.log(`${n} actions, median ${took.sort((a, b) => a - b)[n >> 1].toFixed(1)} ms (traced)`);
  console.log('main thread, per action (ms, count), top events (nested events are counted in their parents too):');
  for (const [k, v] of [...sum].sort((a, b) => b[1] - a[1]).slice(0, 18)) {
    console.log(`  ${k.padEnd(28)} ${(v / n).toFixed(2).padStart(7)} ms  ${(count.get(k) / n).toFixed(1).padStart(6)}×`);
  }
} finally {
  await browser.close();
  server.close();
}
