// `./lab mutants [NAME...]`: plants each fault of tests/mutants/faults/ in a scratch copy of the
// tree, one at a time, runs the suites the fault names, reverts it, and prints which tests
// caught it. The format of a fault and the scoring are in tests/mutants/README.md.
//
// The scratch copy (QUEUE_LAB_MUTANTS_DIR, default /tmp/queue-lab-mutants: tree/ and target/)
// is kept between runs and between faults, so each rebuild is incremental. Options:
//   NAME...          only the faults whose file name contains one of these
//   --list           list the faults and the suites each names, run nothing
//   --check          say whether each fault applies to the worktree, run nothing
//   --no-baseline    skip the run of each suite on the unchanged tree (it must pass, or a
//                    failure would be counted as a catch)
//   --json FILE      also write the results as JSON
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync,
  lstatSync, copyFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const faultDir = join(root, 'tests/mutants/faults');
const work = process.env.QUEUE_LAB_MUTANTS_DIR ?? '/tmp/queue-lab-mutants';
const tree = join(work, 'tree');
const target = join(work, 'target');
const SUITE_TIMEOUT_S = Number(process.env.QUEUE_LAB_MUTANTS_TIMEOUT ?? 900);
// Per node test: a fault that makes a test loop (a consumer that never gets past a batch)
// fails that test instead of holding the run for the whole suite's limit.
const NODE_TEST_TIMEOUT_MS = Number(process.env.QUEUE_LAB_MUTANTS_NODE_TEST_TIMEOUT_MS ?? 180000);

// ---------------------------------------------------------------- the faults
/** Parses one fault file (format: README.md). */
export function parseFault(name, text) {
  const lines = text.split('\n');
  const f = { name, what: '', file: '', catch: [], equivalent: '', edits: [] };
  let mode = null;
  let cur = null;
  for (const line of lines) {
    const marker = line.match(/^@@ (find|replace|end)\s*$/);
    if (marker) {
      if (marker[1] === 'find') {
        cur = { find: [], replace: [] };
        f.edits.push(cur);
        mode = 'find';
      } else if (marker[1] === 'replace') {
        if (!cur) throw new Error(`${name}: @@ replace before @@ find`);
        mode = 'replace';
      } else {
        mode = null;
      }
      continue;
    }
    if (mode) {
      cur[mode].push(line);
      continue;
    }
    const m = line.match(/^(what|file|catch|equivalent):\s*(.*)$/);
    if (m) {
      if (m[1] === 'catch') f.catch = m[2].split(/\s+/).filter(Boolean);
      else f[m[1]] = m[2].trim();
    } else if (line.trim() && !line.startsWith('#')) {
      throw new Error(`${name}: cannot read the line ${JSON.stringify(line)}`);
    }
  }
  if (!f.what || !f.file || f.catch.length === 0 || f.edits.length === 0) {
    throw new Error(`${name}: a fault needs what:, file:, catch: and one @@ find/@@ replace`);
  }
  for (const e of f.edits) {
    e.find = e.find.join('\n');
    e.replace = e.replace.join('\n');
  }
  for (const s of f.catch) suiteCommand(s); // throws on an unknown suite
  return f;
}

/** The mutated text, or a reason why the fault does not apply. */
export function applyFault(f, text) {
  let out = text;
  for (const e of f.edits) {
    const at = out.indexOf(e.find);
    if (at < 0) return { error: 'does not apply (the text to find is not in the file)' };
    if (out.indexOf(e.find, at + 1) >= 0) return { error: 'does not apply (the text to find is there more than once)' };
    out = out.slice(0, at) + e.replace + out.slice(at + e.find.length);
  }
  if (out === text) return { error: 'does not apply (it changes nothing)' };
  return { text: out };
}

