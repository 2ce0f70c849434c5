// The learner's path on the release build: the labs one after another in one tab on one
// PostgreSQL, leaving a lab while it runs, and the SQL console used in between (an open
// transaction, a dropped clock, a statement that never ends, a worker that dies).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, startPostgres, useSite, clickEach } from './harness.mjs';

const site = useSite();

async function open(route, query = '') {
  const page = await newPage(site.browser);
  await page.goto(`${site.server.url}?lang=en${query}#/${route}`);
  await startPostgres(page);
  return page;
}

/** Goes to another lab in the same tab, as the header's links do. */
async function go(page, route) {
  await page.evaluate((r) => { location.hash = `#/${r}`; }, route);
}

async function jobsIdle(page) {
  await page.waitForSelector('#jobs-table', { timeout: 120_000 });
  await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('#enqueue'))?.disabled && document.querySelector('.jobs-lab')?.getAttribute('aria-busy') === 'false', null, { timeout: 120_000 });
}

async function jobRows(page) {
  return page.locator('#jobs-table tbody tr').count();
}

async function console_(page, sql) {
  await page.fill('#console-input', sql);
  await page.click('#console-run');
  await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('#console-run'))?.disabled, null, { timeout: 60_000 });
}

/** L1 on a new page, idle, after the SQL console has run `sql`. */
async function jobsAfterConsole(sql) {
  const page = await open('jobs');
  await jobsIdle(page);
  await console_(page, sql);
  return page;
}

async function vacuumIdle(page) {
  await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])', { timeout: 120_000 });
}

/** L3's result rows: strategy, round, step, heap pages, live, dead, claim pages. */
async function vacuumRows(page) {
  return page.locator('#vacuum-table tbody tr').evaluateAll((trs) => trs.map((tr) => {
    const n = (sel) => Number(tr.querySelector(sel).textContent.replace(/,/g, ''));
    return {
      strategy: tr.dataset.strategy,
      round: Number(tr.children[1].textContent),
      step: tr.dataset.step,
      heapPages: n('.col-heap-pages'),
      live: n('.col-live'),
      dead: n('.col-dead'),
      claimPages: n('.col-claim-pages'),
    };
  }));
}

async function vacuumRun(page, jobs, rounds) {
  await vacuumIdle(page);
  await page.fill('#vacuum-jobs', String(jobs));
  await page.fill('#vacuum-rounds', String(rounds));
  await page.click('#vacuum-run');
  await page.waitForSelector('#vacuum-notice', { timeout: 300_000 });
  await vacuumIdle(page);
  return vacuumRows(page);
}

function noErrors(page) {
  assert.deepEqual(page.errors, [], 'no page error');
}

/** Clicks `button` (Cancel or Restart), waits for a fresh PostgreSQL, and L1 works on it. */
async function restartsAndWorks(page, button) {
  await page.click(button);
  await page.waitForSelector('#pg-version', { timeout: 120_000 });
  await jobsIdle(page);
  await page.click('#enqueue');
  await jobsIdle(page);
  assert.equal(await jobRows(page), 1);
  noErrors(page);
  await page.close();
}

async function noPanic(page) {
  assert.equal(await page.locator('#app-panic').count(), 0, 'no panic message');
}

