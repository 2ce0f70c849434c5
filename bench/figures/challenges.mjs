// Challenges: what one check costs in the tab. A challenge's check runs after each action and
// console statement while it is under way, so it must cost next to nothing: the figure is the
// check's own time in PostgreSQL (the worker's figure, the page's `data-check-ms`), over L1's
// cycle of actions with 1,000 jobs in the table, each of L1's challenges in turn. Beside it,
// from sending the check to reading its answer (`data-check-wait-ms`): that also counts the
// page's wait to read the reply while it renders the action's new state, which the check does
// not cost (it runs after the state is on screen and delays nothing). Then L3's checks (over
// pg_stat and pg_class): each of L3's challenges after one round of 5,000 jobs on every table
// checked after each of 20 console statements; and L4's (over PgQue's tables and functions)
// after 1,000 events sent, a tick and a batch received, likewise.
import { RUNS, stats, notes, report, say } from '../report.mjs';
import { labPage } from '../pages.mjs';
import { L1_CYCLE, timeAction } from '../clicks.mjs';
import { pgqIdle, runInConsole, startPostgres } from '../../tests/e2e/harness.mjs';

/** Reads the check time once the check after the last action has run. */
async function nextCheck(page, since) {
  await page.waitForFunction(
    (n) => Number(document.querySelector('#challenges')?.getAttribute('data-checks')) > n && document.querySelector('section.lab')?.getAttribute('aria-busy') === 'false',
    since,
    { timeout: 600000 },
  );
  const at = await page.getAttribute('#challenges', 'data-checks');
  const ms = Number(await page.getAttribute('#challenges', 'data-check-ms'));
  const wait = Number(await page.getAttribute('#challenges', 'data-check-wait-ms'));
  return { n: Number(at), ms, wait };
}

export async function challenges({ server, browser }) {
  say(`Challenges: L1's checks, ${RUNS} runs of each challenge × 10 × (enqueue, claim, complete, claim, fail) with 1,000 jobs`);
  const p50 = [];
  const p95 = [];
  const waitP50 = [];
  const waitP95 = [];
  /** @type {Map<string, number[]>} each challenge's own check times, over every run */
  const byId = new Map();
  for (let r = 0; r < RUNS; r++) {
    const page = await labPage(browser);
    await page.goto(server.url + '?lang=en#/jobs');
    await startPostgres(page);
    await page.waitForSelector('li.challenge', { timeout: 120000 });
    const ids = await page.$$eval('li.challenge', (els) => els.map((e) => e.getAttribute('data-challenge')));
    const times = [];
    const waits = [];
    for (const id of ids) {
      await page.goto(`${server.url}?lang=en&challenge=${id}#/jobs`);
      await startPostgres(page);
      await page.waitForSelector(`li.challenge.current[data-challenge="${id}"]`, { timeout: 120000 });
      let { n } = await nextCheck(page, 0);
      // 1,000 jobs more, typed into the console as L1's figure does (the start may hold some).
      await page.waitForSelector('[aria-busy="false"] #enqueue:not([disabled])', { timeout: 60000 });
      await page.fill('#console-input', "insert into jobs (payload) select jsonb_build_object('n', g) from generate_series(1, 1000) g");
      await page.click('#console-run');
      ({ n } = await nextCheck(page, n));
      for (let c = 0; c < 10; c++) {
        for (const [, sel] of L1_CYCLE) {
          await timeAction(page, sel);
          const got = await nextCheck(page, n);
          n = got.n;
          times.push(got.ms);
          byId.set(id, [...(byId.get(id) ?? []), got.ms]);
          waits.push(got.wait);
        }
      }
    }
    p50.push(stats(times).median);
    p95.push(stats(times).p95);
    waitP50.push(stats(waits).median);
    waitP95.push(stats(waits).p95);
    if (page.errors.length) notes.push(`challenge page errors: ${page.errors.join('; ')}`);
    await page.close();
  }
  report('a challenge check (L1, 1,000 jobs): p50 of 200 checks', p50, 'ms');
  report('a challenge check (L1, 1,000 jobs): p95 of 200 checks', p95, 'ms', '≤ 5 ms', { limit: 5 });
  const each = [...byId].map(([id, t]) => `${id} p50 ${stats(t).median.toFixed(1)} ms, p95 ${stats(t).p95.toFixed(1)} ms`);
  notes.push(`a challenge check's own time, by challenge (all runs): ${each.join('; ')}`);
  report('the same checks, sent to answer read: p50', waitP50, 'ms');
  report('the same checks, sent to answer read: p95', waitP95, 'ms');
}

