// The embedding kit on the release build, served from a sub-path as a docs site would:
// two <queue-lab> embeds on one page each boot their own Postgres (starting one stops the
// other's), each frame follows its lab's height, foreign size messages change nothing, and
// the snippet page writes both snippets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, useSite } from './harness.mjs';

const PREFIX = '/docs/queue-lab/';
const site = useSite(PREFIX);

/** The lab's frame inside `<queue-lab id=…>` (the iframe sits in its open shadow root). */
async function labFrame(page, elementId) {
  const handle = await page.locator(`#${elementId} iframe`).elementHandle({ timeout: 30_000 });
  const frame = await handle.contentFrame();
  assert.ok(frame, `${elementId} has a frame`);
  await frame.waitForLoadState('load');
  return frame;
}

function frameHeight(page, elementId) {
  return page.evaluate((id) => parseFloat(/** @type {HTMLElement & { iframe: HTMLIFrameElement }} */ (document.getElementById(id)).iframe.style.height), elementId);
}

function contentHeight(frame) {
  return frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
}

/** Waits until the frame's height is the lab's content height (the kit's resize). */
async function waitFitted(page, elementId, frame) {
  let last;
  for (let i = 0; i < 60; i++) {
    const [outer, inner] = [await frameHeight(page, elementId), await contentHeight(frame)];
    last = { outer, inner };
    if (Math.abs(outer - inner) <= 1) return outer;
    await page.waitForTimeout(250);
  }
  assert.fail(`${elementId}: frame height ${last.outer} never matched its content ${last.inner}`);
}

test('two embeds on a sub-path page boot in turn, each its own Postgres, and resize to their labs', async () => {
  // Tall enough that neither lazy iframe waits for a scroll.
  const page = await newPage(site.browser, { width: 1000, height: 2600 });
  await page.goto(site.server.url + 'embed/example.html');
  const jobs = await labFrame(page, 'lab-jobs');
  const vacuum = await labFrame(page, 'lab-vacuum');

  for (const [frame, lab, lang] of [[jobs, 'jobs', 'ko'], [vacuum, 'vacuum', 'en']]) {
    const url = new URL(frame.url());
    assert.equal(url.pathname, PREFIX, 'the lab is loaded from the site sub-path');
    assert.equal(url.searchParams.get('lab'), lab);
    assert.equal(url.searchParams.get('lang'), lang);
    assert.equal(url.searchParams.get('embed'), '1');
    await frame.waitForSelector('#start-postgres');
    assert.equal(await frame.locator('.site-header').count(), 0, `${lab}: no site header inside`);
    assert.equal(await frame.locator('.site-footer').count(), 0, `${lab}: no site footer inside`);
    assert.equal(await frame.getAttribute('html', 'lang'), lang);
  }

  // Each frame already took its lab's height (not the height="…" it started with).
  const jobsBefore = await waitFitted(page, 'lab-jobs', jobs);
  const vacuumBefore = await waitFitted(page, 'lab-vacuum', vacuum);
  assert.notEqual(jobsBefore, 640);
  assert.notEqual(vacuumBefore, 720);

  // The jobs lab boots and runs a query in its console, there only.
  await jobs.click('#start-postgres');
  await jobs.waitForSelector('#pg-version', { timeout: 180_000 });
  assert.match(await jobs.textContent('#pg-version'), /PostgreSQL 18/);
  await jobs.fill('#console-input', 'select 1 as one');
  await jobs.click('#console-run');
  await jobs.waitForSelector('#console-summary', { timeout: 60_000 });
  assert.equal(await vacuum.locator('#console-summary').count(), 0, 'the vacuum embed ran nothing');

  // The lab grew, and the frame followed it.
  const jobsAfter = await waitFitted(page, 'lab-jobs', jobs);
  assert.ok(jobsAfter > jobsBefore, `jobs frame grew: ${jobsBefore} → ${jobsAfter}`);

  // The vacuum lab boots its own; the jobs lab's stops and says so.
  await vacuum.click('#start-postgres');
  await vacuum.waitForSelector('#pg-version', { timeout: 180_000 });
  assert.match(await vacuum.textContent('#pg-version'), /PostgreSQL 18/);
  await jobs.waitForSelector('#embed-stopped', { timeout: 30_000 });
  await waitFitted(page, 'lab-jobs', jobs);
  await waitFitted(page, 'lab-vacuum', vacuum);
  await shot(page, 'embed-example');
  assert.deepEqual(page.errors, []);
});

