// A seeded, model-based random walk through the five labs in one tab (issue #23, item 5).
//
// A seed (mulberry32) picks every action and every value it types; the page never steers the
// choice (a button found disabled is recorded as skipped, the random stream goes on the same),
// so a seed replays the same actions. After every step the walk checks:
//   - no page error, unhandled rejection or panic;
//   - nothing stays busy (a lab's aria-busy, the console's Run, the start panel) beyond
//     BUSY_BOUND_MS, and PostgreSQL is not reported stopped unless the step stopped it;
//   - the model: the page's language and route, L1's job counts after an enqueue or a
//     rolled-back order, an L1 share link replaying to the same table, Reset emptying L1;
//   - a challenge under way: whether it is solved, its state line and "why it matters" agree;
//     and every challenge seen solved stays in the stored progress and marked in the list;
//   - the SQL labs' tables on screen equal a query of their own schema, read through the
//     page's own SQL console (it runs on the lab's PGlite, in the lab's search path):
//     L1's jobs table and counts against `jobs`, L4's consumer cards (cursor, events not
//     acked) against `pgque.consumer_report('orders')`.
// The screen is read before the console's query: the query makes the lab read its tables
// again, which would hide a table that an action left stale.
import { startPostgres, switchLanguage } from '../harness.mjs';

export const BUSY_BOUND_MS = 30_000;
const LABS = ['jobs', 'workers', 'vacuum', 'pgq', 'leave'];
const SQL_LABS = ['jobs', 'vacuum', 'pgq'];

export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  constructor(seed) { this.next = mulberry32(seed); }
  int(lo, hi) { return lo + Math.floor(this.next() * (hi - lo + 1)); }
  pick(list) { return list[Math.floor(this.next() * list.length)]; }
  chance(p) { return this.next() < p; }
  /** One of `[weight, value]` pairs. */
  weighted(pairs) {
    const total = pairs.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of pairs) {
      if ((r -= w) < 0) return v;
    }
    return pairs[pairs.length - 1][1];
  }
}

/** A failure of the walk's checks, with what it found. */
class WalkError extends Error {}
const fail = (msg) => { throw new WalkError(msg); };

// ------------------------------------------------------------------ reading the page
const numbers = (text) => (text.match(/\d[\d,]*/g) ?? []).map((n) => Number(n.replace(/,/g, '')));
const timeOfDay = (ts) => (ts == null ? '' : (ts.split(' ')[1] ?? ts).slice(0, 8));
/** JSON with its keys sorted, so that jsonb's order and serde's compare equal. */
function canon(v) {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}
function canonText(text) {
  try { return canon(JSON.parse(text)); } catch { return text; }
}

/** What is busy on the page now (a list of names, empty when all is idle), and what the
 *  busy parts show (their text and progress bars): a run that shows progress is not stuck. */
