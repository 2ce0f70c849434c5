// Only the language in use: the .wasm has the English texts compiled in; the Korean ones are
// dist/i18n/ko.tsv (scripts/language-file.mjs), fetched by a page in Korean before the app
// mounts, or by a switch to Korean, which switches only once they are there. A failed fetch
// says what failed, with a Retry, and the page stays usable in English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, startPostgres, useSite } from './harness.mjs';
import { catalog } from '../../scripts/first-screen.mjs';
import { languageFile, koreanUrl, features } from '../../scripts/language-file.mjs';

const site = useSite();
const TEXT = catalog();
// The address the page asks by: the file and a hash of its bytes (a new site, a new address).
const KO_URL = koreanUrl(languageFile(2, features()));
const KOREAN_FILE = (url) => url.pathname.endsWith('/i18n/ko.tsv');

/** The requests for the Korean file `page` makes, as they are made. */
function koreanRequests(page) {
  const seen = [];
  page.on('request', (r) => {
    if (/\/i18n\/ko\.tsv$/.test(new URL(r.url()).pathname)) seen.push(r.url());
  });
  return seen;
}

/** What the app's header, heading and document say now. */
function shown(page) {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    brand: document.querySelector('#main') && document.querySelector('.site-header .brand')?.textContent,
    h1: document.querySelector('#main h1')?.textContent,
  }));
}

async function jobsIdle(page) {
  await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('#enqueue'))?.disabled && document.querySelector('.jobs-lab')?.getAttribute('aria-busy') === 'false', null, { timeout: 60_000 });
}

test('a page opened in Korean asks for the Korean file once, while the .wasm downloads, and shows Korean; an English page never asks', async () => {
  const page = await newPage(site.browser);
  const asked = koreanRequests(page);
  await page.goto(site.server.url + '?lang=ko#/jobs');
  await page.waitForSelector('#main');
  const s = await shown(page);
  assert.deepEqual(s, { lang: 'ko', brand: TEXT['shell.title'].ko, h1: TEXT['lab.jobs.title'].ko });
  assert.equal(await page.textContent('.site-header nav a.current'), TEXT['lab.jobs.short'].ko);
  assert.deepEqual(asked, [site.server.url + KO_URL], 'one request: the app takes over the first screen\'s');
  // The browser's own clock (resource timing): when the Korean file was asked for, and when
  // the app's code had arrived: its main .wasm and, in the release split by lab, the lab's
  // modules (scripts/split-release.mjs), which the app fetches before it mounts too.
  const t = await page.evaluate(() => {
    const all = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource'));
    const ko = all.find((e) => new URL(e.name).pathname.endsWith('/i18n/ko.tsv'));
    const wasm = all.filter((e) => /(_bg|\/(split|chunk)_[^/]+)\.wasm$/.test(e.name) && !/sim-worker/.test(e.name));
    return { ko: ko ? ko.startTime : null, wasmEnd: wasm.length ? Math.max(...wasm.map((e) => e.responseEnd)) : null };
  });
  assert.ok(t.ko !== null && t.wasmEnd !== null && t.ko < t.wasmEnd, `asked for before the .wasm had arrived: ${JSON.stringify(t)}`);
  await shot(page, 'lang-open-ko');

  const english = await newPage(site.browser);
  const none = koreanRequests(english);
  await english.goto(site.server.url + '?lang=en#/jobs');
  await english.waitForSelector('#main');
  assert.equal((await shown(english)).h1, TEXT['lab.jobs.title'].en);
  await english.waitForTimeout(500);
  assert.deepEqual(none, [], 'an English page does not fetch the Korean texts');
});

