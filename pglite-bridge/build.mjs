// Build step (run by Trunk's pre-build hook and by `./lab test` before the headless suite):
// stages what the site ships of PGlite in pglite-bridge/build/ (gitignored):
//
//   build/pglite-<version>/   only what runs: the ES modules PGlite imports, pglite.wasm,
//                             pglite.data, initdb.wasm (the fallback), the two contrib
//                             extensions the labs use, PGlite's LICENSE, brotli copies
//                             (`.br`) of pglite.wasm, pglite.data and initdb.wasm, and
//                             pgdata-<hash>.tar.gz: a data directory made here by the same
//                             PGlite, with the lab clock and the labs' schemas already
//                             installed (the app's own SQL files, run as the app runs them),
//                             so the browser boots from it instead of running initdb. <hash>
//                             is of its inputs (PGlite's version, the SQL, this script).
//   build/psql-describe-<version>/  psql's describe commands (`\d`, `\dt`, `\d name`: the npm
//                             package psql-describe, one ES module) and its LICENSE: the
//                             worker loads it the first time the SQL console is given one.
//   build/pglite-tools-<version>/  pg_dump built for PGlite (npm @electric-sql/pglite-tools:
//                             pg_dump.js, its chunk, pg_dump.wasm, LICENSE): the worker loads
//                             it the first time a lab is downloaded as SQL.
//   build/pglite.json         { dir, datadir, files, download, describe, pgDump }: where PGlite is, the
//                             data directory's name, the sizes (uncompressed) of what the worker
//                             downloads (the progress bar), how much a start downloads (the
//                             start panel says so), and psql-describe's and pg_dump's modules (beside `dir`).
//
// The folder name carries PGlite's version and the data directory's name its inputs' hash,
// so a host can cache the folder for good; pglite.json, beside it, is revalidated (README,
// Deploying). Takes seconds; the data directory is made again only when its inputs change.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const pkgDir = path.join(here, 'node_modules/@electric-sql/pglite');
const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
const src = path.join(pkgDir, 'dist');
const outRoot = path.join(here, 'build');
const dirName = `pglite-${version}`;
const out = path.join(outRoot, dirName);
const describePkg = path.join(here, 'node_modules/psql-describe');
const describeDir = `psql-describe-${JSON.parse(fs.readFileSync(path.join(describePkg, 'package.json'), 'utf8')).version}`;
const toolsPkg = path.join(here, 'node_modules/@electric-sql/pglite-tools');
const toolsDir = `pglite-tools-${JSON.parse(fs.readFileSync(path.join(toolsPkg, 'package.json'), 'utf8')).version}`;

// The SQL the app runs on a fresh database, in order (never copied: read from src/sql).
const SQL_FILES = ['src/sql/lab/clock_install.sql', 'src/sql/vacuum/setup_extensions.sql'];
// The contrib extensions the worker imports (pglite-bridge/worker.js).
const EXTENSIONS = ['pageinspect', 'pg_visibility'];

/** ES modules reachable from `entry` by static or dynamic relative imports. */
function moduleClosure(entries) {
  const seen = new Set();
  const todo = [...entries];
  while (todo.length) {
    const rel = todo.pop();
    if (seen.has(rel)) continue;
    seen.add(rel);
    const text = fs.readFileSync(path.join(src, rel), 'utf8');
    const re = /(?:from\s*|import\s*\(\s*|import\s*)["'](\.{1,2}\/[^"']+)["']/g;
    for (const m of text.matchAll(re)) {
      const dep = path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[1]));
      if (dep.endsWith('.js')) todo.push(dep);
    }
  }
  return [...seen];
}

