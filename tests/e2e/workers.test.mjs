// L2 Many workers on the release build: the simulator notice, the four strategies side by
// side, validation, a shared URL reproducing the run, the timeline, the ordering section (SKIP
// LOCKED and two remedies: throughput and per-key inversions), and the browser timing of 16
// workers × 100,000 jobs (printed, not asserted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, useSite, simulated, switchLanguage } from './harness.mjs';

const site = useSite();

/** Every cell of the results table as { "strategy/metric": text }. */
async function numbers(page) {
  return page.$$eval('#w-results td[data-metric]', (tds) =>
    Object.fromEntries(tds.map((td) => [`${td.dataset.strategy}/${td.dataset.metric}`, td.textContent.trim()])),
  );
}

/** Every cell of the ordering table as { "strategy/metric": text }. */
async function ordering(page) {
  return page.$$eval('#w-ordering td[data-metric]', (tds) =>
    Object.fromEntries(tds.map((td) => [`${td.dataset.strategy}/${td.dataset.metric}`, td.textContent.trim()])),
  );
}

/** A page on L2 in `lang` (from `newPage`'s `options`), once its first simulation is drawn. */
async function openL2(lang = 'en', options) {
  const page = await newPage(site.browser, options);
  await page.goto(site.server.url + `?lang=${lang}#/workers`);
  await simulated(page);
  return page;
}

async function fill(page, id, value) {
  await page.fill(id, String(value));
}

/** Fills every input of a run: workers, jobs, the durations' shape and bounds, latency, seed. */
async function setInputs(page, { workers, jobs, shape, durA, durB, latency, seed }) {
  await fill(page, '#w-workers', workers);
  await fill(page, '#w-jobs', jobs);
  await page.selectOption('#w-shape', shape);
  await fill(page, '#w-dur-a', durA);
  await fill(page, '#w-dur-b', durB);
  await fill(page, '#w-latency', latency);
  await fill(page, '#w-seed', seed);
}