test('size messages from anyone but the lab frame change nothing', async () => {
  const page = await newPage(site.browser, { width: 1000, height: 2600 });
  await page.goto(site.server.url + 'embed/example.html');
  const jobs = await labFrame(page, 'lab-jobs');
  const vacuum = await labFrame(page, 'lab-vacuum');
  await jobs.waitForSelector('#start-postgres');
  await vacuum.waitForSelector('#start-postgres');
  const heights = [await waitFitted(page, 'lab-jobs', jobs), await waitFitted(page, 'lab-vacuum', vacuum)];
  await page.evaluate(() => {
    window.resizes = 0;
    for (const el of document.querySelectorAll('queue-lab')) el.addEventListener('queue-lab:resize', () => window.resizes++);
  });

  // A frame from another origin posts well-formed size messages to the top window.
  await page.route('http://foreign.example/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body:
        '<!doctype html><script>' +
        'for (const h of [333, 50, 5000]) parent.postMessage({ type: "queue-lab:size", height: h }, "*");' +
        'document.title = "posted";</script>',
    }),
  );
  const navigated = page.waitForEvent('framenavigated', {
    predicate: (f) => f.url().startsWith('http://foreign.example/'),
  });
  await page.evaluate(() => {
    const f = document.createElement('iframe');
    f.id = 'foreign';
    f.src = 'http://foreign.example/spoof.html';
    document.body.appendChild(f);
  });
  const foreign = await navigated;
  await foreign.waitForFunction(() => document.title === 'posted');
  // The host page itself (same origin as the labs, but not their frame) tries too.
  await page.evaluate(() => window.postMessage({ type: 'queue-lab:size', height: 333 }, '*'));
  // And a lab frame's own window with a message of the wrong shape.
  await jobs.evaluate(() => parent.postMessage({ type: 'queue-lab:size', height: 'tall' }, '*'));
  await page.waitForTimeout(1_500);

  assert.deepEqual([await frameHeight(page, 'lab-jobs'), await frameHeight(page, 'lab-vacuum')], heights);
  assert.equal(await page.evaluate(() => window.resizes), 0, 'no resize happened');

  // The control: the same message from the lab's own frame is obeyed.
  await jobs.evaluate(() => parent.postMessage({ type: 'queue-lab:size', height: 432 }, '*'));
  await page.waitForFunction(() => window.resizes === 1);
  assert.equal(await frameHeight(page, 'lab-jobs'), 432);
  assert.equal(await frameHeight(page, 'lab-vacuum'), heights[1]);
  assert.deepEqual(page.errors, []);
});

test('the snippet page writes an iframe and a <queue-lab> snippet for the chosen lab and language', async () => {
  const page = await newPage(site.browser, { width: 1000, height: 1800 });
  await page.goto(site.server.url + 'embed/index.html');
  await page.waitForSelector('#labs li');
  assert.equal(await page.locator('#labs li').count(), 5);
  await page.selectOption('#lab', 'leave');
  await page.selectOption('#lang', 'ko');
  await page.fill('#height', '900');
  await page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.getElementById('iframe-code')).value.includes('lab=leave'));

  const element = await page.inputValue('#element-code');
  assert.match(element, /<queue-lab lab="leave" lang="ko" height="900">/);
  assert.match(element, new RegExp(`<script src="http://127\\.0\\.0\\.1:\\d+${PREFIX}embed/queue-lab\\.js" defer>`));
  const iframe = await page.inputValue('#iframe-code');
  assert.match(iframe, /^<iframe src="/);
  assert.match(iframe, new RegExp(`src="http://127\\.0\\.0\\.1:\\d+${PREFIX}\\?lab=leave&amp;lang=ko&amp;embed=1"`));
  assert.match(iframe, /height="900"/);

  // The live preview is the element itself, showing the lab in Korean.
  await page.waitForSelector('#preview queue-lab[lab="leave"][lang="ko"]');
  const handle = await page.locator('#preview queue-lab iframe').elementHandle();
  const frame = await handle.contentFrame();
  await frame.waitForSelector('#leave-recommendation', { timeout: 30_000 });
  assert.equal(await frame.textContent('h1'), 'L5 · Postgres를 떠날 때');
  assert.equal(await frame.locator('.site-header').count(), 0);
  await shot(page, 'embed-snippets');
  assert.deepEqual(page.errors, []);
});
