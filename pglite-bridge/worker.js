// Queue Lab's PGlite worker: runs PostgreSQL (PGlite) off the page's main thread.
//
// The page creates this as a module worker with `?base=<url of PGlite's dist/>`, so the same
// file serves the built site (PGlite copied next to it) and the headless tests (PGlite served
// from node_modules). It downloads the three big files itself to report progress, and reports
// a failed download as a message the page can show.
//
// The page talks to it with one postMessage per statement and one back (see bridge.js). Not
// PGlite's own PGliteWorker: that runs the wire protocol on the page and crosses to the worker
// through a BroadcastChannel several times per statement (parse, describe, bind, execute, sync
// to storage), 10–17 ms a statement in headless Chromium; one message each way is a fraction
// of a millisecond.
//
// Messages in:  { id, op: 'query', sql, params, arrays, tx } · { id, op: 'exec', sql, arrays, tx }
//               { id, op: 'begin' } → tx id · { id, op: 'commit' | 'rollback', tx }
//               { id, op: 'listen', channel } → listen id · { id, op: 'unlisten', listen }
//               { id, op: 'console', sql, params, limit } → { result (with `tag`), total, tx,
//               notices } or { error, tx, notices }: one statement; a psql describe command
//               as `sql` (`\d jobs`) → { result, total, tx, text, notices }
//               { id, op: 'dump', schemas } → { text, schemas }: pg_dump of those schemas that
//               exist (patterns as pg_dump takes them, `vac_*`), for servers 15–18; see dump
//               { id, op: 'datadir' } → { dump: Uint8Array (PGlite's dumpDataDir, a gzip tarball, after a
//               CHECKPOINT), pglite: PGlite's version } (a saved lab, see src/ui/keep.rs)
//               { id, op: 'close' }
// Messages out: { queueLab, type: 'progress' | 'booting' | 'error' } while starting, then
//               { queueLab, type: 'ready', boot: 'datadir' | 'initdb', note } (note: why the
//               prepared data directory was not used, null when it was or none was offered);
//               { queueLab, type: 'reply', id, result } or { …, id, error } per message
//               (a query's or exec's result, and an error, carry `ms`: the statement's own
//               time, see lastEnd);
//               { queueLab, type: 'notify', listen, payload } for each notification.
// Liveness (see Connection in bridge.js): { queueLab: 'ping' } is answered at once with
// { queueLab, type: 'pong' } whenever the worker's one thread is free; and before each call
// runs, { queueLab, type: 'started', id } says that a statement may now hold the thread (so a
// ping unanswered meanwhile means "busy", not "stopped"). { queueLab: 'test-close' } closes
// the worker from inside (end-to-end tests: a worker that stops without an error event).
//
// Start-up: PGlite's manifest (pglite.json beside PGlite's versioned folder, written at build
// time by build.mjs) names the data directory and gives the sizes of the files, uncompressed, so the progress bar is right behind a compressing host (where
// content-length is the compressed size); the WebAssembly is compiled while it streams in
// (compileStreaming of the fetch response, which lets the browser cache the compiled code);
// PostgreSQL boots from the prepared data directory (pgdata-<hash>.tar.gz, made by build.mjs) and
// runs initdb only when that is missing or does not boot.
//
// URL parameters: `base` (PGlite's folder), `datadir` (another data directory URL: the tests'
// way to offer a missing or corrupt one; `none` for no data directory), `hold=1` (download and
// compile, then wait for { queueLab: 'boot' } before booting: the page prefetches this way
// while idle), `restore=1` (the data directory is a saved lab's: one that does not boot is an
// error, never an initdb start in its place).

const params = new URL(self.location.href).searchParams;
const base = params.get('base');
// PGlite's version, as its manifest names it (a saved lab records it, see the 'dump' op).
let pgliteVersion = null;

function report(msg) {
  self.postMessage({ queueLab: true, ...msg });
}

// A held worker boots once the page says so.
let release = null;
const released = params.get('hold') === '1' ? new Promise((r) => (release = r)) : Promise.resolve();
self.addEventListener('message', (event) => {
  if (event.data && event.data.queueLab === 'boot' && release) release();
});

/** Download progress over every file of the start, in bytes (sizes from the manifest). */
const progress = {
  total: 0,
  loaded: 0,
  add(bytes) {
    this.loaded += bytes;
    report({ type: 'progress', file: 'download', loaded: Math.min(this.loaded, this.total), total: this.total });
  },
};

async function fetchOk(url, label) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(`${label}: ${url} could not be fetched (${e.message})`, { cause: e });
  }
  if (!response.ok) {
    throw new Error(`${label}: ${url} answered HTTP ${response.status}`);
  }
  return response;
}

