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
//               { id, op: 'console', sql, limit } → { result, total, tx } or { error, tx }
//               { id, op: 'close' }
// Messages out: { queueLab, type: 'progress' | 'booting' | 'ready' | 'error' } while starting;
//               { queueLab, type: 'reply', id, result } or { …, id, error } per message;
//               { queueLab, type: 'notify', listen, payload } for each notification.

const base = new URL(self.location.href).searchParams.get('base');

function report(msg) {
  self.postMessage({ queueLab: true, ...msg });
}

async function download(url, label) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(`${label}: ${url} could not be fetched (${e.message})`);
  }
  if (!response.ok) {
    throw new Error(`${label}: ${url} answered HTTP ${response.status}`);
  }
  const total = Number(response.headers.get('content-length')) || 0;
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    report({ type: 'progress', file: label, loaded, total });
  }
  return new Blob(chunks);
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
    throw new Error(`PGlite's scripts did not load from ${base}: ${e.message}`);
  }
  const [wasm, data, initdb] = await Promise.all([
    download(new URL('pglite.wasm', base), 'pglite.wasm'),
    download(new URL('pglite.data', base), 'pglite.data'),
    download(new URL('initdb.wasm', base), 'initdb.wasm'),
  ]);
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
    WebAssembly.compile(await wasm.arrayBuffer()),
    WebAssembly.compile(await initdb.arrayBuffer()),
  ]);
  report({ type: 'booting' });
  const db = await modules.PGlite.create({
    pgliteWasmModule,
    initdbWasmModule,
    fsBundle: data,
    extensions: modules.extensions,
    // PREPARE TRANSACTION is how the labs pin the xmin horizon for real.
    postgresqlconf: 'max_prepared_transactions = 4',
  });
  // Measurement hook for bench/run.mjs (read through the DevTools protocol, never by the
  // app): bytes of PostgreSQL's WebAssembly memory.
  self.queueLabWasmBytes = () => db.Module.HEAPU8.buffer.byteLength;
  return db;
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

const ready = start().catch((e) => {
  report({ type: 'error', message: e.message });
  throw e;
});
ready.then(() => report({ type: 'ready' }), () => {});

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
  // The SQL console: the last result cut to `limit` rows here, so a huge result never
  // crosses to the page; the session's transaction state comes back with it, failed or not.
  async console(db, m) {
    const state = () => (db.isInTransaction() ? 'open' : 'idle');
    try {
      const results = await db.exec(m.sql, { parsers, rowMode: 'array' });
      const last = results[results.length - 1];
      const result = last ? plainResult(last) : { rows: [], fields: [], affected: null };
      const total = result.rows.length;
      if (m.limit > 0 && total > m.limit) result.rows = result.rows.slice(0, m.limit);
      return { result, total, tx: state() };
    } catch (e) {
      // After an error inside BEGIN … the block is aborted until ROLLBACK.
      return { error: plainError(e), tx: db.isInTransaction() ? 'failed' : 'idle' };
    }
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

self.addEventListener('message', async (event) => {
  const m = event.data;
  if (!m || m.queueLab !== 'call') return;
  try {
    const db = await ready;
    const result = await ops[m.op](db, m);
    self.postMessage({ queueLab: true, type: 'reply', id: m.id, result });
  } catch (e) {
    self.postMessage({ queueLab: true, type: 'reply', id: m.id, error: plainError(e) });
  }
});
