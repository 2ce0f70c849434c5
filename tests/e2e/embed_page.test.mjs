// Embeds on a docs page (issue #25, item 5): the theme the host page asks for, the way out to
// the full lab in the same state, and three embeds on one page keeping one PostgreSQL running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enabled, newPage, shot, useSite, violations } from './harness.mjs';

const PREFIX = '/docs/queue-lab/';
const site = useSite(PREFIX);

const LIGHT_BG = 'rgb(251, 251, 250)'; // --bg, light (assets/style.css)
const DARK_BG = 'rgb(21, 23, 26)'; // --bg, dark

function background(frame) {
  return frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

async function idle(frame) {
  await enabled(frame, '#enqueue');
}

/** Waits until no <queue-lab> on `page` has changed its height for 700 ms (the labs report
 *  their size every 300 ms). A frame that moves between the pointer's aim and its press
 *  takes no click: an embed above that grows (L1's table after Enqueue) moves the ones below. */
async function layoutSettled(page) {
  await page.evaluate(() => {
    if (window.lastEmbedResize !== undefined) return;
    window.lastEmbedResize = performance.now();
    // The element's resize event does not bubble; a capturing listener still sees it.
    document.addEventListener('queue-lab:resize', () => { window.lastEmbedResize = performance.now(); }, true);
  });
  await page.waitForFunction(() => performance.now() - window.lastEmbedResize > 700, null,
    { timeout: 30_000, polling: 100 });
}

/** Clicks Start in `frame` once the embeds around it have stopped moving, and waits until
 *  its PostgreSQL is running; on a time-out the error says what the start panel showed. */
async function start(frame) {
  if (frame.parentFrame()) await layoutSettled(frame.page());
  await frame.click('#start-postgres');
  try {
    await frame.waitForSelector('#pg-version', { timeout: 240_000 });
  } catch (e) {
    const panel = await frame.locator('.start-panel').textContent().catch(() => '(no panel)');
    throw new Error(`${frame.url()}: PostgreSQL did not start; the panel says: ${panel}\n${e.message}`, { cause: e });
  }
}

/** The frame of `<queue-lab id=…>` once its lab is on screen. */
async function labFrame(page, id) {
  const handle = await page.locator(`#${id} iframe`).elementHandle({ timeout: 30_000 });
  const frame = await handle.contentFrame();
  await frame.waitForSelector('main h1', { timeout: 60_000 });
  return frame;
}

/** The kit's example page with its body replaced by `html`, and the frames of its
 * <queue-lab> elements `ids`, each once its lab's heading shows. */
async function embedsOf(page, html, ...ids) {
  await page.goto(site.server.url + 'embed/example.html');
  await page.evaluate((body) => {
    document.body.innerHTML = body;
  }, html);
  const frames = [];
  for (const id of ids) frames.push(await labFrame(page, id));
  return frames;
}

test('theme=dark shows the dark palette on a light system, theme=light the light one on a dark system', async () => {
  const light = await newPage(site.browser, { colorScheme: 'light' });
  await light.goto(`${site.server.url}?lab=jobs&lang=en&embed=1`);
  await light.waitForSelector('#start-postgres');
  assert.equal(await background(light), LIGHT_BG, 'auto follows the light system');
  await light.goto(`${site.server.url}?lab=jobs&lang=en&embed=1&theme=dark`);
  await light.waitForSelector('#start-postgres');
  assert.equal(await background(light), DARK_BG, 'theme=dark wins over the light system');
  assert.equal(await light.getAttribute('html', 'data-theme'), 'dark');

  const dark = await newPage(site.browser, { colorScheme: 'dark' });
  await dark.goto(`${site.server.url}?lab=jobs&lang=en&embed=1&theme=light`);
  await dark.waitForSelector('#start-postgres');
  assert.equal(await background(dark), LIGHT_BG, 'theme=light wins over the dark system');
  await dark.goto(`${site.server.url}?lab=jobs&lang=en&embed=1&theme=auto`);
  await dark.waitForSelector('#start-postgres');
  assert.equal(await background(dark), DARK_BG, 'auto follows the dark system');

  // The kit's attribute: <queue-lab theme="dark"> on a light page.
  const [frame] = await embedsOf(light, '<queue-lab id="themed" lab="jobs" lang="en" theme="dark"></queue-lab>', 'themed');
  assert.equal(new URL(frame.url()).searchParams.get('theme'), 'dark');
  assert.equal(await background(frame), DARK_BG);

  // The snippet page offers it.
  await light.goto(site.server.url + 'embed/index.html');
  await light.selectOption('#theme', 'dark');
  await light.waitForFunction(() => /** @type {HTMLInputElement} */ (document.getElementById('element-code')).value.includes('theme="dark"'));
  assert.match(await light.inputValue('#iframe-code'), /theme=dark/);
  await light.close();
  await dark.close();
});

test('Open the full lab opens a new tab on the same lab in the same state', async () => {
  const page = await newPage(site.browser, { width: 1000, height: 1600 });
  await page.goto(`${site.server.url}?lab=jobs&lang=en&embed=1&theme=dark`);
  await page.click('#start-postgres');
  await page.waitForSelector('#jobs-table', { timeout: 180_000 });
  await idle(page);
  await page.click('#enqueue');
  await idle(page);
  const rows = await page.locator('#jobs-table tbody tr').allTextContents();
  assert.equal(rows.length, 1, 'one job enqueued in the embed');

  const link = page.locator('#open-full-lab');
  assert.equal(await link.getAttribute('target'), '_blank');
  const [full] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await full.waitForLoadState('load');
  const url = new URL(full.url());
  assert.equal(url.searchParams.get('embed'), null, 'the full lab, not an embed');
  assert.equal(url.searchParams.get('theme'), 'dark', 'in the embed\'s theme');
  assert.match(url.hash, /^#\/jobs\?s=/, 'carrying the embed\'s actions');
  await full.waitForSelector('.site-header');
  await full.click('#start-postgres');
  await full.waitForFunction((n) => document.querySelectorAll('#jobs-table tbody tr').length === n, rows.length, { timeout: 180_000 });
  await idle(full);
  assert.deepEqual(await full.locator('#jobs-table tbody tr').allTextContents(), rows, 'the same job');
  // Closed, so that the next test counts only its own page's PGlite workers.
  await full.close();
  await page.close();
});

test('three embeds started in turn leave one PostgreSQL running; the others say stopped and start again', async () => {
  const page = await newPage(site.browser, { width: 1000, height: 4000 });
  const labs = ['jobs', 'vacuum', 'pgq'];
  const frames = await embedsOf(page, '<main>' + labs.map((lab) =>
    `<h2>${lab}</h2><queue-lab id="e-${lab}" lab="${lab}" lang="en" height="500"></queue-lab>`).join('') + '</main>',
  ...labs.map((lab) => `e-${lab}`));

  // Every PGlite worker of this browser: close what earlier tests left open (a test that
  // failed before closing its pages), so that only this page's workers count.
  for (const other of site.browser.contexts().flatMap((c) => c.pages())) {
    if (other !== page) await other.close();
  }
  const cdp = await site.browser.newBrowserCDPSession();
  const pgliteWorkers = async () => (await cdp.send('Target.getTargets')).targetInfos
    .filter((t) => t.type === 'worker' && /worker\.js/.test(t.url)).length;
  const running = () => Promise.all(frames.map((f) => f.locator('#pg-version').count()));
  const stopped = () => Promise.all(frames.map((f) => f.locator('#embed-stopped').count()));

  for (const [i, frame] of frames.entries()) {
    await start(frame);
    if (i === 0) {
      await idle(frame);
      await frame.click('#enqueue');
      await idle(frame);
    }
    // The others stop (the one before this at once; the rest were stopped already).
    for (const [j, other] of frames.entries()) {
      if (j < i) await other.waitForSelector('#embed-stopped', { timeout: 30_000 });
    }
    const want = frames.map((_, j) => (j === i ? 1 : 0));
    assert.deepEqual(await running(), want, `after starting ${labs[i]}: only it runs`);
    assert.deepEqual(await stopped(), frames.map((_, j) => (j < i ? 1 : 0)), 'the earlier ones say stopped');
  }
  // Worker threads end a little after terminate().
  let n;
  for (let k = 0; k < 40 && (n = await pgliteWorkers()) !== 1; k++) await page.waitForTimeout(250);
  assert.equal(n, 1, 'one PGlite worker on the page');
  await shot(page, 'embed-three');

  // The first one starts again with one click, with its job back; the last one stops.
  const jobs = frames[0];
  assert.equal(await jobs.textContent('#start-postgres'), 'Start again');
  await start(jobs);
  await jobs.waitForFunction(() => document.querySelectorAll('#jobs-table tbody tr').length === 1, null, { timeout: 120_000 });
  await frames[2].waitForSelector('#embed-stopped', { timeout: 30_000 });
  assert.deepEqual(await running(), [1, 0, 0]);
  await cdp.detach();
  await page.close();
});

test('the kit relays the stop to frames that share no BroadcastChannel (as frames of another origin)', async () => {
  const page = await newPage(site.browser, { width: 1000, height: 3000 });
  // The frames get no BroadcastChannel: only the <queue-lab> element's relay can stop them.
  await page.addInitScript(() => {
    if (window !== window.top) window.BroadcastChannel = undefined;
  });
  const [first, second] = await embedsOf(page, '<main><queue-lab id="r1" lab="jobs" lang="en"></queue-lab>' +
    '<queue-lab id="r2" lab="pgq" lang="en"></queue-lab></main>', 'r1', 'r2');
  assert.equal(await first.evaluate(() => typeof BroadcastChannel), 'undefined');
  await start(first);
  await start(second);
  await first.waitForSelector('#embed-stopped', { timeout: 30_000 });
  assert.equal(await first.locator('#pg-version').count(), 0);
  await page.close();
});

test('an embed with its new controls (the full-lab link, the stopped note) has no axe violations', async () => {
  const page = await newPage(site.browser, { width: 1000, height: 2400 });
  const [a, b] = await embedsOf(page, '<main><h1>Two labs</h1><queue-lab id="a" lab="jobs" lang="ko" theme="dark"></queue-lab>' +
    '<queue-lab id="b" lab="leave" lang="en" theme="light"></queue-lab></main>', 'a', 'b');
  await a.waitForSelector('#open-full-lab');
  await b.waitForSelector('#open-full-lab');
  // The stopped note, as a peer's start leaves it.
  await start(a);
  await a.evaluate(() => new BroadcastChannel('queue-lab:postgres')
    .postMessage({ type: 'queue-lab:started', id: 'peer', page: document.referrer }));
  await a.waitForSelector('#embed-stopped', { timeout: 30_000 });
  for (const [name, frame] of [['jobs, dark, stopped', a], ['leave, light', b]]) {
    const found = await violations(frame);
    assert.deepEqual(found, [], `${name}: ${found.join('\n')}`);
  }
});