/** Reads a body to its end, counting its (decoded) bytes into the progress; its bytes. */
async function drain(body) {
  const reader = body.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    progress.add(value.length);
  }
  return new Blob(chunks);
}

async function download(url, label) {
  return drain((await fetchOk(url, label)).body);
}

/** Fetches and compiles a .wasm while it streams in. The response goes to compileStreaming
 * itself (a copy of it would have no URL, and the browser caches compiled code by URL); a
 * clone of it counts the bytes. A host that serves it without `application/wasm` still
 * works, compiled from the bytes. */
async function compile(url, label) {
  const response = await fetchOk(url, label);
  const counted = drain(response.clone().body);
  // Awaited below unless the compile fails first: its own failure then says nothing new.
  counted.catch(() => {});
  let module;
  try {
    module = await WebAssembly.compileStreaming(response);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    module = await WebAssembly.compile(await (await counted).arrayBuffer());
  }
  await counted;
  return module;
}

async function manifest() {
  try {
    // Beside the versioned folder, and revalidated: it names this build's data directory.
    const response = await fetch(new URL('../pglite.json', base), { cache: 'no-cache' });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

async function start() {
  let modules;
  try {
    const [{ PGlite }, { pageinspect }, { pg_visibility }] = await Promise.all([
      import(new URL('index.js', base).href),
      import(new URL('contrib/pageinspect.js', base).href),
      import(new URL('contrib/pg_visibility.js', base).href),
    ]);
    modules = { PGlite, extensions: { pageinspect, pg_visibility } };
  } catch (e) {
    throw new Error(`PGlite's scripts did not load from ${base}: ${e.message}`, { cause: e });
  }
  const m = await manifest();
  pgliteVersion = m?.version ?? null;
  describeModule = m?.describe ? new URL(`../${m.describe}`, base).href : null;
  pgDumpModule = m?.pgDump ? new URL(`../${m.pgDump}`, base).href : null;
  const files = m?.files ?? {};
  const asked = params.get('datadir');
  const datadirName = m?.datadir;
  const datadirUrl = asked === 'none' ? null : asked ? new URL(asked, base) : datadirName ? new URL(datadirName, base) : null;
  progress.total = (files['pglite.wasm'] ?? 0) + (files['pglite.data'] ?? 0) + (datadirUrl ? files[datadirName] ?? 0 : files['initdb.wasm'] ?? 0);

  // The data directory is optional: a failed download falls back to initdb.
  const datadir = datadirUrl ? download(datadirUrl, 'data directory').catch((e) => e) : null;
  const initdbFirst = datadirUrl ? null : compile(new URL('initdb.wasm', base), 'initdb.wasm');
  // Awaited only if the boot gets that far; a failure before then is reported by what failed.
  initdbFirst?.catch(() => {});
  const [pgliteWasmModule, fsBundle, dump] = await Promise.all([
    compile(new URL('pglite.wasm', base), 'pglite.wasm'),
    download(new URL('pglite.data', base), 'pglite.data'),
    datadir,
  ]);
  const options = {
    pgliteWasmModule,
    fsBundle,
    extensions: modules.extensions,
    // PREPARE TRANSACTION is how the labs pin the xmin horizon for real.
    postgresqlconf: 'max_prepared_transactions = 4',
  };
  await released;
  report({ type: 'booting' });
  let db = null;
  let boot = 'initdb';
  let note = null;
  if (dump instanceof Blob) {
    try {
      // PGlite fetches initdb.wasm unless given a module; booting from a data directory never
      // runs it, so an empty module stands in and nothing is downloaded.
      const noInitdb = new WebAssembly.Module(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
      db = await modules.PGlite.create({ ...options, initdbWasmModule: noInitdb, loadDataDir: dump });
      boot = 'datadir';
    } catch (e) {
      note = `the prepared data directory did not boot (${e.message || e})`;
    }
  } else if (dump) {
    note = dump.message;
  }
  if (!db && params.get('restore') === '1') throw new Error(note ?? 'no saved data directory');
  if (!db) {
    let initdbWasmModule;
    if (initdbFirst) {
      initdbWasmModule = await initdbFirst;
    } else {
      progress.total += files['initdb.wasm'] ?? 0;
      initdbWasmModule = await compile(new URL('initdb.wasm', base), 'initdb.wasm');
    }
    db = await modules.PGlite.create({ ...options, initdbWasmModule });
  }
  // Measurement hooks for bench/run.mjs (read through the DevTools protocol, never by the
  // app): bytes of PostgreSQL's WebAssembly memory, and of the files in its in-memory file
  // system (the data directory: tables, WAL; PGlite keeps them in the worker's JS memory,
  // outside the WebAssembly heap).
  self.queueLabWasmBytes = () => db.Module.HEAPU8.buffer.byteLength;
  self.queueLabFileBytes = () => (db.Module.FS ? fileBytes(db.Module.FS, '/') : null);
  return { db, boot, note };
}

/** Bytes of the regular files under `dir` in Emscripten's file system (not /dev, /proc). */
function fileBytes(FS, dir) {
  let n = 0;
  for (const name of FS.readdir(dir)) {
    if (name === '.' || name === '..') continue;
    const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
    if (path === '/dev' || path === '/proc') continue;
    const st = FS.lstat(path);
    if (FS.isDir(st.mode)) n += fileBytes(FS, path);
    else if (FS.isFile(st.mode)) n += st.size;
  }
  return n;
}

// Timestamps stay Postgres text (the labs show them as Postgres prints them); int8 becomes a
// number when it is exactly representable, text otherwise.
const TEXT_TYPES = [1082, 1083, 1114, 1184, 1186, 1266]; // date, time, timestamp(tz), interval, timetz
const INT8 = 20;
const parsers = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, (text) => text]));
parsers[INT8] = (text) => {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
};

