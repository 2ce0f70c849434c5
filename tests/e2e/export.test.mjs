// Take a lab to a real server (#25): "Download as SQL" of L1, L3 and L4 loads with psql -f
// into a fresh database on the local PostgreSQL server (QUEUE_LAB_PG_URL, which ./lab test
// sets: scripts/pg-local.sh), and each table's row count and a checksum of its rows there
// equal the same query run in the page's own SQL console; and L1's tour, run in the page,
// downloaded "as script" and replayed with psql -f on an empty database, leaves the same
// jobs table as the page's. Without the server the tests are skipped, except in CI
// (CI=true), where a missing server fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { newPage, pgqIdle, startPostgres, useSite } from './harness.mjs';

const PG = process.env.QUEUE_LAB_PG_URL;
const skip = PG ? false : 'QUEUE_LAB_PG_URL is not set (scripts/pg-local.sh start prints it)';

test('CI gives these tests a PostgreSQL server (QUEUE_LAB_PG_URL)', () => {
  if (process.env.CI === 'true') assert.ok(PG, 'CI=true but QUEUE_LAB_PG_URL is not set');
});

const site = useSite();

/** The URL of database `name` on the server of QUEUE_LAB_PG_URL. */
function dbUrl(name) {
  const u = new URL(PG);
  u.pathname = `/${name}`;
  return u.href;
}

function psql(url, args, env = {}) {
  return execFileSync('psql', [url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });
}

let made = 0;
/** A fresh database for `fn(url)`, dropped after it. */
async function withDatabase(fn) {
  const name = `queue_lab_export_${process.pid}_${++made}`;
  psql(PG, ['-c', `drop database if exists ${name}`, '-c', `create database ${name}`]);
  try {
    return await fn(dbUrl(name));
  } finally {
    psql(PG, ['-c', `drop database if exists ${name} with (force)`]);
  }
}

/** Per table of the schemas matching `patterns` (LIKE): its row count and the md5 of its rows'
 * text, sorted; one line per table. The same query on the server and in the page. */
function sumsSql(patterns) {
  const like = patterns.map((p) => `'${p}'`).join(', ');
  return `coalesce((select string_agg(format('%s %s %s', t.name, (xpath('/row/n/text()', t.x))[1], (xpath('/row/h/text()', t.x))[1]), ' | ' order by t.name)
    from (select format('%I.%I', n.nspname, c.relname) as name,
                 query_to_xml(format('select count(*) as n, md5(coalesce(string_agg(r::text, chr(10) order by r::text), '''')) as h from %I.%I r', n.nspname, c.relname), false, true, '') as x
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where c.relkind = 'r' and n.nspname like any (array[${like}])) t), 'no tables')`;
}

/** Runs `sql` (one expression) in the page's SQL console; its text. */
async function consoleValue(page, sql) {
  const nonce = `n${Math.random().toString(36).slice(2)}`;
  await page.fill('#console-input', `select '${nonce}' as nonce, ${sql} as value`);
  await page.click('#console-run');
  const got = await page.waitForFunction((n) => {
    const box = document.querySelector('.console-result');
    const err = box?.querySelector('.error, [role="alert"]');
    const cells = [...(box?.querySelectorAll('table.result tbody tr:first-child td') ?? [])].map((t) => t.textContent);
    if (cells[0] === n) return { value: cells[1] };
    if (err && !/** @type {HTMLButtonElement} */ (document.querySelector('#console-run'))?.disabled) return { error: err.textContent.trim() };
    return null;
  }, nonce, { timeout: 120_000, polling: 50 }).then((h) => h.jsonValue());
  assert.equal(got.error, undefined, `the console's query failed: ${got.error}`);
  return got.value;
}

/** Clicks `button` and returns the downloaded file's text. */
async function download(page, button) {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.click(button)]);
  return fs.readFileSync(await dl.path(), 'utf8');
}

/** The page's time zone, so timestamps print the same on the server. */
async function timeZone(page) {
  return consoleValue(page, `current_setting('TimeZone')`);
}