// ---------------------------------------------------------------- the suites
let pgUrl = null;
function pgcheckEnv() {
  if (pgUrl === null) {
    const shared = execFileSync(join(root, 'scripts/pg-local.sh'), ['start'], { encoding: 'utf8' }).trim();
    // A database of its own on the local server: the reality check's schemas (lab, jobs_lab,
    // …) and its advisory lock are per database, so a run here never meets someone else's
    // `cargo test -p pgcheck` on the same server (the mutants' runs are long).
    const db = process.env.QUEUE_LAB_MUTANTS_DB ?? 'queue_lab_mutants';
    if (!/^[a-z_][a-z0-9_]*$/.test(db)) throw new Error(`QUEUE_LAB_MUTANTS_DB: not a plain name: ${db}`);
    const exists = execFileSync('psql', [shared, '-Atc', `select 1 from pg_database where datname = '${db}'`], { encoding: 'utf8' }).trim();
    if (exists !== '1') execFileSync('psql', [shared, '-qc', `create database ${db}`]);
    const u = new URL(shared);
    u.pathname = `/${db}`;
    pgUrl = u.toString();
  }
  return { QUEUE_LAB_PG_URL: pgUrl };
}

/** [command, args, extra env] of a suite name (README.md lists them).
 * @returns {[string, string[], any]} */
function suiteCommand(s) {
  /** @type {(...a: string[]) => [string, string[], any]} */
  const cargo = (...a) => ['cargo', ['test', '--no-fail-fast', ...a], {}];
  if (s === 'native') return cargo('-p', 'queue-lab', '-p', 'queue-lab-core', '-p', 'queue-sim');
  if (s === 'native:sim') return cargo('-p', 'queue-sim');
  if (s === 'native:sim-worker') return cargo('-p', 'queue-sim-worker');
  if (s === 'native:core') return cargo('-p', 'queue-lab-core');
  if (s === 'native:app') return cargo('-p', 'queue-lab', '--lib');
  // Suites whose failure to compile or to lint is the catch (a misspelt or unused message
  // key): a build error here counts as caught, not as "does not build".
  if (s === 'compile:app') return ['cargo', ['check', '-p', 'queue-lab', '--all-targets', '--message-format', 'short'], 'compile'];
  if (s === 'lint:app') return ['cargo', ['clippy', '-p', 'queue-lab', '--all-targets', '--message-format', 'short', '--', '-D', 'warnings'], 'compile'];
  if (s === 'pgcheck') return ['cargo', ['test', '--no-fail-fast', '-p', 'pgcheck'], 'pg'];
  let m = s.match(/^pgcheck:([a-z_]+)$/);
  if (m) return ['cargo', ['test', '--no-fail-fast', '-p', 'pgcheck', '--test', m[1]], 'pg'];
  if (s === 'node') return ['node', ['--test', '--test-reporter=tap', `--test-timeout=${NODE_TEST_TIMEOUT_MS}`, 'tests/node/'], {}];
  m = s.match(/^node:([a-z_.]+)$/);
  if (m) return ['node', ['--test', '--test-reporter=tap', `--test-timeout=${NODE_TEST_TIMEOUT_MS}`, `tests/node/${m[1]}.test.mjs`], {}];
  m = s.match(/^headless:([a-z_]+)$/);
  if (m) {
    // The headless tests boot the PGlite staged in pglite-bridge/build/, which the scratch
    // tree keeps between runs but does not copy: staged here, as `./lab test` stages it (in
    // seconds when it is there; its data directory is made again when the SQL changed).
    return ['bash', ['-c', `node pglite-bridge/build.mjs >/dev/null && cargo test --no-fail-fast -p queue-lab --target wasm32-unknown-unknown --test ${m[1]}`], {
      CHROMEDRIVER: process.env.CHROMEDRIVER ?? '/usr/bin/chromedriver',
      WASM_BINDGEN_TEST_TIMEOUT: process.env.WASM_BINDGEN_TEST_TIMEOUT ?? '1200',
    }];
  }
  m = s.match(/^e2e:([a-z_]+)$/);
  if (m) {
    // A debug build of the scratch tree (no wasm-opt: minutes cheaper than the release) into
    // a dist of its own, then the one end-to-end test file against it. A walk runs with a
    // fixed seed (QUEUE_LAB_MUTANTS_WALK_SEED, 1; QUEUE_LAB_MUTANTS_WALK_STEPS, 150 steps), so
    // that a fault is judged by the same steps as the unchanged tree.
    const dist = join(work, 'dist-e2e');
    return ['bash', ['-c', `trunk build --dist '${dist}' >/dev/null 2>&1 || trunk build --dist '${dist}' && node --test --test-reporter=tap --test-concurrency=1 tests/e2e/${m[1]}.test.mjs`], {
      PATH: `${join(tree, 'pglite-bridge/node_modules/.bin')}:${process.env.PATH}`,
      QUEUE_LAB_DIST: dist,
      // export.test.mjs loads the downloads into databases of its own on the local server.
      ...pgcheckEnv(),
      WALK_SEED: process.env.QUEUE_LAB_MUTANTS_WALK_SEED ?? '1',
      WALK_STEPS: process.env.QUEUE_LAB_MUTANTS_WALK_STEPS ?? '150',
    }];
  }
  m = s.match(/^e2e-release:([a-z_]+)$/);
  if (m) {
    // The release split by lab, as ./lab builds it (QUEUE_LAB_SPLIT=1, then
    // scripts/split-release.mjs), into a dist of its own: for faults in the split itself,
    // which a debug build does not have.
    const dist = join(work, 'dist-release');
    const wasm = join(target, 'wasm32-unknown-unknown/release/queue-lab.wasm');
    return ['bash', ['-c', `QUEUE_LAB_SPLIT=1 trunk build --release --dist '${dist}' >/dev/null 2>&1 && node scripts/split-release.mjs '${dist}' '${wasm}' >/dev/null 2>&1 && node --test --test-reporter=tap --test-concurrency=1 tests/e2e/${m[1]}.test.mjs`], {
      PATH: `${join(tree, 'pglite-bridge/node_modules/.bin')}:${process.env.PATH}`,
      QUEUE_LAB_DIST: dist,
      ...pgcheckEnv(),
    }];
  }
  throw new Error(`unknown suite ${JSON.stringify(s)}`);
}