function plainResult(r) {
  return {
    rows: r.rows,
    fields: (r.fields || []).map((f) => f.name),
    affected: r.affectedRows ?? null,
  };
}

/** Postgres's message, SQLSTATE, position, detail and hint: what a learner needs to see. */
function plainError(e) {
  const field = (v) => (v === undefined || v === null || v === '' ? null : String(v));
  return {
    message: String(e && e.message ? e.message : e),
    code: field(e && e.code),
    position: e && e.position ? Number(e.position) : null,
    detail: field(e && e.detail),
    hint: field(e && e.hint),
    severity: field(e && e.severity),
  };
}

/** A notice (NOTICE, WARNING, INFO…) as the console shows it, with its severity. */
function plainNotice(n) {
  const field = (v) => (v === undefined || v === null || v === '' ? null : String(v));
  return {
    severity: field(n.severity) ?? 'NOTICE',
    message: String(n.message ?? ''),
    code: field(n.code),
    detail: field(n.detail),
    hint: field(n.hint),
  };
}

/** Runs `run` and reads the command tags PostgreSQL sent meanwhile (PGlite's results give
 * only the tag's first word, `command`): PGlite's query and exec send each protocol message
 * through the instance's public execProtocolStream, so a wrapper on this instance, for the
 * one call, sees each CommandComplete. The last tag is the statement's. */
async function withCommandTags(db, run) {
  const tags = [];
  const own = Object.prototype.hasOwnProperty.call(db, 'execProtocolStream');
  const original = db.execProtocolStream;
  db.execProtocolStream = async function (message, options) {
    const out = await original.call(this, message, options);
    for (const msg of out ?? []) if (msg?.name === 'commandComplete') tags.push(msg.text);
    return out;
  };
  try {
    const results = await run();
    return { results, tag: tags.length > 0 ? tags[tags.length - 1] : null };
  } finally {
    if (own) db.execProtocolStream = original;
    else delete db.execProtocolStream;
  }
}

const started = start().catch((e) => {
  report({ type: 'error', message: e.message });
  throw e;
});
started.then(({ boot, note }) => report({ type: 'ready', boot, note, pglite: pgliteVersion }), () => {});
const ready = started.then(({ db }) => db);
// A failed start was reported above; each call that awaits `ready` answers with it too.
ready.catch(() => {});

// psql's describe commands (`\d`, `\dt`, `\d name`, …): the npm package psql-describe, psql's
// own describe.c ported to JavaScript, staged by build.mjs and named by the manifest; loaded
// the first time the console is given one. Its catalog queries run here, on the console's
// session (the lab's search path), and want every value as Postgres's text: the parsers
// below return text for every type PGlite would parse (its own and the arrays it registered).
let describeModule = null;
let describeLoaded = null;
const DESCRIBE_COMMAND = /^\\[?hdzsl]/;

async function describeCommand(db, cmd) {
  if (!describeModule) throw new Error('psql-describe is not in this build (pglite.json names none)');
  describeLoaded ??= import(describeModule);
  const { describe, describeDataToString } = await describeLoaded;
  const raw = Object.fromEntries(Object.keys(db.parsers).map((oid) => [oid, (text) => text]));
  let failed = null;
  const runQuery = async (sql) => {
    try {
      const r = await db.query(sql, [], { rowMode: 'array', parsers: raw });
      return { fields: r.fields, rows: r.rows, rowCount: r.rows.length };
    } catch (e) {
      failed ??= e;
      throw e;
    }
  };
  const out = [];
  const { rows: [[dbName]] } = await db.query('select current_database()', [], { rowMode: 'array' });
  await describe(cmd, dbName, runQuery, (item) => out.push(describeDataToString(item))).promise;
  // A catalog query that failed is Postgres's error (psql-describe would print it as text).
  if (failed) throw failed;
  return out.join('\n\n');
}