/** Loads `file` into a fresh database and returns sumsSql(patterns) there. */
async function loadAndSum(text, patterns, tz) {
  const file = `/tmp/queue-lab-export-${process.pid}-${++made}.sql`;
  fs.writeFileSync(file, text);
  try {
    return await withDatabase(async (url) => {
      psql(url, ['-f', file], { PGTZ: tz });
      return psql(url, ['-At', '-c', `select ${sumsSql(patterns)}`], { PGTZ: tz }).trim();
    });
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function exportMatches(page, patterns) {
  const tz = await timeZone(page);
  const inTab = await consoleValue(page, sumsSql(patterns));
  assert.doesNotMatch(inTab, /^no tables$/);
  const text = await download(page, '#export-sql');
  assert.match(text, /^-- Queue Lab /, 'the file says what it is');
  const onServer = await loadAndSum(text, patterns, tz);
  assert.equal(onServer, inTab, 'row counts and checksums on the server equal the tab\'s');
  return inTab;
}

async function l1Idle(page) {
  await page.waitForFunction(() => !/** @type {HTMLButtonElement} */ (document.querySelector('#enqueue'))?.disabled && document.querySelector('.jobs-lab')?.getAttribute('aria-busy') === 'false', null, { timeout: 60_000 });
}

/** L1 with PostgreSQL started and the lab idle. */
async function openL1() {
  const page = await newPage(site.browser);
  await page.goto(`${site.server.url}?lang=en#/jobs`);
  await startPostgres(page);
  await page.waitForSelector('#jobs-table');
  await l1Idle(page);
  return page;
}

test('L1 downloaded as SQL loads on the server with the same rows', { skip }, async () => {
  const page = await openL1();
  for (const n of [0, 2, 3]) {
    await page.click(`button.tour-run[data-step="${n}"]`);
    await l1Idle(page);
  }
  const sums = await exportMatches(page, ['jobs_lab', 'lab']);
  assert.match(sums, /jobs_lab\.jobs [1-9]/, 'the jobs table has rows');
});

test('L1\'s tour, downloaded as a script, replays on an empty database to the same jobs table', { skip }, async () => {
  const page = await openL1();
  const all = await page.locator('button.tour-run').count();
  assert.ok(all >= 5, `the tour has its steps (${all})`);
  // The last step reads NOTIFY's queue size, max_notify_queue_pages, a setting PostgreSQL 17
  // added: on an older server the tour replays without it (the script's header says so).
  const major = Number(psql(PG, ['-At', '-c', 'show server_version_num']).trim().slice(0, -4));
  const steps = major >= 17 ? all : all - 1;
  for (let n = 0; n < steps; n++) {
    await page.click(`button.tour-run[data-step="${n}"]`);
    await l1Idle(page);
  }
  const tz = await timeZone(page);
  const jobs = `coalesce((select string_agg(j::text, chr(10) order by j.id) from jobs_lab.jobs j), 'empty')`;
  const inTab = await consoleValue(page, jobs);
  const script = await download(page, '#export-script');
  assert.match(script, /^-- Queue Lab [^\n]*as a script/);
  assert.match(script, /create or replace function lab\.now\(\)/, 'the script carries the lab clock\'s setup');
  assert.doesNotMatch(script.replace(/^--.*$/gm, ''), /\$[1-9]/, 'no parameter is left unbound outside comments');
  const file = `/tmp/queue-lab-export-script-${process.pid}.sql`;
  fs.writeFileSync(file, script);
  try {
    const replayed = await withDatabase(async (url) => {
      psql(url, ['-f', file], { PGTZ: tz });
      return psql(url, ['-At', '-c', `select ${jobs}`], { PGTZ: tz }).trim();
    });
    assert.notEqual(inTab, 'empty', 'the tour leaves jobs');
    assert.equal(replayed, inTab, 'the replayed jobs table equals the tab\'s');
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test('L3 (a short run) downloaded as SQL loads on the server with the same rows', { skip }, async () => {
  const page = await newPage(site.browser);
  await page.goto(`${site.server.url}?lang=en#/vacuum`);
  await startPostgres(page);
  await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])', { timeout: 60_000 });
  await page.fill('#vacuum-jobs', '200');
  await page.fill('#vacuum-rounds', '1');
  await page.click('#vacuum-run');
  await page.waitForSelector('#vacuum-notice', { timeout: 180_000 });
  await page.waitForSelector('[aria-busy="false"] #vacuum-run:not([disabled])', { timeout: 60_000 });
  const sums = await exportMatches(page, ['vacuum_lab', 'vac\\_%', 'lab']);
  assert.match(sums, /vac_/, 'the strategies\' tables are in it');
});

test('L4 downloaded as SQL loads on the server with the same rows', { skip }, async () => {
  const page = await newPage(site.browser);
  await page.goto(`${site.server.url}?lang=en#/pgq`);
  await startPostgres(page);
  await page.waitForSelector('#tick', { timeout: 60_000 });
  const idle = () => pgqIdle(page);
  await idle();
  for (const button of ['#send-one', '#tick', '#consumer-billing [data-act="receive"]', '#send-one']) {
    await page.click(button);
    await idle();
  }
  const sums = await exportMatches(page, ['pgq_lab', 'pgque', 'pgq\\_compare', 'lab']);
  assert.match(sums, /pgque\./, 'PgQue\'s tables are in it');
});
