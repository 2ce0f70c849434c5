// L3 Bloat and VACUUM on the release build: a small run through the UI, the numbers appear,
// VACUUM drops the dead tuples; refusal of out-of-range input and of a run too big for the
// tab; Cancel; Korean at 360 px;
// and the full default run (4 strategies + DELETE + VACUUM × 3 rounds × 20,000 jobs) timed,
// with the longest main-thread stall during it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, startPostgres, watchFrames, longestGap, useSite, fillAndClick } from './harness.mjs';

const site = useSite();

const num = (s) => Number(String(s).replace(/[^0-9-]/g, ''));

/** L3 in `lang` on a new page (`size` as newPage takes it), PostgreSQL started, the lab idle. */
async function openLab(lang, size) {
  const page = await newPage(site.browser, size);
  await page.goto(site.server.url + `?lang=${lang}#/vacuum`);
  await startPostgres(page);
  await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])', { timeout: 60_000 });
  return page;
}

/** The numbers of one column for one strategy's rows, in table order. */
async function column(page, strategy, cls) {
  return page.$$eval(`#vacuum-table tr[data-strategy="${strategy}"] td.${cls}`, (tds) =>
    tds.map((t) => t.textContent),
  ).then((v) => v.map(num));
}

async function runSmall(page, jobs, rounds) {
  await page.fill('#vacuum-jobs', String(jobs));
  await page.fill('#vacuum-rounds', String(rounds));
  await page.click('#vacuum-run');
  await page.waitForSelector('#vacuum-notice', { timeout: 180_000 });
  await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])', { timeout: 60_000 });
}

/** Presses the long transaction's button and waits until it reads `on` (held or released). */
async function longTx(page, on) {
  await page.click('#vacuum-long-tx');
  await page.waitForSelector(`#vacuum-long-tx[aria-pressed="${on}"]`);
}

test('a small run shows the numbers, and VACUUM drops the dead tuples (English)', async () => {
  const page = await openLab('en');

  // Out of range is refused, with the bounds.
  await page.fill('#vacuum-jobs', '99');
  await page.click('#vacuum-run');
  const refusal = await page.textContent('#vacuum-input-error');
  assert.match(refusal, /100 to 50,000/);

  await runSmall(page, 2000, 2);
  const dead = await column(page, 'delete', 'col-dead');
  assert.deepEqual(dead, [4000, 8000], 'DELETE: dead tuples grow round by round');
  const keepDead = await column(page, 'keep', 'col-dead');
  assert.deepEqual(keepDead, [4000, 8000], 'keep rows: the same');
  const rotateDead = await column(page, 'rotate', 'col-dead');
  assert.deepEqual(rotateDead, [4000, 0, 4000, 0], 'rotation: TRUNCATE takes them to 0');
  const partitionDead = await column(page, 'partition', 'col-dead');
  assert.deepEqual(partitionDead, [4000, 0, 4000, 0], 'partitions: DETACH + DROP takes them to 0');
  const partitionPages = await column(page, 'partition', 'col-heap-pages');
  assert.ok(partitionPages[0] > 0 && partitionPages[1] === 0 && partitionPages[3] === 0, `partition pages ${partitionPages}`);
  const partitionClaim = await column(page, 'partition', 'col-claim-pages');
  assert.ok(Math.abs(partitionClaim[2] - partitionClaim[0]) <= 2, `partitions: the claim stays flat ${partitionClaim}`);
  const steps = await page.$$eval('#vacuum-table tr[data-strategy="partition"]', (trs) => trs.map((tr) => tr.dataset.step));
  assert.deepEqual(steps, ['after the round', 'after DETACH + DROP', 'after the round', 'after DETACH + DROP']);
  assert.ok(await page.isVisible('#vacuum-article'), 'ours beside the article');
  assert.equal(await page.locator('.vacuum-chart svg polyline').count(), 15, 'three charts, five lines each');

  await page.click('#vacuum-vacuum');
  await page.waitForSelector('#vacuum-removed', { timeout: 60_000 });
  const after = await column(page, 'delete', 'col-dead');
  assert.equal(after.length, 3);
  assert.equal(after[2], 0, 'VACUUM: no dead tuples left');
  const claim = await column(page, 'delete', 'col-claim-pages');
  assert.ok(claim[1] > 50 && claim[2] <= 5, `the claim reads ${claim[1]} pages, then ${claim[2]}`);
  const keepClaim = await column(page, 'keep', 'col-claim-pages');
  const keepPages = await column(page, 'keep', 'col-heap-pages');
  assert.ok(keepClaim[2] >= keepPages[2], 'keep rows still reads every page after VACUUM');
  assert.match(await page.textContent('#vacuum-removed'), /removed 8,000 of 8,000/);

  // The page map of the selected table (DELETE): empty after VACUUM gave the pages back.
  await page.waitForSelector('#vacuum-page-map-summary');
  await shot(page, 'vacuum-en');
  assert.deepEqual(page.errors, []);
});

