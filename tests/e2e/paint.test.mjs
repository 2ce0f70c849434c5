// The static first screen (scripts/first-screen.mjs, inlined by index.html): what the page
// shows before the app's .wasm arrives, and that the app takes its place without a jump.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, useSite } from './harness.mjs';
import { catalog } from '../../scripts/first-screen.mjs';

const site = useSite();
const TEXT = catalog();
const WASM = '**/*_bg.wasm';

/** Drops the errors a blocked .wasm causes on purpose (the app's loader rejects); any other stays. */
function expectBlocked(page) {
  page.errors = page.errors.filter((e) => !/fetch|wasm|WebAssembly/i.test(e));
}

/** The first screen's (or, once mounted, the app's) header box and first heading with the paragraph under it. */
function screen(page, root) {
  return page.evaluate((root) => {
    const scope = document.querySelector(root);
    if (!scope) return null;
    const header = scope.querySelector('.site-header');
    const box = header && header.getBoundingClientRect();
    const h1 = scope.querySelector('main h1');
    const next = h1 && h1.nextElementSibling;
    return {
      header: box && { x: box.x, y: box.y, width: box.width, height: box.height },
      brand: header && header.querySelector('.brand').textContent,
      current: header && (header.querySelector('nav a.current') || {}).textContent,
      h1: h1 && h1.textContent,
      intro: next && next.tagName === 'P' ? next.textContent : null,
      lang: document.documentElement.lang,
      embed: document.querySelector(root + ' main').classList.contains('embed'),
    };
  }, root);
}

test('with the .wasm blocked, the page shows the header and the asked lab in the asked language', async () => {
  const page = await newPage(site.browser);
  await page.route(WASM, (route) => route.abort('failed'));
  // A stored English choice: the address's lang=ko wins over it, as in the app.
  await page.addInitScript(() => localStorage.setItem('queue-lab-lang', 'en'));
  await page.goto(site.server.url + '?lang=ko#/jobs');
  const s = await screen(page, '#first-screen');
  assert.equal(s.lang, 'ko');
  assert.equal(s.brand, TEXT['shell.title'].ko);
  assert.equal(s.current, TEXT['lab.jobs.short'].ko);
  assert.equal(s.h1, TEXT['lab.jobs.title'].ko);
  assert.equal(s.intro, TEXT['jobs.intro'].ko);
  assert.equal(await page.textContent('#first-screen-starting'), TEXT['shell.starting'].ko);
  await shot(page, 'first-screen-jobs-ko');
  expectBlocked(page);

  // Without lang=, the stored choice; with neither, the browser's language.
  await page.goto(site.server.url + '#/workers');
  assert.equal((await screen(page, '#first-screen')).h1, TEXT['lab.workers.title'].en);
  expectBlocked(page);
  const korean = await site.browser.newContext({ locale: 'ko-KR' });
  const fresh = await korean.newPage();
  await fresh.route(WASM, (route) => route.abort('failed'));
  await fresh.goto(site.server.url + '#/pgq');
  const k = await screen(fresh, '#first-screen');
  assert.deepEqual([k.lang, k.h1, k.intro], ['ko', TEXT['lab.pgq.title'].ko, TEXT['pgq.lead'].ko]);
  await korean.close();
});

test('an embed with the .wasm blocked shows the asked lab with no site header, in dark mode too', async () => {
  const page = await newPage(site.browser, { colorScheme: 'dark' });
  await page.route(WASM, (route) => route.abort('failed'));
  await page.goto(site.server.url + '?lab=leave&lang=en&embed=1#/jobs');
  const s = await screen(page, '#first-screen');
  assert.equal(s.header, null, 'no site header in an embed');
  assert.equal(s.embed, true);
  assert.equal(s.h1, TEXT['lab.leave.title'].en, '?lab= wins over the hash route');
  assert.equal(s.intro, TEXT['leave.ui.lead'].en);
  // The stylesheet's dark colours apply to the static screen (--bg of the dark scheme).
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(21, 23, 26)');
  await shot(page, 'first-screen-embed-dark');
  expectBlocked(page);
});

test('an embed with theme=dark on a light system is dark from the first paint, before the .wasm', async () => {
  const page = await newPage(site.browser, { colorScheme: 'light' });
  await page.route(WASM, (route) => route.abort('failed'));
  await page.goto(site.server.url + '?lab=jobs&lang=en&embed=1&theme=dark');
  await screen(page, '#first-screen');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(21, 23, 26)');
  expectBlocked(page);
});

// Each route's static screen against the app that replaces it: the same header box, heading
// and intro, and the static screen gone.
/** @type {[string, number][]} */
const ROUTES = [
  ['?lang=en#/', 1200],
  ['?lang=ko#/jobs', 1200],
  ['?lang=en#/workers', 1200],
  ['?lang=ko#/vacuum', 1200],
  ['?lang=en#/pgq', 380],
  ['?lang=ko#/leave', 380],
];
for (const [address, width] of ROUTES) {
  test(`the app replaces the first screen of ${address} at ${width} px with no header jump and the same heading`, async () => {
    const page = await newPage(site.browser, { width });
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await page.route(WASM, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(site.server.url + address);
    const before = await screen(page, '#first-screen');
    assert.ok(before && before.h1, 'the first screen is drawn while the .wasm is held back');
    release();
    await page.waitForSelector('#main', { timeout: 120_000 });
    assert.equal(await page.locator('#first-screen').count(), 0, 'the first screen is gone once the app mounts');
    const after = await screen(page, 'body');
    assert.deepEqual(after.header, before.header, 'the header box does not move or resize');
    assert.equal(after.brand, before.brand);
    assert.equal(after.current, before.current);
    assert.equal(after.h1, before.h1);
    if (before.intro !== null) assert.equal(after.intro, before.intro);
    assert.equal(after.lang, before.lang);
    assert.deepEqual(page.errors, []);
  });
}
