// L4: the side by side with SKIP LOCKED, without and with a long transaction.
import { RUNS, notes, report, say } from '../report.mjs';
import { newPage, startPostgres } from '../../tests/e2e/harness.mjs';

export async function l4({ server, browser }) {
  say(`L4: side by side with SKIP LOCKED, 20,000 events × 3 rounds, without and with the pin, ${RUNS} runs`);
  const l4 = { plain: { total: [], pgq: [], jobs: [] }, pinned: { total: [], pgq: [], jobs: [] } };
  const cmp = '[data-testid=pgq-compare]';
  const button = '[data-testid=pgq-compare-run]';
  for (let r = 0; r < RUNS; r++) {
    const page = await newPage(browser);
    await page.goto(server.url + '?lang=en#/pgq');
    await startPostgres(page);
    // Without the long transaction, then with it (the e2e test's printed figure), on one page.
    for (const pinned of [false, true]) {
      await page.waitForSelector(`[aria-busy="false"] ${button}:not([disabled])`, { timeout: 120000 });
      await page.fill('[data-testid=pgq-compare-n]', '20000');
      await page.fill('[data-testid=pgq-compare-rounds]', '3');
      await page.setChecked('[data-testid=pgq-compare-pin]', pinned);
      const t0 = Date.now();
      await page.click(button);
      await page.waitForSelector(`${cmp}[data-state="running"]`, { timeout: 30000 });
      await page.waitForSelector(`${cmp}[data-state="done"]`, { timeout: 600000 });
      const wall = Date.now() - t0;
      const attr = async (a) => Number(await page.getAttribute(cmp, a));
      const side = l4[pinned ? 'pinned' : 'plain'];
      const total = await attr('data-total-ms');
      side.total.push(Number.isFinite(total) && total > 0 ? total : wall);
      side.pgq.push(await attr('data-pgq-ms'));
      side.jobs.push(await attr('data-jobs-ms'));
    }
    if (page.errors.length) notes.push(`L4 page errors: ${page.errors.join('; ')}`);
    await page.close();
  }
  for (const [key, label] of [['plain', 'no long transaction'], ['pinned', 'long transaction pinning xmin']]) {
    const side = l4[key];
    if (!side.total.length) continue;
    report(`L4 side by side, 20,000 events × 3 rounds, ${label}: whole run`, side.total, 'ms', '≤ 20 s', { limit: 20000 });
    report(`L4 ${label}: PgQ rotation side`, side.pgq, 'ms');
    report(`L4 ${label}: SKIP LOCKED jobs side`, side.jobs, 'ms');
  }
}
