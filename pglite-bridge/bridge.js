// Queue Lab's bridge to PGlite: the only JavaScript the app calls.
//
// It is deliberately thin: start PGlite in a Web Worker, run statements, listen. Everything
// else (typed rows, the SQL log, timing, errors shown to the learner) lives in Rust (src/db).
// Results are returned as plain objects: timestamps stay Postgres text, int8 becomes a
// number when it is exactly representable.

const TEXT_TYPES = [1082, 1083, 1114, 1184, 1186, 1266]; // date, time, timestamp(tz), interval, timetz
const INT8 = 20;

const parsers = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, (text) => text]));
parsers[INT8] = (text) => {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
};

/** Opens a fresh PGlite in a worker. `base`: URL of PGlite's dist/ folder; `workerUrl`: this
 * folder's worker.js. Both may be relative: they resolve against document.baseURI, so the
 * site works under a sub-path and inside an iframe. `onProgress(file, loaded, total)`. */
export async function open(base, workerUrl, onProgress, timeoutMs) {
  const baseUrl = new URL(base, document.baseURI);
  const url = new URL(workerUrl, document.baseURI);
  url.searchParams.set('base', baseUrl.href);
  const { PGliteWorker } = await import(new URL('worker/index.js', baseUrl).href).catch((e) => {
    throw bridgeError(`PGlite's worker client did not load from ${baseUrl.href}: ${e.message}`);
  });
  const worker = new Worker(url, { type: 'module' });
  const failed = new Promise((_, reject) => {
    worker.addEventListener('message', (event) => {
      const msg = event.data;
      if (!msg || !msg.queueLab) return;
      if (msg.type === 'progress') onProgress(msg.file, msg.loaded, msg.total);
      if (msg.type === 'booting') onProgress('boot', 0, 0);
      if (msg.type === 'error') reject(bridgeError(msg.message));
    });
    worker.addEventListener('error', (event) => {
      reject(bridgeError(`the database worker failed to start: ${event.message || url.href}`));
    });
  });
  // A fresh id per open: two labs embedded in one page must not share one database.
  const id = `queue-lab-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  // A start that never answers (seen once in a fresh headless browser) becomes an error the
  // page can offer Retry for, instead of a progress bar that waits forever.
  const tooSlow = new Promise((_, reject) => {
    if (timeoutMs > 0) {
      setTimeout(() => reject(bridgeError(`PostgreSQL did not answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    }
  });
  try {
    const db = await Promise.race([PGliteWorker.create(worker, { id }), failed, tooSlow]);
    // create() resolves once the worker answers; PostgreSQL itself is up after init() has
    // downloaded and booted it. Wait for that, so "ready" means ready.
    await Promise.race([db.query('select 1'), failed, tooSlow]);
    return new Handle(db, worker);
  } catch (e) {
    worker.terminate();
    throw e;
  }
}

function bridgeError(message) {
  const e = new Error(message);
  e.bridge = true;
  return e;
}

const ERROR_MARK = '\u0000queue-lab-error:'; // set by worker.js
const EMPTY_ERROR = { code: null, position: null, detail: null, hint: null, severity: null };

/** Turns a PGlite error into a plain object Rust deserializes into DbError. */
function plainError(e) {
  const text = String(e && e.message ? e.message : e);
  const mark = text.indexOf(ERROR_MARK);
  if (mark >= 0) {
    try {
      const fields = { ...EMPTY_ERROR, ...JSON.parse(text.slice(mark + ERROR_MARK.length)) };
      fields.position = fields.position ? Number(fields.position) : null;
      return fields;
    } catch (_) {
      // not ours after all: fall through and show the text as it is
    }
  }
  return {
    message: String(e && e.message ? e.message : e),
    code: e && e.code ? String(e.code) : null,
    position: e && e.position ? Number(e.position) : null,
    detail: e && e.detail ? String(e.detail) : null,
    hint: e && e.hint ? String(e.hint) : null,
    severity: e && e.severity ? String(e.severity) : null,
  };
}

function plainResult(r) {
  return {
    rows: r.rows,
    fields: (r.fields || []).map((f) => f.name),
    affected: r.affectedRows ?? null,
  };
}

class Session {
  constructor(target) {
    this.target = target;
  }
  /** One statement with bound parameters. Rejects with a plain error object. */
  async query(sql, params, arrays) {
    try {
      const r = await this.target.query(sql, params, { parsers, rowMode: arrays ? 'array' : 'object' });
      return plainResult(r);
    } catch (e) {
      throw plainError(e);
    }
  }
  /** A script of several statements, no parameters; returns the last statement's result. */
  async exec(sql, arrays) {
    try {
      const results = await this.target.exec(sql, { parsers, rowMode: arrays ? 'array' : 'object' });
      const last = results[results.length - 1];
      return last ? plainResult(last) : { rows: [], fields: [], affected: null };
    } catch (e) {
      throw plainError(e);
    }
  }
}

class Handle extends Session {
  constructor(db, worker) {
    super(db);
    this.db = db;
    this.worker = worker;
  }

  /** Starts a transaction that holds the database until commit() or rollback(): PGlite
   * queues every other statement meanwhile, so nothing interleaves with it. */
  begin() {
    return new Promise((resolveTx, rejectTx) => {
      let finish;
      const decided = new Promise((resolve) => (finish = resolve));
      const outcome = this.db
        .transaction(async (tx) => {
          const session = new Session(tx);
          session.commit = async () => {
            finish('commit');
            await outcome;
          };
          session.rollback = async () => {
            finish('rollback');
            await outcome;
          };
          resolveTx(session);
          if ((await decided) === 'rollback') await tx.rollback();
        })
        .catch((e) => {
          rejectTx(plainError(e));
          throw plainError(e);
        });
    });
  }

  /** Subscribes to a channel; resolves to a function that unsubscribes. */
  async listen(channel, callback) {
    try {
      return await this.db.listen(channel, (payload) => callback(payload));
    } catch (e) {
      throw plainError(e);
    }
  }

  async close() {
    try {
      await this.db.close();
    } finally {
      this.worker.terminate();
    }
  }
}