// "Download as SQL": pg_dump built for PGlite (npm @electric-sql/pglite-tools, staged by
// build.mjs and named by the manifest), loaded the first time a lab is exported. It runs on
// this one session: it sets the session's settings for itself (DateStyle, extra_float_digits,
// search_path, timeouts…), so they are read before and put back after. pg_dump fails when no
// schema matches, so only the schemas that exist are named.
let pgDumpModule = null;
let pgDumpLoaded = null;

async function dumpSchemas(db, patterns) {
  if (!pgDumpModule) throw new Error('pg_dump is not in this build (pglite.json names none)');
  const { rows } = await db.query(
    `select array_agg(nspname order by nspname) as names from pg_namespace
      where nspname like any (select replace(p, '*', '%') from unnest($1::text[]) as p)`,
    [patterns],
  );
  const schemas = rows[0].names ?? [];
  if (schemas.length === 0) return { text: '', schemas };
  pgDumpLoaded ??= import(pgDumpModule);
  const { pgDump } = await pgDumpLoaded;
  const settings = `select name, current_setting(name) as value from pg_settings
                     where context in ('user', 'superuser') and name <> 'search_path'`;
  const before = (await db.query(settings)).rows;
  let file;
  try {
    file = await pgDump({ pg: db, args: ['--no-owner', '--no-privileges', ...schemas.map((s) => `--schema=${s}`)] });
  } finally {
    if (db.isInTransaction()) await db.exec('rollback');
    const after = new Map((await db.query(settings)).rows.map((r) => [r.name, r.value]));
    for (const { name, value } of before) {
      if (after.get(name) !== value) await db.query('select set_config($1, $2, false)', [name, value]);
    }
  }
  return { text: forOlderServers(await file.text()), schemas };
}

/** pg_dump 18's output, made to load on PostgreSQL 15–17 too: its header sets
 * transaction_timeout (new in 17), and PGlite's PostgreSQL gives every column an attribute
 * option, pg_attver, that no other server knows (`ALTER TABLE ONLY … ALTER COLUMN … SET
 * (pg_attver=…)`, one line each). Both lines are cut from the part before the first row data,
 * so no row's text is touched. (pgDump itself already cuts `\restrict`.) */
function forOlderServers(text) {
  const data = text.search(/^-- Data for Name: /m);
  const schema = data < 0 ? text : text.slice(0, data);
  const rows = data < 0 ? '' : text.slice(data);
  return (
    schema
      .replace(/^SET transaction_timeout = 0;\n/m, '')
      .replace(/^ALTER TABLE ONLY .+ ALTER COLUMN .+ SET \(pg_attver=\d+\);\n/gm, '') + rows
  );
}

// Open transactions: id → { tx, decide(outcome), done (settles when PGlite has ended it) }.
const transactions = new Map();
// Subscriptions: id → the function that unlistens.
const listeners = new Map();
let nextId = 1;

function target(db, txId) {
  if (txId == null) return db;
  const t = transactions.get(txId);
  if (!t) throw new Error('the transaction has already ended');
  return t.tx;
}

