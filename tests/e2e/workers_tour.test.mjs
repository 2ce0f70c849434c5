// L2's guided tour on the release build: each step sets the simulator's inputs, runs them,
// says what to look at and marks those figures, which show what the text says; a step's
// share link reproduces the same numbers after a reload; `?step=N` (the embedding kit's step
// attribute) opens a step, a step the tour lacks is refused; links never carry embed or step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, useSite, violations, simulated } from './harness.mjs';

const site = useSite();

/** Every cell of a table as { "strategy/metric": number } (the first number it shows). */
async function cells(page, table) {
  return page.$$eval(`#${table} td[data-metric]`, (tds) =>
    Object.fromEntries(
      tds.map((td) => [
        `${td.dataset.strategy}/${td.dataset.metric}`,
        Number(td.textContent.trim().split(/[ /]/)[0].replace(/,/g, '')),
      ]),
    ),
  );
}

/** The cells a step marks, as "table:strategy/metric". */
async function marked(page) {
  return page.$$eval('td.tour-look', (tds) =>
    tds.map((td) => `${td.closest('table').id}:${td.dataset.strategy}/${td.dataset.metric}`).sort(),
  );
}

/** Runs tour step `i` (0-based) by its button and waits for its results. */
async function runStep(page, i) {
  await page.click(`button.tour-run[data-step="${i}"]`);
  await page.waitForSelector('.tour li.current .tour-body');
  await simulated(page);
}

const ALL = ['naive', 'for-update', 'skip-locked-tx', 'skip-locked-lease'];
const ORDERING = ['skip-locked-lease', 'split-queues', 'per-key'];
const at = (table, strategies, metric) => strategies.map((s) => `${table}:${s}/${metric}`);

// What each step marks and what those figures must show (the text says it).
const STEPS = [
  {
    workers: '1',
    marks: [...at('w-results', ALL, 'throughput'), ...at('w-results', ALL, 'inversions')],
    check(r) {
      for (const s of ALL) {
        assert.equal(r[`${s}/inversions`], 0, `${s}: one worker keeps the order`);
        assert.equal(r[`${s}/throughput`], r['naive/throughput'], `${s}: one pace`);
      }
    },
  },
  {
    workers: '4',
    marks: [...at('w-results', ALL, 'dups'), ...at('w-results', ['naive'], 'executions')],
    check(r) {
      assert.ok(r['naive/dups'] > 0, 'naive runs jobs twice');
      assert.ok(r['naive/executions'] > 200, 'more executions than jobs');
      for (const s of ALL.slice(1)) assert.equal(r[`${s}/dups`], 0, s);
    },
    body: /only \(a\) has any/,
  },
  {
    workers: '8',
    marks: [...at('w-results', ['for-update'], 'lock-waits'), ...at('w-results', ['for-update', 'skip-locked-tx'], 'throughput')],
    check(r, first) {
      assert.ok(r['for-update/lock-waits'] > 0);
      assert.ok(r['for-update/throughput'] * 2 < r['skip-locked-tx/throughput']);
      assert.ok(r['for-update/throughput'] <= first['for-update/throughput'] * 1.2, 'no faster than one worker');
    },
  },
  {
    workers: '16',
    marks: [
      ...at('w-results', ['skip-locked-tx', 'skip-locked-lease'], 'mean-tx'),
      ...at('w-results', ['skip-locked-tx', 'skip-locked-lease'], 'longest-tx'),
    ],
    check(r) {
      assert.ok(r['skip-locked-lease/mean-tx'] * 10 < r['skip-locked-tx/mean-tx']);
    },
  },
  {
    workers: '32',
    marks: [
      ...at('w-results', ['skip-locked-lease'], 'throughput'),
      ...at('w-results', ['skip-locked-lease'], 'inversions'),
      ...at('w-ordering', ORDERING, 'key-inversions'),
    ],
    check(r, first, o) {
      assert.ok(r['skip-locked-lease/throughput'] > 4 * first['skip-locked-lease/throughput']);
      assert.ok(r['skip-locked-lease/inversions'] > 0);
      assert.ok(o['skip-locked-lease/key-inversions'] > 0);
      assert.equal(o['split-queues/key-inversions'], 0);
      assert.equal(o['per-key/key-inversions'], 0);
    },
  },
  {
    workers: '16',
    keys: '1',
    marks: [...at('w-ordering', ORDERING, 'key-inversions'), ...at('w-ordering', ORDERING, 'throughput')],
    check(r, first, o) {
      assert.ok(o['skip-locked-lease/key-inversions'] > 0);
      for (const s of ['split-queues', 'per-key']) {
        assert.equal(o[`${s}/key-inversions`], 0, s);
        assert.ok(o[`${s}/throughput`] <= first['skip-locked-lease/throughput'] * 1.2, `${s}: one worker's pace`);
      }
    },
  },
];

