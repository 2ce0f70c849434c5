// What one click redraws: the DOM changes an L1 or L4 click makes until the page shows its
// outcome, counted by the nearest element with an id and by kind (nodes added or removed,
// text, each attribute). A part drawn again though nothing it shows changed shows up here as
// attribute writes or node churn. For looking, not a figure. Run:
//   QUEUE_LAB_DIST=dist node bench/redraws.mjs [jobs|pgq]
import { serve, launch, newPage, startPostgres, pgqIdle } from '../tests/e2e/harness.mjs';
import { L1_CYCLE, load1000Jobs } from './l1-actions.mjs';

const lab = process.argv[2] === 'pgq' ? 'pgq' : 'jobs';
/** @type {[string, string][]} */
const cycle = lab === 'jobs' ? L1_CYCLE : [
  ['send', '#send-one'],
  ['tick', '#tick'],
  ['receive', '#consumer-billing [data-act="receive"]'],
  ['ack', '#consumer-billing [data-act="ack"]'],
];
// When a click's outcome is on the page, as the click figures time it (bench/l1-actions.mjs).
const shows = lab === 'jobs'
  ? { changed: '#job-counts', enabled: '#enqueue', lab: '.jobs-lab' }
  : { changed: '#last-outcome', enabled: '#tick', lab: '.pgq-lab' };
const CYCLES = 3;

const server = await serve('/');
const browser = await launch();
try {
  const page = await newPage(browser);
  await page.goto(server.url + `?lang=en#/${lab}`);
  await startPostgres(page);
  if (lab === 'jobs') await load1000Jobs(page);
  else await page.waitForSelector('#tick', { timeout: 60000 });
  /** @type {Map<string, number>} */
  const total = new Map();
  for (let c = 0; c < CYCLES; c++) {
    for (const [, sel] of cycle) {
      if (lab === 'pgq') await pgqIdle(page);
      await page.waitForSelector(`[aria-busy="false"] ${sel}:not([disabled])`, { timeout: 30000 });
      const counts = await page.evaluate(
        async ({ sel, shows }) => {
          /** @type {Record<string, number>} */
          const counts = {};
          const text = () => document.querySelector(shows.changed)?.textContent ?? '';
          const before = text();
          const shown = () =>
            text() !== before &&
            !(/** @type {HTMLButtonElement | null} */ (document.querySelector(shows.enabled))?.disabled ?? true) &&
            document.querySelector(shows.lab)?.getAttribute('aria-busy') === 'false';
          /** @param {Node} n */
          const where = (n) => {
            let e = n instanceof Element ? n : n.parentElement;
            while (e && !e.id) e = e.parentElement;
            return e ? `#${e.id}` : '(no id)';
          };
          await new Promise((resolve) => {
            const obs = new MutationObserver((records) => {
              for (const m of records) {
                const kind = m.type === 'attributes' ? `@${m.attributeName}` : m.type === 'childList' ? 'nodes' : 'text';
                const k = `${where(m.target)} ${kind}`;
                counts[k] = (counts[k] || 0) + Math.max(1, m.addedNodes.length + m.removedNodes.length);
              }
              if (!shown()) return;
              obs.disconnect();
              resolve(undefined);
            });
            obs.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
            /** @type {HTMLElement} */ (document.querySelector(sel)).click();
          });
          return counts;
        },
        { sel, shows },
      );
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
