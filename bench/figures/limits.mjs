// BENCH_ONLY=limits: each lab's largest accepted inputs, run once each to the end on a fresh
// page (a fresh PGlite), then the tab's memory; and one input above each bound, with what the
// page says instead of running it. CPU-heavy: minutes. Only when named.
import { fmt, notes, report, say } from '../report.mjs';
import { L3_LARGEST, L4_LARGEST } from '../labs.mjs';
import { armRunDone, workersPage, chooseRun, labPage, tabMemory, pgliteMemoryLimit } from '../pages.mjs';
import { startPostgres } from '../../tests/e2e/harness.mjs';

/** The cases, their table and PGlite's memory limit, for the runner's JSON. */
export const limitsOut = { cases: [], table: [], pglite: null };

export async function limits({ server, browser }) {
  // Each lab's largest accepted inputs, run once each to the end on a fresh page (a fresh
  // PGlite), then the tab's memory; and one input above each bound, with what the page
  // says instead of running it. CPU-heavy: minutes. Not part of the default runs' loop.
  say("limits: each lab's largest inputs, end to end, once each; then the inputs just above the bounds");
  const limits = limitsOut.cases;
  const limitsTable = limitsOut.table;
  const pgliteLimit = (limitsOut.pglite = pgliteMemoryLimit());
  if (pgliteLimit) console.log(`  PGlite's WebAssembly memory: ${pgliteLimit.initialMB} MB at start, ${pgliteLimit.maximumMB} MB at most (${pgliteLimit.file})`);
  else notes.push("limits: PGlite's memory limit not found in its JavaScript");
  const record = async (lab, inputs, ms, page, done = true) => {
    const mem = await tabMemory(page);
    limits.push({ lab, inputs, ms, done, ...mem });
    const name = `limits, ${lab} ${inputs}`;
    report(`${name}: time`, ms, 'ms');
    report(`${name}: app WebAssembly memory`, mem.appWasmMB, 'MB');
    const max = pgliteLimit?.maximumMB;
    report(`${name}: PGlite WebAssembly memory`, mem.pgliteMB, 'MB', max ? `≤ ${fmt(max, 'MB')} (its maximum)` : '', { limit: max });
    report(`${name}: PGlite's files (its data directory, in the worker's JS memory)`, mem.pgliteFilesMB, 'MB');
    report(`${name}: JS heap of the page`, mem.jsHeapMB, 'MB');
    if (!done) notes.push(`limits: ${lab} ${inputs} did not finish within its timeout`);
    if (page.errors.length) notes.push(`limits: ${lab} ${inputs}: page errors: ${page.errors.join('; ')}`);
  };
  /** Clicks `button` and waits until the lab's `aria-busy` has gone true and back to false. */
  const busyRun = (page, lab, button, timeout) =>
    page.evaluate(
      ([lab, button, timeout]) =>
        new Promise((resolve) => {
          const el = document.querySelector(lab);
          let seen = false;
          const t0 = performance.now();
          const obs = new MutationObserver(() => {
            if (el.getAttribute('aria-busy') === 'true') seen = true;
            else if (seen) {
              obs.disconnect();
              resolve({ ms: performance.now() - t0, done: true });
            }
          });
          obs.observe(el, { attributes: true, attributeFilter: ['aria-busy'] });
          setTimeout(() => resolve({ ms: performance.now() - t0, done: false }), timeout);
          document.querySelector(button).click();
        }),
      [lab, button, timeout],
    );
  /** A lab's largest burst, recorded as `what`: `count` typed into `field`, then `button`
   *  clicked and timed until the lab (`scope`) is no longer busy. */
  const burst = async (page, lab, what, [field, count], scope, button) => {
    await page.fill(field, count);
    const r = await busyRun(page, scope, button, 600000);
    await record(lab, what, r.ms, page, r.done);
  };
  /** Types `value` into `field`, submits with `button`, and returns the refusal shown. */
  const refusal = async (page, fills, button, errorSel) => {
    for (const [sel, value] of fills) await page.fill(sel, value);
    await page.click(button);
    const el = await page.waitForSelector(errorSel, { timeout: 10000 }).catch(() => null);
    return el ? (await el.textContent()).trim() : null;
  };
  const openLab = async (route, ready) => {
    const page = await labPage(browser);
    await page.goto(server.url + `?lang=en#/${route}`);
    await startPostgres(page);
    await page.waitForSelector(ready, { timeout: 120000 });
    return page;
  };
  const refusedAt = {};
  // LIMITS_LABS=L3,L4 runs only those labs' cases; LIMITS_TIMEOUT_S bounds each case (a
  // case still running then is reported as not finished, with the time so far).
  const labs = process.env.LIMITS_LABS ? process.env.LIMITS_LABS.split(',') : ['L1', 'L2', 'L3', 'L4'];
  const CASE_TIMEOUT = Number(process.env.LIMITS_TIMEOUT_S || 1200) * 1000;
  // LIMITS_REFUSALS=0 skips typing the inputs above the bounds (on a build without them,
  // they would start the very runs the bounds refuse).
  const refusals = process.env.LIMITS_REFUSALS !== '0';
  // LIMITS_CASES=0 only types the inputs above the bounds (what is refused, and how).
  const cases = process.env.LIMITS_CASES !== '0';

  // L1: the NOTIFY burst (§5), its largest count, while the listening session is busy.
  if (labs.includes('L1')) {
    const page = await openLab('jobs', '[aria-busy="false"] #burst-send:not([disabled])');
    if (cases) await burst(page, 'L1', 'NOTIFY burst of 10,000', ['#burst-count', '10000'], '.jobs-lab', '#burst-send');
    if (refusals) refusedAt.L1 = await refusal(page, [['#burst-count', '10001']], '#burst-send', '#err-burst');
    await page.close();
  }

  // L2: 64 workers × 200,000 jobs, each strategy, in one page (the simulator runs in L2's
  // simulator worker; no PostgreSQL).
  if (labs.includes('L2')) {
    const page = await workersPage(server, browser, labPage);
    const strategies = await page.$$eval('#w-strategy option', (os) => os.map((o) => o.value).filter((v) => v !== 'all'));
    for (const strategy of cases ? strategies : []) {
      await chooseRun(page, strategy, '64', '200000');
      await armRunDone(page);
      const t0 = Date.now();
      await page.click('#w-run');
      const done = await page
        .waitForFunction(
          (s) => window.__runDone && !/** @type {HTMLButtonElement} */ (document.querySelector('#w-run')).disabled && document.querySelector(`#w-results td[data-strategy="${s}"]`),
          strategy,
          { timeout: 600000 },
        )
        .then(() => true)
        .catch(() => false);
      await record('L2', `64 workers × 200,000 jobs, ${strategy}`, Date.now() - t0, page, done);
    }
    if (refusals) refusedAt.L2 = [
      await refusal(page, [['#w-workers', '65'], ['#w-jobs', '200000']], '#w-run', '#w-workers-err'),
      await refusal(page, [['#w-workers', '64'], ['#w-jobs', '200001']], '#w-run', '#w-jobs-err'),
    ];
    await page.close();
  }

  // L3: the largest run the inputs accept: 50,000 jobs × 5 rounds × all five tables, with
  // the claim batch given (LIMITS_L3, e.g. "50000x5x5000,50000x5x500": jobs x rounds x batch).
  const l3Cases = labs.includes('L3') && cases ? (process.env.LIMITS_L3 || L3_LARGEST).split(',').map((c) => c.split('x')) : [];
  for (const [jobs, rounds, batch] of l3Cases) {
    const page = await openLab('vacuum', '[aria-busy="false"] #vacuum-run:not([disabled])');
    await page.fill('#vacuum-jobs', jobs);
    await page.fill('#vacuum-rounds', rounds);
    await page.fill('#vacuum-batch', batch);
    await page.setChecked('#vacuum-include-dv', true);
    const t0 = Date.now();
    await page.click('#vacuum-run');
    const done = await page.waitForSelector('#vacuum-notice', { timeout: CASE_TIMEOUT }).then(() => true).catch(() => false);
    const g = (x) => Number(x).toLocaleString('en-US');
    await record('L3', `${g(jobs)} jobs × ${rounds} rounds × 5 tables, claim batch ${g(batch)}`, Date.now() - t0, page, done);
    if (!done) await page.click('#vacuum-cancel').catch(() => {});
    await page.close();
  }
  if (labs.includes('L3') && refusals) {
    const page = await openLab('vacuum', '[aria-busy="false"] #vacuum-run:not([disabled])');
    refusedAt.L3 = [
      await refusal(page, [['#vacuum-jobs', '50001']], '#vacuum-run', '#vacuum-input-error'),
      await refusal(page, [['#vacuum-jobs', '50000'], ['#vacuum-rounds', '5'], ['#vacuum-batch', '5000']], '#vacuum-run', '#vacuum-input-error'),
      await refusal(page, [['#vacuum-jobs', '50000'], ['#vacuum-rounds', '1'], ['#vacuum-batch', '1']], '#vacuum-run', '#vacuum-input-error'),
    ];
    await page.close();
  }

  // L4: its largest burst, then the side by side at its heaviest accepted (the most events
  // and rounds, the smallest page RUN_PAGES_MAX allows: the most receives and claims), with
  // the long transaction.
  if (labs.includes('L4')) {
    const page = await openLab('pgq', '[aria-busy="false"] #send-burst:not([disabled])');
    if (cases) await burst(page, 'L4', 'burst of 5,000 events', ['#burst-n', '5000'], '.pgq-lab', '#send-burst');
    const before = await page.$$eval('.field-error', (es) => es.length);
    await page.fill('#burst-n', '5001');
    await page.click('#send-burst');
    await page.waitForFunction((n) => document.querySelectorAll('.field-error').length > n, before, { timeout: 10000 }).catch(() => {});
    if (refusals) refusedAt.L4 = [(await page.$$eval('.field-error', (es) => es.map((e) => e.textContent.trim()))).pop() ?? null];
    await page.close();
  }
  const l4 = L4_LARGEST;
  const l4Page = process.env.LIMITS_L4_PAGE || String(l4.page);
  if (labs.includes('L4')) {
    const cmp = '[data-testid=pgq-compare]';
    const button = '[data-testid=pgq-compare-run]';
    const page = await openLab('pgq', `[aria-busy="false"] ${button}:not([disabled])`);
    if (cases) {
      await page.fill('[data-testid=pgq-compare-n]', String(l4.events));
      await page.fill('[data-testid=pgq-compare-rounds]', String(l4.rounds));
      await page.fill('[data-testid=pgq-compare-page]', l4Page);
      await page.setChecked('[data-testid=pgq-compare-pin]', true);
      const t0 = Date.now();
      await page.click(button);
      await page.waitForSelector(`${cmp}[data-state="running"]`, { state: 'attached', timeout: 30000 });
      const done = await page
        .waitForSelector(`${cmp}[data-state="done"]`, { state: 'attached', timeout: CASE_TIMEOUT })
        .then(() => true)
        .catch(() => false);
      const g = (x) => Number(x).toLocaleString('en-US');
      await record('L4', `side by side, ${g(l4.events)} events × ${l4.rounds} rounds, page ${g(l4Page)}, long transaction`, Date.now() - t0, page, done);
      if (!done) {
        await page.click('#pgq-compare-cancel').catch(() => {});
        await page.waitForSelector(`[aria-busy="false"] ${button}:not([disabled])`, { timeout: 600000 });
    }
    }
    if (refusals) {
      (refusedAt.L4 ??= []).push(
        await refusal(page, [['[data-testid=pgq-compare-n]', '20001']], button, '#pgq-compare-panel .field-error'),
        await refusal(page, [['[data-testid=pgq-compare-n]', '20000'], ['[data-testid=pgq-compare-rounds]', '5'], ['[data-testid=pgq-compare-page]', '10']], button, '#pgq-compare-panel .field-error'),
      );
    }
    await page.close();
  }
  for (const [lab, text] of Object.entries(refusedAt)) {
    for (const t of [text].flat()) {
      if (t == null) notes.push(`limits: ${lab}: an input above its bound was not refused with a message`);
    }
  }
  const m = (x) => (x == null ? '–' : fmt(x, 'MB'));
  limitsTable.push(
    `PGlite's WebAssembly memory: ${pgliteLimit ? `${fmt(pgliteLimit.initialMB, 'MB')} at start, at most ${fmt(pgliteLimit.maximumMB, 'MB')}` : 'limit not found'}.`,
    '',
    "| lab | largest inputs | time | app WebAssembly | PGlite WebAssembly | PGlite's files | page JS heap |",
    '|---|---|---|---|---|---|---|',
    ...limits.map((c) => `| ${c.lab} | ${c.inputs} | ${c.done ? fmt(c.ms / 1000, 's') : `over ${fmt(c.ms / 1000, 's')} (not finished)`} | ${m(c.appWasmMB)} | ${m(c.pgliteMB)} | ${m(c.pgliteFilesMB)} | ${m(c.jsHeapMB)} |`),
    '',
    '| lab | refused (English message) |',
    '|---|---|',
    ...Object.entries(refusedAt).flatMap(([lab, t]) => [t].flat().map((x) => `| ${lab} | ${x ?? 'NOT REFUSED'} |`)),
  );
}
