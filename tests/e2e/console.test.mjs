// The SQL console and the SQL log in Chromium: copy (a log entry's statement; a result as CSV
// and as psql's aligned text) onto the real clipboard, psql's describe commands (`\d jobs`
// through psql-describe, in the lab's search path), `?sql=` pre-filling without running,
// and axe-core on the console with its results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, newPage, shot, startPostgres, useSite, violations, runInConsole, consoleSteps } from './harness.mjs';

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
  await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('#console-run'))?.disabled, null, { timeout: 60_000 });
}

/** Types `sql` into the console and runs it; waits for its answer (rows, text or error). */
const run = runInConsole;

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
  await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('#enqueue'))?.disabled && document.querySelector('.jobs-lab')?.getAttribute('aria-busy') === 'false', null, { timeout: 60_000 });
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

// The console as a psql user expects it (issue #37): every statement's result in order, the
// notices each raised, psql's ON_ERROR_STOP=1, PostgreSQL's command tags, psql variables bound
// as parameters, and a hint for what a tab cannot run.

const steps = consoleSteps;

test('several statements: each one\'s result in order, a table or PostgreSQL\'s command tag', async () => {
  const page = await openLab('en');
  await started(page);
  await run(page, `create temp table console_multi (n int);
insert into console_multi values (1), (2);
select n from console_multi order by n;
update console_multi set n = n + 10;
select count(*) as c, sum(n) as s from console_multi;
drop table console_multi;`);
  const got = await steps(page);
  assert.deepEqual(got.map((s) => s.step), [1, 2, 3, 4, 5, 6]);
  assert.equal(got[0].summary, 'CREATE TABLE');
  assert.match(got[1].summary, /^INSERT 0 2 · 2 rows affected$/);
  assert.deepEqual(got[2].cells, [['1'], ['2']]);
  assert.match(got[2].summary, /^2 rows$/);
  assert.match(got[3].summary, /^UPDATE 2/);
  assert.deepEqual(got[4].cells, [['2', '23']]);
  assert.equal(got[5].summary, 'DROP TABLE');
  assert.equal(got[0].stmt, 'create temp table console_multi (n int)', 'each step shows its statement');
  // The last step's summary keeps the id a single statement's has.
  assert.equal(await page.textContent('#console-summary'), 'DROP TABLE');
  assert.equal(await page.locator('#console-stopped').count(), 0);
  await shot(page, 'console-multi-en');
});

test('a failed statement shows its error and caret, says its number, and nothing after it runs (ON_ERROR_STOP=1)', async () => {
  const page = await openLab('en');
  await started(page);
  await run(page, 'create temp table console_stop (n int);\nselect 1 as one;\nselec 2;\ninsert into console_stop values (1);\nselect 3;');
  const got = await steps(page);
  assert.equal(got.length, 3, 'statements 4 and 5 did not run');
  assert.deepEqual(got[1].cells, [['1']]);
  assert.ok(got[2].failed);
  assert.match(got[2].error, /syntax error at or near "selec"/);
  assert.match(got[2].error, /SQLSTATE 42601/);
  assert.equal(got[2].caret, 'LINE 1: selec 2\n        ^');
  assert.match(await page.textContent('#console-stopped'), /^Statement 3 of 5 failed\. .*the 2 statements after it did not run\.$/);
  await run(page, 'select count(*) as n from console_stop');
  assert.deepEqual((await steps(page))[0].cells, [['0']], 'the insert after the failure never ran');
  await run(page, 'drop table console_stop');
});

test('notices and warnings show with their statement and severity, also when the statement fails', async () => {
  const page = await openLab('en');
  await started(page);
  await run(page, `select 1 as before;
do $$ begin raise notice 'hello %', 42; raise warning 'careful' using hint = 'mind the gap'; end $$;
do $$ begin raise notice 'about to fail'; perform 1 / 0; end $$;`);
  const got = await steps(page);
  assert.equal(got.length, 3);
  assert.equal(got[0].notices, null, 'the first statement raised none');
  assert.equal(got[1].notices, 'NOTICE:  hello 42\nWARNING:  careful\nHINT:  mind the gap');
  assert.equal(got[1].summary, 'DO');
  assert.equal(got[2].notices, 'NOTICE:  about to fail');
  assert.match(got[2].error, /division by zero/);
});

test('COMMIT (or END) of an aborted transaction answers ROLLBACK, as PostgreSQL reports it', async () => {
  const page = await openLab('en');
  await started(page);
  await run(page, 'begin; select 1/0;');
  await page.waitForSelector('#console-tx');
  await run(page, 'commit;');
  assert.equal(await page.textContent('#console-summary'), 'ROLLBACK');
  await page.waitForSelector('#console-tx', { state: 'detached' });
  await run(page, 'begin; select 1/0;');
  await run(page, 'end');
  assert.equal(await page.textContent('#console-summary'), 'ROLLBACK');
  // A transaction that did not fail commits.
  await run(page, 'begin; commit;');
  assert.deepEqual((await steps(page)).map((s) => s.summary), ['BEGIN', 'COMMIT']);
});

