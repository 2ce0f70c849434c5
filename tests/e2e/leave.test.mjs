// L5 "When to leave" on the release build: input validation, the three worked cases of §8,
// the URL as shared state, Korean, and 360 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, useSite } from './harness.mjs';

const site = useSite();

async function open(page, query = '', lang = 'en') {
  await page.goto(`${site.server.url}?lang=${lang}#/leave${query ? '?' + query : ''}`);
  await page.waitForSelector('#leave-recommendation');
}

/** What the page currently concludes: the recommendation and each signal's met/not met. */
async function verdict(page) {
  return page.evaluate(() => ({
    rec: /** @type {HTMLElement} */ (document.querySelector('#leave-recommendation'))?.dataset.rec,
    met: Object.fromEntries(
      [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#leave-signals li'))].map((li) => [li.id.replace('signal-', ''), li.dataset.met === 'true']),
    ),
  }));
}

/** Every key's text is on screen: no raw `leave.` key leaked into the page. */
async function assertNoRawKeys(page) {
  const text = await page.evaluate(() => document.body.innerText);
  const raw = text.match(/\b(leave|lab|shell)\.[a-z_]+(\.[a-z_]+)*\b/g) || [];
  assert.deepEqual(raw.filter((k) => !/^leave\.tsv$/.test(k)), [], 'untranslated keys on the page');
}

// Each numeric input with a value past its bounds and the message it must show.
const OUT_OF_RANGE = [
  ['sustained', '-1', /at least 0/],
  ['peak', '2000000', /at most 1,000,000/],
  ['duration', '0', /at least 0\.001/],
  ['fanout', '101', /at most 100/],
  ['fanout', '2.5', /whole number/],
  ['latency', '0.5', /at least 1/],
  ['load', '150', /at most 100/],
  ['peak', '1', /cannot be below the sustained rate/],
  ['sustained', '', /Enter a number/], // a number input cannot hold letters; emptied, it says so
];

test('every advisor input rejects an out-of-range value beside it and keeps the verdict', async () => {
  const page = await newPage(site.browser);
  await open(page);
  const before = await verdict(page);
  const hashBefore = await page.evaluate(() => location.hash);
  assert.equal(before.rec, 'stay');
  for (const [id, bad, message] of OUT_OF_RANGE) {
    const input = page.locator(`#leave-${id}`);
    const good = await input.inputValue();
    await input.fill(bad);
    const error = page.locator(`#leave-${id}-error`);
    await assert.doesNotReject(error.filter({ hasText: message }).waitFor({ timeout: 5_000 }), `${id}=${bad}`);
    assert.equal(await input.getAttribute('aria-invalid'), 'true', `${id} marked invalid`);
    assert.ok(await page.locator('#leave-stale').isVisible(), 'the page says the verdict is stale');
    assert.deepEqual(await verdict(page), before, `${id}=${bad} changes no verdict`);
    assert.equal(await page.evaluate(() => location.hash), hashBefore, 'an invalid input is not written to the URL');
    if (id === 'load' || id === 'duration') await shot(page, `leave-invalid-${id}-en`);
    await input.fill(good);
    await page.waitForFunction((sel) => document.querySelector(sel).textContent === '', `#leave-${id}-error`);
    assert.equal(await input.getAttribute('aria-invalid'), 'false');
  }
  assert.equal(await page.locator('#leave-stale').count(), 0);
  // The yes/no inputs are checkboxes; from a URL they refuse anything but yes or no.
  await open(page, 'replay=maybe&ordering=2&longtx=x');
  for (const id of ['replay', 'ordering', 'longtx']) {
    assert.match(await page.textContent(`#leave-${id}-error`), /Choose yes or no/, id);
  }
  assert.deepEqual(page.errors, []);
});

test('the three worked cases give what §8 says', async () => {
  const page = await newPage(site.browser);
  await open(page);

  await page.click('#case-side');
  let v = await verdict(page);
  assert.equal(v.rec, 'stay', 'a side project stays on one Postgres');
  assert.deepEqual(Object.values(v.met), [false, false, false, false, false, false]);
  assert.equal(await page.inputValue('#leave-sustained'), '5');
  assert.equal(await page.locator('#leave-fixes-none').count(), 1);
  await shot(page, 'leave-side-en');

  await page.click('#case-planetscale');
  await page.waitForFunction(() => /** @type {HTMLElement} */ (document.querySelector('#leave-recommendation')).dataset.rec !== 'stay');
  v = await verdict(page);
  assert.equal(await page.inputValue('#leave-sustained'), '800');
  assert.ok(await page.isChecked('#leave-longtx'));
  // 1,600 dead versions a second: 50 + 0.2 × 960 live rows + 1,600 × 60 wait for a pass.
  assert.equal(v.met.autovacuum, true, 'autovacuum falls behind by PostgreSQL 18\'s formula');
  assert.equal(v.met.long_tx, true, 'the long transaction pins the horizon, a signal of its own');
  assert.equal(v.met.main_db, true);
  assert.equal(v.met.fan_out, false);
  assert.equal(v.rec, 'own_postgres', 'move the queue to its own Postgres first');
  assert.match(await page.textContent('#signal-autovacuum'), /96,242/);
  assert.match(await page.textContent('#signal-long_tx'), /long transaction/);
  assert.match(await page.textContent('#signal-long_tx'), /1,600/);
  const fixes = await page.$$eval('#leave-fixes li', (lis) => lis.map((li) => li.dataset.fix));
  assert.equal(fixes[0], 'leave.fix.end_long_tx', 'end the long transaction first');
  assert.ok(fixes.includes('leave.fix.tune_autovacuum'));
  assert.match(await page.textContent('#dead-made'), /1,600/);
  assert.match(await page.textContent('#dead-default'), /pinned: 0/);
  assert.match(await page.getAttribute('#link-vacuum', 'href'), /^#\/vacuum\?longtx=1$/);
  await shot(page, 'leave-planetscale-en');

  await page.click('#case-teams');
  await page.waitForFunction(() => /** @type {HTMLElement} */ (document.querySelector('#leave-recommendation')).dataset.rec === 'log');
  v = await verdict(page);
  assert.equal(v.met.fan_out, true, 'five teams on the same events is fan-out');
  assert.equal(v.met.autovacuum, false);
  assert.match(await page.textContent('#leave-rec-name'), /Kafka|Redpanda/);
  assert.match(await page.getAttribute('#link-pgq', 'href'), /^#\/pgq\?consumers=5$/);
  assert.match(await page.textContent('#leave-interface'), /enqueue[\s\S]*dequeue[\s\S]*ack[\s\S]*fail/);
  assert.equal(await page.locator('#leave-refs tbody tr').count(), 7);
  assert.equal(await page.locator('#leave-libs tr[data-library="Hatchet"]').count(), 1);
  await shot(page, 'leave-teams-en');
  await assertNoRawKeys(page);
  assert.deepEqual(page.errors, []);
});

test('the autovacuum signal follows PostgreSQL 18\'s formula: short jobs keep up, long jobs raise the trigger past it', async () => {
  const page = await newPage(site.browser);
  // 100 jobs/s of 1 s: 200 live rows, a pass above 50 + 0.2 × 200 = 90, and 200 × 60 = 12,000
  // more in one naptime: 12,090 wait, within 20,000.
  await open(page, 'sustained=100&peak=100&duration=1&longtx=0');
  let v = await verdict(page);
  assert.equal(v.met.autovacuum, false);
  assert.equal(v.met.long_tx, false);
  const summary = () => page.textContent('#leave-dead-summary');
  assert.match(await summary(), /= 90 dead row versions/);
  assert.match(await summary(), /200 × 60 = 12,000/);
  assert.match(await summary(), /90 \+ 12,000 = 12,090/);
  assert.match(await page.textContent('#signal-autovacuum'), /12,090/);
  // 200 jobs/s of 3,599 s: 720,000 live rows, a pass above 50 + 144,000, so 168,050 wait;
  // tuned, 13,250: tune, and stay.
  await open(page, 'sustained=200&peak=200&duration=3599&longtx=0');
  await page.waitForFunction(() => /** @type {HTMLElement} */ (document.querySelector('#signal-autovacuum'))?.dataset.met === 'true');
  v = await verdict(page);
  assert.equal(v.met.autovacuum, true);
  assert.equal(v.met.long_tx, false);
  assert.equal(v.rec, 'stay', 'the tuned settings keep up, so tuning answers it');
  assert.match(await summary(), /= 144,050 dead row versions/);
  assert.match(await summary(), /144,050 \+ 24,000 = 168,050/);
  assert.match(await page.textContent('#signal-autovacuum'), /168,050[\s\S]*13,250/);
  const fixes = await page.$$eval('#leave-fixes li', (lis) => lis.map((li) => li.dataset.fix));
  assert.deepEqual(fixes, ['leave.fix.tune_autovacuum']);
  assert.deepEqual(page.errors, []);
});

test('the inputs live in the URL: a shared link opens the same verdict', async () => {
  const page = await newPage(site.browser);
  await open(page);
  await page.click('#case-planetscale');
  await page.waitForFunction(() => location.hash.includes('sustained=800'));
  const url = page.url();
  assert.match(url, /#\/leave\?sustained=800&peak=1200&duration=0\.2&fanout=1&replay=0&ordering=0&latency=1000&load=85&longtx=1$/);
  const other = await newPage(site.browser);
  await other.goto(url);
  await other.waitForSelector('#leave-recommendation');
  assert.equal((await verdict(other)).rec, 'own_postgres');
  assert.equal(await other.inputValue('#leave-load'), '85');
  // Typing moves the URL too, and the words load=high work in a hand-written link.
  await other.fill('#leave-fanout', '4');
  await other.waitForFunction(() => location.hash.includes('fanout=4'));
  await open(other, 'load=high&sustained=200&peak=200');
  assert.equal(await other.inputValue('#leave-load'), '85');
  assert.match(await other.textContent('#leave-load-band'), /High/);
  assert.equal((await verdict(other)).met.main_db, true);
  // A link into L4 carries the consumers; following it opens L4.
  await other.fill('#leave-fanout', '3');
  await other.waitForSelector('#link-pgq');
  await other.click('#link-pgq');
  await other.waitForFunction(() => location.hash.startsWith('#/pgq?consumers=3'));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(other.errors, []);
});

test('Korean, and readable at 360 px', async () => {
  const page = await newPage(site.browser);
  await open(page, '', 'ko');
  await page.click('#case-planetscale');
  await page.waitForFunction(() => /** @type {HTMLElement} */ (document.querySelector('#leave-recommendation')).dataset.rec === 'own_postgres');
  assert.equal(await page.textContent('h1'), 'L5 · Postgres를 떠날 때');
  assert.match(await page.textContent('#leave-rec-name'), /전용 Postgres/);
  assert.match(await page.textContent('#signal-autovacuum'), /해당/);
  await page.fill('#leave-load', '101');
  await page.waitForSelector('#leave-load-error:has-text("100 이하여야 합니다")');
  await shot(page, 'leave-planetscale-ko');
  await assertNoRawKeys(page);

  const narrow = await newPage(site.browser, { width: 360, height: 740, colorScheme: 'dark' });
  await open(narrow, '', 'ko');
  await narrow.click('#case-teams');
  await narrow.waitForFunction(() => /** @type {HTMLElement} */ (document.querySelector('#leave-recommendation')).dataset.rec === 'log');
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than a 360px screen`);
  await shot(narrow, 'leave-teams-360-dark-ko');
  // No Start panel: this lab needs no Postgres.
  assert.equal(await narrow.locator('#start-postgres').count(), 0);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(narrow.errors, []);
});
