// The memory of a docs page with three embeds (L1, L3, L4 as <queue-lab> elements), each
// started in turn, with the page-wide "one PostgreSQL at a time" on ("after") and off
// ("before": the frames get no BroadcastChannel and the kit's relay is not listened to, as
// before the embeds stopped each other). Memory: the proportional set size (PSS, from
// /proc/<pid>/smaps_rollup) summed over every process of the test's own Chromium (their ids
// from CDP's SystemInfo.getProcessInfo), so other browsers on the machine do not count.
//
//   node bench/embed-memory.mjs            # both; QUEUE_LAB_DIST=… for another build
//   EMBED_MEMORY_MODE=after node bench/embed-memory.mjs
import fs from 'node:fs';
import { serve, launch, newPage } from '../tests/e2e/harness.mjs';

const LABS = ['jobs', 'vacuum', 'pgq'];

async function pssMb(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  let kb = 0;
  for (const p of processInfo) {
    try {
      const m = fs.readFileSync(`/proc/${p.id}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m);
      if (m) kb += Number(m[1]);
    } catch {
      // a process that ended between the list and the read
    }
  }
  return Math.round(kb / 1024);
}

async function workers(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  await cdp.detach();
  return targetInfos.filter((t) => t.type === 'worker' && /worker\.js/.test(t.url)).length;
}

/** Sets `document.body` to three <queue-lab> embeds; returns their frames. */
export async function threeEmbeds(page, url) {
  await page.goto(url + 'embed/example.html');
  await page.evaluate((labs) => {
    document.body.innerHTML = '<main>' + labs.map((lab) =>
      `<h2>${lab}</h2><queue-lab id="e-${lab}" lab="${lab}" lang="en" height="500"></queue-lab>`).join('') + '</main>';
  }, LABS);
  const frames = [];
  for (const lab of LABS) {
    const handle = await page.locator(`#e-${lab} iframe`).elementHandle({ timeout: 30_000 });
    const frame = await handle.contentFrame();
    await frame.waitForSelector('#start-postgres', { timeout: 60_000 });
    frames.push(frame);
  }
  return frames;
}

async function run(mode) {
  const server = await serve('/');
  const browser = await launch();
  try {
    const page = await newPage(browser, { width: 1000, height: 4000 });
    if (mode === 'before') {
      await page.addInitScript(() => {
        if (window !== window.top) {
          delete window.BroadcastChannel;
          window.BroadcastChannel = undefined;
          window.addEventListener('message', (e) => e.stopImmediatePropagation(), true);
        }
      });
    }
    const frames = await threeEmbeds(page, server.url);
    await page.waitForTimeout(2_000);
    const rows = [{ after: 'none started', mb: await pssMb(browser), workers: await workers(browser) }];
    for (const [i, frame] of frames.entries()) {
      await frame.click('#start-postgres');
      await frame.waitForSelector('#pg-version', { timeout: 240_000 });
      await frame.waitForFunction(() => document.querySelector('section.lab')?.getAttribute('aria-busy') === 'false', null, { timeout: 240_000 });
      await page.waitForTimeout(3_000);
      rows.push({ after: `${LABS[i]} started`, mb: await pssMb(browser), workers: await workers(browser) });
    }
    return rows;
  } finally {
    await browser.close();
    server.close();
  }
}

const modes = process.env.EMBED_MEMORY_MODE ? [process.env.EMBED_MEMORY_MODE] : ['before', 'after'];
for (const mode of modes) {
  const rows = await run(mode);
  console.log(`\n${mode}: the page's Chromium, PSS in MB (PGlite workers running)`);
  for (const r of rows) console.log(`  ${r.after.padEnd(16)} ${String(r.mb).padStart(6)} MB  ${r.workers} worker(s)`);
}