/** Runs one suite in the scratch tree: { status: pass|fail|build|timeout, failed: [tests] }. */
function runSuite(s) {
  let [cmd, args, env] = suiteCommand(s);
  const compiling = env === 'compile';
  if (compiling) env = {};
  if (env === 'pg') env = pgcheckEnv();
  return new Promise((resolve) => {
    const child = spawn('timeout', ['--kill-after=30', String(SUITE_TIMEOUT_S), 'nice', '-n', '5', cmd, ...args], {
      cwd: tree,
      env: { ...process.env, CARGO_TARGET_DIR: target, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (code) => {
      const failed = new Set();
      // cargo: each binary's results follow its "Running tests/x.rs (…)" line.
      let binary = '';
      for (const line of out.split('\n')) {
        const run = line.match(/^\s*Running (?:unittests )?(\S+)/);
        if (run) binary = run[1].replace(/^(src|tests)\//, '').replace(/\.rs$/, '');
        // (libtest prints FAILED; wasm-bindgen-test's runner, FAIL)
        const t = line.match(/^test (\S+) \.\.\. FAIL(?:ED)?$/);
        if (t) failed.add(binary ? `${binary}::${t[1]}` : t[1]);
      }
      for (const m of out.matchAll(/^\s*not ok \d+ - (.+)$/gm)) {
        if (!/\.test\.mjs$|tests\/node/.test(m[1])) failed.add(m[1].trim());
      }
      let status = code === 0 ? 'pass' : 'fail';
      // A suite this tree does not have yet (e.g. a test file added later) catches nothing.
      if (code !== 0 && /no test target named|Could not find '|Cannot find module/.test(out) && failed.size === 0) status = 'missing';
      if (code === 124 || code === 137) status = 'timeout';
      else if (compiling) {
        for (const m of out.matchAll(/^(\S+\.rs:\d+:\d+: error.*)$/gm)) failed.add(m[1]);
        for (const m of out.matchAll(/^(\s*message key.*)$/gm)) failed.add(m[1].trim());
      } else if (code !== 0 && /error: could not compile|error\[E\d+\]/.test(out) && failed.size === 0) status = 'build';
      resolve({ status, failed: [...failed], log: out });
    });
  });
}

// ---------------------------------------------------------------- the scratch tree
function trackedFiles() {
  const out = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], { cwd: root });
  return out.toString('utf8').split('\0').filter((p) => p && existsSync(join(root, p)));
}

function walk(dir, base, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const rel = relative(base, p);
    if (e.isSymbolicLink()) continue;
    if (e.isDirectory()) {
      if (rel === 'target' || e.name === 'node_modules' || rel === 'pglite-bridge/build') continue;
      walk(p, base, out);
    } else out.push(rel);
  }
  return out;
}

/** Brings the scratch tree level with the worktree, touching only files that differ. */
function syncTree() {
  mkdirSync(tree, { recursive: true });
  const files = trackedFiles();
  const want = new Set(files);
  let copied = 0;
  for (const rel of files) {
    const src = join(root, rel);
    const dst = join(tree, rel);
    if (existsSync(dst) && readFileSync(dst).equals(readFileSync(src))) continue;
    mkdirSync(dirname(dst), { recursive: true });
    copyFileSync(src, dst);
    execFileSync('chmod', [(statSync(src).mode & 0o777).toString(8), dst]);
    copied += 1;
  }
  let removed = 0;
  for (const rel of walk(tree, tree, [])) {
    if (!want.has(rel)) {
      rmSync(join(tree, rel));
      removed += 1;
    }
  }
  const nm = join(tree, 'pglite-bridge/node_modules');
  if (!existsSync(nm) && existsSync(join(root, 'pglite-bridge/node_modules'))) {
    try { lstatSync(nm); rmSync(nm); } catch { /* absent */ }
    symlinkSync(join(root, 'pglite-bridge/node_modules'), nm);
  }
  return { copied, removed };
}

// ---------------------------------------------------------------- main
const secs = (ms) => `${(ms / 1000).toFixed(0)} s`;

async function main() {
  const args = process.argv.slice(2);
  const list = args.includes('--list');
  const baseline = !args.includes('--no-baseline');
  const jsonAt = args.indexOf('--json');
  const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : null;
  const names = args.filter((a, i) => !a.startsWith('--') && !(jsonAt >= 0 && i === jsonAt + 1));

  const faults = readdirSync(faultDir)
    .filter((n) => n.endsWith('.fault'))
    .sort()
    .map((n) => parseFault(n.replace(/\.fault$/, ''), readFileSync(join(faultDir, n), 'utf8')))
    .filter((f) => names.length === 0 || names.some((n) => f.name.includes(n)));
  if (faults.length === 0) {
    console.error(`no fault matches ${names.join(' ')}`);
    process.exit(2);
  }
  if (args.includes('--check')) {
    let bad = 0;
    for (const f of faults) {
      const p = join(root, f.file);
      const m = existsSync(p) ? applyFault(f, readFileSync(p, 'utf8')) : { error: 'does not apply (no such file)' };
      if (m.error) bad += 1;
      console.log(`${m.error ? m.error : 'applies'.padEnd(7)}  ${f.name}`);
    }
    process.exitCode = bad ? 1 : 0;
    return;
  }
  if (list) {
    for (const f of faults) console.log(`${f.name.padEnd(44)} ${f.catch.join(' ').padEnd(28)} ${f.what}`);
    return;
  }

  const t0 = Date.now();
  const { copied, removed } = syncTree();
  console.log(`scratch tree ${tree} (${copied} files copied, ${removed} removed), target ${target}`);

  // Tests that failed on the unchanged tree (a flaky test on a busy machine): their failures
  // under a fault are not counted as catches, and the table says so.
  const flaky = new Set();
  if (baseline) {
    const suites = [...new Set(faults.flatMap((f) => f.catch))];
    for (const s of suites) {
      for (let attempt = 1; ; attempt++) {
        const t = Date.now();
        const r = await runSuite(s);
        console.log(`baseline ${s}: ${r.status} (${secs(Date.now() - t)})${r.failed.length ? ': ' + r.failed.join(', ') : ''}`);
        if (r.status === 'missing') {
          console.log(`  (${s} is not in this tree: it catches nothing)`);
          break;
        }
        if (r.status === 'pass') break;
        if (r.status === 'fail' && r.failed.length > 0) r.failed.forEach((n) => flaky.add(`${s}: ${n}`));
        if (r.status !== 'fail' || r.failed.length === 0 || attempt === 3) {
          if (r.status === 'fail' && r.failed.length > 0) {
            console.log(`  ${s} fails on the unchanged tree three times: those tests are left out of the catches`);
            break;
          }
          console.log(r.log.split('\n').slice(-40).join('\n'));
          console.error(`the unchanged tree does not pass ${s}: a fault's catch would mean nothing; stopping`);
          process.exit(1);
        }
      }
    }
    if (flaky.size) console.log(`left out of the catches (failed on the unchanged tree): ${[...flaky].join('; ')}`);
  }

  const results = [];
  for (const f of faults) {
    const t = Date.now();
    const path = join(tree, f.file);
    const r = { name: f.name, what: f.what, suites: f.catch, equivalent: f.equivalent, caughtBy: [], outcome: '' };
    if (!existsSync(path)) {
      r.outcome = 'does not apply (no such file)';
    } else {
      const original = readFileSync(path, 'utf8');
      const m = applyFault(f, original);
      if (m.error) {
        r.outcome = m.error;
      } else {
        writeFileSync(path, m.text);
        try {
          let built = true;
          for (const s of f.catch) {
            const res = await runSuite(s);
            if (res.status === 'build') { built = false; break; }
            if (res.status === 'missing') { r.missing = (r.missing ?? []).concat(s); continue; }
            if (res.status === 'timeout') r.caughtBy.push(`${s} (timed out)`);
            else if (res.status === 'fail') {
              const real = res.failed.filter((n) => !flaky.has(`${s}: ${n}`));
              const left = res.failed.length - real.length;
              if (real.length) r.caughtBy.push(`${s}: ${real.join(', ')}`);
              else if (res.failed.length === 0) r.caughtBy.push(`${s}: (exit code)`);
              if (left) r.flaky = (r.flaky ?? 0) + left;
            }
          }
          if (!built) r.outcome = 'does not build';
          else r.outcome = r.caughtBy.length ? 'caught' : (f.equivalent ? 'equivalent' : 'NOT CAUGHT');
        } finally {
          writeFileSync(path, original);
        }
      }
    }
    r.seconds = Math.round((Date.now() - t) / 1000);
    results.push(r);
    console.log(`${r.outcome.padEnd(12)} ${f.name} (${r.seconds} s)${r.caughtBy.length ? '\n    ' + r.caughtBy.join('\n    ') : ''}`);
  }

  // The table.
  console.log('\n| fault | suites | result | caught by | s |\n|---|---|---|---|---|');
  for (const r of results) {
    const by = r.outcome === 'caught' ? r.caughtBy.join('; ') : r.outcome === 'equivalent' ? `equivalent: ${r.equivalent}` : '';
    console.log(`| ${r.name} | ${r.suites.join(' ')} | ${r.outcome} | ${by} | ${r.seconds} |`);
  }
  const counted = results.filter((r) => ['caught', 'NOT CAUGHT'].includes(r.outcome));
  const caught = counted.filter((r) => r.outcome === 'caught').length;
  const equivalent = results.filter((r) => r.outcome === 'equivalent').length;
  const skipped = results.filter((r) => !['caught', 'NOT CAUGHT', 'equivalent'].includes(r.outcome));
  const pct = counted.length ? (100 * caught / counted.length).toFixed(1) : '-';
  console.log(`\nscore: ${caught} of ${counted.length} caught (${pct} %); ${equivalent} equivalent (not counted); `
    + `${skipped.length} not run (${skipped.map((r) => `${r.name}: ${r.outcome}`).join('; ') || 'none'})`);
  console.log(`time: ${secs(Date.now() - t0)} for ${results.length} faults`);
  for (const r of results.filter((x) => x.outcome === 'NOT CAUGHT')) console.log(`not caught: ${r.name}: ${r.what}`);
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ results, caught, counted: counted.length, seconds: Math.round((Date.now() - t0) / 1000) }, null, 2));
  process.exitCode = counted.length - caught > 0 ? 1 : 0;
}

main().catch((e) => {
  console.error(e.message ?? e);
  process.exit(2);
});