test('\\gset stores one row\'s columns, :name and :\'name\' reach SQL as bound parameters, \\set and \\echo', async () => {
  const page = await openLab('en');
  await started(page);
  await run(page, "select 41 + 1 as answer, 'x''); select 1/0; --' as evil \\gset");
  assert.match(await page.textContent('#console-summary'), /`?\\gset`? stored answer, evil\./);
  await run(page, "select :answer::int + 1 as next, :'evil' as evil, ':answer' as quoted, 2::int as typed;\n\\echo answer is :answer");
  let got = await steps(page);
  assert.deepEqual(got[0].cells, [['43', "x'); select 1/0; --", ':answer', '2']], 'the value is bound: no statement inside it ran');
  assert.equal(got[0].stmt, 'select $1::int + 1 as next, $2 as evil, \':answer\' as quoted, 2::int as typed');
  assert.equal(got[0].params, "Variables bound as parameters: $1 = '42', $2 = 'x''); select 1/0; --'");
  assert.equal(got[1].echo, 'answer is 42');
  // The SQL log has the statement as sent, with its parameters.
  const logged = await page.locator('.sql-log pre.sql').allTextContents();
  assert.ok(logged.some((s) => s.includes('select $1::int + 1 as next')), 'logged with $1');

  // psql's rules and words: exactly one row.
  await run(page, 'select g from generate_series(1, 2) as g \\gset\nselect 1;');
  got = await steps(page);
  assert.equal(got.length, 1);
  assert.match(got[0].error, /more than one row returned for \\gset/);
  await run(page, 'select 1 as x where false \\gset');
  assert.match((await steps(page))[0].error, /no rows returned for \\gset/);

  await run(page, '\\set n 7\nselect :n::int * 6 as product;\n\\echo :n :nope');
  got = await steps(page);
  assert.deepEqual(got[1].cells, [['42']]);
  assert.equal(got[2].echo, '7 :nope', 'an unset variable stays as typed');
  // An unset variable reaches the server as typed: its error, not a silent empty value.
  await run(page, 'select :nope;');
  assert.match((await steps(page))[0].error, /syntax error at or near ":"/);
});

for (const lang of ['en', 'ko']) {
  test(`psql commands a tab cannot run get a hint, not a syntax error; so does pg_cron (${lang})`, async () => {
    const page = await openLab(lang);
    await started(page);
    await run(page, "begin;\n\\i sql/pgque.sql\ncommit;\n\\x\n\\timing on\n\\c mydb\n\\q\nselect cron.schedule('daily', '0 9 * * *', $$select 1$$);\n\\frobnicate\nselect 'after' as s;");
    const got = await steps(page);
    assert.equal(got.length, 10, 'every step ran: a hint stops nothing');
    assert.equal(got[0].summary, 'BEGIN');
    assert.equal(got[2].summary, 'COMMIT', 'the transaction the tutorial opens around \\i is committed');
    for (const i of [1, 3, 4, 5, 6, 7, 8]) {
      assert.ok(got[i].note, `step ${i + 1} has a hint`);
      assert.equal(got[i].error, null, `step ${i + 1} is no error`);
    }
    if (lang === 'en') {
      assert.match(got[1].note, /\\i sql\/pgque\.sql reads a file.*installed already/);
      assert.match(got[3].note, /\\x sets psql's output format/);
      assert.match(got[4].note, /SQL log below shows every statement's time/);
      assert.match(got[5].note, /one database/);
      assert.match(got[6].note, /nothing to quit/);
      assert.match(got[7].note, /Not run: a tab has no pg_cron\. In L4, pgque\.start\(\) schedules PgQue's jobs on the lab clock.*call pgque\.run_jobs\(now\(\) \+ interval '30 seconds'\)/);
      assert.match(got[8].note, /psql's \\frobnicate does not run in the lab's console/);
    } else {
      assert.match(got[1].note, /파일을 읽는 명령인데, 탭에는 파일이 없습니다/);
      assert.match(got[7].note, /탭에는 pg_cron이 없습니다/);
      assert.match(got[8].note, /실험실 콘솔에서 실행되지 않습니다/);
    }
    assert.deepEqual(got[9].cells, [['after']]);
    await page.waitForSelector('#console-tx', { state: 'detached' });
    const found = await violations(page);
    assert.deepEqual(found, [], 'axe, with hints and several steps');
  });
}
