// What one click redraws: the DOM changes an L1 or L4 click makes until the page shows its
// outcome, counted by the nearest element with an id and by kind (nodes added or removed,
// text, each attribute). A part drawn again though nothing it shows changed shows up here as
// attribute writes or node churn. For looking, not a figure. Run:
//   QUEUE_LAB_DIST=dist node bench/redraws.mjs [jobs|pgq]
import { serve, launch, pgqIdle } from '../tests/e2e/harness.mjs';
import { clickLabPage, clickUntilShown } from './clicks.mjs';

/** @type {'jobs' | 'pgq'} */
const lab = process.argv[2] === 'pgq' ? 'pgq' : 'jobs';
const CYCLES = 3;

const server = await serve('/');
const browser = await launch();
try {
  const { page, cycle, shows } = await clickLabPage(browser, server, lab);
  /** @type {Map<string, number>} */
  const total = new Map();
  for (let c = 0; c < CYCLES; c++) {
    for (const [, sel] of cycle) {
      if (lab === 'pgq') await pgqIdle(page);
      await page.waitForSelector(`[aria-busy="false"] ${sel}:not([disabled])`, { timeout: 30000 });
      const { redraws: counts } = await clickUntilShown(page, sel, shows, { redraws: true });
      // The first cycle warms up; the figures are of the later ones.
      if (c > 0) for (const [k, v] of Object.entries(counts)) total.set(k, (total.get(k) || 0) + v);
    }
  }
  const clicks = (CYCLES - 1) * cycle.length;
  console.log(`${lab}: DOM changes per click, mean of ${clicks} clicks (element, kind)`);
  for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`${(v / clicks).toFixed(1).padStart(7)}  ${k}`);
  }
} finally {
  await browser.close();
  server.close();
}