test('L1 → L3 → L4 → L1 in one tab: L3 measures its own tables, and L1 is as it was left', async () => {
  const page = await open('jobs');
  await jobsIdle(page);
  await clickEach(page, jobsIdle, ...Array(3).fill('#enqueue'));
  await clickEach(page, jobsIdle, '#worker-A [data-act="claim"]', 'button:has-text("+10 s")');
  const l1Before = await page.locator('#jobs-table tbody').textContent();
  const clockBefore = await page.textContent('#lab-clock');
  assert.equal(await jobRows(page), 3);

  await go(page, 'vacuum');
  const inOneTab = await vacuumRun(page, 2000, 2);

  await go(page, 'pgq');
  await page.waitForSelector('[aria-busy="false"] [data-testid=pgq-compare-run]:not([disabled])', { timeout: 120_000 });
  await page.fill('[data-testid=pgq-compare-n]', '2000');
  await page.click('[data-testid=pgq-compare-run]');
  await page.waitForSelector('[data-testid=pgq-compare][data-state=done]', { timeout: 300_000 });

  await go(page, 'jobs');
  await jobsIdle(page);
  assert.equal(await jobRows(page), 3, "L1's three jobs are still there");
  assert.equal(await page.locator('#jobs-table tbody').textContent(), l1Before, 'the same rows, statuses and leases');
  assert.equal(await page.textContent('#lab-clock'), clockBefore, "L1's clock did not move while the others ran");
  assert.equal(await page.isDisabled('#worker-A [data-act="complete"]'), false, 'worker A still holds its job');
  // And L1 still works on top of that state.
  await page.click('#worker-A [data-act="complete"]');
  await jobsIdle(page);
  assert.equal(await page.locator('#jobs-table tr[data-status="done"]').count(), 1);
  noErrors(page);
  await noPanic(page);
  await shot(page, 'session-l1-after-l3-l4');

  // The same L3 run in a fresh tab, on a fresh database.
  const fresh = await open('vacuum');
  const alone = await vacuumRun(fresh, 2000, 2);
  assert.equal(inOneTab.length, alone.length);
  assert.ok(alone.length >= 6);
  for (let i = 0; i < alone.length; i++) {
    const [a, b] = [inOneTab[i], alone[i]];
    assert.equal(a.strategy, b.strategy);
    assert.equal(a.step, b.step);
    assert.equal(a.live, b.live, `${a.strategy} round ${a.round} ${a.step}: live tuples`);
    assert.equal(a.dead, b.dead, `${a.strategy} round ${a.round} ${a.step}: dead tuples`);
    assert.ok(Math.abs(a.heapPages - b.heapPages) <= Math.max(2, b.heapPages * 0.05), `${a.strategy}: heap pages ${a.heapPages} vs ${b.heapPages}`);
    assert.ok(Math.abs(a.claimPages - b.claimPages) <= Math.max(2, b.claimPages * 0.05), `${a.strategy}: claim pages ${a.claimPages} vs ${b.claimPages}`);
  }
  assert.ok(alone.some((r) => r.dead > 0), 'some strategy leaves dead tuples');
  noErrors(fresh);
  await page.close();
  await fresh.close();
});

test('leaving a lab mid-run cancels it: the next lab works, and coming back says what was cancelled', async () => {
  const page = await open('vacuum');
  // L3's default run (3 × 20,000), left after its first thousand jobs.
  await vacuumIdle(page);
  await page.click('#vacuum-run');
  await page.waitForFunction(() => Number(/** @type {HTMLProgressElement} */ (document.querySelector('#vacuum-progress-bar'))?.value || 0) >= 1000, null, { timeout: 120_000 });
  await go(page, 'jobs');
  await jobsIdle(page);
  await page.click('#enqueue');
  await jobsIdle(page);
  assert.equal(await jobRows(page), 1, 'L1 works while L3 was left mid-run');

  await go(page, 'vacuum');
  await page.waitForSelector('#cancelled-note', { timeout: 60_000 });
  assert.match(await page.textContent('#cancelled-note'), /3 rounds × 20,000 jobs/);
  await shot(page, 'session-vacuum-cancelled');
  await page.click('#cancelled-dismiss');
  // L3 itself still runs: its tables were left consistent.
  const rows = await vacuumRun(page, 1000, 1);
  assert.ok(rows.length > 0);

  // L4's side by side, left while it runs.
  await go(page, 'pgq');
  await page.waitForSelector('[aria-busy="false"] [data-testid=pgq-compare-run]:not([disabled])', { timeout: 120_000 });
  await page.click('[data-testid=pgq-compare-run]');
  await page.waitForSelector('[data-testid=pgq-compare][data-state=running]');
  await page.waitForTimeout(1500);
  await go(page, 'jobs');
  await jobsIdle(page);
  assert.equal(await jobRows(page), 1, "L1's job is still there");
  await go(page, 'pgq');
  await page.waitForSelector('#cancelled-note', { timeout: 60_000 });
  assert.match(await page.textContent('#cancelled-note'), /side-by-side/);
  await page.waitForSelector('[aria-busy="false"] #tick:not([disabled])', { timeout: 60_000 });
  await page.click('#send-one');
  await page.waitForSelector('[aria-busy="false"] #tick:not([disabled])');
  noErrors(page);
  await noPanic(page);
  await page.close();

  // L1's share link replay (600 steps: cut to 500), left half-way.
  const steps = Array.from({ length: 600 }, () => 'o').join('.');
  const replay = await newPage(site.browser);
  await replay.goto(`${site.server.url}?lang=en#/jobs?s=${steps}`);
  await startPostgres(replay);
  await replay.waitForSelector('#replay-cut', { timeout: 60_000 });
  assert.match(await replay.textContent('#replay-cut'), /600 steps.*500/);
  // A replay runs hundreds of steps a second: leave at once.
  await go(replay, 'workers');
  await replay.waitForTimeout(300);
  await go(replay, 'jobs');
  await replay.waitForSelector('#cancelled-note', { timeout: 60_000 });
  assert.match(await replay.textContent('#cancelled-note'), /replaying a shared link \(500 steps\)/);
  await jobsIdle(replay);
  await console_(replay, 'select (select count(*) from orders) as orders, (select count(*) from jobs) as jobs;');
  const [orders, jobs] = (await replay.locator('.console-result tbody td').allTextContents()).map(Number);
  assert.ok(orders < 500, `the replay stopped between steps (${orders} orders)`);
  assert.equal(jobs, orders, 'each replayed order has its job: no step was cut in half');
  noErrors(replay);
  await noPanic(replay);
  await replay.close();
});

