// L2: the simulator, 16 workers × 100,000 jobs, natively and in the browser three ways.
import { RUNS, notes, report, say } from '../report.mjs';
import { L2_STRATEGIES, workersPage, chooseBenchRun, postJobAgain, runWorkers } from '../pages.mjs';
import { newPage } from '../../tests/e2e/harness.mjs';

export async function l2({ server, browser, nativeSim }) {
  say(`L2: simulator, 16 workers × 100,000 jobs, ${RUNS} runs per strategy`);
  const strategies = L2_STRATEGIES;
  const simBrowser = Object.fromEntries(strategies.map((s) => [s, []]));
  const simIdle = Object.fromEntries(strategies.map((s) => [s, []]));
  {
    // Keeps the worker and the last job the page posted it, to post that job again
    // from a page doing nothing else (below).
    const page = await workersPage(server, browser, async (b) => {
      const p = await newPage(b);
      await p.addInitScript(() => {
        const Base = window.Worker;
        window.Worker = class extends Base {
          /** @param {ConstructorParameters<typeof Worker>} args */
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
      const page = await workersPage(server, browser);
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