test('the long transaction keeps VACUUM from removing anything until it is released', async () => {
  const page = await openLab('en');
  await longTx(page, true);
  await page.uncheck('#vacuum-include-dv');
  await runSmall(page, 1000, 1);
  await page.click('#vacuum-vacuum');
  await page.waitForSelector('#vacuum-removed');
  assert.match(await page.textContent('#vacuum-removed'), /DELETE on completion: VACUUM removed 0 of 2,000/);
  await page.waitForSelector('#vacuum-page-map');
  await shot(page, 'vacuum-long-tx-en');
  await longTx(page, false);
  await page.click('#vacuum-vacuum');
  await page.waitForFunction(() => /removed 2,000 of 2,000/.test(document.querySelector('#vacuum-removed')?.textContent || ''));
  assert.deepEqual(page.errors, []);
});

test('a run bigger than the tab can take is refused up front with the reason; nothing starts', async () => {
  const page = await openLab('en');
  const refused = (re) =>
    page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#vacuum-input-error')?.textContent || ''), re.source, { timeout: 10_000 });
  // 50,000 × 5 rounds: measured at minutes and over a gigabyte of the tab's memory.
  await fillAndClick(page, { '#vacuum-jobs': '50000', '#vacuum-rounds': '5' }, '#vacuum-run');
  await refused(/250,000 jobs a table[^]*at most 100,000/);
  // Batches of 1: 50,000 claims, each reading the whole table.
  await fillAndClick(page, { '#vacuum-rounds': '1', '#vacuum-batch': '1' }, '#vacuum-run');
  await refused(/50,000 claims a table[^]*at least 500/);
  assert.equal(await page.locator('#vacuum-progress-bar').count(), 0, 'no run started');
  assert.deepEqual(page.errors, []);
});

test('Cancel stops a long run between batches and the lab stays usable; plans side by side', async () => {
  const page = await openLab('en');
  await fillAndClick(page, { '#vacuum-jobs': '50000', '#vacuum-rounds': '2' }, '#vacuum-run');
  await page.waitForSelector('#vacuum-cancel');
  await page.waitForFunction(() => Number(/** @type {HTMLProgressElement} */ (document.querySelector('#vacuum-progress-bar'))?.value || 0) >= 1000);
  await page.click('#vacuum-cancel');
  await page.waitForSelector('#vacuum-notice', { timeout: 30_000 });
  assert.match(await page.textContent('#vacuum-notice'), /Cancelled/);
  await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])');

  await page.fill('#vacuum-jobs', '2000');
  await page.click('#vacuum-plan-run');
  await page.waitForSelector('#vacuum-plan-throughput', { timeout: 60_000 });
  assert.match(await page.textContent('#vacuum-plan-indexed .plan-scans'), /jobs_ready/);
  assert.match(await page.textContent('#vacuum-plan-article .plan-scans'), /Seq Scan/);
  await shot(page, 'vacuum-plans-en');
  assert.deepEqual(page.errors, []);
});

