// The labs' challenges on the release build, through the page as a learner uses it: each
// challenge opened by its link (?challenge=<id>) and solved by replaying its solution step by
// step; the same path one step short (a wrong path that comes close) is not solved; progress
// survives a reload; a solved challenge is announced; no overflow at 360 px; axe finds
// nothing; screenshots in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ARTIFACTS, newPage, runInConsole, shot, startPostgres, useSite, violations } from './harness.mjs';

const site = useSite();

/** The labs with challenges, by slug, and the section each lab's page has. */
const LABS = ['jobs', 'pgq', 'vacuum', 'workers', 'leave'];

/** The labs without a database (their checks read the lab's own state): no Postgres to start. */
const NO_POSTGRES = new Set(['workers', 'leave']);

/** One challenge of each lab, for the tests of the panel itself (hints, progress, 360 px, axe,
 * an unknown id, the embed), with the screenshots' names. */
const SAMPLES = [
  { slug: 'jobs', id: 'jobs-dead', shots: 'challenge' },
  { slug: 'workers', id: 'workers-naive-twice', shots: 'challenge-workers' },
  { slug: 'leave', id: 'leave-log', shots: 'challenge-leave' },
];

/** Starts Postgres on `slug`'s page, when the lab runs on it. */
async function startIfNeeded(page, slug) {
  if (!NO_POSTGRES.has(slug)) await startPostgres(page);
}

/** Opens `slug` with challenge `id` started (its link), in `lang`. */
async function openChallenge(page, slug, id, lang = 'en') {
  await page.goto(`${site.server.url}?lang=${lang}&challenge=${id}#/${slug}`);
  await startIfNeeded(page, slug);
  await page.waitForSelector(`li.challenge.current[data-challenge="${id}"]`);
  await checked(page, 0);
}

/** Waits until the challenge's check has run `more` times after `since` checks (or at least
 * once when `since` is 0) and the lab is idle (a lab that never works in the background, L5,
 * has no aria-busy); returns the count. */
async function checked(page, since, more = 1) {
  await page.waitForFunction(({ since, more }) => {
    const n = Number(document.querySelector('#challenges')?.getAttribute('data-checks') ?? 0);
    const idle = (document.querySelector('section.lab')?.getAttribute('aria-busy') ?? 'false') === 'false';
    return idle && n >= since + more;
  }, { since, more }, { timeout: 60_000 });
  return Number(await page.getAttribute('#challenges', 'data-checks'));
}

/** Whether the page says the challenge under way is solved now. */
async function solvedNow(page) {
  return (await page.getAttribute('li.challenge.current', 'data-solved-now')) === 'true';
}

/** Plays `n` steps of the solution of the challenge under way, each to its check. */
async function playSteps(page, n) {
  if (await page.locator('button.challenge-show-solution').count()) await page.click('button.challenge-show-solution');
  for (let i = 0; i < n; i++) {
    const since = await checked(page, 0);
    await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('button.challenge-replay')).disabled);
    await page.click('button.challenge-replay');
    await checked(page, since);
  }
}

/** How many steps the solution of the challenge under way has (its replay button says). */
async function solutionSteps(page) {
  if (await page.locator('button.challenge-show-solution').count()) await page.click('button.challenge-show-solution');
  const text = await page.textContent('button.challenge-replay');
  // "Play step 1 of 6" / "풀이 1/6단계 실행"
  const total = Number(/(?: of |\/)(\d+)/.exec(text ?? '')?.[1]);
  assert.ok(total > 0, `the replay button says how many steps: ${text}`);
  return total;
}

/** The challenge ids `slug`'s page lists. */
async function idsOf(slug) {
  const page = await newPage(site.browser);
  await page.goto(`${site.server.url}?lang=en#/${slug}`);
  await startIfNeeded(page, slug);
  await page.waitForSelector('li.challenge');
  const ids = await page.$$eval('li.challenge', (els) => els.map((e) => e.getAttribute('data-challenge')));
  await page.close();
  return ids;
}

for (const slug of LABS) {
  test(`${slug}: every challenge is solved by its solution, and not one step short of it`, async (t) => {
    const ids = await idsOf(slug);
    assert.ok(ids.length >= 2, `${slug} lists ${ids.length} challenges`);
    for (const id of ids) {
      await t.test(`${id}: one step short is not solved`, async () => {
        const page = await newPage(site.browser);
        await openChallenge(page, slug, id);
        assert.equal(await solvedNow(page), false, 'the starting state is not solved');
        const steps = await solutionSteps(page);
        await playSteps(page, steps - 1);
        assert.equal(await solvedNow(page), false, `solved after ${steps - 1} of ${steps} steps`);
        assert.equal(await page.locator(`li.challenge[data-challenge="${id}"] .challenge-done`).count(), 0);
        assert.equal(await page.locator('.challenge-why').count(), 0, 'why it matters waits for the solution');
        assert.deepEqual(page.errors, []);
        await page.close();
      });
      await t.test(`${id}: solved by its solution, announced, and kept after a reload`, async () => {
        const page = await newPage(site.browser);
        await openChallenge(page, slug, id);
        const steps = await solutionSteps(page);
        await playSteps(page, steps);
        assert.equal(await solvedNow(page), true);
        await page.waitForSelector(`li.challenge[data-challenge="${id}"] .challenge-done`);
        assert.match(await page.textContent('#challenge-announce') ?? '', /solved/);
        assert.equal(await page.getAttribute('#challenge-announce', 'role'), 'status');
        await page.waitForSelector('.challenge-why');
        await page.reload();
        await startIfNeeded(page, slug);
        await page.waitForSelector(`li.challenge[data-challenge="${id}"] .challenge-done`);
        assert.deepEqual(page.errors, []);
        await page.close();
      });
    }
  });
}