/** The data directory: PGlite boots (initdb) here, runs the lab's SQL, and dumps itself. */
async function makeDataDir() {
  const { PGlite } = await import(pathToFileURL(path.join(src, 'index.js')).href);
  const extensions = {};
  for (const name of EXTENSIONS) {
    const mod = await import(pathToFileURL(path.join(src, 'contrib', `${name}.js`)).href);
    extensions[name] = mod[name];
  }
  const db = await PGlite.create({ extensions, postgresqlconf: 'max_prepared_transactions = 4' });
  for (const file of SQL_FILES) {
    await db.exec(fs.readFileSync(path.join(root, file), 'utf8'));
  }
  // Smaller before it is dumped (PGlite 0.5.17, measured: 4.6 MB gzipped as initdb leaves
  // it, 1.0 MB like this):
  // - The lab works in the database `postgres` (PGlite's default). The two template
  //   databases are copies of the same catalogs (2 MB gzipped) that nothing here uses; without
  //   them a CREATE DATABASE typed in the console fails with PostgreSQL's own message
  //   (template database "template1" does not exist).
  // - After a CHECKPOINT, startup reads the WAL from the checkpoint's redo point on, so the
  //   segment's older records (initdb's, 1.5 MB gzipped) are zeroed; the segment's first page
  //   stays (its long header is checked whenever the segment is opened).
  // (VACUUM FULL made it larger: it writes WAL.)
  for (const db0 of ['template0', 'template1']) {
    await db.query(`ALTER DATABASE ${db0} IS_TEMPLATE false`);
    await db.query(`DROP DATABASE ${db0}`);
  }
  await db.query('CHECKPOINT');
  const { rows } = await db.query('SELECT redo_lsn::text AS redo FROM pg_control_checkpoint()');
  const raw = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
  await db.close();
  zeroWalBefore(raw, rows[0].redo);
  const gz = zlib.gzipSync(raw, { level: 9 });
  return { raw, gz };
}

const WAL_SEGMENT = 16n << 20n;
const WAL_PAGE = 8192;

/** In the tar `raw`, zeroes the WAL segment holding `redo` (an LSN, `X/Y`) between its first
 *  page and the page of `redo`: records startup never reads. Throws if the segment is not there. */
function zeroWalBefore(raw, redo) {
  const [hi, lo] = redo.split('/').map((h) => BigInt(`0x${h}`));
  const lsn = (hi << 32n) + lo;
  const segno = lsn / WAL_SEGMENT;
  const hex = (n) => n.toString(16).toUpperCase().padStart(8, '0');
  const name = `pg_wal/00000001${hex(segno >> 32n)}${hex(segno & 0xffffffffn)}`;
  const until = Number((lsn % WAL_SEGMENT) / BigInt(WAL_PAGE)) * WAL_PAGE;
  for (let off = 0; off + 512 <= raw.length; ) {
    const field = (from, len) => raw.subarray(off + from, off + from + len).toString('latin1').replace(/\0.*$/s, '');
    const entry = field(0, 100).replace(/^\/+/, '');
    if (!entry) break;
    const size = parseInt(field(124, 12).trim() || '0', 8);
    if (entry === name) {
      raw.fill(0, off + 512 + WAL_PAGE, off + 512 + until);
      return;
    }
    off += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`the dumped data directory has no ${name}`);
}

/** Writes only a changed file, so a build that changes nothing touches nothing. */
function writeIfChanged(file, data) {
  if (fs.existsSync(file) && fs.readFileSync(file).equals(Buffer.from(data))) return;
  fs.writeFileSync(file, data);
}

function newer(file, inputs) {
  if (!fs.existsSync(file)) return false;
  const t = fs.statSync(file).mtimeMs;
  return inputs.every((f) => fs.statSync(f).mtimeMs <= t);
}

fs.mkdirSync(out, { recursive: true });
// Only this version's folders: an older one left from a previous PGlite or psql-describe goes.
for (const entry of fs.readdirSync(outRoot)) {
  const older = (entry.startsWith('pglite-') && entry !== dirName) || (entry.startsWith('psql-describe-') && entry !== describeDir) || (entry.startsWith('pglite-tools-') && entry !== toolsDir);
  if (older && !entry.endsWith('.json')) {
    fs.rmSync(path.join(outRoot, entry), { recursive: true, force: true });
  }
}

// fs/*.js are the file systems for a `dataDir` (node, OPFS): the worker passes none (the
// database lives in memory), so they never load.
const inputs = [path.join(pkgDir, 'package.json'), fileURLToPath(import.meta.url), ...SQL_FILES.map((f) => path.join(root, f))];
const hash = crypto.createHash('sha256');
for (const f of inputs) hash.update(fs.readFileSync(f));
const DATADIR = `pgdata-${hash.digest('hex').slice(0, 12)}.tar.gz`;