async function busyNow(page) {
  return page.evaluate(() => {
    const name = (el) => {
      const h = el.querySelector('h1, h2');
      return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className ? '.' + String(el.className).split(' ').join('.') : ''}${h ? ` ("${h.textContent.trim().slice(0, 40)}")` : ''}`;
    };
    const areas = [...document.querySelectorAll('[aria-busy="true"]')];
    const busy = areas.map((el) => `${name(el)} aria-busy`);
    const run = /** @type {HTMLButtonElement | null} */ (document.querySelector('#console-run'));
    if (run && run.disabled && document.querySelector('#pg-version')) busy.push('the SQL console\'s Run button (disabled: a statement is running)');
    const loading = /** @type {HTMLProgressElement | null} */ (document.querySelector('#pg-progress'));
    if (loading) busy.push('the start panel (PostgreSQL loading)');
    const wait = document.querySelector('#lab-waiting');
    if (busy.length && wait) busy.push(`status line: "${wait.textContent.trim().slice(0, 160)}"`);
    const shows = areas.map((el) => `${el.textContent.length}:${[.../** @type {NodeListOf<HTMLProgressElement | HTMLMeterElement>} */ (el.querySelectorAll('progress, meter'))].map((p) => p.value).join(',')}`).join('|')
      + (loading ? loading.value : '');
    return { busy, shows };
  });
}

/** Waits until nothing is busy. Fails, naming what is, once something has been busy for
 *  `bound` ms with nothing it shows changing (a long run that shows its progress is not
 *  stuck), or busy at all for `cap` ms. */
async function idle(page, bound = BUSY_BOUND_MS, cap = 10 * BUSY_BOUND_MS) {
  const t0 = Date.now();
  let since = t0;
  let last = null;
  for (;;) {
    let now = await busyNow(page);
    if (now.busy.length === 0) {
      // Twice in a row, 50 ms apart: a refresh the last step caused may start just now.
      await page.waitForTimeout(50);
      now = await busyNow(page);
      if (now.busy.length === 0) return Date.now() - t0;
    }
    if (now.shows !== last) {
      last = now.shows;
      since = Date.now();
    }
    if (Date.now() - since > bound) fail(`stuck busy for over ${bound / 1000} s with nothing on it changing: ${now.busy.join('; ')}`);
    if (Date.now() - t0 > cap) fail(`busy for over ${cap / 1000} s: ${now.busy.join('; ')}`);
    await page.waitForTimeout(100);
  }
}

/** Runs `sql` in the page's SQL console; the answer's one row as { column: text }. */
async function consoleRow(page, sql, nonce) {
  await page.fill('#console-input', `select '${nonce}' as walk_nonce, ${sql}`);
  await page.click('#console-run');
  const got = await page.waitForFunction((n) => {
    const box = document.querySelector('.console-result');
    const err = box?.querySelector('.error, [role="alert"]');
    const table = box?.querySelector('table.result');
    if (table) {
      const heads = [...table.querySelectorAll('thead th')].map((t) => t.textContent);
      const cells = [...table.querySelectorAll('tbody tr:first-child td')].map((t) => t.textContent);
      if (cells[0] === n) return { row: Object.fromEntries(heads.map((h, i) => [h, cells[i]])) };
    }
    if (err && document.querySelector('#console-run') && !/** @type {HTMLButtonElement} */ (document.querySelector('#console-run')).disabled) {
      return { error: err.textContent.trim().slice(0, 300) };
    }
    return null;
  }, nonce, { timeout: BUSY_BOUND_MS, polling: 50 }).then((h) => h.jsonValue()).catch(() => null);
  if (!got) fail(`the SQL console gave no answer to the walk's check within ${BUSY_BOUND_MS / 1000} s`);
  if (got.error) fail(`the walk's check query failed in the SQL console: ${got.error}`);
  return got.row;
}

/** L1: the jobs table and counts on screen, read before the check's query. */
async function l1Screen(page) {
  return page.evaluate(() => ({
    rows: [...document.querySelectorAll('#jobs-table tbody tr')].map((tr) => {
      const td = [...tr.children].map((c) => c.textContent);
      return { id: Number(td[0]), status: td[1], priority: td[2], attempts: td[3], run_at: td[4], locked_until: td[5], last_error: td[7], payload: td[8] };
    }),
    counts: document.querySelector('#job-counts')?.textContent ?? '',
  }));
}

async function checkL1(page, nonce) {
  const screen = await l1Screen(page);
  const ids = screen.rows.map((r) => r.id).filter((n) => Number.isInteger(n));
  const row = await consoleRow(page, `
    coalesce((select json_agg(j order by j.id desc) from (
      select id, status, priority, attempts, max_attempts, run_at::text as run_at,
             locked_until::text as locked_until, last_error, payload
        from jobs where id in (select id from jobs order by id desc limit 50)
                     or id = any('{${ids.join(',')}}'::bigint[])) j), '[]')::text as jobs,
    (select json_build_array(count(*), count(*) filter (where status = 'ready'),
            count(*) filter (where status = 'running'), count(*) filter (where status = 'done'),
            count(*) filter (where status = 'dead')) from jobs)::text as counts;`, nonce);
  const db = JSON.parse(row.jobs);
  const counts = JSON.parse(row.counts);
  const shown = numbers(screen.counts);
  if (canon(shown) !== canon(counts)) {
    fail(`L1's counts on screen "${screen.counts.trim()}" differ from the jobs table: total, ready, running, done, dead = ${counts.join(', ')}`);
  }
  const byId = new Map(db.map((j) => [j.id, j]));
  const newest = db.map((j) => j.id).sort((a, b) => b - a).slice(0, 50);
  const missing = newest.filter((id) => !ids.includes(id));
  if (missing.length) fail(`L1's table on screen lacks job(s) ${missing.join(', ')}, among the newest 50 of the jobs table (on screen: ${ids.join(', ') || 'none'})`);
  for (const s of screen.rows) {
    const j = byId.get(s.id);
    if (!j) fail(`L1's table on screen shows job ${s.id}, which the jobs table does not have`);
    const want = {
      status: j.status, priority: String(j.priority), attempts: `${j.attempts}/${j.max_attempts}`,
      run_at: timeOfDay(j.run_at), locked_until: timeOfDay(j.locked_until), last_error: j.last_error ?? '',
      payload: canon(j.payload),
    };
    const have = { ...s, payload: canonText(s.payload) };
    for (const k of Object.keys(want)) {
      if (have[k] !== want[k]) fail(`L1's job ${s.id} shows ${k} = ${JSON.stringify(have[k])}, the jobs table has ${JSON.stringify(want[k])}`);
    }
  }
  return { jobs: counts[0], rows: screen.rows.length };
}

/** L4: each consumer card's name, cursor and events not acked. */
async function checkL4(page, nonce) {
  const screen = await page.evaluate(() => [...document.querySelectorAll('.consumers-panel article.worker[id^="consumer-"]')].map((a) => ({
    name: a.id.slice('consumer-'.length),
    cursor: a.querySelector('[data-field="cursor"]')?.textContent ?? '',
    lag: a.querySelector('p.muted')?.textContent ?? '',
  })));
  // The cards are the consumers and cooperative groups; a group's subconsumers, which
  // consumer_report lists too (as PgQue's get_consumer_info does), have cards of their own.
  const row = await consoleRow(page, `coalesce((select json_agg(json_build_array(consumer_name, last_tick, lag_events) order by consumer_name)
      from pgque.consumer_report('orders')
     where consumer_name not in (select sub_consumer from pgque.subscription where sub_role = 'coop_member')), '[]')::text as consumers;`, nonce);
  const db = JSON.parse(row.consumers);
  const names = screen.map((c) => c.name).sort();
  const dbNames = db.map((c) => c[0]).sort();
  if (canon(names) !== canon(dbNames)) fail(`L4's consumer cards (${names.join(', ') || 'none'}) differ from pgque.consumer_report('orders') without subconsumers (${dbNames.join(', ') || 'none'})`);
  for (const [name, tick, lag] of db) {
    const c = screen.find((s) => s.name === name);
    const cursor = numbers(c.cursor)[0];
    if (cursor !== Number(tick)) fail(`L4's consumer ${name} shows "${c.cursor.trim()}", consumer_report has last_tick ${tick}`);
    const shownLag = numbers(c.lag)[1];
    if (shownLag !== Number(lag)) fail(`L4's consumer ${name} shows "${c.lag.trim()}", consumer_report has lag_events ${lag}`);
  }
  return { consumers: db.length };
}

// ------------------------------------------------------------------ the model and its actions
/**
 * The walk: `page` is the one tab, `url` the site's root; `log` receives each step's line.
 * Resolves to a summary; throws an Error naming the seed, the step and the last ten actions
 * (and how to replay them) on the first failed check.
 */
/** @param {{ page: any, url: string, seed: number, steps: number, log?: (line: string) => void }} options */
export async function walk({ page, url, seed, steps, log = () => {} }) {
  const rng = new Rng(seed);
  const model = {
    route: 'jobs', lang: rng.pick(['en', 'ko']), pg: false, step: 0,
    // What the last lab action expects of L1's counts (set by the action, checked after it).
    expectL1: null,
    // The L1 table to find again after opening its share link.
    expectL1Rows: null,
    // The challenges seen solved: progress kept in the browser, never lost.
    solved: new Set(),
    stats: { actions: {}, skipped: 0, checks: { jobs: 0, pgq: 0 }, maxJobs: 0, maxIdleMs: 0 },
  };
  const history = [];
  const t0 = Date.now();

  const click = async (sel, label = sel) => {
    const el = page.locator(sel).first();
    if (!(await el.count()) || !(await el.isVisible()) || (await el.isDisabled())) {
      model.stats.skipped += 1;
      return `${label} (not there or disabled: skipped)`;
    }
    await el.click();
    return label;
  };
  const tourStep = (lo, hi, lab) => {
    const n = rng.int(lo, hi);
    return click(`button.tour-run[data-step="${n}"]`, `${lab}tour step ${n + 1}`);
  };
  const ensurePg = async () => {
    if (!SQL_LABS.includes(model.route)) return;
    // Right after a page load the app may not have drawn its start panel yet.
    await page.waitForSelector('#start-postgres, #pg-version', { timeout: BUSY_BOUND_MS });
    if (await page.locator('#start-postgres').count()) {
      await startPostgres(page);
    }
    await page.waitForSelector('#pg-version', { timeout: 120_000 });
    model.pg = true;
  };
  const go = async (route) => {
    const link = page.locator(`header nav a[href="#/${route}"]`);
    if (await link.count()) await link.click();
    else await page.evaluate((r) => { location.hash = `#/${r}`; }, route);
    model.route = route;
    await page.waitForFunction((r) => location.hash.startsWith(`#/${r}`), route);
    await ensurePg();
  };
  const l1Counts = async () => numbers((await page.textContent('#job-counts').catch(() => '')) ?? '');

  // Each lab's own actions: [weight, name, run]. Values typed come from the seed.
  const labActions = {
    jobs: () => {
      const w = rng.pick(['A', 'B', 'C']);
      return rng.weighted([
        [8, ['enqueue', async () => {
          const valid = rng.chance(0.85);
          const priority = valid ? rng.int(-5, 5) : rng.pick([500, -101]);
          const delay = rng.pick([0, 0, 0, 5, 30]);
          const attempts = rng.int(1, 4);
          await page.fill('#enq-priority', String(priority));
          await page.fill('#enq-delay', String(delay));
          await page.fill('#enq-max_attempts', String(attempts));
          const before = await l1Counts();
          model.expectL1 = { total: before[0] + (valid ? 1 : 0), why: `an enqueue (priority ${priority}, ${valid ? 'valid' : 'refused'})` };
          return `${await click('#enqueue')} priority=${priority} delay=${delay} max_attempts=${attempts}`;
        }]],
        [3, ['order commit', async () => click('#order-commit')]],
        [3, ['order rollback', async () => {
          const before = await l1Counts();
          model.expectL1 = { total: before[0], why: 'an order whose transaction rolled back' };
          return click('#order-rollback');
        }]],
        [10, ['claim', async () => click(`#worker-${w} [data-act="claim"]`, `worker ${w} claim`)]],
        [6, ['complete', async () => click(`#worker-${w} [data-act="complete"]`, `worker ${w} complete`)]],
        [5, ['fail', async () => click(`#worker-${w} [data-act="fail"]`, `worker ${w} fail`)]],
        [2, ['heartbeat', async () => click(`#worker-${w} [data-act="heartbeat"]`, `worker ${w} heartbeat`)]],
        [1, ['die', async () => click(`#worker-${w} [data-act="die"]`, `worker ${w} die`)]],
        [4, ['clock', async () => { const s = rng.pick(['+1 s', '+10 s', '+30 s']); return click(`.clock-bar button:has-text("${s}")`, `clock ${s}`); }]],
        [2, ['requeue', async () => click('#jobs-table tr[data-status="dead"] [data-act="requeue"]', 'requeue a dead job')]],
        [2, ['keyed', async () => { const k = rng.pick(['cust-1', 'cust-2']); await page.fill('#per-key-key', k); return `${await click('#enqueue-key')} key=${k}`; }]],
        [1, ['per-key claim', async () => click('#per-key-claim', 'toggle the per-key claim')]],
        [1, ['delete on complete', async () => click('#delete-on-complete', 'toggle DELETE on complete')]],
        [1, ['dual write', async () => click(rng.pick(['#dual-lost', '#dual-ghost']))]],
        [1, ['effect', async () => click(`#effect-${w}`)]],
        [1, ['notify', async () => { const n = rng.pick([10, 100, 8000]); await page.fill('#notify-bytes', String(n)); return `${await click('#notify-send')} bytes=${n}`; }]],
        [1, ['listener', async () => click('#disconnect, #reconnect', 'disconnect / reconnect the listener')]],
        [5, ['tour', async () => tourStep(0, 10, '')]],
      ]);
    },
    workers: () => rng.weighted([
      [3, ['tour', async () => tourStep(0, 5, 'L2 ')]],
      [4, ['run', async () => {
        const workers = rng.int(1, 12);
        const jobs = rng.int(10, 800);
        const strategy = rng.int(0, 3);
        await page.fill('#w-workers', String(workers));
        await page.fill('#w-jobs', String(jobs));
        const opts = await page.locator('#w-strategy option').count();
        if (opts) await page.selectOption('#w-strategy', { index: strategy % opts });
        return `${await click('#w-run')} workers=${workers} jobs=${jobs} strategy#${strategy}`;
      }]],
    ]),
    vacuum: () => rng.weighted([
      [5, ['run', async () => {
        const jobs = rng.int(2, 30) * 100;
        const rounds = rng.int(1, 2);
        await page.fill('#vacuum-jobs', String(jobs));
        await page.fill('#vacuum-rounds', String(rounds));
        return `${await click('#vacuum-run')} jobs=${jobs} rounds=${rounds}`;
      }]],
      [3, ['vacuum', async () => click('#vacuum-vacuum')]],
      [1, ['start over', async () => click('#vacuum-reset')]],
      [1, ['long tx', async () => click('#vacuum-long-tx')]],
      [1, ['plan', async () => click('#vacuum-plan-run')]],
      // Each step of L3's tour runs 20,000 jobs for rounds (a minute on a busy machine): the
      // walk mostly leaves it mid-run.
      [2, ['tour', async () => tourStep(0, 3, 'L3 '), 0.75]],
    ]),
    pgq: () => {
      const c = rng.pick(['billing', 'email', 'audit']);
      return rng.weighted([
        [6, ['send', async () => click('#send-one')]],
        [2, ['send rollback', async () => click('#send-rollback')]],
        [2, ['burst', async () => click('#send-burst')]],
        [1, ['prepare', async () => click('#prepare')]],
        [1, ['end prepared', async () => click(rng.pick(['#commit-prepared', '#rollback-prepared']))]],
        [6, ['tick', async () => click('#tick')]],
        [2, ['maint', async () => click('#maint')]],
        [1, ['retry', async () => click('#retry-events')]],
        [6, ['receive', async () => click(`#consumer-${c} [data-act="receive"]`, `${c} receive`)]],
        [5, ['ack', async () => click(`#consumer-${c} [data-act="ack"]`, `${c} ack`)]],
        [2, ['nack', async () => click(`#consumer-${c} [data-act="nack"]`, `${c} nack`)]],
        [1, ['add sub', async () => click(`#consumer-${c} [data-act="add-sub"]`, `${c} add subconsumer`)]],
        [1, ['unsubscribe', async () => click(`#consumer-${c} [data-act="unsubscribe"]`, `${c} unsubscribe`)]],
        [1, ['subscribe', async () => click('#subscribe-consumer')]],
        [2, ['clock', async () => { const s = rng.pick(['+1 s', '+10 s', '+30 s']); return click(`.clock-bar button:has-text("${s}")`, `clock ${s}`); }]],
        [3, ['tour', async () => tourStep(0, 7, 'L4 ')]],
        [1, ['compare', async () => { await page.fill('#pgq-compare-n', String(rng.int(2, 10) * 100)); return click('#pgq-compare-run', 'side by side'); }]],
        [1, ['reset queue', async () => click('#pgq-reset')]],
      ]);
    },
    leave: () => rng.weighted([
      [2, ['case', async () => click(rng.pick(['#case-side', '#case-planetscale', '#case-teams']))]],
      [2, ['input', async () => {
        const f = rng.pick(['#leave-sustained', '#leave-peak', '#leave-duration', '#leave-fanout', '#leave-latency']);
        const v = String(rng.pick([0, 5, 800, 20000, 1e7]));
        await page.fill(f, v);
        return `fill ${f} = ${v}`;
      }]],
      [1, ['toggle', async () => click(rng.pick(['#leave-replay', '#leave-ordering', '#leave-longtx']))]],
    ]),
  };

  // Actions on any page: [weight, name, run].
  const actions = () => {
    const sql = SQL_LABS.includes(model.route) && model.pg;
    const list = [
      [55, ['lab', async () => {
        const [name, run, leave = 0.12] = labActions[model.route]();
        const label = await run();
        // Now and then, leave in the middle of what the click started.
        if (rng.chance(leave)) {
          const to = rng.pick(LABS.filter((l) => l !== model.route));
          const after = rng.int(0, 800);
          await page.waitForTimeout(after);
          model.expectL1 = null;
          await go(to);
          return `${name}: ${label}, then left for ${to} after ${after} ms`;
        }
        return `${name}: ${label}`;
      }]],
      [14, ['go', async () => {
        const to = rng.pick(LABS.filter((l) => l !== model.route));
        await go(to);
        return `go to ${to}`;
      }]],
      // Every lab has challenges: start one (a fresh lab with its starting state), or, in the
      // one under way, one more hint, or its solution shown and one to three of its steps
      // played, each once the lab is idle. A start often goes straight on to play.
      [6, ['challenge', async () => {
        const play = async () => {
          const shown = await click('li.challenge.current button.challenge-show-solution', 'show the solution');
          const steps = [];
          for (let k = rng.int(1, 3); k > 0; k--) {
            await idle(page);
            steps.push(await click('li.challenge.current button.challenge-replay', 'play a step'));
          }
          return `${shown}, then ${steps.join(', ')}`;
        };
        const kind = rng.pick(['start', 'start', 'hint', 'play']);
        if (kind === 'start') {
          const n = rng.int(1, 4);
          const started = await click(`li.challenge:nth-child(${n}) button.challenge-start`, `challenge ${n}: start`);
          if (!rng.chance(0.6)) return started;
          await idle(page);
          return `${started}, ${await play()}`;
        }
        if (kind === 'hint') return click('li.challenge.current button.challenge-more-hint', 'challenge: one more hint');
        return `challenge: ${await play()}`;
      }]],
      [4, ['language', async () => {
        model.lang = model.lang === 'en' ? 'ko' : 'en';
        await switchLanguage(page, model.lang);
        return `language ${model.lang}`;
      }]],
    ];
    if (sql) {
      list.push(
        [3, ['console error', async () => { await page.fill('#console-input', 'select 1/0;'); await page.click('#console-run'); return 'console: select 1/0 (an error)'; }]],
        [2, ['console slow', async () => {
          await page.fill('#console-input', 'select pg_sleep(3);');
          await page.click('#console-run');
          await page.waitForTimeout(300);
          const [name, run] = labActions[model.route]();
          return `console: select pg_sleep(3), then ${name}: ${await run()} (waits behind it)`;
        }]],
        [2, ['console begin', async () => {
          await page.fill('#console-input', 'begin;');
          await page.click('#console-run');
          await page.waitForSelector('#console-tx', { timeout: BUSY_BOUND_MS });
          const [name, run] = labActions[model.route]();
          const label = await run();
          model.expectL1 = null;
          await page.waitForTimeout(rng.int(200, 1500));
          const end = rng.pick(['commit', 'rollback']);
          await page.click(`#console-tx-${end}`);
          await page.waitForSelector('#console-tx', { state: 'detached', timeout: BUSY_BOUND_MS });
          return `console: begin (no commit), then ${name}: ${label} (waits), then ${end.toUpperCase()}`;
        }]],
        [1.5, ['reset', async () => {
          if (model.route === 'jobs') model.expectL1 = { total: 0, why: 'Reset database' };
          return click('#reset-database');
        }]],
        [0.8, ['close worker', async () => {
          await page.evaluate(() => globalThis.queueLabTest.closeWorker());
          await page.waitForTimeout(200);
          await page.fill('#console-input', 'select 1;');
          await page.click('#console-run');
          const t = Date.now();
          await page.waitForSelector('#worker-dead', { timeout: 15_000 }).catch(() => fail('the worker was closed, and 15 s after the next statement the page still did not say PostgreSQL stopped'));
          const said = Date.now() - t;
          await page.click('#restart-postgres');
          await page.waitForFunction(() => /^\s*(Running|실행 중)/.test(document.querySelector('#pg-version')?.textContent ?? '') && !document.querySelector('#worker-dead'), null, { timeout: 120_000 });
          if (model.route === 'jobs') model.expectL1 = { total: 0, why: 'a restart after the worker stopped' };
          return `close the worker from inside (said stopped after ${said} ms), Restart`;
        }]],
      );
    }
    if (model.route !== 'leave') {
      list.push([2, ['share', async () => {
        const link = model.route === 'workers'
          ? await page.getAttribute('#w-share', 'href').catch(() => null)
          : await page.inputValue('#share-url').catch(() => null);
        if (!link) { model.stats.skipped += 1; return 'open the share link (none yet: skipped)'; }
        const full = new URL(link, page.url()).toString();
        // A link carries the language shown (the address follows a switch, and so does a link
        // already on screen), or none, when the page was opened without `lang`. The link's own
        // `lang` wins when it is opened.
        const linkLang = new URL(full).searchParams.get('lang');
        if (linkLang && linkLang !== model.lang) fail(`a share link shown in ${model.lang} says lang=${linkLang}`);
        model.expectL1Rows = model.route === 'jobs' ? (await page.locator('#jobs-table tbody tr').allTextContents()) : null;
        await page.goto('about:blank');
        await page.goto(full);
        // Without `lang` the page keeps the language last chosen.
        model.lang = linkLang ?? model.lang;
        model.pg = false;
        await ensurePg();
        return `open the share link ${full.replace(/^.*#/, '#').slice(0, 60)}${full.length > 60 ? '…' : ''} in this tab`;
      }]]);
    }
    return rng.weighted(list);
  };

  await page.goto(`${url}?lang=${model.lang}#/jobs`);
  await ensurePg();
  for (let step = 1; step <= steps; step++) {
    model.step = step;
    model.expectL1 = null;
    model.expectL1Rows = null;
    const [name, run] = actions();
    const at = `${step}. [${model.route}, ${model.lang}]`;
    let label = name;
    try {
      label = await run();
      history.push(`${at} ${label}`);
      log(`${at} ${label}`);
      model.stats.actions[name] = (model.stats.actions[name] ?? 0) + 1;
      await check(page, model, step);
    } catch (e) {
      if (history[history.length - 1]?.startsWith(`${at} `) !== true) history.push(`${at} ${label} (threw)`);
      const msg = e instanceof WalkError ? e.message : `${e.message ?? e}`.split('\n')[0];
      const err = /** @type {Error & { step?: number }} */ (new Error(`the walk failed at step ${step} of ${steps}, seed ${seed}: ${msg}\n`
        + `replay: WALK_SEED=${seed} WALK_STEPS=${step} node --test tests/e2e/walk.test.mjs\n`
        + `the last ${Math.min(10, history.length)} actions:\n  ${history.slice(-10).join('\n  ')}`));
      err.step = step;
      throw err;
    }
  }
  return { seed, steps, seconds: Math.round((Date.now() - t0) / 1000), ...model.stats, solvedChallenges: [...model.solved] };
}

/** Every check after a step (see the top of this file). */
async function check(page, model, step) {
  const errs = () => page.errors.length && fail(`page error: ${page.errors.join(' | ')}`);
  errs();
  const waited = await idle(page);
  model.stats.maxIdleMs = Math.max(model.stats.maxIdleMs, waited);
  errs();
  if (await page.locator('#app-panic').count()) fail(`the app panicked: ${(await page.textContent('#app-panic')).slice(0, 300)}`);
  if (await page.locator('#worker-dead').count()) fail(`the page says PostgreSQL stopped, though the walk did not stop it: ${(await page.textContent('#worker-dead')).slice(0, 200)}`);
  // A challenge under way, its check done (the lab idle): solved, its state, and why it
  // matters agree; once solved, it is kept as solved (the browser's stored progress and the
  // list's mark), whatever the walk does next.
  const current = page.locator('li.challenge.current');
  if (await current.count()) {
    const id = await current.getAttribute('data-challenge');
    const solved = (await current.getAttribute('data-solved-now')) === 'true';
    const good = (await current.locator('p.challenge-state.good').count()) > 0;
    const why = (await current.locator('p.challenge-why').count()) > 0;
    if (good !== solved || why !== solved) fail(`challenge ${id}: solved now ${solved}, but the state says ${good ? 'solved' : 'not solved'} and "why it matters" is ${why ? 'shown' : 'not shown'}`);
    if (solved) model.solved.add(id);
  }
  if (model.solved.size) {
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('queue-lab-challenges') ?? '[]'));
    const lost = [...model.solved].filter((id) => !kept.includes(id));
    if (lost.length) fail(`solved challenges missing from the stored progress: ${lost.join(', ')} (stored: ${kept.join(', ')})`);
    for (const id of await page.$$eval('li.challenge', (els) => els.map((e) => e.getAttribute('data-challenge')))) {
      if (model.solved.has(id) && !(await page.locator(`li.challenge.solved[data-challenge="${id}"]`).count())) fail(`challenge ${id} was solved, but the list does not mark it so`);
    }
  }
  const lang = await page.evaluate(() => document.documentElement.lang);
  if (lang !== model.lang) fail(`the page's language is ${lang}, the walk chose ${model.lang}`);
  const hash = await page.evaluate(() => location.hash);
  if (!hash.startsWith(`#/${model.route}`)) fail(`the page is at ${hash}, the walk went to #/${model.route}`);
  if (!SQL_LABS.includes(model.route) || !model.pg) return;
  if (model.route === 'jobs') {
    await page.waitForSelector('#jobs-table', { timeout: BUSY_BOUND_MS });
    if (model.expectL1Rows) {
      if (await page.locator('#replay-cut').count() === 0) {
        const rows = await page.locator('#jobs-table tbody tr').allTextContents();
        if (canon(rows) !== canon(model.expectL1Rows)) fail(`L1's share link replayed to a different table:\n    before: ${model.expectL1Rows.join(' | ')}\n    after:  ${rows.join(' | ')}`);
      }
    }
    if (model.expectL1) {
      const total = numbers(await page.textContent('#job-counts'))[0];
      if (total !== model.expectL1.total) fail(`after ${model.expectL1.why}, L1 shows ${total} jobs; the model expects ${model.expectL1.total}`);
    }
    const got = await checkL1(page, `walk-${step}`);
    model.stats.checks.jobs += 1;
    model.stats.maxJobs = Math.max(model.stats.maxJobs, got.jobs);
  } else if (model.route === 'pgq') {
    await page.waitForSelector('.consumers-panel', { timeout: BUSY_BOUND_MS });
    await checkL4(page, `walk-${step}`);
    model.stats.checks.pgq += 1;
  }
  // The check's query makes the lab read its tables again: let that end before the next step.
  await idle(page);
}