const ops = {
  async query(db, m) {
    const r = await target(db, m.tx).query(m.sql, m.params, { parsers, rowMode: m.arrays ? 'array' : 'object' });
    return plainResult(r);
  },
  async exec(db, m) {
    const results = await target(db, m.tx).exec(m.sql, { parsers, rowMode: m.arrays ? 'array' : 'object' });
    const last = results[results.length - 1];
    return last ? plainResult(last) : { rows: [], fields: [], affected: null };
  },
  // PGlite's transaction() holds the database until the callback returns: every statement
  // not sent with this tx id waits meanwhile, so nothing interleaves with the transaction.
  begin(db) {
    return new Promise((resolve, reject) => {
      const id = nextId++;
      let decide;
      const decided = new Promise((r) => (decide = r));
      const done = db
        .transaction(async (tx) => {
          transactions.set(id, { tx, decide, done });
          resolve(id);
          if ((await decided) === 'rollback') await tx.rollback();
        })
        .finally(() => transactions.delete(id));
      done.catch(reject);
    });
  },
  async commit(db, m) {
    return endTransaction(m.tx, 'commit');
  },
  async rollback(db, m) {
    return endTransaction(m.tx, 'rollback');
  },
  async listen(db, m) {
    const id = nextId++;
    const stop = await db.listen(m.channel, (payload) =>
      self.postMessage({ queueLab: true, type: 'notify', listen: id, payload }));
    listeners.set(id, stop);
    return id;
  },
  async unlisten(db, m) {
    const stop = listeners.get(m.listen);
    listeners.delete(m.listen);
    if (stop) await stop();
    return null;
  },
  // The SQL console, one statement a call (src/psql.rs splits the input as psql does): its
  // result cut to `limit` rows here, so a huge result never crosses to the page; its command
  // tag as PostgreSQL sent it (`ROLLBACK` for a COMMIT of an aborted transaction); the
  // notices it raised (RAISE NOTICE, WARNING), failed or not; and the session's transaction
  // state, failed or not. With `params` (psql variables, bound as $1…) it runs as an
  // extended query, else as a simple one, as psql runs it. A psql describe command
  // (`\d jobs`) answers with psql's text in `text` instead of rows.
  async console(db, m) {
    const state = () => (db.isInTransaction() ? 'open' : 'idle');
    const notices = [];
    const onNotice = (n) => notices.push(plainNotice(n));
    try {
      const cmd = m.sql.trim();
      if (DESCRIBE_COMMAND.test(cmd)) {
        const text = await describeCommand(db, cmd);
        return { result: { rows: [], fields: [], affected: null }, total: 0, tx: state(), text, notices };
      }
      const params = Array.from(m.params ?? []);
      const { results, tag } = await withCommandTags(db, () =>
        params.length > 0
          ? db.query(m.sql, params, { parsers, rowMode: 'array', onNotice }).then((r) => [r])
          : db.exec(m.sql, { parsers, rowMode: 'array', onNotice }),
      );
      const last = results[results.length - 1];
      const result = last ? plainResult(last) : { rows: [], fields: [], affected: null };
      result.tag = tag ?? (last?.command ? [last.command, last.rowCount].filter((x) => x != null).join(' ') : null);
      const total = result.rows.length;
      if (m.limit > 0 && total > m.limit) result.rows = result.rows.slice(0, m.limit);
      return { result, total, tx: state(), notices };
    } catch (e) {
      // After an error inside BEGIN … the block is aborted until ROLLBACK.
      return { error: plainError(e), tx: db.isInTransaction() ? 'failed' : 'idle', notices };
    }
  },
  async dump(db, m) {
    return dumpSchemas(db, m.schemas);
  },

  // The whole data directory as PGlite's own dumpDataDir writes it (what `loadDataDir` boots
  // from). CHECKPOINT first, so the saved lab boots without replaying the WAL.
  async datadir(db) {
    await db.query('CHECKPOINT');
    const file = await db.dumpDataDir('gzip');
    return { dump: new Uint8Array(await file.arrayBuffer()), pglite: pgliteVersion };
  },
  async close(db) {
    await db.close();
    return null;
  },
};

async function endTransaction(id, outcome) {
  const t = transactions.get(id);
  if (!t) throw new Error('the transaction has already ended');
  t.decide(outcome);
  await t.done;
  return null;
}

// When the last call finished. PostgreSQL runs one statement at a time, in the order they
// came, so a statement starts when it arrives or when the one before it ends, whichever is
// later: its own time, `ms` in a query's reply, leaves out its wait behind the statements
// sent before it (the page sends several at once, see `pipelined` in src/db).
let lastEnd = 0;

self.addEventListener('message', async (event) => {
  const m = event.data;
  if (m && m.queueLab === 'ping') {
    self.postMessage({ queueLab: true, type: 'pong' });
    return;
  }
  if (m && m.queueLab === 'test-close') {
    self.close();
    return;
  }
  if (!m || m.queueLab !== 'call') return;
  let arrived = 0;
  const ownMs = () => {
    const end = performance.now();
    const ms = end - Math.max(arrived, lastEnd);
    lastEnd = end;
    return ms;
  };
  try {
    const db = await ready;
    arrived = performance.now();
    self.postMessage({ queueLab: true, type: 'started', id: m.id });
    const result = await ops[m.op](db, m);
    const ms = ownMs();
    if (m.op === 'query' || m.op === 'exec') result.ms = ms;
    self.postMessage({ queueLab: true, type: 'reply', id: m.id, result });
  } catch (e) {
    const error = plainError(e);
    error.ms = ownMs();
    self.postMessage({ queueLab: true, type: 'reply', id: m.id, error });
  }
});
