// Queue Lab's PGlite worker: boots PostgreSQL (PGlite) off the page's main thread.
//
// The page creates this as a module worker with `?base=<url of PGlite's dist/>`, so the same
// file serves the built site (PGlite copied next to it) and the headless tests (PGlite served
// from node_modules). It downloads the two big files itself to report progress, and reports a
// failed download as a message the page can show (PGlite's own worker would wait forever).

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

async function boot(options) {
  const { PGlite } = await import(new URL('index.js', base).href);
  const { worker } = await import(new URL('worker/index.js', base).href);
  const { pageinspect } = await import(new URL('contrib/pageinspect.js', base).href);
  const { pg_visibility } = await import(new URL('contrib/pg_visibility.js', base).href);
  return { PGlite, worker, extensions: { pageinspect, pg_visibility } };
}

// PGlite's worker passes only an error's message back to the page. Postgres's SQLSTATE,
// position, detail and hint are what a learner needs, so they travel inside the message.
const ERROR_MARK = '\u0000queue-lab-error:';
function keepErrorFields(db) {
  for (const name of ['execProtocol', 'execProtocolStream', 'execProtocolRaw', 'execProtocolRawStream']) {
    const original = db[name].bind(db);
    db[name] = async (...args) => {
      try {
        return await original(...args);
      } catch (e) {
        if (e && e.code && !String(e.message).startsWith(ERROR_MARK)) {
          const { message, code, position, detail, hint, severity } = e;
          e.message = ERROR_MARK + JSON.stringify({ message, code, position, detail, hint, severity });
        }
        throw e;
      }
    };
  }
}

const modules = boot().catch((e) => {
  report({ type: 'error', message: `PGlite's scripts did not load from ${base}: ${e.message}` });
  throw e;
});

modules.then(({ PGlite, worker, extensions }) =>
  worker({
    async init() {
      try {
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
        const db = await PGlite.create({
          pgliteWasmModule,
          initdbWasmModule,
          fsBundle: data,
          extensions,
          // PREPARE TRANSACTION is how the labs pin the xmin horizon for real.
          postgresqlconf: 'max_prepared_transactions = 4',
        });
        keepErrorFields(db);
        // Measurement hook for bench/run.mjs (read through the DevTools protocol, never by
        // the app): bytes of PostgreSQL's WebAssembly memory.
        self.queueLabWasmBytes = () => db.Module.HEAPU8.buffer.byteLength;
        return db;
      } catch (e) {
        report({ type: 'error', message: e.message });
        throw e;
      }
    },
  }),
);
