// The release split by lab (scripts/split-release.mjs, src/descriptor.rs `Page`): the app's main
// module carries no lab; a lab's page fetches its own module; a module that fails to arrive
// is said on the lab's page, with a Retry, and the rest of the app keeps working. Saving and
// opening a lab's file (src/ui/keep.rs) are modules of their own, fetched on the first click.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { DIST, newPage, shot, simulated, startPostgres, useSite } from './harness.mjs';
import { catalog, labs } from '../../scripts/first-screen.mjs';

const site = useSite();
const TEXT = catalog();

/** The lab modules of the build, by file name (`split_<View>-<hash>.wasm`). */
const modules = () => fs.readdirSync(DIST).filter((f) => /^split_\w+Lab-[0-9a-f]+\.wasm$/.test(f));
/** The module that saves and opens a lab's file (`split_Keep-<hash>.wasm`). */
const KEEP_MODULE = /\/split_Keep-[0-9a-f]+\.wasm$/;

test('the release has a module of its own for every lab, and the main module loads none of them on the home page', async () => {
  assert.equal(modules().length, labs().length, `one module per lab: ${modules().join(', ')}`);
  assert.equal(fs.readdirSync(DIST).filter((f) => KEEP_MODULE.test(`/${f}`)).length, 1, 'one module saves and opens files');
  const page = await newPage(site.browser);
  const fetched = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (/^(split_|chunk_)/.test(name)) fetched.push(name);
  });
  await page.goto(site.server.url + '?lang=en#/');
  await page.waitForSelector('main .cards', { timeout: 60_000 });
  await page.waitForTimeout(500);
  assert.deepEqual(fetched, [], 'the home page fetches no lab module');
  // A lab opened from the header fetches its module, and its page replaces the home page.
  await page.click('.site-header nav a[href="#/workers"]');
  await page.waitForSelector('section.workers-lab', { timeout: 60_000 });
  assert.ok(fetched.some((f) => f.startsWith('split_WorkersLab-')), `L2's module fetched: ${fetched.join(', ')}`);
});

test('a lab whose module fails to arrive says so with a Retry, the app keeps working, and Retry brings the lab', async () => {
  const page = await newPage(site.browser);
  // The console error is the loader's own report of the blocked download (its details).
  const blocked = '**/split_WorkersLab-*.wasm';
  await page.route(blocked, (route) => route.abort('failed'));
  await page.goto(site.server.url + '?lang=en#/');
  await page.click('.site-header nav a[href="#/workers"]');
  await page.waitForSelector('#lab-fetch-failed', { timeout: 60_000 });
  assert.equal(await page.textContent('#lab-fetch-failed .error-text'), TEXT['shell.lab_fetch_failed'].en);
  assert.equal(await page.textContent('main h1'), TEXT['lab.workers.title'].en);
  await shot(page, 'split-lab-fetch-failed');
  // The app still answers: another lab opens, and so does the failed one again, still failing.
  await page.click('.site-header nav a[href="#/leave"]');
  await page.waitForSelector('section.leave', { timeout: 60_000 });
  await page.click('.site-header nav a[href="#/workers"]');
  await page.waitForSelector('#lab-fetch-failed', { timeout: 60_000 });
  // In Korean, the message is Korean.
  await page.click('button.lang[lang="ko"]');
  await page.waitForFunction(
    (text) => document.querySelector('#lab-fetch-failed .error-text')?.textContent === text,
    TEXT['shell.lab_fetch_failed'].ko,
    { timeout: 60_000 },
  );
  await page.click('button.lang[lang="en"]');
  // The network is back: Retry fetches the module, and the lab's page replaces the message.
  await page.unroute(blocked);
  await page.click('#lab-fetch-retry');
  await page.waitForSelector('section.workers-lab', { timeout: 60_000 });
  assert.equal(await page.locator('#lab-fetch-failed').count(), 0);
  // And it works: L2 simulates.
  await simulated(page);
});

test('a lab page opened by its address keeps the first screen until its module has come, then shows the lab itself', async () => {
  const page = await newPage(site.browser);
  // Whether a "downloading" line ever showed, from the first paint on.
  await page.addInitScript(() => {
    window.__fetchingSeen = false;
    new MutationObserver(() => {
      if (document.querySelector('.lab-fetching')) window.__fetchingSeen = true;
    }).observe(document, { childList: true, subtree: true });
  });
  // L4's module is held back until the test lets it go.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/split_PgqLab-*.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(site.server.url + '?lang=en#/pgq');
  // The main module has come and started (it asked for L4's module), yet the first screen stays.
  await page.waitForFunction(() => performance.getEntriesByType('resource')
    .some((e) => /queue-lab-[0-9a-f]+_bg\.wasm$/.test(e.name)), null, { timeout: 60_000 });
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('#first-screen').count(), 1, 'the first screen stays while the lab\'s module is on its way');
  release();
  await page.waitForFunction(() => !document.getElementById('first-screen'), null, { timeout: 60_000 });
  assert.equal(await page.locator('section.pgq-lab').count(), 1);
  assert.equal(await page.evaluate(() => window.__fetchingSeen), false, 'no "downloading" line between the first screen and the lab');
});

test('saving a lab or a download for a server fetches its code on the first click; when that code fails to arrive each says so, and the next click works', async () => {
  const page = await newPage(site.browser);
  const fetched = [];
  page.on('request', (r) => { if (KEEP_MODULE.test(new URL(r.url()).pathname)) fetched.push(r.url()); });
  await page.route(KEEP_MODULE, (route) => route.abort('failed'));
  await page.goto(site.server.url + '?lang=en#/jobs');
  await startPostgres(page);
  await page.waitForSelector('#jobs-table', { timeout: 120_000 });
  await page.waitForSelector('#keep-save:not([disabled])');
  assert.deepEqual(fetched, [], 'L1 and PostgreSQL ready, and no code for saving fetched yet');
  await page.click('#keep-save');
  await page.waitForFunction(
    (text) => document.querySelector('#keep-note')?.textContent === text,
    TEXT['keep.err.fetch'].en,
    { timeout: 60_000 },
  );
  assert.ok(fetched.length > 0, 'the click asked for the code');
  assert.equal(await page.locator('#keep-note').getAttribute('role'), 'alert');
  await shot(page, 'split-keep-fetch-failed');
  // "Download as SQL" makes its text with the same code: it says so too, and stays usable.
  await page.click('#export-sql');
  await page.waitForFunction(
    (text) => document.querySelector('#export-note')?.textContent === text,
    TEXT['export.err.fetch'].en,
    { timeout: 60_000 },
  );
  assert.equal(await page.locator('#export-sql').isDisabled(), false, 'the button works again');
  assert.equal(await page.locator('section.jobs-lab').count(), 1, 'the lab is still on the page');
  await page.unroute(KEEP_MODULE);
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.click('#keep-save')]);
  assert.match(download.suggestedFilename(), /^queue-lab-jobs-\d{4}-\d\d-\d\d\.qlab$/);
  await page.waitForFunction(() => /^Saved/.test(document.querySelector('#keep-note')?.textContent ?? ''));
  const [dump] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.click('#export-sql')]);
  assert.equal(dump.suggestedFilename(), 'queue-lab-jobs.sql');
  assert.deepEqual(page.errors, []);
});
