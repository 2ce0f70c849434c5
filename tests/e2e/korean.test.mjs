// Korean mode shows Korean: every lab in one tab, after its default actions, scanned for
// English words outside code. SQL, identifiers and names (PostgreSQL, PgQue, Kafka…) are
// not translated and are allowed; any other Latin word is a text that skipped the catalog.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, shot, startPostgres } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await serve('/');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

/** Names and terms that stay in English in the Korean texts, as they do in Korean writing. */
const KEPT = new Set(
  [
    'PostgreSQL', 'Postgres', 'PGlite', 'PgQ', 'PgQue', 'Kafka', 'Redpanda', 'RabbitMQ', 'Redis',
    'Brandur', 'PlanetScale', 'River', 'Oban', 'Graphile', 'Worker', 'Solid', 'Queue', 'pg-boss',
    'Procrastinate', 'pgmq', 'Hatchet', 'MacBook', 'Air', 'MySQL', 'Skype', 'Apache', 'Linux',
    'Failure', 'Job', 'Queues', 'By', 'MVCC', 'pageinspect', 'pg_visibility', 'pgcheck', 'cargo',
    'txid', 'xmin', 'xmax', 'ctid', 'ms', 'KB', 'kB', 'MB', 'GB', 'jobs', 'orders', 'ev_id',
    'billing', 'email', 'compare', 'queue', 'maint', 'ticker', 'tick', 'send', 'receive', 'ack',
    'nack', 'subscribe', 'unsubscribe', 'status', 'ready', 'running', 'done', 'dead', 'run_at',
    'priority', 'attempts', 'max_attempts', 'locked_until', 'payload', 'now', 'lab',
  ].map((w) => w.toLowerCase()),
);

/** Latin words in visible text outside code, SQL, inputs and the SQL log. */
async function englishWords(page) {
  return page.evaluate(() => {
    const skip = 'code, pre, kbd, samp, textarea, input, select, .mono, .sql-log, script, style, noscript, [translate="no"], svg';
    const words = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(skip)) continue;
      if (!el.getClientRects().length) continue; // hidden
      for (const m of n.textContent.matchAll(/[A-Za-z][A-Za-z0-9_'’.-]*[A-Za-z0-9_]/g)) {
        words.push({ word: m[0], where: (el.id ? '#' + el.id : el.tagName.toLowerCase()) + ': ' + n.textContent.trim().slice(0, 80) });
      }
    }
    return words;
  });
}

function untranslated(found) {
  return found.filter(({ word }) => {
    if (word.length < 3) return false;
    if (/^[A-Z0-9_ -]+$/.test(word)) return false; // SQL keywords and acronyms: SELECT, SKIP, LOCKED, FIFO
    if (/[_(]|\.\w/.test(word)) return false; // identifiers: locked_until, pgq.send
    if (/^[a-z]+\d/.test(word)) return false; // event_1_0-like names, L3
    return !KEPT.has(word.toLowerCase());
  });
}

async function expectKorean(page, label) {
  const bad = untranslated(await englishWords(page));
  const unique = [...new Map(bad.map((b) => [b.word + b.where, b])).values()];
  if (unique.length) await shot(page, `korean-${label}`);
  assert.deepEqual(unique, [], `${label}: English shown in Korean mode`);
}

async function enabled(page, selector, timeout = 120_000) {
  await page.waitForFunction((s) => {
    const b = document.querySelector(s);
    return b && !b.disabled;
  }, selector, { timeout });
}

test('no English words in Korean mode on any lab after its default actions', async () => {
  const page = await newPage(browser, { width: 1280, height: 900 });
  await page.goto(`${server.url}?lang=ko`);
  await expectKorean(page, 'home');

  await page.goto(`${server.url}?lang=ko#/jobs`);
  await startPostgres(page);
  await page.waitForSelector('#jobs-table');
  for (const step of [0, 2, 3, 4, 5]) {
    await page.click(`button.tour-run[data-step="${step}"]`);
    await enabled(page, '#enqueue');
    await expectKorean(page, `jobs-tour-${step + 1}`);
  }

  await page.goto(`${server.url}?lang=ko#/workers`);
  await enabled(page, '#w-run');
  await page.click('#w-run');
  await page.waitForSelector('#w-results');
  await enabled(page, '#w-run');
  await expectKorean(page, 'workers');

  await page.goto(`${server.url}?lang=ko#/vacuum`);
  await enabled(page, '#vacuum-run');
  await page.fill('#vacuum-jobs', '2,000');
  await page.fill('#vacuum-rounds', '2');
  await page.click('#vacuum-run');
  await page.waitForSelector('#vacuum-notice', { timeout: 180_000 });
  await enabled(page, '#vacuum-run');
  await page.click('#vacuum-vacuum');
  await page.waitForSelector('#vacuum-removed', { timeout: 60_000 });
  await enabled(page, '#vacuum-run');
  await expectKorean(page, 'vacuum');

  await page.goto(`${server.url}?lang=ko#/pgq`);
  await enabled(page, '#tick');
  for (const sel of ['#send-one', '#tick', '#consumer-billing [data-act="receive"]', '#consumer-billing [data-act="ack"]', '#maint']) {
    await page.click(sel);
    await enabled(page, '#tick');
  }
  await expectKorean(page, 'pgq');

  await page.goto(`${server.url}?lang=ko#/leave`);
  await page.waitForSelector('main h1');
  await expectKorean(page, 'leave');
});
