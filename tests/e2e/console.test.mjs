// The SQL console and the SQL log in Chromium: copy (a log entry's statement; a result as CSV
// and as psql's aligned text) onto the real clipboard, psql's describe commands (`\d jobs`
// through psql-describe, in the lab's search path), `?sql=` pre-filling without running,
// and axe-core on the console with its results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, newPage, shot, startPostgres, useSite, violations } from './harness.mjs';

const site = useSite();

async function openLab(lang = 'en', { query = '', clipboard = true } = {}) {
  const page = await newPage(site.browser);
  if (clipboard) {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.server.url).origin });
  }
  await page.goto(`${site.server.url}?lang=${lang}${query}#/jobs`);
  return page;
}

async function started(page) {
  await startPostgres(page);
  await page.waitForSelector('#jobs-table');
  await page.waitForFunction(() => !document.querySelector('#console-run')?.disabled, null, { timeout: 60_000 });
}

/** Types `sql` into the console and runs it; waits for its answer (rows, text or error). */
async function run(page, sql) {
  const before = Number(await page.getAttribute('.console-result', 'data-answers'));
  await page.fill('#console-input', sql);
  await page.click('#console-run');
  await page.waitForFunction((n) => Number(document.querySelector('.console-result').dataset.answers) > n, before, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('#console-run').disabled);
}

const clipboardText = (page) => page.evaluate(() => navigator.clipboard.readText());

// The columns of the article's jobs table and the lab's ordering key, as src/sql/jobs/schema.sql
// creates them, each with the type psql names.
function jobsColumns() {
  const sql = fs.readFileSync(path.join(ROOT, 'src/sql/jobs/schema.sql'), 'utf8');
  const body = sql.match(/create table jobs \(([\s\S]*?)\n\);/)[1];
  const names = body.split('\n').map((l) => l.trim().match(/^([a-z_]+)\s+[a-z]/)?.[1]).filter(Boolean);
  for (const m of sql.matchAll(/alter table jobs add column ([a-z_]+)/g)) names.push(m[1]);
  return names;
}

test('copy on a SQL log entry puts its statement, as shown, on the clipboard, by keyboard, and says so', async () => {
  const page = await openLab('en');
  await started(page);
  const entry = page.locator('.sql-log:not(.last-sql) .log-entry').first();
  const shown = (await entry.locator('pre.sql').textContent()).trim();
  assert.ok(shown.length > 0);
  await entry.locator('button.copy').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#sql-log-copy-status')?.textContent.trim() === 'Copied.');
  assert.equal(await clipboardText(page), shown);
  // The last action's panel copies its (comment-less) text the same way.
  await page.waitForFunction(() => !document.querySelector('#enqueue')?.disabled && document.querySelector('.jobs-lab')?.getAttribute('aria-busy') === 'false', null, { timeout: 60_000 });
  await page.click('#enqueue');
  await page.waitForSelector('#last-sql .log-entry');
  const last = page.locator('#last-sql .log-entry').first();
  const lastShown = (await last.locator('pre.sql').textContent()).trim();
  await last.locator('button.copy').click();
  await page.waitForFunction(() => document.querySelector('#last-sql-copy-status')?.textContent.trim() === 'Copied.');
  assert.equal(await clipboardText(page), lastShown);
});

test('a console result copies as CSV with RFC 4180 quoting and as psql\'s aligned text', async () => {
  const page = await openLab('en');
  await started(page);
  await run(page, `select 1 as n, 'a,b "c"' as t, null::text as z, '' as e union all select 22, 'x' || chr(10) || 'y', 'k', 'v' order by n`);
  await page.click('#console-copy-csv');
  await page.waitForFunction(() => document.querySelector('#console-copy-status')?.textContent.trim() === 'Copied.');
  assert.equal(await clipboardText(page), 'n,t,z,e\r\n1,"a,b ""c""",,""\r\n22,"x\ny",k,v\r\n');
  await run(page, `select 1 as n, 'ready' as status union all select 10, null`);
  await page.click('#console-copy-text');
  await page.waitForFunction(() => document.querySelector('#console-copy-status')?.textContent.trim() === 'Copied.');
  assert.equal(await clipboardText(page), ' n  | status\n----+--------\n  1 | ready\n 10 |\n(2 rows)\n');
});

