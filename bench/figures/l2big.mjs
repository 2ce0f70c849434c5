// L2 at its largest inputs, the simulator in its worker: the longest main-thread task (a
// 'longtask' PerformanceObserver) from Run until the results are drawn, drawing included,
// per strategy; and the simulation's own time in the worker (#w-took).
import { RUNS, notes, report, say } from '../report.mjs';
import { L2_STRATEGIES, workersPage, chooseRun, runWorkers } from '../pages.mjs';

export async function l2big({ server, browser }) {
  say(`L2: 64 workers × 200,000 jobs, the longest main-thread task, ${RUNS} runs per strategy`);
  const strategies = L2_STRATEGIES;
  const longest = Object.fromEntries(strategies.map((s) => [s, []]));
  const took = Object.fromEntries(strategies.map((s) => [s, []]));
  const page = await workersPage(server, browser);
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
