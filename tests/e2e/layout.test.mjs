// A lab you can watch: at 1280 × 800, after an action, what it said, the row it changed and
// the statement it ran are all on screen together, without scrolling; at 360 px the page is
// one column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enabled, newPage, shot, startPostgres, useSite } from './harness.mjs';

const site = useSite();

const VIEW = { width: 1280, height: 800 };

/**
 * What is wrong with how much of `locator`'s element shows: its rectangle cut by every
 * ancestor that clips (scrolling regions) and by the viewport must hold the whole element,
 * or, for a long one (a statement), at least its first `minPx` pixels from the top.
 */
async function hidden(locator, name, minPx = Infinity) {
  const r = await locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    let top = Math.max(box.top, 0);
    let bottom = Math.min(box.bottom, window.innerHeight);
    let left = Math.max(box.left, 0);
    let right = Math.min(box.right, window.innerWidth);
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      top = Math.max(top, c.top);
      bottom = Math.min(bottom, c.bottom);
      left = Math.max(left, c.left);
      right = Math.min(right, c.right);
    }
    return { top: box.top, height: box.height, seenTop: top, seenBottom: bottom, seenWidth: right - left };
  });
  const need = Math.min(r.height, minPx);
  const seen = r.seenBottom - r.seenTop;
  if (r.seenWidth <= 0 || r.seenTop > r.top + 1 || seen + 1 < need) {
    return [`${name}: ${Math.max(0, Math.round(seen))} of ${Math.round(need)} px in view (top ${Math.round(r.top)})`];
  }
  return [];
}

async function idle(page, button) {
  await enabled(page, button, 60_000);
}

/** Once the last outcome matches `said` and the lab is idle again (`button` enabled), and the
 * layout has settled. */
async function settled(page, said, button) {
  await page.waitForFunction((source) => new RegExp(source).test(document.querySelector('#last-outcome')?.textContent ?? ''), said.source);
  await idle(page, button);
  await page.waitForTimeout(300);
}

/** What is not in view of: the last outcome; the first `sqlPx` pixels of the last action's
 * statement that holds `text` (called `name`); and each of `others`, `[locator, name]`. */
async function notInView(page, [text, name, sqlPx], others) {
  const statement = page.locator('#last-sql .log-entry', { hasText: text }).first();
  const problems = [
    ...(await hidden(page.locator('#last-outcome'), 'outcome')),
    ...(await hidden(statement.locator('.sql'), name, sqlPx)),
  ];
  for (const [locator, what] of others) problems.push(...(await hidden(locator, what)));
  return problems;
}

test('L1 at 1280 × 800: after a Claim, the outcome, the claimed row and the claim statement are in view', async () => {
  const page = await newPage(site.browser, VIEW);
  await page.goto(`${site.server.url}?lang=en#/jobs`);
  await startPostgres(page);
  await page.waitForSelector('#jobs-table');
  // Enough jobs that the table is taller than the screen; the oldest is the one claimed.
  for (let i = 0; i < 14; i++) {
    await idle(page, '#enqueue');
    await page.click('#enqueue');
  }
  await idle(page, '#enqueue');
  await page.click('#worker-B button[data-act="claim"]');
  await settled(page, /claimed/, '#enqueue');
  const problems = await notInView(page, ['skip locked', 'claim statement', 80], [
    [page.locator('#jobs-table tr.changed td').first(), 'claimed row'],
    [page.locator('#worker-B button[data-act="claim"]'), 'Claim button'],
  ]);
  await page.screenshot({ path: 'tests/e2e/artifacts/layout-jobs-1280.png' });
  assert.deepEqual(problems, []);
  assert.match(await page.locator('#jobs-table tr.changed').first().textContent(), /running/);
  assert.deepEqual(page.errors, []);
});

test('L1 at 360 px is one column', async () => {
  const page = await newPage(site.browser, { width: 360, height: 740 });
  await page.goto(`${site.server.url}?lang=ko#/jobs`);
  await startPostgres(page);
  await page.waitForSelector('#jobs-table');
  const controls = await page.locator('.lab-controls').boundingBox();
  const watch = await page.locator('.lab-watch').boundingBox();
  assert.ok(Math.abs(controls.x - watch.x) < 2, 'the table sits below the controls, not beside them');
  assert.ok(watch.y >= controls.y + controls.height - 1);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `no sideways scrolling of the page (${width} px)`);
  await shot(page, 'layout-jobs-360-ko');
  assert.deepEqual(page.errors, []);
});

test('L4 at 1280 × 800: after a receive, the outcome, the received events and the receive statement are in view', async () => {
  const page = await newPage(site.browser, VIEW);
  await page.goto(`${site.server.url}?lang=en#/pgq`);
  await startPostgres(page);
  await page.waitForSelector('#consumer-billing');
  for (const button of ['#send-one', '#send-one', '#tick']) {
    await idle(page, '#send-one');
    await page.click(button);
  }
  await idle(page, '#send-one');
  const receive = page.locator('#consumer-billing [data-act="receive"]');
  await receive.click();
  await settled(page, /received batch/, '#send-one');
  const problems = await notInView(page, ['pgque.receive(', 'receive statement', 40], [
    [page.locator('#consumer-billing tr[data-msg] td').first(), 'received event'],
    [receive, 'Receive button'],
  ]);
  await page.screenshot({ path: 'tests/e2e/artifacts/layout-pgq-1280.png' });
  assert.deepEqual(problems, []);
  assert.deepEqual(page.errors, []);
});

test('L4 at 1280 × 800, in both languages: the panel held at the top of the controls (clock and outcome) takes at most a quarter of the screen as the column scrolls under it', async () => {
  for (const lang of ['ko', 'en']) {
    const page = await newPage(site.browser, VIEW);
    await page.goto(`${site.server.url}?lang=${lang}#/pgq`);
    await startPostgres(page);
    await page.waitForSelector('#consumer-billing');
    await idle(page, '#send-one');
    await page.click('#send-one');
    await idle(page, '#send-one');
    // Scrolled to the producers: the held panel is what covers the column's top.
    await page.locator('#producers-title').evaluate((h) => window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 300));
    const held = await page.locator('.pgq-lab .sticky-clock').evaluate((p) => {
      const r = p.getBoundingClientRect();
      return { top: Math.round(r.top), height: Math.round(r.height) };
    });
    assert.ok(held.top <= 1, `${lang}: the panel is held at the top (top ${held.top})`);
    assert.ok(held.height <= VIEW.height / 4, `${lang}: the held panel is ${held.height} px of ${VIEW.height}`);
    // PgQue's schedule is still on the page, below the clock, not held with it.
    assert.equal(await page.locator('.sticky-clock #pgq-schedule').count(), 0);
    assert.equal(await page.locator('#pgq-schedule').count(), 1);
    await page.screenshot({ path: `tests/e2e/artifacts/layout-pgq-held-${lang}.png` });
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
