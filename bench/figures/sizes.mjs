// The .wasm sizes: the main module, each lab as a first lab (the main module with the lab's
// module and the shared modules it loads), taking a lab home, and L2's simulator worker.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { report, say } from '../report.mjs';
import { DIST } from '../../tests/e2e/harness.mjs';

export function sizes() {
  say('sizes');
  // The app's own .wasm (queue-lab-<hash>_bg.wasm), not L2's simulator worker beside it.
  const wasmFile = fs.readdirSync(DIST).find((f) => f.startsWith('queue-lab-') && f.endsWith('_bg.wasm'));
  const wasm = fs.readFileSync(path.join(DIST, wasmFile));
  report('app .wasm raw', wasm.length / 1024, 'KB');
  const gz = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length;
  report('app .wasm gzipped', gz(wasm) / 1024, 'KB', '≤ 550 KB (the main module)', { limit: 550 });
  // The release split by lab (scripts/split-release.mjs): what a lab's page loads besides the
  // main module, its own module and the shared ones it needs, as __wasm_split.js lists them.
  const loaderFile = path.join(DIST, '__wasm_split.js');
  if (fs.existsSync(loaderFile)) {
    const loader = fs.readFileSync(loaderFile, 'utf8');
    const size = (file) => gz(fs.readFileSync(path.join(DIST, file)));
    const chunks = new Map();
    for (const m of loader.matchAll(/const (__chunk_\d+) = makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([^"]+)"/g)) {
      chunks.set(m[1], m[2]);
    }
    let all = gz(wasm) + [...chunks.values()].reduce((n, f) => n + size(f), 0);
    const splits = new Map();
    for (const m of loader.matchAll(/__wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([^"]+)"[\s\S]*?\n, \[([^\]]*)\]/g)) {
      splits.set(m[1], { file: m[2], deps: m[3].split(',').map((d) => d.trim()).filter(Boolean) });
      all += size(m[2]);
    }
    // A lab's view (`<View>Lab`) is a lab's page; the other split points load on a click.
    for (const [name, { file, deps }] of splits) {
      if (!name.endsWith('Lab')) continue;
      const bytes = gz(wasm) + size(file) + deps.reduce((n, d) => n + size(chunks.get(d)), 0);
      const first = name === 'JobsLab';
      report(`${name} as the first lab: main + its module + ${deps.length} shared, gzipped`, bytes / 1024, 'KB',
        first ? '≤ 450 KB' : '', first ? { limit: 450 } : {});
    }
    // Taking a lab home (src/ui/take_home.rs, the split point `Keep`: Save, Open, the downloads
    // for a server): what L1's first such click adds, its module and the shared ones L1 has not
    // loaded.
    const keep = splits.get('Keep');
    const jobs = splits.get('JobsLab');
    if (keep && jobs) {
      const more = keep.deps.filter((d) => !jobs.deps.includes(d));
      const bytes = size(keep.file) + more.reduce((n, d) => n + size(chunks.get(d)), 0);
      report(`taking a lab home on L1 (Save, Open or a download), first click: its module + ${more.length} shared, gzipped`, bytes / 1024, 'KB');
    }
    report('all modules of the split release, gzipped', all / 1024, 'KB');
  }
  const simWasm = path.join(DIST, 'sim-worker_bg.wasm');
  if (fs.existsSync(simWasm)) {
    const sim = fs.readFileSync(simWasm);
    report("L2 simulator worker's .wasm gzipped (loaded on L2's first run)", zlib.gzipSync(sim, { level: 9 }).length / 1024, 'KB');
  }
}