for (const { slug, id, shots } of SAMPLES) {
  test(`${slug}: a hint at a time, the progress count, an unknown id refused, 360 px, axe, both languages`, async () => {
    for (const lang of ['en', 'ko']) {
      const page = await newPage(site.browser);
      await openChallenge(page, slug, id, lang);
      assert.equal(await page.locator('.challenge-hint').count(), 0);
      await page.click('button.challenge-more-hint');
      assert.equal(await page.locator('.challenge-hint').count(), 1);
      await page.click('button.challenge-more-hint');
      assert.equal(await page.locator('.challenge-hint').count(), 2);
      assert.deepEqual(await violations(page), []);
      await page.locator('#challenges').scrollIntoViewIfNeeded();
      await shot(page, `${shots}-unsolved-hint-${lang}`);
      await playSteps(page, await solutionSteps(page));
      await page.waitForSelector('.challenge-why');
      assert.deepEqual(await violations(page), []);
      const progress = await page.textContent('#challenge-progress');
      assert.match(progress ?? '', lang === 'en' ? /[1-9]\d* of \d+ solved/ : /\d+개 중 [1-9]\d*개 해결/);
      await shot(page, `${shots}-solved-${lang}`);
      assert.deepEqual(page.errors, []);
      await page.close();
    }
    const narrow = await newPage(site.browser, { width: 360, height: 800 });
    await openChallenge(narrow, slug, id);
    await narrow.click('button.challenge-more-hint');
    await narrow.click('button.challenge-show-solution');
    await narrow.click('details.challenge-check summary');
    const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'no sideways scroll at 360 px');
    await narrow.goto(`${site.server.url}?lang=en&challenge=no-such-one#/${slug}`);
    await startIfNeeded(narrow, slug);
    await narrow.waitForSelector('li.challenge');
    await narrow.waitForSelector("#challenge-refused");
    assert.match(await narrow.textContent("#challenge-refused") ?? "", /no-such-one/);
    assert.equal(await narrow.locator('li.challenge.current').count(), 0);
    assert.deepEqual(narrow.errors, []);
  });
}

for (const { slug, id } of SAMPLES) {
  test(`${slug}: an embed with challenge= opens the lab with that challenge started`, async () => {
    const page = await newPage(site.browser, { width: 1000, height: 1400 });
    await page.setContent(`<!doctype html><html lang="en"><body>
      <script src="${site.server.url}embed/queue-lab.js"></script>
      <queue-lab id="ex" lab="${slug}" challenge="${id}" height="900"></queue-lab></body></html>`);
    const handle = await page.locator('#ex iframe').elementHandle({ timeout: 30_000 });
    const frame = await handle?.contentFrame();
    assert.ok(frame);
    assert.equal(new URL(frame.url()).searchParams.get('challenge'), id);
    if (!NO_POSTGRES.has(slug)) await frame.click('#start-postgres');
    await frame.waitForSelector(`li.challenge.current[data-challenge="${id}"]`, { timeout: 120_000 });
    assert.deepEqual(page.errors, []);
  });
}

test('vacuum: a hint, the horizon released from the console, then VACUUM; both languages', async () => {
  for (const lang of ['en', 'ko']) {
    const page = await newPage(site.browser, { width: 1200, height: 900 });
    await openChallenge(page, 'vacuum', 'vacuum-release', lang);
    assert.equal(await solvedNow(page), false, 'VACUUM left the dead tuples behind');
    await page.click('button.challenge-more-hint');
    assert.equal(await page.locator('.challenge-hint').count(), 1);
    assert.match(await page.textContent('.challenge-hint') ?? '', /pg_prepared_xacts/);
    assert.deepEqual(await violations(page), []);
    await page.locator('#challenges').screenshot({ path: path.join(ARTIFACTS, `challenge-vacuum-unsolved-hint-${lang}.png`) });
    // The check runs after a console statement too: the transaction ended there is not yet
    // the goal (its dead tuples wait for VACUUM), the VACUUM button after it is.
    let since = await checked(page, 0);
    await runInConsole(page, "rollback prepared 'lab_long_tx'");
    since = await checked(page, since);
    assert.equal(await solvedNow(page), false, 'released, not yet vacuumed');
    await page.click('#vacuum-vacuum');
    await checked(page, since);
    assert.equal(await solvedNow(page), true);
    await page.waitForSelector('.challenge-why');
    assert.deepEqual(await violations(page), []);
    await page.locator('#challenges').screenshot({ path: path.join(ARTIFACTS, `challenge-vacuum-solved-${lang}.png`) });
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
