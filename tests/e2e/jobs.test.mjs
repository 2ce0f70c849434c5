// L1 on the release build: the guided tour's scenarios visible on screen, bad input refused,
// a Postgres error shown with its message, the shared URL replaying, and screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ARTIFACTS, jobsIdle as idle, newPage, shot, startPostgres, useSite, clickEach } from './harness.mjs';

const site = useSite();

async function openLab(lang = 'en', opts = {}) {
  const page = await newPage(site.browser, opts);
  await page.goto(`${site.server.url}?lang=${lang}#/jobs`);
  await startPostgres(page);
  await page.waitForSelector('#jobs-table');
  return page;
}

async function tourStep(page, n) {
  await page.click(`button.tour-run[data-step="${n}"]`);
  await page.waitForSelector('.tour li.current .tour-body');
  await idle(page);
}

test('tour ① and ②: committed order wakes a worker, rolled-back one leaves nothing', async () => {
  const page = await openLab('en');
  await tourStep(page, 0);
  assert.equal(await page.locator('#orders-table tbody tr').count(), 1);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 1);
  assert.match(await page.textContent('#worker-A'), /Woken by NOTIFY/);
  await tourStep(page, 1);
  assert.equal(await page.locator('#orders-table tbody tr').count(), 0);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 0);
  assert.match(await page.textContent('#last-outcome'), /0 notifications arrived/);
  assert.doesNotMatch(await page.textContent('#worker-A'), /Woken/);
  await shot(page, 'jobs-rollback-en');
  assert.deepEqual(page.errors, []);
});

test('tour: the dead worker\'s late completion updates 0 rows and the job shows as run twice', async () => {
  const page = await openLab('ko');
  await tourStep(page, 4);
  const outcome = await page.textContent('#last-outcome');
  assert.match(outcome, /1행/, 'B completes with 1 row');
  assert.match(await page.textContent('#ran-twice'), /A\(시도 1\), B\(시도 2\)/);
  assert.equal(await page.locator('#jobs-table tr[data-status="done"]').count(), 1);
  await shot(page, 'jobs-lease-ko');
});

test('bad input is refused with a reason and runs nothing', async () => {
  const page = await openLab('en');
  await page.fill('#enq-payload', '{"to": ');
  await page.fill('#enq-priority', '-500');
  await page.fill('#enq-delay', 'soon');
  await page.click('#enqueue');
  assert.match(await page.textContent('#err-payload'), /Not valid JSON/);
  assert.match(await page.textContent('#err-priority'), /between -100 and 100/);
  assert.match(await page.textContent('#err-delay'), /not a whole number/);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 0);
  await page.fill('#clock-custom', 'ten');
  await page.click('.custom-step button');
  assert.match(await page.textContent('.clock-bar .field-error'), /not a whole number of seconds/);
  assert.equal(await page.textContent('#lab-clock'), '09:00:00');
  await shot(page, 'jobs-bad-input-en');
});

test('an 8000-byte NOTIFY shows Postgres\'s error and the lab stays usable', async () => {
  const page = await openLab('en');
  await page.fill('#notify-bytes', '8000');
  await page.click('#notify-send');
  await page.waitForSelector('#last-error');
  const err = await page.textContent('#last-error');
  assert.match(err, /payload string too long/);
  assert.match(err, /22023/);
  await idle(page);
  await page.click('#enqueue');
  await idle(page);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 1);
});