test('an open console transaction holds the labs back until ROLLBACK, and nothing a lab did is undone', async () => {
  const page = await jobsAfterConsole('begin;');
  await page.waitForSelector('#console-tx');
  assert.match(await page.textContent('#console-tx'), /transaction is open/);
  assert.match(await page.textContent('#console-tx-here'), /transaction is open/, 'also said under the console');
  await console_(page, "insert into orders (customer, total) values ('console', 1);");
  await page.click('#enqueue');
  await page.waitForTimeout(1500);
  assert.equal(await page.isDisabled('#enqueue'), true, 'the action waits');
  assert.equal(await jobRows(page), 0);
  await shot(page, 'session-console-tx');
  await page.click('#console-tx-rollback');
  await page.waitForSelector('#console-tx', { state: 'detached' });
  await jobsIdle(page);
  assert.equal(await jobRows(page), 1, 'the waiting enqueue ran after the rollback, and stays');
  assert.equal(await page.locator('#orders-table tbody tr').count(), 0, "the console's insert was rolled back");
  // A failed statement inside a transaction is named too.
  await console_(page, 'begin; select 1/0;');
  await page.waitForSelector('#console-tx');
  assert.match(await page.textContent('#console-tx'), /failed/);
  await console_(page, 'rollback;');
  await page.waitForSelector('#console-tx', { state: 'detached' });
  noErrors(page);
  await page.close();
});

test('ROLLBACK ends the console transaction at once, though the lab work it held is long: the note goes while that work runs, not after it', async () => {
  const page = await open('vacuum');
  await vacuumIdle(page);
  await console_(page, 'begin;');
  await page.waitForSelector('#console-tx');
  // L3's last tour step: 20,000 jobs a round, three rounds, in every strategy (many seconds).
  await page.click('button.tour-run[data-step="3"]');
  await page.waitForFunction(() => document.querySelector('.vacuum-lab')?.getAttribute('aria-busy') === 'true');
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#vacuum-notice').count(), 0, 'the run waits while the transaction is open');
  await page.click('#console-tx-rollback');
  // Which comes first: the note gone, or the run's outcome (its last round done)?
  const first = await page.waitForFunction(() => {
    if (!document.querySelector('#console-tx')) return 'the note gone';
    return document.querySelector('#vacuum-notice') ? 'the run done' : null;
  }, null, { timeout: 120_000 }).then((h) => h.jsonValue());
  assert.equal(first, 'the note gone',
    'the page stops saying "a transaction is open" as soon as ROLLBACK ran, while the run it held goes on');
  await vacuumIdle(page);
  assert.ok((await vacuumRows(page)).length > 0, 'the run ran after the ROLLBACK, outside it, and its rows stay');
  noErrors(page);
  await page.close();
});