const modules = moduleClosure(['index.js', ...EXTENSIONS.map((e) => `contrib/${e}.js`)]).filter((m) => !m.startsWith('fs/'));
const binaries = ['pglite.wasm', 'pglite.data', 'initdb.wasm', ...EXTENSIONS.map((e) => `${e}.tar.gz`)];
const wanted = new Set([...modules, ...binaries]);
const BROTLI = ['pglite.wasm', 'pglite.data', 'initdb.wasm'];
// Files of an earlier build that this one does not ship any more.
for (const rel of fs.readdirSync(out, { recursive: true, encoding: 'utf8' })) {
  const full = path.join(out, rel);
  const kept = wanted.has(rel) || rel === 'LICENSE' || rel === DATADIR || (rel.endsWith('.br') && BROTLI.includes(rel.slice(0, -3)));
  if (fs.statSync(full).isFile() && !kept) {
    fs.rmSync(full);
  }
}
for (const rel of fs.readdirSync(out)) {
  const full = path.join(out, rel);
  if (fs.statSync(full).isDirectory() && fs.readdirSync(full).length === 0) fs.rmdirSync(full);
}
for (const rel of wanted) {
  const from = path.join(src, rel);
  if (!fs.existsSync(from)) throw new Error(`PGlite ${version} has no ${rel}`);
  const to = path.join(out, rel);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  if (!newer(to, [from])) fs.copyFileSync(from, to);
}
writeIfChanged(path.join(out, 'LICENSE'), fs.readFileSync(path.join(pkgDir, 'LICENSE')));

// psql-describe as npm ships it (already one minified module, no imports): nothing to bundle.
fs.mkdirSync(path.join(outRoot, describeDir), { recursive: true });
for (const file of ['index.js', 'LICENSE']) {
  writeIfChanged(path.join(outRoot, describeDir, file), fs.readFileSync(path.join(describePkg, file)));
}

// pg_dump (PGlite's own WebAssembly build, npm @electric-sql/pglite-tools) as npm ships it:
// pg_dump.js, the one chunk it imports and pg_dump.wasm beside them (the chunk finds it by
// import.meta.url); the worker loads it the first time a lab is downloaded as SQL.
fs.mkdirSync(path.join(outRoot, toolsDir), { recursive: true });
const toolsDist = path.join(toolsPkg, 'dist');
for (const file of fs.readdirSync(toolsDist).filter((f) => /^(pg_dump\.js|chunk-[\w-]+\.js|pg_dump\.wasm)$/.test(f))) {
  writeIfChanged(path.join(outRoot, toolsDir, file), fs.readFileSync(path.join(toolsDist, file)));
}
writeIfChanged(path.join(outRoot, toolsDir, 'LICENSE'), fs.readFileSync(path.join(toolsPkg, 'LICENSE')));

// Brotli beside PGlite's large files, for a host that serves precompressed files (and for
// scripts/serve.mjs): at brotli's best quality with a 16 MB window, pglite.wasm is 22 % and
// pglite.data 50 % smaller than gzipped, but that takes about a minute and a half here, too
// slow for a host to do per request. Made once per PGlite version.
for (const rel of BROTLI) {
  const from = path.join(out, rel);
  if (newer(`${from}.br`, [from])) continue;
  const t0 = Date.now();
  const raw = fs.readFileSync(from);
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
  const br = zlib.brotliCompressSync(raw, {
    params: { [BROTLI_PARAM_QUALITY]: 11, [BROTLI_PARAM_LGWIN]: 24, [BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
  fs.writeFileSync(`${from}.br`, br);
  console.log(`pglite build: ${rel}.br ${(br.length / 1048576).toFixed(2)} MB (${Date.now() - t0} ms)`);
}

const dataFile = path.join(out, DATADIR);
if (!fs.existsSync(dataFile)) {
  const t0 = Date.now();
  const { raw, gz } = await makeDataDir();
  fs.writeFileSync(dataFile, gz);
  console.log(`pglite build: data directory ${(raw.length / 1048576).toFixed(2)} MB raw, ${(gz.length / 1048576).toFixed(2)} MB gzipped (${Date.now() - t0} ms)`);
}

// What the worker downloads, uncompressed (the progress bar's denominators). The data
// directory is a .gz the worker inflates itself, so its size is the file's.
const size = (rel) => fs.statSync(path.join(out, rel)).size;
const files = {
  'pglite.wasm': size('pglite.wasm'),
  'pglite.data': size('pglite.data'),
  [DATADIR]: size(DATADIR),
  'initdb.wasm': size('initdb.wasm'),
};
const manifest = { version, datadir: DATADIR, files };
// A start downloads everything but initdb.wasm (needed only when the data directory fails).
const download = files['pglite.wasm'] + files['pglite.data'] + files[DATADIR];
writeIfChanged(path.join(outRoot, 'pglite.json'), JSON.stringify({ dir: `${dirName}/`, download, ...manifest, describe: `${describeDir}/index.js`, pgDump: `${toolsDir}/pg_dump.js` }, null, 1) + '\n');
console.log(`pglite build: ${path.relative(root, out)} (${fs.readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(out, f)).isFile()).length} files), a start downloads ${(download / 1048576).toFixed(1)} MB`);