test('a share link already on screen follows a language switch: it opens in the language shown', async () => {
  const page = await openLab('en');
  await page.click('#enqueue');
  await idle(page);
  assert.equal(new URL(await page.inputValue('#share-url')).searchParams.get('lang'), 'en');
  await page.click('button.lang[lang="ko"]');
  await page.waitForFunction(() => new URL(/** @type {HTMLInputElement} */ (document.querySelector('#share-url')).value).searchParams.get('lang') === 'ko', null, { timeout: 10_000 });
  assert.match(await page.inputValue('#share-url'), /#\/jobs\?s=/, 'the link still carries the action');
  assert.deepEqual(page.errors, []);
});

test('the share link replays to the same table', async () => {
  const page = await openLab('en');
  await tourStep(page, 3);
  const rows = await page.locator('#jobs-table tbody tr').allTextContents();
  const url = await page.inputValue('#share-url');
  assert.match(url, /#\/jobs\?s=/);
  const again = await newPage(site.browser);
  await again.goto(url);
  await startPostgres(again);
  await again.waitForFunction((n) => document.querySelectorAll('#jobs-table tbody tr').length === n, rows.length, { timeout: 60_000 });
  await idle(again);
  assert.deepEqual(await again.locator('#jobs-table tbody tr').allTextContents(), rows);
});

test('the lab reads well at 360 px in the dark', async () => {
  const page = await openLab('ko', { width: 360, height: 800, colorScheme: 'dark' });
  await tourStep(page, 0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than the screen`);
  await page.locator('#job-states').screenshot({ path: `${ARTIFACTS}/jobs-states-picture-360-dark-ko.png` });
  await shot(page, 'jobs-360-dark-ko');
});

test('§2 DELETE-on-complete deletes the row and says so; §4 the dead count and the alert arrive', async () => {
  const page = await openLab('en');
  assert.match(await page.textContent('#dead-count'), /Dead jobs: 0/);
  await page.check('#delete-on-complete');
  await idle(page);
  assert.match(await page.textContent('#last-outcome'), /deletes the job's row/);
  await clickEach(page, idle, '#enqueue', '#worker-A [data-act="claim"]', '#worker-A [data-act="complete"]');
  assert.match(await page.textContent('#last-outcome'), /DELETE removed 1 row/);
  assert.match(await page.textContent('#last-sql'), /delete from jobs/);
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 0);
  assert.match(await page.textContent('#table-stats'), /0 rows in the jobs table \(0 done\), and [1-9]\d* dead row versions?/);
  assert.match(await page.inputValue('#share-url'), /s=g1;/);
  // Tour step 4 (retry with backoff, then the dead letter): one retry, then dead.
  await tourStep(page, 3);
  assert.equal(await page.isChecked('#delete-on-complete'), false, 'a tour step resets the option');
  assert.match(await page.textContent('#dead-count'), /Dead jobs: 1/);
  assert.equal(await page.locator('#dead-alerts li[data-job]').count(), 1, 'one alert for one dead job, none for the retry');
  assert.match(await page.textContent('#dead-alerts'), /NOTIFY job_dead, '\{"id" : 1,/);
  await shot(page, 'jobs-dead-alert-en');
  assert.deepEqual(page.errors, []);
});

test('an action changes the page in one go: its counts, its SQL and the buttons back on together', async () => {
  const page = await openLab('en', { width: 1280, height: 800 });
  await idle(page);
  await page.click('#enqueue');
  await idle(page);
  const look = () => ({
    counts: document.querySelector('#job-counts').textContent,
    disabled: /** @type {HTMLButtonElement} */ (document.querySelector('#enqueue')).disabled,
    busy: document.querySelector('.jobs-lab').getAttribute('aria-busy'),
    at: performance.now(),
    sql: document.querySelectorAll('#last-sql li').length,
    sqlText: document.querySelector('#last-sql').textContent,
    outcome: document.querySelector('#last-outcome')?.textContent,
  });
  const before = await page.evaluate(look);
  assert.ok(before.sql > 0, 'the enqueue is the last action');
  // What the page shows after each batch of changes to it.
  await page.evaluate((look) => {
    window.seen = [];
    const read = new Function(`return (${look})()`);
    new MutationObserver(() => window.seen.push(read())).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  }, look.toString());
  const clickedAt = await page.evaluate(() => performance.now());
  await page.click('#worker-A [data-act="claim"]');
  await page.waitForFunction((c) => document.querySelector('#job-counts').textContent !== c, before.counts);
  await idle(page);
  const seen = await page.evaluate(() => window.seen);
  const first = seen.findIndex((s) => s.counts !== before.counts);
  const brief = JSON.stringify(seen.map((s) => ({ ...s, sqlText: s.sqlText.length })));
  assert.ok(first >= 0, brief);
  assert.equal(seen[first].disabled, false, `the new counts show with the buttons enabled, not a render apart: ${brief}`);
  assert.equal(seen.findIndex((s) => s.sqlText !== before.sqlText), first, `the claim's statements show with its counts: ${brief}`);
  assert.notEqual(seen[first].outcome, before.outcome, 'the claim says what it did');
  assert.equal(seen.findIndex((s) => s.outcome !== before.outcome), first, `and says it with its counts: ${brief}`);
  assert.ok(seen.every((s) => s.sql > 0), `the last action's SQL is never emptied while the next one runs: ${brief}`);
  // The lab said it was working (aria-busy) and, the claim being short, never dimmed its
  // buttons: they show busy only once work lasts (BUSY_SHOWN_AFTER_MS, 150 ms), so a quick
  // action does not flicker the whole lab.
  assert.ok(seen.slice(0, first).some((s) => s.busy === 'true'), `aria-busy went true before the counts changed: ${brief}`);
  assert.equal(seen[first].busy, 'false', `and false with them: ${brief}`);
  const took = seen[first].at - clickedAt;
  if (took < 140) {
    assert.ok(seen.every((s) => !s.disabled), `a ${Math.round(took)} ms claim never disabled the buttons: ${brief}`);
  }
  assert.deepEqual(page.errors, []);
});

// The article's lessons no other control reaches (§1, §4, §5), through tour steps 9-11, in
// both languages; each panel is photographed on its own.
for (const lang of ['en', 'ko']) {
  test(`tour 9-11 (${lang}): dual write lost and ghost, the idempotency key, NOTIFY's queue`, async () => {
    const page = await openLab(lang, { width: 1280, height: 900 });
    const panel = async (id, name) => {
      await page.locator(id).scrollIntoViewIfNeeded();
      await page.locator(id).screenshot({ path: `${ARTIFACTS}/${name}-${lang}.png` });
    };
    await tourStep(page, 8);
    assert.deepEqual(
      await page.locator('#dual-check tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.verdict)),
      ['lost', 'ghost', 'consistent', 'neither'],
    );
    assert.equal(await page.locator('#broker li').count(), 1, 'the ghost\'s message stays in the broker');
    assert.match(await page.textContent('#dual-write'), lang === 'en' ? /simulated/ : /시뮬레이션/);
    await panel('#dual-write', 'jobs-dual-write');
    await tourStep(page, 9);
    assert.equal(await page.locator('#effects-table tbody tr').count(), 1);
    assert.match(await page.textContent('#effects-table tbody tr'), /job-1\s*1\s*A\s*1/);
    assert.match(await page.textContent('#ran-twice'), lang === 'en' ? /A \(attempt 1\), B \(attempt 2\)/ : /A\(시도 1\), B\(시도 2\)/);
    await panel('#idempotency', 'jobs-idempotency');
    await tourStep(page, 10);
    const result = await page.textContent('#burst-result');
    assert.match(result, /1,000/);
    assert.match(await page.textContent('#burst-limit'), /1,048,576/);
    assert.match(await page.textContent('#last-outcome'), lang === 'en' ? /once the CALL ended/i : /한가해진 세션이 알림을 읽자/);
    await panel('#notify-queue', 'jobs-notify-queue');
    assert.match(await page.textContent('#last-sql'), /call notify_burst\(\$1, \$2, null, null, null\)/);
    assert.deepEqual(page.errors, []);
  });
}

test("a tour step that rebuilds the lab shows its own jobs' priorities and payloads, not those of the earlier jobs with the same ids", async () => {
  const page = await openLab('en');
  await idle(page);
  await clickEach(page, idle, ...Array(3).fill('#enqueue'));
  // Tour step 3 makes jobs 1 and 2 again, with priorities and payloads of its own.
  await tourStep(page, 2);
  const shown = await page.locator('#jobs-table tbody tr').evaluateAll((trs) => trs.map((tr) => {
    const td = [...tr.children].map((c) => c.textContent);
    return [td[0], td[2], td[8]];
  })).then((rows) => rows.map(([id, prio, payload]) => `${id} ${prio} ${payload}`));
  // The payload as jsonb's text: the page shows what psql and the console show, keys in jsonb's order.
  await page.fill('#console-input', "select string_agg(id || ' ' || priority || ' ' || payload::text, '|' order by id desc) as jobs from jobs;");
  await page.click('#console-run');
  await page.waitForSelector('.console-result table.result tbody td');
  const inDb = (await page.textContent('.console-result table.result tbody td')).split('|')
    .map((r) => { const [id, prio, ...rest] = r.split(' '); return `${id} ${prio} ${rest.join(' ')}`; });
  assert.deepEqual(shown, inDb, 'the table shows what the jobs table holds');
  assert.deepEqual(page.errors, []);
});

/** The job-state picture as it reads: each status's count, the marked moves, its text alternative. */
async function states(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('#job-states');
    const counts = {};
    for (const g of /** @type {NodeListOf<SVGElement>} */ (svg.querySelectorAll('[data-state]'))) counts[g.dataset.state] = Number(g.querySelector('.count').textContent);
    const on = [.../** @type {NodeListOf<SVGElement>} */ (svg.querySelectorAll('[data-move][data-on="true"]'))].map((g) => g.dataset.move);
    return { counts, on, label: svg.getAttribute('aria-label'), role: svg.getAttribute('role') };
  });
}

test('the job-state picture counts each status from the table and marks the last action\'s move', async () => {
  const page = await openLab('en');
  assert.deepEqual((await states(page)).on, [], 'no move before any action');
  await page.click('#enqueue');
  await idle(page);
  assert.deepEqual((await states(page)).on, ['enqueue']);
  await clickEach(page, idle, '#enqueue', '#worker-A [data-act="claim"]');
  const s = await states(page);
  assert.deepEqual(s.counts, { ready: 1, running: 1, done: 0, dead: 0 });
  assert.deepEqual(s.on, ['claim'], 'the claim\'s arrow, and only it');
  assert.equal(s.role, 'img');
  assert.equal(s.label, 'Job states: 1 ready, 1 running, 0 done, 0 dead. Last move: claim.');
  assert.match(await page.textContent('#job-counts'), /1 ready, 1 running, 0 done, 0 dead/, 'the same counts as the table');
  await page.click('#worker-A [data-act="complete"]');
  await idle(page);
  assert.deepEqual(await states(page).then((x) => [x.counts, x.on]), [{ ready: 1, running: 0, done: 1, dead: 0 }, ['complete']]);
  // A lease that runs out: the row stays running, and the next claim takes it again.
  await clickEach(page, idle, '#worker-A [data-act="claim"]', '#worker-A [data-act="die"]');
  await page.fill('#clock-custom', '31');
  await clickEach(page, idle, '.custom-step button', '#worker-B [data-act="claim"]');
  assert.match(await page.textContent('#last-outcome'), /lease ran out/);
  assert.deepEqual(await states(page).then((x) => [x.counts.running, x.on]), [1, ['lease']]);
  // Tour step 4: a retry, then the last attempt fails and the job is dead.
  await tourStep(page, 3);
  assert.deepEqual(await states(page).then((x) => [x.counts.dead, x.on]), [1, ['dead']]);
  // The requeue from the dead letter back to ready.
  await page.click('#jobs-table [data-act="requeue"]');
  await idle(page);
  assert.deepEqual(await states(page).then((x) => [x.counts, x.on]), [{ ready: 1, running: 0, done: 0, dead: 0 }, ['requeue']]);
  await page.locator('#job-states').screenshot({ path: `${ARTIFACTS}/jobs-states-picture-en.png` });
  await shot(page, 'jobs-states-en');
  assert.deepEqual(page.errors, []);
});

test('the job-state picture reads in Korean: its text alternative and labels from the catalog', async () => {
  const page = await openLab('ko');
  await clickEach(page, idle, '#enqueue', '#worker-A [data-act="claim"]');
  const s = await states(page);
  assert.equal(s.label, '작업 상태: ready 0, running 1, done 0, dead 0. 마지막 이동: 가져오기.');
  assert.equal(await page.textContent('#job-states [data-move="claim"] text'), '가져오기');
  assert.equal(await page.textContent('#job-states [data-state="running"] .state-name'), 'running');
  await page.locator('#job-states').screenshot({ path: `${ARTIFACTS}/jobs-states-picture-ko.png` });
  await shot(page, 'jobs-states-ko');
});

test('a tour step the tour lacks (?step=99) is refused with a note, and the lab opens fresh', async () => {
  const page = await newPage(site.browser);
  await page.goto(`${site.server.url}?lang=en&step=99#/jobs`);
  await startPostgres(page);
  await page.waitForSelector('#replay-cut');
  assert.match(await page.textContent('#replay-cut') ?? '', /tour step 99/);
  await page.waitForSelector('.jobs-lab[aria-busy="false"] #jobs-table');
  assert.equal(await page.locator('#jobs-table tbody tr').count(), 0);
  assert.deepEqual(page.errors, []);
});
