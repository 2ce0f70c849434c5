// Splits the release by lab: run by `./lab`'s release build right after `trunk build --release`,
// which it runs with `--cfg queue_lab_split` (each lab's page a split point, src/descriptor.rs) and the
// linker's relocations kept (`--emit-relocs`, no strip): build.rs `split_by_lab`.
//
//   node scripts/split-release.mjs [dist] [cargo's .wasm]
//
// Trunk runs cargo, wasm-bindgen and wasm-opt as one step and has no split step, so this
// script does what follows that step again, from cargo's output:
// 1. wasm-split-cli: the main module, one module per lab (`split_<View>.wasm`), modules of
//    code that several labs share (`chunk_<n>.wasm`), and their loader `__wasm_split.js`;
// 2. wasm-bindgen on the main module, with `--keep-lld-exports` (without it the function
//    table's export goes, and no lab module can link: "table import requires a
//    WebAssembly.Table");
// 3. wasm-opt -Oz on every module, with the features index.html gives Trunk's;
// 4. the results over Trunk's files in dist/ (the same names), each lab and shared module
//    named by a hash of its content (a page loaded before a new build was put up then fails
//    to fetch the old module, and says so, rather than linking a module of another build),
//    and index.html's `integrity` attributes computed again.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = process.argv[2] || 'dist';
const input = process.argv[3] || 'target/wasm32-unknown-unknown/release/queue-lab.wasm';
const work = 'target/split';

const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const source = fs.readFileSync('index.html', 'utf8');
// Trunk's names: queue-lab-<hash>.js and queue-lab-<hash>_bg.wasm.
const outName = fs.readdirSync(dist).find((f) => /^queue-lab-[0-9a-f]+\.js$/.test(f))?.slice(0, -3);
if (!outName) {
  throw new Error(`no queue-lab-<hash>.js in ${dist}: run trunk build --release first`);
}
// wasm-opt's features for the app, as index.html gives them to Trunk.
const params = source.match(/data-bin="queue-lab"[^>]*data-wasm-opt-params="([^"]+)"/);
if (!params) {
  throw new Error('index.html gives no data-wasm-opt-params for queue-lab');
}
const features = params[1].split(/\s+/).filter(Boolean);

const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
const timed = (what, f) => {
  const t0 = Date.now();
  f();
  console.log(`split-release: ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
};

fs.rmSync(work, { recursive: true, force: true });
const split = path.join(work, 'split');
const bound = path.join(work, 'bound');
fs.mkdirSync(split, { recursive: true });
timed('wasm-split-cli', () => run('wasm-split-cli', [input, split, '--target', 'web', '--out-name', outName]));
const mainIn = path.join(split, `${outName}.wasm`);
if (!fs.existsSync(mainIn)) {
  throw new Error(`wasm-split-cli wrote no ${mainIn}: was the app built with --cfg queue_lab_split and --emit-relocs?`);
}
timed('wasm-bindgen', () => run('wasm-bindgen', [
  '--target', 'web', '--no-typescript', '--keep-lld-exports',
  '--out-name', outName, '--out-dir', bound, mainIn,
]));

// The custom sections a browser does not read: the toolchain's names and versions, and the
// features the linker targeted (about 200 B in each module, 4 KB gzipped of what L1 loads).
const strip = ['--strip-producers', '--strip-target-features'];
// wasm-opt warns once per module of a name subsection it does not read (id 3, label names,
// which an unstripped module's name section carries); -Oz drops the name section anyway.
// QUEUE_LAB_WASM_NAMES=1 keeps it (-g): a build for profiling, whose CPU profiles name the
// app's Rust functions instead of wasm-function[N] (about 0.3 MB more gzipped; not for a site).
const names = process.env.QUEUE_LAB_WASM_NAMES ? ['-g'] : [];
const optimize = (from, to) => {
  const r = spawnSync('wasm-opt', ['-Oz', ...names, ...strip, ...features, from, '-o', to], { encoding: 'utf8' });
  const said = (r.stderr || '').split('\n').filter((l) => l && !/^warning: unknown name subsection/.test(l));
  if (said.length) console.error(said.join('\n'));
  if (r.status !== 0) throw new Error(`wasm-opt failed on ${from} (${r.error || `status ${r.status}`})`);
};
const modules = fs.readdirSync(split).filter((f) => f.endsWith('.wasm') && f !== `${outName}.wasm`).sort();
if (!modules.some((f) => f.startsWith('split_'))) {
  throw new Error('wasm-split-cli found no split point: was the app built with --cfg queue_lab_split?');
}
timed(`wasm-opt -Oz on the main module and ${modules.length} others`, () => {
  optimize(path.join(bound, `${outName}_bg.wasm`), path.join(dist, `${outName}_bg.wasm`));
  let loader = fs.readFileSync(path.join(split, '__wasm_split.js'), 'utf8');
  for (const f of fs.readdirSync(dist)) {
    if (/^(split_|chunk_).*\.wasm$/.test(f)) {
      fs.rmSync(path.join(dist, f));
    }
  }
  for (const m of modules) {
    const tmp = path.join(work, m);
    optimize(path.join(split, m), tmp);
    const hash = crypto.createHash('sha256').update(fs.readFileSync(tmp)).digest('hex').slice(0, 16);
    const named = m.replace(/\.wasm$/, `-${hash}.wasm`);
    fs.renameSync(tmp, path.join(dist, named));
    const ref = `"./${m}"`;
    if (!loader.includes(ref)) {
      throw new Error(`__wasm_split.js does not load ${ref}`);
    }
    loader = loader.replaceAll(ref, `"./${named}"`);
  }
  fs.writeFileSync(path.join(dist, '__wasm_split.js'), loader);
});
fs.copyFileSync(path.join(bound, `${outName}.js`), path.join(dist, `${outName}.js`));
fs.cpSync(path.join(bound, 'snippets'), path.join(dist, 'snippets'), { recursive: true });

// Every integrity attribute of index.html, for the file it names, computed again.
let page = html;
let checked = 0;
page = page.replace(/<link\b[^>]*>/g, (tag) => {
  const href = tag.match(/href="\.\/([^"]+)"/)?.[1];
  if (!href || !/integrity="/.test(tag)) {
    return tag;
  }
  checked += 1;
  const digest = crypto.createHash('sha384').update(fs.readFileSync(path.join(dist, href))).digest('base64');
  return tag.replace(/integrity="[^"]*"/, `integrity="sha384-${digest}"`);
});
fs.writeFileSync(path.join(dist, 'index.html'), page);

const gz = (f) => zlib.gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length;
const parts = fs.readdirSync(dist).filter((f) => /^(split_|chunk_).*\.wasm$/.test(f));
const total = parts.reduce((n, f) => n + gz(f), gz(`${outName}_bg.wasm`));
console.log(
  `split-release: main module ${gz(`${outName}_bg.wasm`)} B gzipped, ${parts.length} more modules, `
    + `all ${total} B; ${checked} integrity attributes computed again`,
);
