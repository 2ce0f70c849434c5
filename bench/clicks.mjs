// L1's and L4's clicks, shared by the click figures (figures/l1.mjs, figures/l4click.mjs) and
// the tools that look at one click (trace-l1.mjs, redraws.mjs, click-parts.mjs): each lab's
// cycle of clicks and when a click's outcome shows, L1's 1,000 jobs typed into the SQL
// console, and one click timed from the click until the lab shows its effect.
import { newPage, startPostgres, pgqIdle } from '../tests/e2e/harness.mjs';
import { recording, callsSoFar } from './click-floor.mjs';

// One round of worker A's life, [kind, selector]: enqueue, claim, complete, claim, fail.
/** @type {[string, string][]} */
export const L1_CYCLE = [
  ['enqueue', '#enqueue'],
  ['claim', '#worker-A [data-act="claim"]'],
  ['complete', '#worker-A [data-act="complete"]'],
  ['claim', '#worker-A [data-act="claim"]'],
  ['fail', '#worker-A [data-act="fail"]'],
];

// When an L1 click's outcome is on the page: the counts above the table changed, the lab
// takes input again and is not busy (timeClickUntilShown).
export const L1_SHOWS = { changed: '#job-counts', enabled: '#enqueue', lab: '.jobs-lab' };

// One event's way through L4's queue, [label, selector]: sent, cut into a batch by a tick,
// received by billing and acked.
/** @type {[string, string][]} */
export const L4_CYCLE = [
  ['send', '#send-one'],
  ['tick', '#tick'],
  ['receive', '#consumer-billing [data-act="receive"]'],
  ['ack', '#consumer-billing [data-act="ack"]'],
];

// When an L4 click's outcome is on the page: the outcome line says something new, the lab
// takes input again and is not busy.
export const L4_SHOWS = { changed: '#last-outcome', enabled: '#tick', lab: '.pgq-lab' };

// Types 1,000 jobs into L1's SQL console (PostgreSQL started) and waits until the counts
// above the table show them.
export async function load1000Jobs(page) {
  await page.waitForSelector('[aria-busy="false"] #enqueue:not([disabled])', { timeout: 60000 });
  await page.fill('#console-input', "insert into jobs (payload) select jsonb_build_object('n', g) from generate_series(1, 1000) g");
  await page.click('#console-run');
  await page.waitForSelector('#console-summary');
  await page.waitForFunction(() => /1000 jobs/.test(document.querySelector('#job-counts')?.textContent || ''), null, { timeout: 60000 });
}

/**
 * Clicks `sel` and returns the ms until the page shows the click's outcome: the text of
 * `shows.changed` differs from before the click, `shows.enabled` is not disabled and the lab
 * section `shows.lab` is not busy. Checked at each change of the page's DOM (a
 * MutationObserver), not once a frame: polling by frames would add up to a frame's wait
 * (16.7 ms) that is the measuring's, not the app's. `marks`: performance marks action-start
 * and action-end around it, for a trace. L1's and L4's click figures both time this way.
 * @param {any} page
 * @param {string} sel
 * @param {{ changed: string, enabled: string, lab: string }} shows
 * @param {{ marks?: boolean }} [options]
 */
export async function timeClickUntilShown(page, sel, shows, { marks = false } = {}) {
  return (await clickUntilShown(page, sel, shows, { marks })).ms;
}

/**
 * The same click, timed the same way, and what it changed in the DOM until then (for
 * bench/redraws.mjs): with `redraws`, the changes counted by the nearest element with an id
 * and by kind (`#id nodes`, `#id text`, `#id @attribute`), each record counted once, or once
 * per node it adds or removes. `at`: when the click was made (the page's performance.now()).
 * @param {any} page
 * @param {string} sel
 * @param {{ changed: string, enabled: string, lab: string }} shows
 * @param {{ marks?: boolean, redraws?: boolean }} [options]
 * @returns {Promise<{ ms: number, at: number, redraws: Record<string, number> }>}
 */
