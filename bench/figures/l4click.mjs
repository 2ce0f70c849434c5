// L4: one click at a time (send, tick, receive, ack for billing), from the click until the
// page shows its outcome, beside its floor: the calls each click sent, again on a bare PGlite
// worker (bench/click-floor.mjs). BENCH_ONLY=l4click.
import { RUNS, notes, say, clickFloorRows } from '../report.mjs';
import { clickFloorRuns } from '../click-floor.mjs';
import { newPage, pgqIdle } from '../../tests/e2e/harness.mjs';
import { timeClickUntilShown, L4_CYCLE, L4_SHOWS } from '../clicks.mjs';

/** Clicks `sel` once the lab takes input; the ms until the outcome line shows a new text and
 * the lab takes input again (timed as L1's click is). */
async function timeClick(page, sel) {
  await pgqIdle(page);
  await page.waitForSelector(`${sel}:not([disabled])`, { timeout: 30000 });
  return timeClickUntilShown(page, sel, L4_SHOWS);
}

export async function l4click({ server, browser }) {
  say(`L4: clicks, ${RUNS} runs of 1 + 10 × (send, tick, receive, ack), each beside its floor`);
  // The first cycle of each run warms PGlite up: the figures are of the 40 after it.
  const floor = await clickFloorRuns({
    runs: RUNS, server, browser, open: newPage, lab: 'pgq', ready: '#tick', timeout: 60000,
    prepare: pgqIdle, cycle: L4_CYCLE, cycles: 11, time: timeClick,
    after: (page) => {
      if (page.errors.length) notes.push(`L4 click page errors: ${page.errors.join('; ')}`);
    },
  });
  clickFloorRows('L4', '40 clicks', floor);
}
