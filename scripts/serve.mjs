// Queue Lab's static server for a release build: what `./lab serve` runs, and what the
// end-to-end tests and the benchmark serve dist/ with. No dependencies (node's http, zlib).
//
//   node scripts/serve.mjs [dir] [port]        serves dir (default dist) on 127.0.0.1:port
//
// What a host should do too (README, Deploy):
// - gzip what compresses (.wasm, .js, .data, .json, .html, .css, .svg, .tar) when the client
//   accepts it; already compressed files (.gz) as they are;
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
 * `gzip`: compress when the client accepts it. `cache`: send cache headers (immutable for the
 * versioned PGlite folder, revalidate for the rest, 304 on a matching ETag); off, nothing is
 * cacheable. `bytesPerSecond`: send bodies slowly (tests that watch a download progress).
 * `contentLength`: send content-length also for a compressed body (its compressed size, as
 * some hosts do).
 */
export function createServer({ root, prefix = '/', gzip = true, cache = true, bytesPerSecond = 0, contentLength = true } = {}) {
  const packed = new Map(); // file → { mtime, body } (gzipped once per version of the file)
  const gzipped = (file, stat, raw) => {
    const hit = packed.get(file);
    if (hit && hit.mtime === stat.mtimeMs) return hit.body;
    const body = zlib.gzipSync(raw, { level: 6 });
    packed.set(file, { mtime: stat.mtimeMs, body });
    return body;
  };
  return http.createServer(async (req, res) => {
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
    if (gzip && COMPRESS.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      body = gzipped(file, stat, body);
      headers['content-encoding'] = 'gzip';
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
      res.end(body);
      return;
    }
    // Slowly: 20 slices a second.
    const slice = Math.max(1024, Math.floor(bytesPerSecond / 20));
    for (let at = 0; at < body.length && !res.destroyed; at += slice) {
      res.write(body.subarray(at, at + slice));
      await new Promise((r) => setTimeout(r, 50));
    }
    res.end();
  });
}

/** Starts a server on 127.0.0.1 (port 0: any free one); resolves to { url, close }. */
export function listen(options, port = 0) {
  const server = createServer(options);
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const p = server.address().port;
      resolve({ url: `http://127.0.0.1:${p}${options.prefix || '/'}`, close: () => server.close() });
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
  console.log(`Queue Lab: ${url} (gzip, cache headers)`);
}