export async function clickUntilShown(page, sel, shows, { marks = false, redraws = false } = {}) {
  return page.evaluate(
    async ({ s, shows, marks, redraws }) => {
      const text = () => document.querySelector(shows.changed)?.textContent ?? '';
      const before = text();
      const shown = () =>
        text() !== before &&
        !(/** @type {HTMLButtonElement | null} */ (document.querySelector(shows.enabled))?.disabled ?? true) &&
        document.querySelector(shows.lab)?.getAttribute('aria-busy') === 'false';
      /** @type {Record<string, number>} */
      const counts = {};
      /** @param {MutationRecord} m */
      const count = (m) => {
        let e = m.target instanceof Element ? m.target : m.target.parentElement;
        while (e && !e.id) e = e.parentElement;
        const kind = m.type === 'attributes' ? `@${m.attributeName}` : m.type === 'childList' ? 'nodes' : 'text';
        const k = `${e ? `#${e.id}` : '(no id)'} ${kind}`;
        counts[k] = (counts[k] || 0) + Math.max(1, m.addedNodes.length + m.removedNodes.length);
      };
      if (marks) performance.mark('action-start');
      const t0 = performance.now();
      let t1 = 0;
      await /** @type {Promise<void>} */ (new Promise((resolve) => {
        const obs = new MutationObserver((records) => {
          if (redraws) records.forEach(count);
          if (!shown()) return;
          t1 = performance.now();
          obs.disconnect();
          resolve();
        });
        obs.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        /** @type {HTMLElement} */ (document.querySelector(s)).click();
      }));
      if (marks) performance.mark('action-end');
      return { ms: t1 - t0, at: t0, redraws: counts };
    },
    { s: sel, shows, marks, redraws },
  );
}

// Clicks `sel` once the lab takes input; returns the ms from the click until the counts
// above the table show the new state and the lab takes input again (the action's SQL plus
// the refresh of the table).
export async function timeAction(page, sel, { marks = false } = {}) {
  await page.waitForSelector(`[aria-busy="false"] ${sel}:not([disabled])`, { timeout: 30000 });
  return timeClickUntilShown(page, sel, L1_SHOWS, { marks });
}

/**
 * A page on L1 (with 1,000 jobs, `load1000Jobs`) or L4 (ready to send), PostgreSQL started,
 * for the tools that look at one click at a time (bench/redraws.mjs, bench/click-parts.mjs),
 * with the lab's cycle of clicks and when each shows its outcome. `record`: install the call
 * recorder (bench/click-floor.mjs) before the app starts.
 * @param {any} browser
 * @param {{ url: string }} server
 * @param {'jobs' | 'pgq'} lab
 * @param {{ record?: (page: any) => Promise<void> }} [options]
 */
export async function clickLabPage(browser, server, lab, { record } = {}) {
  const page = await newPage(browser);
  if (record) await record(page);
  await page.goto(server.url + `?lang=en#/${lab}`);
  await startPostgres(page);
  if (lab === 'jobs') await load1000Jobs(page);
  else await page.waitForSelector('#tick', { timeout: 60000 });
  /** @type {[[string, string][], typeof L1_SHOWS]} */
  const [cycle, shows] = lab === 'jobs' ? [L1_CYCLE, L1_SHOWS] : [L4_CYCLE, L4_SHOWS];
  return { page, cycle, shows };
}

/**
 * One click of `clickLabPage`'s cycle on a page with the call recorder (bench/click-floor.mjs):
 * once the lab takes input (L4: and its worker is idle), `sel` clicked and timed until `shows`
 * says its outcome is in (`clickUntilShown`), with the calls the click sent to the worker.
 * For the tools that split a click (click-parts.mjs, click-profile.mjs).
 * @param {any} page
 * @param {'jobs' | 'pgq'} lab
 * @param {string} sel
 * @param {typeof L1_SHOWS} shows
 */
export async function clickRecorded(page, lab, sel, shows) {
  if (lab === 'pgq') await pgqIdle(page);
  await page.waitForSelector(`[aria-busy="false"] ${sel}:not([disabled])`, { timeout: 30000 });
  const from = await callsSoFar(page);
  const { ms, at } = await clickUntilShown(page, sel, shows);
  const calls = (await recording(page)).calls.slice(from);
  return { ms, at, calls };
}
