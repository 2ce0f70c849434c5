// A seeded random walk through the five labs in one tab on the release build (issue #23,
// item 5; the walk and its checks: tests/e2e/walk/walk.mjs). 150 steps here; `./lab walk`
// runs 1,000. A failure prints the seed, the step and the last ten actions; it replays with
//   WALK_SEED=<seed> WALK_STEPS=<step> node --test tests/e2e/walk.test.mjs
// WALK_LOG=1 prints every step.
import { test } from 'node:test';
import { newPage, useSite } from './harness.mjs';
import { walk } from './walk/walk.mjs';

const site = useSite();
const seed = process.env.WALK_SEED ? Number(process.env.WALK_SEED) >>> 0 : (Date.now() ^ (process.pid << 16)) >>> 0;
const steps = Number(process.env.WALK_STEPS ?? 150);

test(`a random walk of ${steps} steps across the five labs (seed ${seed}) leaves no page error, nothing stuck busy, and every SQL lab's table equal to its schema`, { timeout: Math.max(600_000, steps * 20_000) }, async () => {
  const page = await newPage(site.browser, { width: 1280, height: 900 });
  console.log(`# walk: seed ${seed}, ${steps} steps`);
  const summary = await walk({
    page,
    url: site.server.url,
    seed,
    steps,
    log: process.env.WALK_LOG ? (l) => console.log(`# ${l}`) : () => {},
  });
  console.log(`# walk passed: ${JSON.stringify(summary)}`);
  await page.close();
});
