// Start-up behind a compressing host: the progress bar follows the real download (sizes from
// PGlite's build manifest, not content-length, which is the compressed size here), PostgreSQL
// boots from the prepared data directory, and a lab page prefetches PGlite while idle where
// an embed waits for the click.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch } from './harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** `body(page, server)` on a new page of a site served with `options`; both closed after. */
async function onServer(options, body) {
  const server = await serve('/', options);
  const context = await browser.newContext();
  try {
    await body(await context.newPage(), server);
  } finally {
    await context.close();
    server.close();
  }
}

/** Requests for PGlite's big files, in order, with the time they were made. */
function watchDownloads(page) {
  const seen = [];
  page.context().on('request', (r) => {
    const m = r.url().match(/\/(pglite\.wasm|pglite\.data|pgdata-[0-9a-f]+\.tar\.gz|initdb\.wasm)$/);
    if (m) seen.push(m[1].replace(/^pgdata-.*/, 'pgdata'));
  });
  return seen;
}

for (const encoding of ['gzip', 'br']) test(`behind a ${encoding} host the progress bar climbs from 0 to 100 % and never goes back`, () =>
  // Compressed with content-length (the compressed size, as some hosts send it), slowed
  // down so the bar is seen moving: 8 MB/s of compressed bytes.
  onServer({ compress: true, brotli: encoding === 'br', cache: false, bytesPerSecond: 8 << 20, contentLength: true }, async (page, server) => {
    const encodings = new Set();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const downloads = watchDownloads(page);
    page.on('response', (r) => {
      if (/pglite\.(wasm|data)$/.test(r.url())) encodings.add(r.headers()['content-encoding']);
    });
    // Sampled in the page, every 20 ms: the attribute (a value over max would be clamped by
    // the element's .value).
    await page.addInitScript(() => {
      window.__progress = [];
      setInterval(() => {
        const p = document.querySelector('#pg-progress');
        if (p) window.__progress.push(Number(p.getAttribute('value')));
      }, 20);
    });
    // In an embed nothing downloads before the click.
    await page.goto(server.url + '?lab=jobs&lang=en&embed=1');
    await page.waitForSelector('#start-postgres');
    // The size is written in once PGlite's manifest has arrived (slowed down here; a CI run
    // read the intro before it had).
    await page.waitForFunction(() => /downloads about \d+ MB/.test(document.querySelector('#start-intro')?.textContent ?? ''), null, { timeout: 30_000 }).catch(() => {});
    assert.match(await page.textContent('#start-intro'), /downloads about \d+ MB/, 'the size comes from the manifest');
    await page.waitForTimeout(1500);
    assert.deepEqual(downloads, [], 'an embed downloads nothing before the click');
    await page.click('#start-postgres');
    await page.waitForSelector('#pg-version', { timeout: 120_000 });
    const samples = await page.evaluate(() => window.__progress);
    assert.ok(samples.length >= 10, `progress sampled ${samples.length} times`);
    for (let i = 1; i < samples.length; i++) {
      assert.ok(samples[i] >= samples[i - 1], `the bar went back: ${samples[i - 1]} → ${samples[i]} (${samples.join(' ')})`);
    }
    assert.ok(samples.every((v) => v >= 0 && v <= 100), `values within 0..100: ${samples.join(' ')}`);
    assert.ok(samples[0] <= 10, `starts near 0: ${samples[0]}`);
    assert.equal(samples.at(-1), 100, `ends at 100: ${samples.join(' ')}`);
    assert.ok(new Set(samples).size >= 5, `moves through several values: ${[...new Set(samples)].join(' ')}`);
    assert.ok(downloads.includes('pgdata'), 'the prepared data directory is downloaded');
    assert.ok(!downloads.includes('initdb.wasm'), `no initdb download when the data directory boots: ${downloads}`);
    assert.equal(await page.locator('#boot-fallback').count(), 0, 'no fallback note');
    assert.deepEqual([...encodings], [encoding], 'served compressed as asked');
    assert.deepEqual(errors, []);
  }));

test('a lab page starts downloading PGlite once idle, before the click', () =>
  onServer({ compress: true, cache: true }, async (page, server) => {
    const downloads = watchDownloads(page);
    await page.goto(server.url + '?lang=en#/jobs');
    await page.waitForSelector('#start-postgres');
    await page.waitForFunction(() => true);
    for (let i = 0; i < 50 && downloads.length < 3; i++) await page.waitForTimeout(100);
    assert.deepEqual([...downloads].sort(), ['pgdata', 'pglite.data', 'pglite.wasm'], 'prefetched before any click');
    await page.click('#start-postgres');
    await page.waitForSelector('#pg-version', { timeout: 120_000 });
    assert.equal(downloads.length, 3, `the click reuses the prefetch: ${downloads}`);
  }));

test('a data directory that is missing falls back to initdb with a note, and the labs work', () =>
  onServer({ compress: true, cache: false }, async (page, server) => {
    await page.route('**/pgdata-*.tar.gz', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto(server.url + '?lang=ko#/jobs');
    await page.click('#start-postgres');
    await page.waitForSelector('#pg-version', { timeout: 120_000 });
    const note = await page.textContent('#boot-fallback');
    assert.match(note, /미리 준비된 데이터베이스/);
    assert.match(note, /404/);
    // The lab sets itself up on the clock the app installed.
    await page.waitForSelector('[aria-busy="false"] #enqueue:not([disabled])', { timeout: 60_000 });
  }));
