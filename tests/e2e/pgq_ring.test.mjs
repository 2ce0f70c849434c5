// L4's event tables as a ring (src/labs/pgq/view/ring.rs): the current table, the next to
// truncate with the rotation's state, each consumer's cursor on its table or caught up;
// after a rotation the current table moves round. English, Korean, 360 px in the dark, axe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, startPostgres, ARTIFACTS, useSite, violations, pgqIdle as idle } from './harness.mjs';

const site = useSite();

async function openLab(lang, options) {
  const page = await newPage(site.browser, options);
  await page.goto(site.server.url + `?lang=${lang}#/pgq`);
  await startPostgres(page);
  await page.waitForSelector('#tick', { timeout: 60_000 });
  await idle(page);
  return page;
}

async function click(page, sel) {
  await page.click(sel);
  await idle(page);
}

/** The ring as it reads: the current and next table, each cursor's table, the facts. */
async function ring(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('#table-ring');
    const one = (sel) => [...svg.querySelectorAll(sel)].map((g) => Number(g.dataset.table));
    const cursors = {};
    for (const t of /** @type {NodeListOf<SVGElement>} */ (svg.querySelectorAll('text.cursor'))) cursors[t.dataset.consumer] = t.dataset.table;
    return {
      tables: svg.querySelectorAll('g.table').length,
      current: one('g.table[data-current="true"]'),
      next: one('g.table[data-next="true"]'),
      nextState: svg.querySelector('g.table[data-next="true"] .next-state')?.textContent,
      cursors,
      holds: [.../** @type {NodeListOf<SVGElement>} */ (svg.querySelectorAll('text.cursor.holds'))].map((t) => t.dataset.consumer),
      label: svg.getAttribute('aria-label'),
      role: svg.getAttribute('role'),
      facts: [...document.querySelectorAll('#ring-facts li')].map((li) => li.textContent),
    };
  });
}

test('the ring marks the current table and the next to truncate, and puts each cursor on its table; a rotation moves the current one round', async () => {
  const page = await openLab('en');
  await page.selectOption('#new-consumer', 'audit');
  await click(page, '#subscribe-consumer');
  await click(page, '#send-one');
  await click(page, '#tick');
  await click(page, '#consumer-billing [data-act="receive"]');
  await click(page, '#consumer-billing [data-act="ack"]');
  let r = await ring(page);
  assert.equal(r.tables, 3);
  assert.deepEqual([r.current, r.next], [[0], [1]]);
  assert.deepEqual(r.cursors, { billing: 'caught-up', audit: '0', email: '0' },
    'billing acked event 1; audit and email have it unread in table 0');
  assert.equal(r.role, 'img');
  // What holds rotation is the engine's: the period has not passed (its reason comes first).
  assert.match(r.nextState, /^not before \d\d:\d\d:\d\d/);
  assert.deepEqual(r.holds.sort(), ['audit', 'email'], 'consumer_report says which cursors hold rotation');
  assert.deepEqual(r.facts.slice(0, 2), [
    'Current table, where send writes: pgque.event_1_0, 1 event.',
    `Next to truncate: pgque.event_1_1, 0 events; ${r.nextState}.`,
  ]);
  assert.ok(r.facts.includes('billing: caught up, every committed event acked.'), r.facts.join(' | '));
  assert.ok(r.facts.includes('email: 1 event not yet acked; its cursor is on pgque.event_1_0 (next: event 1); it holds rotation back.'),
    r.facts.join(' | '));
  assert.equal(r.label, `The event tables as a ring ${r.facts.join(' ')}`, 'the text alternative says what the caption lists');
  await page.locator('#table-ring').screenshot({ path: `${ARTIFACTS}/pgq-ring-en.png` });

  // The period passes; audit and email ack; maint truncates table 1 and makes it current.
  await page.fill('#clock-custom', '31');
  await click(page, '.custom-step button');
  for (const c of ['audit', 'email']) {
    await click(page, `#consumer-${c} [data-act="receive"]`);
    await click(page, `#consumer-${c} [data-act="ack"]`);
  }
  r = await ring(page);
  assert.equal(r.nextState, 'maint() truncates it next', 'every cursor passed: the engine says it is ready');
  assert.deepEqual(r.holds, []);
  await click(page, '#maint');
  assert.match(await page.textContent('#last-outcome'), /event_1_1/);
  r = await ring(page);
  assert.deepEqual([r.current, r.next], [[1], [2]], 'the current table moved round');
  assert.deepEqual(r.cursors, { billing: 'caught-up', audit: 'caught-up', email: 'caught-up' });
  await click(page, '#send-one');
  r = await ring(page);
  assert.deepEqual(r.cursors, { billing: '1', audit: '1', email: '1' }, 'event 2 is in the new current table');
  assert.match(r.facts[0], /^Current table, where send writes: pgque\.event_1_1, 1 event\./);
  await page.locator('#table-ring').screenshot({ path: `${ARTIFACTS}/pgq-ring-rotated-en.png` });
  assert.deepEqual(await violations(page), [], 'axe: no WCAG A/AA violations with the ring');
  assert.deepEqual(page.errors, []);
});

test('the ring reads in Korean: its labels, caption and text alternative from the catalog', async () => {
  const page = await openLab('ko');
  await click(page, '#send-one');
  await click(page, '#tick');
  await click(page, '#consumer-billing [data-act="receive"]');
  await click(page, '#consumer-billing [data-act="ack"]');
  const r = await ring(page);
  assert.deepEqual(r.cursors, { billing: 'caught-up', email: '0' });
  assert.equal(await page.textContent('#table-ring .role-current'), '현재');
  assert.equal(await page.textContent('#table-ring .send-here'), 'send가 여기에 씀');
  assert.equal(await page.textContent('#table-ring .role-next'), '다음 TRUNCATE 대상');
  assert.equal(await page.textContent('#table-ring .caught-title'), '다 읽음');
  assert.equal(await page.textContent('#ring-title'), '이벤트 테이블을 고리로 보기');
  assert.ok(r.label.startsWith('이벤트 테이블을 고리로 보기 현재 테이블(send가 쓰는 곳): pgque.event_1_0, 이벤트 1개.'), r.label);
  assert.ok(r.facts.includes('billing: 다 읽음. 커밋된 이벤트를 모두 ack했습니다.'), r.facts.join(' | '));
  await page.locator('#table-ring').screenshot({ path: `${ARTIFACTS}/pgq-ring-ko.png` });
  assert.deepEqual(await violations(page), [], 'axe (ko): no WCAG A/AA violations with the ring');
  assert.deepEqual(page.errors, []);
});

test('the ring at 360 px in the dark: the page does not scroll sideways, the picture scrolls in its box', async () => {
  const page = await openLab('ko', { width: 360, height: 800, colorScheme: 'dark' });
  await click(page, '#send-one');
  await click(page, '#tick');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than the screen`);
  // Dark mode reaches the picture: the current table is drawn in the dark palette's accent.
  const fill = await page.evaluate(() => getComputedStyle(document.querySelector('#table-ring g.table.current path')).fill);
  assert.equal(fill, 'rgb(127, 176, 224)');
  await page.locator('#table-ring').screenshot({ path: `${ARTIFACTS}/pgq-ring-picture-360-dark-ko.png` });
  await shot(page, 'pgq-ring-360-dark-ko');
  assert.deepEqual(page.errors, []);
});
