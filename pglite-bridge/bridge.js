// Queue Lab's bridge to PGlite: the only JavaScript the app calls.
//
// It is deliberately thin: start PGlite in a Web Worker (worker.js), send it statements, listen.
// Everything else (typed rows, the SQL log, timing, errors shown to the learner) lives in Rust
// (src/db). One message per statement each way; results come back as plain objects:
// timestamps stay Postgres text, int8 becomes a number when it is exactly representable.

function workerAt(base, workerUrl, datadir, hold, restore) {
  const baseUrl = new URL(base, document.baseURI);
  const url = new URL(workerUrl, document.baseURI);
  url.searchParams.set('base', baseUrl.href);
  if (datadir) url.searchParams.set('datadir', datadir === 'none' ? 'none' : new URL(datadir, document.baseURI).href);
  if (hold) url.searchParams.set('hold', '1');
  if (restore) url.searchParams.set('restore', '1');
  return url;
}

// A worker started ahead of the click (see prefetch), with what it has said so far; and
// whether open() ran already (a prefetch that comes after is for nothing).
let prefetched = null;
let opened = false;

/** Starts downloading and compiling PGlite in a worker that waits to boot until open() takes
 * it: a lab page calls this once it is idle, so the click finds the work done or under way. */
export function prefetch(base, workerUrl) {
  const go = () => prefetchNow(base, workerUrl);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(go, { timeout: 3000 });
  else setTimeout(go, 500);
}

function prefetchNow(base, workerUrl) {
  if (prefetched || opened) return;
  let worker;
  try {
    worker = new Worker(workerAt(base, workerUrl, null, true), { type: 'module' });
  } catch {
    return;
  }
  const conn = new Connection(worker);
  const said = [];
  let failed = false;
  conn.onStart = (msg) => said.push(msg);
  worker.addEventListener('error', () => (failed = true));
  prefetched = { key: `${base}|${workerUrl}`, conn, said, failed: () => failed };
}

/** Opens a fresh PGlite in a worker. `base`: URL of PGlite's folder; `workerUrl`: this
 * folder's worker.js. Both may be relative: they resolve against document.baseURI, so the
 * site works under a sub-path and inside an iframe. `onProgress(file, loaded, total)`.
 * `datadir`: another data directory to boot from (tests), `none` for initdb, null for the
 * one PGlite's manifest names. Each open is its own database (a prefetched worker is used by
 * the first open only): two labs embedded in one page never share one.
 * The handle says how PostgreSQL booted: `boot` ('datadir' or 'initdb') and `bootNote`. */
