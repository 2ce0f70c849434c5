// A first visit over a throttled link: first paint, the home page usable, L1 usable after Start.
import { RUNS, report, say } from '../report.mjs';
import { serve, launch } from '../../tests/e2e/harness.mjs';

export async function link() {
  // A first visit over a throttled link: Chromium's network emulation (CDP
  // Network.emulateNetworkConditions: 10 Mbit/s down, 40 ms latency per request, upload not
  // throttled) with the HTTP cache disabled, each visit in a browser of its own (cold: no
  // HTTP cache, no compiled WebAssembly), from a host that compresses as scripts/serve.mjs does.
  // The app: first paint (first-contentful-paint) and the home page usable (the app mounted,
  // from navigation start); then L1, from the click on Start until the lab is usable (its
  // controls are drawn and it is idle). The bare PGlite boot over the same link in the same
  // run, and the ratio per run pair.
  const LINK = { offline: false, latency: 40, downloadThroughput: (10 * 1e6) / 8, uploadThroughput: -1 };
  const host = await serve('/', { compress: true, cache: true });
  say(`over a throttled link (10 Mbit/s down, 40 ms latency, cache disabled, cold), ${RUNS} runs`);
  const paint = [];
  const home = [];
  const l1 = [];
  const bareLink = [];
  const ratio = [];
  const throttled = async (b) => {
    const page = await (await b.newContext()).newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', LINK);
    return page;
  };
  for (let i = 0; i < RUNS; i++) {
    const own = await launch();
    const page = await throttled(own);
    await page.goto(host.url + '?lang=en#/', { waitUntil: 'commit', timeout: 120000 });
    // Seen within a frame of the mount; first paint once the browser has recorded it (with
    // no first screen, the mount's frame is the first paint, recorded after it).
    const usable = await page.waitForFunction(() => document.querySelector('#main') && performance.now(), null, { timeout: 120000, polling: 'raf' });
    home.push(await usable.jsonValue());
    const fcp = await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime, null, { timeout: 120000 });
    paint.push(await fcp.jsonValue());
    await page.evaluate(() => (location.hash = '#/jobs'));
    await page.waitForSelector('#start-postgres', { timeout: 120000 });
    const t0 = Date.now();
    await page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#start-postgres')).click());
    await page.waitForFunction(() => document.querySelector('.jobs-lab[aria-busy="false"] .lab-split'), null, { timeout: 300000, polling: 'raf' });
    l1.push(Date.now() - t0);
    await own.close();
    const other = await launch();
    const b = await throttled(other);
    await b.goto(host.url + 'bench-bare.html', { timeout: 120000 });
    const t1 = Date.now();
    await b.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#go')).click());
    await b.waitForFunction(() => window.bootMs, null, { timeout: 300000, polling: 'raf' });
    bareLink.push(Date.now() - t1);
    await other.close();
    ratio.push(l1[i] / bareLink[i]);
  }
  host.close();
  report('link: first paint (first-contentful-paint)', paint, 'ms', '≤ 300 ms', { limit: 300 });
  report('link: home page usable (app mounted, from navigation start)', home, 'ms');
  report('link: L1 usable after Start', l1, 'ms');
  report('link: bare PGlite boot', bareLink, 'ms');
  report('link: L1 usable after Start / bare boot (per run pair)', ratio, '×', '≤ 1.00 ×', { limit: 1 });
}