test('Korean at 360 px: readable, nothing wider than the screen', async () => {
  const page = await openLab('ko', { width: 360, height: 740 });
  await runSmall(page, 1000, 2);
  await page.click('#vacuum-vacuum');
  await page.waitForSelector('#vacuum-removed');
  assert.match(await page.textContent('#vacuum-removed'), /죽은 행/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than a 360px screen`);
  await shot(page, 'vacuum-360-ko');
  assert.deepEqual(page.errors, []);
});

test('the full default run: 3 rounds × 20,000 jobs, five tables, timed, page never frozen', async () => {
  const page = await openLab('en');
  // Longest gap between animation frames while the run goes on: the main-thread stall.
  await watchFrames(page);
  const started = Date.now();
  await page.click('#vacuum-run');
  await page.waitForSelector('#vacuum-notice', { timeout: 600_000 });
  const seconds = (Date.now() - started) / 1000;
  const stall = await longestGap(page);
  const keepPages = await column(page, 'keep', 'col-claim-pages');
  const article = await page.textContent('#vacuum-article');
  console.log(`full default run: ${seconds.toFixed(1)} s; longest frame gap ${stall.toFixed(0)} ms; keep-rows claim pages ${keepPages.join(', ')}; ${article}`);
  await shot(page, 'vacuum-full-run-en');
  assert.equal(keepPages.length, 3);
  assert.deepEqual(page.errors, []);
});

/** What the learner sees of the lab's state, without timings. */
async function labState(page) {
  return {
    rows: await page.$$eval('#vacuum-table tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 9).map((td) => td.textContent).join(' | ')),
    ),
    removed: await page.textContent('#vacuum-removed').catch(() => null),
    longTx: await page.getAttribute('#vacuum-long-tx', 'aria-pressed'),
    table: await page.inputValue('#vacuum-page-map-table'),
    map: await page.textContent('#vacuum-page-map-summary'),
  };
}

test('a share link reproduces the same state after reload', async () => {
  const page = await openLab('en');
  await longTx(page, true);
  await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])');
  await page.uncheck('#vacuum-include-dv');
  await runSmall(page, 1500, 2);
  await page.selectOption('#vacuum-page-map-table', 'keep');
  await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])');
  await page.click('#vacuum-vacuum');
  await page.waitForSelector('#vacuum-removed');
  await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])');
  const before = await labState(page);
  assert.equal(before.rows.length, 2 * (1 + 1 + 2 + 2) + 4, 'two rounds (rotation has a TRUNCATE line, partitions a DETACH + DROP line), then a VACUUM line a table');
  assert.match(before.removed, /DELETE on completion: VACUUM removed 0 of 6,000/);
  assert.match(before.map, /^vac_keep\.jobs: /);
  const url = await page.inputValue('#share-url');
  assert.match(url, /#\/vacuum\?s=l1;r1500,2,2000,0;skeep;v$/);

  const again = await newPage(site.browser);
  await again.goto(url);
  await startPostgres(again);
  await again.waitForSelector('#vacuum-removed', { timeout: 120_000 });
  await again.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])');
  assert.deepEqual(await labState(again), before);
  assert.equal(await again.inputValue('#vacuum-jobs'), '1500', 'the form shows the run replayed');
  assert.equal(await again.isChecked('#vacuum-include-dv'), false);
  assert.deepEqual([...page.errors, ...again.errors], []);
});

test('?step=3 opens the tour at the pinned horizon, and VACUUM removes nothing', async () => {
  const page = await newPage(site.browser);
  await page.goto(site.server.url + '?lang=en&step=3#/vacuum');
  await startPostgres(page);
  await page.waitForSelector('.tour li.current .tour-body', { timeout: 60_000 });
  await page.waitForSelector('#vacuum-removed', { timeout: 120_000 });
  assert.match(await page.textContent('.tour li.current'), /long transaction/);
  assert.equal(await page.getAttribute('#vacuum-long-tx', 'aria-pressed'), 'true');
  assert.match(await page.textContent('#vacuum-removed'), /DELETE on completion: VACUUM removed 0 of 40,000/);
  assert.doesNotMatch(await page.inputValue('#share-url'), /step=/);
  assert.deepEqual(page.errors, []);
});

/**
 * One round of the default run with the page map scrolled into view (`onScreen`) or left
 * below the fold where a learner who just pressed Run has it; every change of the map's
 * summary, and whether the run was still going on then.
 */
async function mapDuringRun(onScreen) {
  const page = await openLab('en');
  await page.evaluate(() => {
    window.mapChanges = [];
    let last = null;
    new MutationObserver(() => {
      const text = document.querySelector('#vacuum-page-map-summary')?.textContent ?? null;
      if (text !== last) {
        last = text;
        window.mapChanges.push({ text, running: !!document.querySelector('#vacuum-progress-bar') });
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.fill('#vacuum-rounds', '1');
  const below = await page.evaluate(() => document.querySelector('#vacuum-page-map-title').getBoundingClientRect().top > innerHeight);
  if (onScreen) {
    await page.evaluate(() => document.querySelector('#vacuum-page-map-title').scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(200);
    // From script: a mouse click would scroll the button, and the map out of view.
    await page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#vacuum-run')).click());
  } else {
    await page.click('#vacuum-run');
  }
  await page.waitForSelector('#vacuum-notice', { timeout: 180_000 });
  const changes = await page.evaluate(() => window.mapChanges);
  assert.deepEqual(page.errors, []);
  await page.close();
  return { below, changes, during: changes.filter((c) => c.running && /: [0-9,]+ pages \(/.test(c.text || '')) };
}

test('the page map on screen refreshes during a round, not only after it', async () => {
  const { changes, during } = await mapDuringRun(true);
  assert.ok(during.length >= 1, `the map changed while the run went on: ${JSON.stringify(changes)}`);
});

test('the page map off screen is not read during a round, and is current after it', async () => {
  const { below, changes, during } = await mapDuringRun(false);
  assert.ok(below, 'at 1200 × 900 the map starts below the fold');
  assert.equal(during.length, 0, `no read while nobody could see it: ${JSON.stringify(changes)}`);
  assert.match(changes.at(-1)?.text || '', /: [0-9,]+ pages \(/, 'the map is read once the run ends');
});

test('with the long transaction on, the lessons say only what the results show', async () => {
  for (const lang of ['en', 'ko']) {
    const page = await openLab(lang);
    await longTx(page, true);
    await page.uncheck('#vacuum-include-dv');
    await runSmall(page, 1000, 1);
    const lessons = () => page.$$eval('#vacuum-lessons li', (li) => li.map((l) => l.dataset.lesson));
    // Before any VACUUM: only rotation's and partitions' own clean-up.
    assert.deepEqual(await lessons(), ['vacuum.lesson.rotate', 'vacuum.lesson.partition']);
    await page.click('#vacuum-vacuum');
    await page.waitForSelector('#vacuum-removed');
    await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])');
    // VACUUM removed nothing: no word of DELETE's clean table or of keep rows' dead tuples gone.
    const shown = await lessons();
    assert.ok(shown.includes('vacuum.lesson.held'), shown.join());
    assert.ok(!shown.includes('vacuum.lesson.delete') && !shown.includes('vacuum.lesson.keep'), shown.join());
    const held = await page.textContent('#vacuum-lessons li[data-lesson="vacuum.lesson.held"]');
    assert.match(held, lang === 'en' ? /after VACUUM, [\d,]+ of its [\d,]+ dead tuples are still there/ : /VACUUM을 돌린 뒤에도 죽은 행 [\d,]+개 중 [\d,]+개가 그대로 있습니다/);
    await shot(page, `vacuum-lessons-long-tx-${lang}`);
    await page.locator('#vacuum-lessons').screenshot({ path: new URL(`./artifacts/vacuum-lessons-only-long-tx-${lang}.png`, import.meta.url).pathname });
    // Released and VACUUM again: now DELETE's lesson, with its figures.
    await longTx(page, false);
    await page.click('#vacuum-vacuum');
    await page.waitForFunction(() => document.querySelector('#vacuum-lessons li[data-lesson="vacuum.lesson.delete"]'));
    assert.ok(!(await lessons()).includes('vacuum.lesson.held'), 'the latest VACUUM removed them all');
    await shot(page, `vacuum-lessons-released-${lang}`);
    await page.locator('#vacuum-lessons').screenshot({ path: new URL(`./artifacts/vacuum-lessons-only-released-${lang}.png`, import.meta.url).pathname });
    assert.deepEqual(page.errors, []);
  }
});