export async function open(base, workerUrl, onProgress, timeoutMs, datadir, restore) {
  opened = true;
  const url = workerAt(base, workerUrl, datadir, false, restore);
  let conn = null;
  let replay = [];
  if (prefetched && !datadir && prefetched.key === `${base}|${workerUrl}` && !prefetched.failed() && !prefetched.conn.dead && !prefetched.said.some((m) => m.type === 'error')) {
    conn = prefetched.conn;
    replay = prefetched.said;
  } else if (prefetched) {
    prefetched.conn.fail('not used');
  }
  prefetched = null;
  if (!conn) {
    let worker;
    try {
      worker = new Worker(url, { type: 'module' });
    } catch (e) {
      throw bridgeError(`the database worker could not be created from ${url.href}: ${e.message}`);
    }
    conn = new Connection(worker);
  }
  const worker = conn.worker;
  let how = { boot: null, note: null, pglite: null };
  const started = /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
    conn.onStart = (msg) => {
      if (msg.type === 'progress') onProgress(msg.file, msg.loaded, msg.total);
      if (msg.type === 'booting') onProgress('boot', 0, 0);
      if (msg.type === 'ready') {
        how = { boot: msg.boot ?? null, note: msg.note ?? null, pglite: msg.pglite ?? null };
        resolve();
      }
      if (msg.type === 'error') reject(bridgeError(msg.message));
    };
    worker.addEventListener('error', (event) => {
      reject(bridgeError(`the database worker failed to start: ${event.message || url.href}`));
    });
    for (const msg of replay) conn.onStart(msg);
    worker.postMessage({ queueLab: 'boot' });
  }));
  // A start that never answers becomes an error the page can offer Retry for, instead of a
  // progress bar that waits forever.
  let timer;
  const tooSlow = new Promise((_, reject) => {
    if (timeoutMs > 0) {
      timer = setTimeout(() => reject(bridgeError(`PostgreSQL did not answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    }
  });
  try {
    await Promise.race([started, tooSlow]);
    conn.watching = true;
    await Promise.race([conn.call({ op: 'query', sql: 'select 1', params: [] }), tooSlow]);
    const handle = new Handle(conn);
    handle.boot = how.boot;
    handle.bootNote = how.note;
    handle.pgliteVersion = how.pglite;
    // Test hooks (end-to-end tests) on the newest database's worker: stop it from the page as
    // if it had crashed (an error), or let it close itself (no error event: only the
    // heartbeat can tell).
    globalThis.queueLabTest = {
      killWorker: () => conn.fail('the database worker was stopped (test hook)'),
      closeWorker: () => conn.worker.postMessage({ queueLab: 'test-close' }),
    };
    return handle;
  } catch (e) {
    worker.terminate();
    throw e.bridge ? e : bridgeError(e.message || String(e));
  } finally {
    clearTimeout(timer);
  }
}

/** Opens a fresh PGlite booted from `bytes`, a data directory as `Handle.dataDir` gave it (a
 * saved lab, src/ui/keep.rs): handed to the worker as a blob: URL, read like the prepared
 * one. A dump that does not boot is an error (no initdb start in its place). */
export async function openDump(base, workerUrl, onProgress, timeoutMs, bytes) {
  const url = URL.createObjectURL(new Blob([bytes.slice()], { type: 'application/gzip' }));
  try {
    return await open(base, workerUrl, onProgress, timeoutMs, url, true);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** SHA-256 of `bytes` as lowercase hex (crypto.subtle: a saved lab's checksum). */
export async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.slice()));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Offers `bytes` as a download named `name` (a saved lab). */
export function saveFile(name, bytes, type) {
  const url = URL.createObjectURL(new Blob([bytes.slice()], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The bytes of the file chosen in the file input `input` (its first), or null. */
export async function readFile(input) {
  const file = input.files && input.files[0];
  if (!file) return null;
  return new Uint8Array(await file.arrayBuffer());
}

function bridgeError(message) {
  const e = /** @type {Error & { bridge?: boolean }} */ (new Error(message));
  e.bridge = true;
  return e;
}

/** How long the worker may leave a ping unanswered, while none of our calls is running in it,
 * before it counts as stopped (ms); and how often a ping goes out while calls wait. */
export const STALL_MS = 5000;
const BEAT_MS = 500;

/** The page's end of the worker: numbered calls, each answered once. Once the worker has
 * died, every pending and every later call fails with `dead: true`, so nothing waits forever.
 *
 * The watch: a worker can stop without an error event (`self.close()` inside it, or the
 * browser reclaiming it), and then simply never answers. While calls wait for their replies,
 * the page pings the worker every BEAT_MS; the worker answers whenever its one thread is
 * free. PostgreSQL runs in that thread, so a long statement holds the ping back too: the
 * worker says `started` before each call runs, and a ping unanswered while a started call
 * has not replied means "busy" (the page's 30 s notice offers Cancel for that), while one
 * unanswered for STALL_MS with no call running means "stopped". */
class Connection {
  constructor(worker) {
    this.worker = worker;
    this.pending = new Map();
    this.listeners = new Map();
    this.nextId = 1;
    /** Calls sent to the worker so far: the round trips the page made (a measure, see `Session.calls`). */
    this.calls = 0;
    this.dead = null;
    /** @type {(msg: any) => void} What the worker says before it is ready (progress, ready, error). */
    this.onStart = () => {};
    // The watch (see above): on once the worker is ready.
    this.watching = false;
    this.running = new Set();
    this.heard = performance.now();
    this.pingAt = null;
    this.beatAt = null;
    this.timer = null;
    worker.addEventListener('message', (event) => {
      const msg = event.data;
      if (!msg || !msg.queueLab) return;
      this.heard = performance.now();
      if (msg.type === 'pong') return;
      if (msg.type === 'started') {
        if (this.pending.has(msg.id)) this.running.add(msg.id);
      } else if (msg.type === 'reply') {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        this.running.delete(msg.id);
        if (p) (msg.error ? p.reject(msg.error) : p.resolve(msg.result));
      } else if (msg.type === 'notify') {
        this.listeners.get(msg.listen)?.(msg.payload);
      } else {
        this.onStart(msg);
      }
    });
    // A worker that dies (out of memory, a trap in PostgreSQL) answers nothing more.
    worker.addEventListener('error', (event) => {
      this.fail(`the database worker stopped: ${event.message || 'unknown error'}`);
    });
  }
  /** Ends the worker and fails every pending and later call with `message`. */
  fail(message) {
    if (this.dead) return;
    this.dead = { message, code: null, position: null, detail: null, hint: null, severity: null, dead: true };
    this.stopBeat();
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(this.dead);
    this.pending.clear();
    this.running.clear();
  }
  /** Rejects with Postgres's error as a plain object {message, code, position, detail, hint}. */
  call(msg) {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    this.calls++;
    const reply = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ queueLab: 'call', id, ...msg });
    });
    this.beat();
    return reply;
  }
  /** One step of the watch: runs while calls wait, at the first call and every BEAT_MS. */
  beat() {
    if (!this.watching || this.dead) return;
    if (this.pending.size === 0) {
      this.stopBeat();
      return;
    }
    if (!this.timer) this.timer = setInterval(() => this.beat(), BEAT_MS);
    const now = performance.now();
    // A page that was itself held up (a long task, a background tab) judges nothing from
    // that gap: the worker's answer may be queued behind it. Ping afresh.
    const pageStalled = this.beatAt !== null && now - this.beatAt > 3 * BEAT_MS;
    this.beatAt = now;
    const unanswered = this.pingAt !== null && this.heard < this.pingAt && !pageStalled;
    if (unanswered) {
      if (this.running.size === 0 && now - this.pingAt >= STALL_MS) {
        this.fail(`the database worker stopped answering: no reply for ${STALL_MS / 1000} s while none of its statements was running`);
      }
      return;
    }
    if (this.pingAt === null || now - this.pingAt >= BEAT_MS || pageStalled) {
      this.pingAt = now;
      this.worker.postMessage({ queueLab: 'ping' });
    }
  }
  stopBeat() {
    clearInterval(this.timer);
    this.timer = null;
    this.pingAt = null;
    this.beatAt = null;
  }
}

class Session {
  constructor(conn, tx) {
    this.conn = conn;
    this.tx = tx ?? null;
  }
  /** How many calls (round trips to the worker) the connection has sent, whatever sent them. */
  get calls() {
    return this.conn.calls;
  }
  /** One statement with bound parameters. */
  query(sql, params, arrays) {
    return this.conn.call({ op: 'query', sql, params: Array.from(params), arrays: !!arrays, tx: this.tx });
  }
  /** A script of several statements, no parameters; returns the last statement's result. */
  exec(sql, arrays) {
    return this.conn.call({ op: 'exec', sql, arrays: !!arrays, tx: this.tx });
  }
  /** The SQL console's call: one statement, its psql variables bound as `params` ($1…), its
   * result cut to `limit` rows in the worker (`total` says how many there were) with its
   * command tag, the notices it raised, and the session's transaction state (`idle`, `open`
   * or `failed`), even when the statement failed. */
  console(sql, params, limit) {
    return this.conn.call({ op: 'console', sql, params: Array.from(params), limit });
  }
  /** pg_dump of the schemas matching `schemas` (pg_dump's patterns): { text, schemas }. */
  dump(schemas) {
    return this.conn.call({ op: 'dump', schemas: Array.from(schemas) });
  }
  commit() {
    return this.conn.call({ op: 'commit', tx: this.tx });
  }
  rollback() {
    return this.conn.call({ op: 'rollback', tx: this.tx });
  }
}

class Handle extends Session {
  constructor(conn) {
    super(conn, null);
    /** How PostgreSQL booted ('datadir' or 'initdb'), the note of a fallback, PGlite's version: set by open(). */
    /** @type {string | null} */
    this.boot = null;
    /** @type {string | null} */
    this.bootNote = null;
    /** @type {string | null} */
    this.pgliteVersion = null;
  }

  /** Starts a transaction that holds the database until commit() or rollback(): every other
   * statement waits meanwhile, so nothing interleaves with it. */
  async begin() {
    const tx = await this.conn.call({ op: 'begin' });
    return new Session(this.conn, tx);
  }

  /** Subscribes to a channel; resolves to a function that unsubscribes. */
  async listen(channel, callback) {
    const id = await this.conn.call({ op: 'listen', channel });
    this.conn.listeners.set(id, callback);
    return async () => {
      this.conn.listeners.delete(id);
      // A stopped worker listens to nothing any more.
      if (this.conn.dead) return;
      await this.conn.call({ op: 'unlisten', listen: id });
    };
  }

  /** The data directory (PGlite's dumpDataDir, gzip) and PGlite's version: { dump, pglite }. */
  dataDir() {
    return this.conn.call({ op: 'datadir' });
  }

  async close() {
    if (this.conn.dead) return;
    try {
      await Promise.race([this.conn.call({ op: 'close' }), new Promise((r) => setTimeout(r, 2000))]);
    } finally {
      this.conn.fail('the database was closed');
    }
  }
  /** Stops the worker at once, whatever it is running (a statement that does not end). */
  terminate(message) {
    this.conn.fail(message);
  }
}

/** PGlite's build manifest (pglite.json, written by build.mjs) with `base`: its PGlite folder
 * resolved against the manifest's own URL; null when it cannot be fetched or read. */
export async function manifest(url) {
  try {
    const at = new URL(url, document.baseURI);
    const response = await fetch(at, { cache: 'no-cache' });
    if (!response.ok) return null;
    const m = await response.json();
    return { ...m, base: new URL(m.dir, at).href };
  } catch {
    return null;
  }
}