test('Reset database brings every lab back after the console dropped the clock and the search path', async () => {
  const page = await jobsAfterConsole('drop schema lab cascade; set search_path = public;');
  await page.waitForSelector('#clock-missing');
  await page.click('#reset-database');
  await page.waitForSelector('#clock-missing', { state: 'detached' });
  await jobsIdle(page);
  // L1's tour step 5: the dead worker's job is claimable at +31 s, not +29 s (lab time).
  await page.click('button.tour-run[data-step="4"]');
  await page.waitForSelector('.tour li.current .tour-body');
  await jobsIdle(page);
  assert.equal(await page.textContent('#lab-clock'), '09:00:31');
  assert.match(await page.textContent('#ran-twice'), /A \(attempt 1\), B \(attempt 2\)/);
  await console_(page, 'select now()::text as now;');
  assert.match(await page.textContent('.console-result'), /2026-01-05 09:00:31/);
  await go(page, 'pgq');
  await page.waitForSelector('[aria-busy="false"] #tick:not([disabled])', { timeout: 120_000 });
  await page.click('#send-one');
  await page.waitForSelector('[aria-busy="false"] #tick:not([disabled])');
  await page.click('#tick');
  await page.waitForSelector('[aria-busy="false"] #tick:not([disabled])');
  await page.click('#consumer-billing [data-act="receive"]');
  await page.waitForSelector('#consumer-billing tr[data-msg="1"]', { timeout: 30_000 });
  await go(page, 'vacuum');
  const rows = await vacuumRun(page, 1000, 1);
  assert.ok(rows.some((r) => r.strategy === 'delete' && r.dead > 0));
  noErrors(page);
  await page.close();
});

test('a statement that never ends is offered Cancel, and the labs work again after it', async () => {
  const page = await open('jobs', '&statement_limit=3');
  await jobsIdle(page);
  await page.fill('#console-input', 'select pg_sleep(600);');
  await page.click('#console-run');
  await page.waitForSelector('#statement-slow', { timeout: 30_000 });
  assert.match(await page.textContent('#statement-slow'), /pg_sleep/);
  await shot(page, 'session-statement-slow');
  await restartsAndWorks(page, '#statement-cancel');
});

test('Reset database, and Restart after the worker died, give a fresh lab after a share link, and take it out of the address', async () => {
  const page = await open('jobs');
  await jobsIdle(page);
  await clickEach(page, jobsIdle, ...Array(2).fill('#enqueue'));
  const link = new URL(await page.inputValue('#share-url'), page.url()).toString();
  const openLink = async () => {
    await page.goto('about:blank');
    await page.goto(link);
    await startPostgres(page);
    await jobsIdle(page);
    assert.equal(await jobRows(page), 2, 'the link replays its two enqueues');
  };
  await openLink();
  await page.click('#reset-database');
  await page.waitForFunction(() => document.querySelectorAll('#jobs-table tbody tr').length === 0, null, { timeout: 60_000 })
    .catch(() => assert.fail('after Reset database the lab still shows the share link\'s jobs'));
  assert.doesNotMatch(page.url(), /[?&]s=/, 'the address no longer holds the share text');
  await openLink();
  await page.evaluate(() => globalThis.queueLabTest.killWorker());
  await page.click('#enqueue');
  await page.waitForSelector('#worker-dead', { timeout: 30_000 });
  // After Restart the lab starts fresh: one enqueue gives one job, not the link's two plus one.
  await restartsAndWorks(page, '#restart-postgres');
});

test('a worker that dies after start gives a message with Restart, not a frozen page', async () => {
  const page = await open('jobs');
  await jobsIdle(page);
  await page.evaluate(() => globalThis.queueLabTest.killWorker());
  await page.click('#enqueue');
  await page.waitForSelector('#worker-dead', { timeout: 30_000 });
  assert.match(await page.textContent('#worker-dead'), /stopped/);
  await shot(page, 'session-worker-dead');
  await restartsAndWorks(page, '#restart-postgres');
});