test('the lab says it is a simulator, runs on load, and naive duplicates while SKIP LOCKED does not', async () => {
  const page = await newPage(site.browser);
  await page.goto(site.server.url + '?lang=en#/workers');
  const notice = await page.textContent('#w-sim-notice');
  assert.match(notice, /simulator/i);
  assert.match(notice, /single session/);
  assert.match(notice, /cargo run -p pgcheck --release -- --database-url postgres:\/\//);
  await simulated(page);
  // Ran once on load with the defaults: four columns.
  assert.equal(await page.locator('#w-results thead th').count(), 5);

  await fill(page, '#w-workers', 4);
  await page.click('#w-run');
  await simulated(page);
  const n = await numbers(page);
  const int = (s) => Number(s.replace(/[^0-9]/g, ''));
  assert.ok(int(n['naive/dups']) > 0, `naive duplicates: ${n['naive/dups']}`);
  assert.equal(int(n['skip-locked-tx/dups']), 0);
  assert.equal(int(n['skip-locked-lease/dups']), 0);
  assert.equal(int(n['for-update/dups']), 0);
  assert.ok(int(n['for-update/lock-waits']) > 0, 'FOR UPDATE queues on the head row');
  assert.match(await page.textContent('#w-readings'), /ran more than once/);
  // The article's 65 is quoted as the article's, beside this simulator's own count at its
  // defaults, which at the default inputs is the lease column's inversions.
  const invNote = await page.textContent('#w-inv-note');
  assert.match(invNote, /The article counted 65/);
  const leaseInv = n['skip-locked-lease/inversions'].split('/')[0].trim();
  assert.ok(invNote.includes(`counts ${leaseInv};`), `${invNote} vs lease ${leaseInv}`);
  // The timeline is an SVG with bars.
  assert.ok((await page.locator('#w-timeline rect').count()) > 10);
  await page.selectOption('#w-timeline-for', 'naive');
  assert.ok((await page.locator('#w-timeline rect').count()) > 10);
  await page.selectOption('#w-timeline-for', 'for-update');
  await shot(page, 'workers-en');
  assert.deepEqual(page.errors, []);
});

test('the ordering section: SKIP LOCKED swaps jobs of one key, both remedies keep each key in order', async () => {
  const page = await openL2();
  const int = (s) => Number(s.replace(/[^0-9]/g, ''));
  let o = await ordering(page);
  assert.deepEqual(
    Object.keys(o).filter((k) => k.endsWith('/key-inversions')),
    ['skip-locked-lease/key-inversions', 'split-queues/key-inversions', 'per-key/key-inversions'],
  );
  assert.ok(int(o['skip-locked-lease/key-inversions']) > 0, `lease: ${o['skip-locked-lease/key-inversions']}`);
  assert.equal(int(o['split-queues/key-inversions']), 0);
  assert.equal(int(o['per-key/key-inversions']), 0);
  for (const s of ['skip-locked-lease', 'split-queues', 'per-key']) {
    assert.ok(int(o[`${s}/throughput`]) > 0, `${s} throughput`);
  }
  const reading = await page.textContent('#w-ordering-reading');
  assert.ok(reading.includes(`finished ${o['skip-locked-lease/key-inversions']} pairs`), reading);

  // One key: per-key serialization runs one job at a time, far below SKIP LOCKED's pace.
  await fill(page, '#w-keys', 1);
  await page.click('#w-run');
  await simulated(page);
  assert.match(page.url(), /k=1(&|$)/);
  o = await ordering(page);
  assert.equal(int(o['per-key/key-inversions']), 0);
  assert.ok(
    int(o['per-key/throughput']) * 2 < int(o['skip-locked-lease/throughput']),
    `per-key ${o['per-key/throughput']} vs lease ${o['skip-locked-lease/throughput']} jobs/s over one key`,
  );
  // The link carries the keys: the same ordering numbers come out.
  const other = await newPage(site.browser);
  await other.goto(page.url());
  await simulated(other);
  assert.equal(await other.inputValue('#w-keys'), '1');
  assert.deepEqual(await ordering(other), o);

  await switchLanguage(page, 'ko');
  assert.match(await page.textContent('#w-ordering-panel h2'), /키별 순서/);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(other.errors, []);
});

test('an out-of-range input shows a message next to it and nothing runs', async () => {
  const page = await openL2();
  await fill(page, '#w-workers', 0);
  await page.click('#w-run');
  const msg = await page.waitForSelector('#w-workers-err');
  assert.match(await msg.textContent(), /1 to 64/);
  assert.equal(await page.getAttribute('#w-workers', 'aria-invalid'), 'true');
  assert.equal(await page.locator('#w-results').count(), 0, 'no results after a refused run');
  await switchLanguage(page, 'ko');
  assert.match(await page.textContent('#w-workers-err'), /정수/);
  assert.deepEqual(page.errors, []);
});

test('a shared URL reproduces the same numbers', async () => {
  const page = await openL2();
  await setInputs(page, { workers: 7, jobs: 900, shape: 'long-tail', durA: 5, durB: 400, latency: 2.5, seed: 1234 });
  await page.click('#w-run');
  await simulated(page);
  const first = await numbers(page);
  const url = page.url();
  assert.match(url, /#\/workers\?.*w=7/);
  assert.match(url, /seed=1234/);

  const other = await newPage(site.browser);
  await other.goto(url);
  await simulated(other);
  assert.equal(await other.inputValue('#w-workers'), '7');
  assert.equal(await other.inputValue('#w-shape'), 'long-tail');
  assert.deepEqual(await numbers(other), first);
  assert.deepEqual(other.errors, []);
});

test('Korean, and 360 px wide', async () => {
  const page = await openL2('ko');
  assert.match(await page.textContent('#w-sim-notice'), /시뮬레이터/);
  await shot(page, 'workers-ko');

  const narrow = await openL2('ko', { width: 360, height: 740, colorScheme: 'dark' });
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than a 360px screen`);
  await shot(narrow, 'workers-360-dark-ko');
  assert.deepEqual(narrow.errors, []);
});

test('timing: one simulation of 16 workers × 100,000 jobs in the browser', async () => {
  const page = await openL2();
  const times = {};
  for (const strategy of ['skip-locked-lease', 'skip-locked-tx', 'for-update', 'naive']) {
    await page.selectOption('#w-strategy', strategy);
    await setInputs(page, { workers: 16, jobs: 100000, shape: 'uniform', durA: 5, durB: 15, latency: 1, seed: 42 });
    // The run is over when the Run button, disabled while it runs, is enabled again (two
    // runs may well take the same tenth of a millisecond, so #w-took's figure cannot tell).
    await page.evaluate(() => {
      const run = /** @type {HTMLButtonElement} */ (document.querySelector('#w-run'));
      window.__ranOnce = false;
      new MutationObserver((_, obs) => {
        if (run.disabled) { window.__ranOnce = true; obs.disconnect(); }
      }).observe(run, { attributes: true });
    });
    await page.click('#w-run');
    await page.waitForFunction(
      (s) => {
        const col = document.querySelector(`#w-results td[data-strategy="${s}"]`);
        const run = /** @type {HTMLButtonElement | null} */ (document.querySelector('#w-run'));
        return window.__ranOnce && col && run && !run.disabled;
      },
      strategy,
      { timeout: 120_000 },
    );
    times[strategy] = Number(await page.getAttribute('#w-took', 'data-ms'));
    assert.equal(await page.locator('#w-results thead th').count(), 2);
  }
  for (const [s, ms] of Object.entries(times)) {
    console.log(`L2 simulator in the browser, 16 workers × 100,000 jobs, ${s}: ${ms.toFixed(1)} ms (target ≤ 250 ms)`);
  }
  assert.ok((await page.locator('#w-timeline rect').count()) <= 1_600, 'the chart stays bounded');
  await shot(page, 'workers-big-en');
  assert.deepEqual(page.errors, []);
});

test("(d)'s sentence follows the figures: with (c) and (d) more than 20 % apart it does not say they are the same", async () => {
  for (const lang of ['en', 'ko']) {
    const page = await openL2(lang);
    await page.selectOption('#w-shape', 'fixed');
    await fill(page, '#w-dur-a', 1);
    await fill(page, '#w-latency', 20);
    await page.click('#w-run');
    await simulated(page);
    const n = await numbers(page);
    const tp = (s) => Number(n[`${s}/throughput`].replace(/[^0-9.]/g, ''));
    const [c, d] = [tp('skip-locked-tx'), tp('skip-locked-lease')];
    assert.ok(Math.abs(d - c) > 0.2 * c, `inputs meant to separate (c) ${c} and (d) ${d}`);
    const readings = await page.textContent('#w-readings');
    if (lang === 'en') {
      assert.doesNotMatch(readings, /same throughput/i);
      assert.match(readings, d > c ? /More throughput than \(c\)/ : /Less throughput than \(c\)/);
      assert.match(readings, /more than 10 % apart, the lab's rule of thumb/);
    } else {
      assert.doesNotMatch(readings, /처리량은 \(c\)와 거의 같습니다/);
      assert.match(readings, d > c ? /처리량이 \(c\)보다 많습니다/ : /처리량이 \(c\)보다 적습니다/);
    }
    await shot(page, `workers-lease-vs-tx-${lang}`);
    await page.locator('#w-readings').screenshot({ path: new URL(`./artifacts/workers-readings-${lang}.png`, import.meta.url).pathname });
    assert.deepEqual(page.errors, []);
  }
});