/**
 * Checks after console statements: in `lab` (its slug), each challenge opened by its link,
 * `load(page)` run on its start (the data the checks then read), then 20 console statements,
 * each followed by the check. Reports the checks' own time, p50 and p95, as `what`.
 * @param {{ server: any, browser: any }} ctx
 * @param {{ lab: string, what: string, load: (page: any) => Promise<void> }} spec
 */
async function consoleChecks({ server, browser }, { lab, what, load }) {
  const p50 = [];
  const p95 = [];
  /** @type {Map<string, number[]>} */
  const byId = new Map();
  for (let r = 0; r < RUNS; r++) {
    const page = await labPage(browser);
    await page.goto(`${server.url}?lang=en#/${lab}`);
    await startPostgres(page);
    await page.waitForSelector('li.challenge', { timeout: 120000 });
    const ids = await page.$$eval('li.challenge', (els) => els.map((e) => e.getAttribute('data-challenge')));
    const times = [];
    for (const id of ids) {
      await page.goto(`${server.url}?lang=en&challenge=${id}#/${lab}`);
      await startPostgres(page);
      await page.waitForSelector(`li.challenge.current[data-challenge="${id}"]`, { timeout: 120000 });
      let { n } = await nextCheck(page, 0);
      await load(page);
      ({ n } = await nextCheck(page, n));
      for (let i = 0; i < 20; i++) {
        await runInConsole(page, 'select 1');
        const got = await nextCheck(page, n);
        n = got.n;
        times.push(got.ms);
        byId.set(id, [...(byId.get(id) ?? []), got.ms]);
      }
    }
    p50.push(stats(times).median);
    p95.push(stats(times).p95);
    if (page.errors.length) notes.push(`${what}: page errors: ${page.errors.join('; ')}`);
    await page.close();
  }
  const checks = 20 * byId.size;
  report(`a challenge check (${what}): p50 of ${checks} checks`, p50, 'ms');
  report(`a challenge check (${what}): p95 of ${checks} checks`, p95, 'ms', '≤ 5 ms', { limit: 5 });
  const each = [...byId].map(([id, t]) => `${id} p50 ${stats(t).median.toFixed(1)} ms, p95 ${stats(t).p95.toFixed(1)} ms`);
  notes.push(`${what}: each check's own time (all runs): ${each.join('; ')}`);
}

/** L3's checks (over pg_stat and pg_class): one round of 5,000 jobs on every table first. */
export async function vacuumChallenges(ctx) {
  say(`Challenges: L3's checks, ${RUNS} runs of each challenge × 20 console statements after 5,000 jobs on every table`);
  await consoleChecks(ctx, {
    lab: 'vacuum',
    what: 'L3, 5,000 jobs a table',
    load: async (page) => {
      await page.fill('#vacuum-jobs', '5000');
      await page.fill('#vacuum-rounds', '1');
      await page.click('#vacuum-run');
    },
  });
}

/** L4's checks (over PgQue's tables and functions: an open batch's events among them): on the
 * challenge's start, 1,000 events sent from the console, a tick, and billing's batch received
 * from the console (open until acked: the late-event check reads its events). */
export async function pgqChallenges(ctx) {
  say(`Challenges: L4's checks, ${RUNS} runs of each challenge × 20 console statements after 1,000 events sent, a tick and a batch received`);
  await consoleChecks(ctx, {
    lab: 'pgq',
    what: 'L4, 1,000 events',
    load: async (page) => {
      await runInConsole(page, "select count(pgque.send('orders', jsonb_build_object('n', g))) from generate_series(1, 1000) g");
      await pgqIdle(page);
      await page.click('#tick');
      await pgqIdle(page);
      await runInConsole(page, "select count(*) from pgque.receive('orders', 'billing', 1000)");
    },
  });
}
