// Nothing waits forever, on the release build: a PostgreSQL worker that stops without an error
// is found by the heartbeat and reported with Restart; a lab whose work waits behind the SQL
// console's statement says so; a blocked PGlite download ends in a message and Retry, with no
// page error (the harness fails every test that leaves one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, startPostgres, useSite, clickEach, blockedStart, switchLanguage } from './harness.mjs';

const site = useSite();

async function open(route, lang = 'en') {
  const page = await newPage(site.browser);
  await page.goto(`${site.server.url}?lang=${lang}#/${route}`);
  await startPostgres(page);
  return page;
}

async function jobsIdle(page) {
  await page.waitForSelector('#jobs-table', { timeout: 120_000 });
  await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('#enqueue'))?.disabled && document.querySelector('.jobs-lab')?.getAttribute('aria-busy') === 'false', null, { timeout: 120_000 });
}


test('a worker that closes itself (no error event) is reported as stopped within 10 s of the next action, and after Restart L1 enqueues and claims', async () => {
  const page = await open('jobs');
  await jobsIdle(page);
  await page.click('#enqueue');
  await jobsIdle(page);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 1);

  const closedAt = Date.now();
  await page.evaluate(() => globalThis.queueLabTest.closeWorker());
  await page.waitForTimeout(200);
  const clickedAt = Date.now();
  await page.click('#enqueue');
  await page.waitForSelector('#worker-dead', { timeout: 10_000 });
  const fromClick = Date.now() - clickedAt;
  const fromClose = Date.now() - closedAt;
  console.log(`# self.close() → "PostgreSQL stopped": ${fromClose} ms (${fromClick} ms after the next action)`);
  const said = await page.textContent('#worker-dead');
  assert.match(said, /PostgreSQL stopped/);
  assert.match(said, /stopped answering/, 'the reason is the silence, not a slow statement');
  assert.match(await page.textContent('#worker-dead-lost'), /L1 Job queue/, 'what was lost: L1 had built its tables in it');
  assert.equal(await page.locator('#statement-slow').count(), 0, 'not reported as a slow statement');
  assert.match(await page.textContent('#pg-version'), /^\s*Stopped:/, 'the status line no longer says Running');
  assert.ok(fromClick < 10_000);
  await shot(page, 'liveness-worker-closed-en');
  await switchLanguage(page, 'ko');
  assert.match(await page.textContent('#worker-dead'), /PostgreSQL이 멈췄습니다/);
  assert.match(await page.textContent('#worker-dead-lost'), /L1 작업 큐/);
  await shot(page, 'liveness-worker-closed-ko');
  await switchLanguage(page, 'en');

  await page.click('#restart-postgres');
  await page.waitForSelector('#pg-version', { timeout: 120_000 });
  await page.waitForFunction(() => /^\s*Running:/.test(document.querySelector('#pg-version')?.textContent ?? ''), null, { timeout: 120_000 });
  await jobsIdle(page);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 0, 'a fresh database');
  await clickEach(page, jobsIdle, '#enqueue', '#worker-A [data-act="claim"]');
  assert.equal(await page.locator('#jobs-table tr[data-status="running"]').count(), 1, 'the enqueued job was claimed');
  assert.equal(await page.locator('#worker-dead').count(), 0);
  await page.close();
});

/** On an idle L1 the SQL console runs `select pg_sleep(seconds);`, and 300 ms later Enqueue
 * is clicked (it waits behind the console); returns the time of that click. */
async function enqueueBehindConsoleSleep(page, seconds) {
  await jobsIdle(page);
  await page.fill('#console-input', `select pg_sleep(${seconds});`);
  await page.click('#console-run');
  await page.waitForTimeout(300);
  const clickedAt = Date.now();
  await page.click('#enqueue');
  return clickedAt;
}

test("an L1 action waiting behind the console's pg_sleep names the console's statement within 2 s, ticking, with Cancel", async () => {
  const page = await open('jobs');
  const clickedAt = await enqueueBehindConsoleSleep(page, 20);
  await page.waitForSelector('#lab-waiting', { timeout: 2_000 });
  const shownAfter = Date.now() - clickedAt;
  console.log(`# the waiting note appeared ${shownAfter} ms after the click`);
  const first = await page.textContent('#lab-waiting');
  assert.match(first, /waits for the SQL console's statement/);
  assert.match(first, /select pg_sleep\(20\);/, "the console's statement, named");
  const seconds = (t) => Number(t.match(/\((\d+) s so far\)/)[1]);
  await page.waitForTimeout(2_100);
  const later = await page.textContent('#lab-waiting');
  assert.ok(seconds(later) >= seconds(first) + 2, `the seconds tick: ${seconds(first)} → ${seconds(later)}`);
  assert.equal(await page.locator('#lab-waiting #waiting-cancel').count(), 1, 'Cancel is offered');
  await shot(page, 'liveness-waiting-console-en');
  await switchLanguage(page, 'ko');
  assert.match(await page.textContent('#lab-waiting'), /SQL 콘솔의 문장이 끝나기를 기다리고/);
  await shot(page, 'liveness-waiting-console-ko');
  await switchLanguage(page, 'en');
  // Cancel restarts PostgreSQL (a running statement cannot be interrupted), and L1 works.
  await page.click('#waiting-cancel');
  await page.waitForSelector('#pg-version', { timeout: 120_000 });
  await jobsIdle(page);
  assert.equal(await page.locator('#lab-waiting').count(), 0);
  await page.click('#enqueue');
  await jobsIdle(page);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 1);
  await page.close();
});

test('a console statement that ends lets the waiting action run, and the note goes', async () => {
  const page = await open('jobs');
  await enqueueBehindConsoleSleep(page, 3);
  await page.waitForSelector('#lab-waiting', { timeout: 2_000 });
  await page.waitForSelector('#lab-waiting', { state: 'detached', timeout: 10_000 });
  await jobsIdle(page);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 1, 'the enqueue ran after the console');
  assert.equal(await page.locator('#worker-dead').count(), 0, 'a statement that holds the worker for seconds is not a stopped worker');
  await page.close();
});

test('a blocked pglite.wasm names the file, Retry starts PostgreSQL, and no page error or unhandled rejection is left', async () => {
  const { page, unblock } = await blockedStart(site);
  await page.waitForSelector('#start-error', { timeout: 60_000 });
  assert.match(await page.textContent('#start-error'), /pglite\.wasm/);
  // Whatever was still in flight has settled by now.
  await page.waitForTimeout(1_000);
  assert.deepEqual(page.errors, [], 'no page error after the failure');
  unblock();
  await page.click('#start-retry');
  await page.waitForSelector('#pg-version', { timeout: 120_000 });
  await jobsIdle(page);
  await page.click('#enqueue');
  await jobsIdle(page);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 1);
  assert.deepEqual(page.errors, [], 'no page error after Retry');
  await page.close();
});