test('each tour step sets its inputs, runs, and marks figures that show what it says', async () => {
  const page = await newPage(site.browser);
  await page.goto(site.server.url + '?lang=en#/workers');
  await simulated(page);
  assert.equal(await page.locator('.tour button.tour-run').count(), STEPS.length);
  assert.equal(await page.locator('td.tour-look').count(), 0, 'nothing marked before a step');
  let first;
  for (const [i, step] of STEPS.entries()) {
    await runStep(page, i);
    assert.equal(await page.inputValue('#w-workers'), step.workers, `step ${i + 1}: workers`);
    assert.equal(await page.inputValue('#w-keys'), step.keys ?? '8', `step ${i + 1}: keys`);
    assert.match(page.url(), new RegExp(`[?&]w=${step.workers}&`), `step ${i + 1}: the address carries it`);
    const body = await page.textContent('.tour li.current .tour-body');
    assert.ok(body.includes(`${step.workers} worker`), `step ${i + 1} names its workers: ${body}`);
    if (step.body) assert.match(body, step.body);
    assert.deepEqual(await marked(page), [...step.marks].sort(), `step ${i + 1}: the figures marked`);
    const r = await cells(page, 'w-results');
    const o = await cells(page, 'w-ordering');
    first ??= r;
    step.check(r, first, o);
    if (i === 4) await shot(page, 'workers-tour-5-en');
  }

  // The last step's link: a reload of it gives the same numbers, and carries no step.
  const href = await page.getAttribute('#w-share', 'href');
  assert.doesNotMatch(href, /embed|step=/);
  const results = await cells(page, 'w-results');
  const ordering = await cells(page, 'w-ordering');
  const other = await newPage(site.browser);
  await other.goto(href);
  await simulated(other);
  assert.equal(await other.inputValue('#w-keys'), '1');
  assert.deepEqual(await cells(other, 'w-results'), results);
  assert.deepEqual(await cells(other, 'w-ordering'), ordering);

  // Running one's own inputs closes the step and its marks.
  await page.fill('#w-workers', '3');
  await page.click('#w-run');
  await simulated(page);
  assert.equal(await page.locator('.tour li.current').count(), 0);
  assert.equal(await page.locator('td.tour-look').count(), 0);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(other.errors, []);
});

test('?step=N opens the tour at step N, in an embed too; a step the tour lacks is refused', async () => {
  const page = await newPage(site.browser);
  await page.goto(site.server.url + '?lang=en&embed=1&step=6#/workers');
  await simulated(page);
  await page.waitForSelector('.tour li.current .tour-body');
  assert.match(await page.textContent('.tour li.current'), /One key/);
  assert.equal(await page.inputValue('#w-keys'), '1');
  assert.equal(await page.locator('td.tour-look').count(), 6);
  const href = await page.getAttribute('#w-share', 'href');
  assert.doesNotMatch(href, /embed|step=/, href);

  // The marked cells and the open step pass the accessibility check, light and dark.
  assert.deepEqual(await violations(page), [], 'step 6, light');
  const dark = await newPage(site.browser, { colorScheme: 'dark' });
  await dark.goto(site.server.url + '?lang=ko&step=5#/workers');
  await simulated(dark);
  await dark.waitForSelector('.tour li.current .tour-body');
  assert.deepEqual(await violations(dark), [], 'step 5, dark, Korean');
  assert.deepEqual(dark.errors, []);

  // A reload keeps the inputs the address now carries.
  await page.reload();
  await simulated(page);
  assert.equal(await page.inputValue('#w-keys'), '1');

  const refused = await newPage(site.browser);
  await refused.goto(site.server.url + '?lang=en&step=9#/workers');
  await simulated(refused);
  assert.match(await refused.textContent('#w-step-refused'), /step 9.*1 to 6/);
  assert.equal(await refused.locator('.tour li.current').count(), 0);
  assert.equal(await refused.inputValue('#w-workers'), '4', 'the defaults run');

  // In Korean the step's text reads as Korean.
  const ko = await newPage(site.browser);
  await ko.goto(site.server.url + '?lang=ko&step=2#/workers');
  await simulated(ko);
  const body = await ko.textContent('.tour li.current .tour-body');
  // The number is followed by a counter word, never by a particle (see
  // src/ui/i18n.rs, no_particle_follows_a_name_in_korean, for every text).
  assert.match(body, /워커 4개/);
  await shot(ko, 'workers-tour-2-ko');
  for (const p of [page, refused, ko]) assert.deepEqual(p.errors, []);
});
