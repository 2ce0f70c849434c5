// Queue Lab's static server for a release build: what `./lab serve` runs, and what the
// end-to-end tests and the benchmark serve dist/ with. No dependencies (node's http, zlib).
//
//   node scripts/serve.mjs [dir] [port]        serves dir (default dist) on 127.0.0.1:port
//
// What a host should do too (README, Deploying):
// - compress what compresses (.wasm, .js, .data, .json, .html, .css, .svg, .tar): brotli when
//   the client accepts it (PGlite's .wasm and .data are 22 % and 50 % smaller than gzipped),
//   from the `.br` file beside it when there is one (pglite-bridge/build.mjs writes them for
//   PGlite's large files at brotli's best quality, too slow to do per request), else gzip;
//   already compressed files (.gz) as they are;
// - `application/wasm` for .wasm (the browser compiles it while it streams in only then);
// - PGlite's versioned folder (pglite/pglite-<version>/) cached for good (`immutable`), every
//   other file revalidated (ETag), so a new build of the app is seen at once.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.data': 'application/octet-stream',
  '.tar': 'application/x-tar',
  '.gz': 'application/gzip',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESS = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.svg', '.data', '.tar', '.txt']);
const IMMUTABLE = /(^|\/)pglite-[0-9][^/]*\//;

/**
 * A static server for `root`, under `prefix` (e.g. '/docs/queue-lab/').
 * `compress`: compress when the client accepts it; `brotli`: prefer brotli to gzip. `cache`: send cache headers (immutable for the
 * versioned PGlite folder, revalidate for the rest, 304 on a matching ETag); off, nothing is
 * cacheable. `bytesPerSecond`: send bodies slowly (tests that watch a download progress).
 * `contentLength`: send content-length also for a compressed body (its compressed size, as
 * some hosts do).
 * @param {{ root?: string, prefix?: string, compress?: boolean, brotli?: boolean, cache?: boolean, bytesPerSecond?: number, contentLength?: boolean }} [options]
 * @returns {import('node:http').Server & { sent: () => number }}
 */
export function createServer({ root, prefix = '/', compress = true, brotli = true, cache = true, bytesPerSecond = 0, contentLength = true } = {}) {
  let sent = 0; // body bytes written, as they went over the wire (compressed or not)
  const packed = new Map(); // `${encoding} ${file}` → { mtime, body }: once per version of the file
  const encode = (encoding, file, stat, raw) => {
    const key = `${encoding} ${file}`;
    const hit = packed.get(key);
    if (hit && hit.mtime === stat.mtimeMs) return hit.body;
    let body;
    if (encoding === 'gzip') {
      body = zlib.gzipSync(raw, { level: 6 });
    } else if (fs.existsSync(`${file}.br`) && fs.statSync(`${file}.br`).mtimeMs >= stat.mtimeMs) {
      body = fs.readFileSync(`${file}.br`);
    } else {
      const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
      body = zlib.brotliCompressSync(raw, { params: { [BROTLI_PARAM_QUALITY]: 9, [BROTLI_PARAM_SIZE_HINT]: raw.length } });
    }
    packed.set(key, { mtime: stat.mtimeMs, body });
    return body;
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end('not under ' + prefix);
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html';
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(root, rel);
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    const stat = fs.statSync(file);
    const ext = path.extname(file);
    const headers = { 'content-type': TYPES[ext] || 'application/octet-stream', vary: 'accept-encoding' };
    if (cache) {
      const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
      headers.etag = etag;
      headers['cache-control'] = IMMUTABLE.test(rel) ? 'public, max-age=31536000, immutable' : 'no-cache';
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers).end();
        return;
      }
    } else {
      headers['cache-control'] = 'no-store';
    }
    let body = fs.readFileSync(file);
    const accepts = req.headers['accept-encoding'] || '';
    const encoding = !compress || !COMPRESS.has(ext) ? null
      : brotli && /\bbr\b/.test(accepts) ? 'br'
      : /\bgzip\b/.test(accepts) ? 'gzip' : null;
    if (encoding) {
      body = encode(encoding, file, stat, body);
      headers['content-encoding'] = encoding;
      if (contentLength) headers['content-length'] = body.length;
    } else {
      headers['content-length'] = body.length;
    }
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (!bytesPerSecond) {
      sent += body.length;
      res.end(body);
      return;
    }
    // Slowly: 20 slices a second.
    const slice = Math.max(1024, Math.floor(bytesPerSecond / 20));
    for (let at = 0; at < body.length && !res.destroyed; at += slice) {
      const part = body.subarray(at, at + slice);
      sent += part.length;
      res.write(part);
      await new Promise((r) => setTimeout(r, 50));
    }
    res.end();
  });
  /** Body bytes sent so far. */
  const counted = /** @type {import('node:http').Server & { sent: () => number }} */ (server);
  counted.sent = () => sent;
  return counted;
}

/** Starts a server on 127.0.0.1 (port 0: any free one); resolves to { url, close, sent }
 *  (`sent()`: body bytes sent so far). */
export function listen(options, port = 0) {
  const server = createServer(options);
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const p = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
      resolve({ url: `http://127.0.0.1:${p}${options.prefix || '/'}`, close: () => server.close(), sent: server.sent });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] || 'dist');
  const port = Number(process.argv[3] || process.env.QUEUE_LAB_PORT || 8080);
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    console.error(`no build in ${root}: run "trunk build --release" (./lab serve does)`);
    process.exit(1);
  }
  const { url } = await listen({ root }, port);
  console.log(`Queue Lab: ${url} (brotli or gzip, cache headers)`);
}