test('a switch to Korean waits, busy, for the Korean file and then shows Korean, with no English or key in between, and the header keeps its size', async () => {
  // A phone's width, where the header is tightest.
  const page = await newPage(site.browser, { width: 390, height: 800 });
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route(KOREAN_FILE, async (route) => { await held; await route.continue(); });
  await page.goto(site.server.url + '?lang=en#/');
  await page.waitForSelector('#main');
  // Every state the page passes through: its language with the header's and heading's texts.
  await page.evaluate(() => {
    window.__states = [];
    const note = () => {
      const s = [document.documentElement.lang, document.querySelector('.site-header .brand')?.textContent, document.querySelector('#main h1')?.textContent];
      const last = window.__states[window.__states.length - 1];
      if (!last || last.join('|') !== s.join('|')) window.__states.push(s);
    };
    note();
    new MutationObserver(note).observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const header = async () => (await page.locator('.site-header').boundingBox()).height;
  const before = await header();
  await page.click('button.lang[lang="ko"]');
  await page.waitForSelector('.lang-switch[aria-busy="true"]');
  assert.equal(await page.textContent('#lang-loading'), TEXT['shell.lang_loading'].en, 'the switch says it is fetching');
  assert.ok(await page.isVisible('#lang-loading'));
  assert.equal(await header(), before, 'the busy line does not move the page');
  assert.equal(await page.getAttribute('button.lang[lang="ko"]', 'aria-pressed'), 'false', 'not switched before the texts are there');
  assert.equal((await shown(page)).lang, 'en');
  await shot(page, 'lang-switch-busy');
  release();
  await page.waitForFunction(() => document.documentElement.lang === 'ko');
  await page.waitForSelector('.lang-switch[aria-busy="false"]');
  const states = await page.evaluate(() => window.__states);
  const en = ['en', TEXT['shell.title'].en, TEXT['shell.title'].en];
  const ko = ['ko', TEXT['shell.title'].ko, TEXT['shell.title'].ko];
  assert.deepEqual(states, [en, ko], 'English, then Korean, and nothing else');
  assert.equal(await page.textContent('#lang-loading'), '');
});

test('a failed fetch of the Korean file names the address and the status, keeps the lab in English, and Retry switches', async () => {
  const page = await newPage(site.browser);
  let answer = (route) => route.fulfill({ status: 404, body: 'not here' });
  await page.route(KOREAN_FILE, (route) => answer(route));
  await page.goto(site.server.url + '?lang=en#/jobs');
  await startPostgres(page);
  await page.waitForSelector('#jobs-table');
  await jobsIdle(page);
  await page.click('#enqueue');
  await jobsIdle(page);
  const jobs = await page.locator('#jobs-table tbody tr').allTextContents();
  assert.equal(jobs.length, 1);
  const url = site.server.url + KO_URL;

  await page.click('button.lang[lang="ko"]');
  await page.waitForSelector('#lang-failed');
  let failed = await page.textContent('#lang-failed');
  assert.ok(failed.includes(url), failed);
  assert.match(failed, /HTTP 404/);
  assert.match(failed, /could not be loaded/, 'said in the language shown now');
  assert.equal((await shown(page)).lang, 'en');
  await shot(page, 'lang-failed-404');

  // Offline: no answer at all.
  answer = (route) => route.abort('internetdisconnected');
  await page.click('#lang-retry');
  await page.waitForFunction(() => /no answer/.test(document.querySelector('#lang-failed')?.textContent ?? ''));
  // A file that is not the catalog (a server's error page with status 200).
  answer = (route) => route.fulfill({ status: 200, body: '<!doctype html><p>oops</p>' });
  await page.click('#lang-retry');
  await page.waitForFunction(() => /broken at line 1/.test(document.querySelector('#lang-failed')?.textContent ?? ''));
  failed = await page.textContent('#lang-failed');
  assert.ok(failed.includes(url), failed);

  // The page stays usable in English: the lab still acts.
  await jobsIdle(page);
  await page.click('#enqueue');
  await jobsIdle(page);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 2);

  await page.unroute(KOREAN_FILE);
  await page.click('#lang-retry');
  await page.waitForFunction(() => document.documentElement.lang === 'ko');
  assert.equal(await page.locator('#lang-failed').count(), 0);
  assert.equal((await shown(page)).h1, TEXT['lab.jobs.title'].ko);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 2, 'the lab state is kept');
  assert.equal(new URL(page.url()).hash, '#/jobs');
});

test('a page opened in Korean whose Korean file fails mounts in English with what failed, keeps the asked language, and Retry switches', async () => {
  const page = await newPage(site.browser);
  await page.route(KOREAN_FILE, (route) => route.fulfill({ status: 503, body: 'busy' }));
  await page.goto(site.server.url + '?lang=ko#/jobs');
  await page.waitForSelector('#main');
  await page.waitForSelector('#lang-failed');
  const failed = await page.textContent('#lang-failed');
  assert.ok(failed.includes(site.server.url + KO_URL), failed);
  assert.match(failed, /HTTP 503/);
  assert.deepEqual(await shown(page), { lang: 'en', brand: TEXT['shell.title'].en, h1: TEXT['lab.jobs.title'].en });
  assert.equal(new URL(page.url()).searchParams.get('lang'), 'ko', 'the address keeps the language asked for');
  await shot(page, 'lang-failed-at-start');
  await startPostgres(page);
  await page.waitForSelector('#jobs-table');
  await jobsIdle(page);
  await page.click('#enqueue');
  await jobsIdle(page);
  // A share link gives the language the page shows, not the one the address asked for and
  // could not load: whoever opens it sees the page the learner saw.
  const shareLang = () => page.evaluate(() => new URL(/** @type {HTMLInputElement} */ (document.querySelector('#share-url')).value).searchParams.get('lang'));
  assert.equal(await shareLang(), 'en', 'the share link gives the language shown');

  await page.unroute(KOREAN_FILE);
  await page.click('#lang-retry');
  await page.waitForFunction(() => document.documentElement.lang === 'ko');
  assert.equal((await shown(page)).h1, TEXT['lab.jobs.title'].ko);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 1, 'the lab state is kept');
  assert.equal(await shareLang(), 'ko', 'once Korean shows, the share link gives Korean');
});