test('a refused clipboard (no Clipboard API, as in an insecure context) says how to copy instead, in Korean too', async () => {
  const page = await openLab('ko', { clipboard: false });
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
  await page.reload();
  await started(page);
  await page.locator('.sql-log:not(.last-sql) .log-entry button.copy').first().click();
  await page.waitForFunction(() => /직접 복사하세요/.test(document.querySelector('#sql-log-copy-status')?.textContent ?? ''));
});

test('\\d jobs in L1 lists the article\'s jobs columns as psql does; \\dt the lab\'s tables; errors show as errors', async () => {
  const page = await openLab('en');
  await started(page);
  await run(page, '\\d jobs');
  const out = await page.textContent('#console-describe');
  assert.match(out, /Table "jobs_lab\.jobs"/);
  assert.match(out, /Column\s+\|\s+Type\s+\|\s+Collation\s+\|\s+Nullable\s+\|\s+Default/);
  const columns = jobsColumns();
  assert.equal(columns.length, 11, `columns read from schema.sql: ${columns}`);
  for (const c of columns) assert.match(out, new RegExp(`^ ${c}\\s+\\|`, 'm'), `\\d jobs lists ${c}`);
  assert.match(out, /^ id\s+\| bigint\s+\|\s+\| not null \| generated always as identity/m);
  assert.match(out, /^ run_at\s+\| timestamp with time zone \|\s+\| not null \| now\(\)/m);
  assert.match(out, /"jobs_ready" btree \(queue, priority DESC, run_at\) WHERE status = 'ready'::text/);
  // Its text copies as shown.
  await page.click('#console-copy-describe');
  await page.waitForFunction(() => document.querySelector('#console-copy-status')?.textContent.trim() === 'Copied.');
  assert.equal(await clipboardText(page), out);

  await run(page, '\\dt');
  const tables = await page.textContent('#console-describe');
  assert.match(tables, /List of tables/);
  for (const t of ['jobs', 'orders', 'effects']) assert.match(tables, new RegExp(`jobs_lab \\| ${t}\\s+\\| table`));

  await run(page, '\\d no_such_table');
  assert.match(await page.textContent('#console-describe'), /Did not find any relation named "no_such_table"\./);

  // Inside a failed transaction psql's catalog query fails: Postgres's error, as an error.
  await run(page, 'begin; select 1/0;');
  await run(page, '\\d jobs');
  assert.match(await page.textContent('.console-result .error'), /current transaction is aborted/);
  await run(page, 'rollback');
  await shot(page, 'console-describe-en');
});

test('?sql=select 1 pre-fills the console and runs nothing until Run is pressed', async () => {
  const page = await openLab('en', { query: '&sql=select%201' });
  await page.waitForSelector('#console-input');
  assert.equal(await page.inputValue('#console-input'), 'select 1');
  await started(page);
  // The lab's own statements ran; the console's did not.
  assert.equal(await page.locator('#console-summary').count(), 0);
  const logged = await page.locator('.sql-log pre.sql').allTextContents();
  assert.ok(logged.length > 0);
  assert.ok(!logged.some((s) => s.trim() === 'select 1'), 'select 1 is not in the SQL log before Run');
  await page.click('#console-run');
  await page.waitForSelector('#console-summary');
  assert.match(await page.textContent('#console-summary'), /1 row/);
});

test('?sql= with markup shows it as text in the console, never as HTML', async () => {
  const page = await openLab('en', { query: `&sql=${encodeURIComponent('select \'<img src=x onerror=alert(1)>\'')}` });
  await page.waitForSelector('#console-input');
  assert.equal(await page.inputValue('#console-input'), "select '<img src=x onerror=alert(1)>'");
  assert.equal(await page.locator('.console img').count(), 0);
});

for (const lang of ['en', 'ko']) {
  test(`axe: no WCAG A/AA violations on the console with a result, its copy buttons and \\d output (${lang})`, async () => {
    const page = await openLab(lang);
    await started(page);
    await run(page, 'select id, status, payload from jobs');
    await page.click('#console-copy-csv');
    await page.waitForFunction(() => document.querySelector('#console-copy-status')?.textContent.trim() !== '');
    let found = await violations(page);
    assert.deepEqual(found, [], 'with a result table');
    await run(page, '\\d jobs');
    await page.click('#console-copy-describe');
    found = await violations(page);
    if (found.length) await shot(page, `console-a11y-${lang}`);
    assert.deepEqual(found, [], 'with \\d output');
  });
}
