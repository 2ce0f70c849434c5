// The shell on the release build: start, failure and retry, language, embed mode, sub-path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, newPage, shot, startPostgres, useSite, blockedStart, PAGES, switchLanguage } from './harness.mjs';

const site = useSite();

test('home page lists every lab of the build, each card linking to its page', async () => {
  const page = await newPage(site.browser);
  await page.goto(site.server.url + '?lang=en');
  await page.waitForSelector('.cards .card');
  // The five labs, and a test-only lab's too when dist/ was built with its feature.
  const labs = PAGES.filter((p) => p.route).map((p) => p.route);
  assert.ok(labs.length >= 5);
  const links = await page.locator('.cards .card a[href]').evaluateAll((as) => as.map((a) => new URL(a.href).hash));
  assert.deepEqual(links.sort(), [...labs].sort(), 'one card per lab, none twice');
  await shot(page, 'home-en');
  assert.deepEqual(page.errors, []);
});

test('an address with lang= follows the language switch, so a reload keeps the language shown', async () => {
  const page = await newPage(site.browser);
  await page.goto(site.server.url + '?lang=en#/jobs');
  await page.waitForSelector('main#main');
  await switchLanguage(page, 'ko');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('lang') === 'ko');
  assert.match(page.url(), /#\/jobs$/, 'the route stays');
  await page.reload();
  await page.waitForSelector('main#main');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ko');
  assert.deepEqual(page.errors, []);
});

test('Start Postgres downloads PGlite and shows the server version', async () => {
  const page = await newPage(site.browser);
  await page.goto(site.server.url + '?lang=en#/jobs');
  const version = await startPostgres(page);
  assert.match(version, /PostgreSQL 18\./);
  await shot(page, 'jobs-started-en');
  assert.deepEqual(page.errors, []);
});

test('a blocked PGlite download names what failed, and Retry recovers', async () => {
  const { page, unblock } = await blockedStart(site);
  const error = await page.waitForSelector('#start-error', { timeout: 60_000 });
  const text = await error.textContent();
  assert.match(text, /pglite\.wasm/, 'the message names the file that failed');
  await shot(page, 'start-failed-en');
  unblock();
  await page.click('#start-retry');
  await page.waitForSelector('#pg-version', { timeout: 120_000 });
  assert.match(await page.textContent('#pg-version'), /PostgreSQL 18/);
});

test('the language switch changes the labels', async () => {
  const page = await newPage(site.browser);
  await page.goto(site.server.url + '?lang=en#/');
  const en = await page.textContent('.home h1');
  await switchLanguage(page, 'ko');
  const ko = await page.textContent('.home h1');
  assert.notEqual(en, ko);
  assert.equal(ko, '큐 실험실');
  assert.equal(await page.getAttribute('html', 'lang'), 'ko');
  await shot(page, 'home-ko');
  await switchLanguage(page, 'en');
  assert.equal(await page.textContent('.home h1'), en);
});

test('embed mode shows one lab without the site chrome', async () => {
  const page = await newPage(site.browser);
  await page.goto(site.server.url + '?lab=jobs&lang=ko&embed=1');
  await page.waitForSelector('#start-postgres');
  assert.equal(await page.locator('.site-header').count(), 0);
  assert.equal(await page.locator('.site-footer').count(), 0);
  assert.equal(await page.getAttribute('html', 'lang'), 'ko');
  await shot(page, 'embed-jobs-ko');
});

test('the site works from a sub-path and at 360 px', async () => {
  const sub = await serve('/docs/queue-lab/');
  try {
    const page = await newPage(site.browser, { width: 360, height: 740, colorScheme: 'dark' });
    await page.goto(sub.url + '?lang=ko#/jobs');
    const version = await startPostgres(page);
    assert.match(version, /PostgreSQL 18/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `page is ${overflow}px wider than a 360px screen`);
    await shot(page, 'jobs-360-dark-ko');
  } finally {
    sub.close();
  }
});
