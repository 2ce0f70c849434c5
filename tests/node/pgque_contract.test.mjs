// The contract suite (tests/contract/pgque/*.sql, see tests/contract/README.md) on the lab's
// engine in PGlite: one test per contract file. Every file passes on real PgQue; a file that
// fails here is a difference between L4's engine and PgQue, reported with the file:line of
// the statement that failed, the statement, and the error. Run: node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { CLOCK, advance } from './clock.mjs';
import { splitStatements, contractHeader } from '../contract/split.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { PGlite } = await import(
  join(root, 'pglite-bridge/node_modules/@electric-sql/pglite/dist/index.js'));
// PGQ_SQL_DIR lets a mutation run point the suite at a broken copy of the engine.
const sqlDir = process.env.PGQ_SQL_DIR ?? join(root, 'src/sql/pgque');
const contractDir = join(root, 'tests/contract');
const PRELUDE = readFileSync(join(contractDir, 'prelude.sql'), 'utf8');

const conf = 'max_prepared_transactions = 4';
// The engine and the prelude are installed once; each file starts from a copy of that.
let installed;
async function boot(t) {
  if (!installed) {
    const db = await PGlite.create({ postgresqlconf: conf });
    await db.exec(CLOCK);
    for (const f of readdirSync(sqlDir).filter((f) => f.endsWith('.sql')).sort()) {
      await db.exec(readFileSync(join(sqlDir, f), 'utf8'));
    }
    await db.exec(PRELUDE);
    installed = await db.dumpDataDir('none');
    await db.close();
  }
  const db = await PGlite.create({ loadDataDir: installed, postgresqlconf: conf });
  await db.exec(CLOCK);
  t.after(() => db.close());
  return db;
}

/** The statement as the report shows it: whole, up to a few lines. */
function shown(sql) {
  const lines = sql.split('\n');
  return lines.length > 8 ? [...lines.slice(0, 8), '  …'].join('\n') : sql;
}

const files = readdirSync(join(contractDir, 'pgque')).filter((f) => f.endsWith('.sql')).sort();
/** Files the lab's engine does not pass yet (differences.tsv): file -> why. */
const differences = new Map(
  readFileSync(join(contractDir, 'differences.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split('\t')));

test('differences.tsv names only contract files that exist, each with a reason', () => {
  for (const [file, why] of differences) {
    assert.ok(files.includes(file), `${file} is not a contract file`);
    assert.ok(why && why.length > 20, `${file} needs its reason`);
  }
});

for (const file of files) {
  const text = readFileSync(join(contractDir, 'pgque', file), 'utf8');
  const { contract, engines } = contractHeader(text);
  const steps = splitStatements(text);
  const skip = engines && !engines.includes('lab') ? `for ${engines.join(', ')} only` : false;
  const known = differences.get(file);
  test(`${file}: ${contract}`, { skip }, async (t) => {
    if (known) {
      // A known difference: it must still fail here (else it is fixed: take it off the list).
      await assert.rejects(runFile(t, file, steps), undefined,
        `${file} passes on the lab's engine now: remove it from tests/contract/differences.tsv`);
      return;
    }
    await runFile(t, file, steps);
  });
}

/** Runs one contract file's steps on a fresh database; throws with file:line on a failure. */
async function runFile(t, file, steps) {
    const db = await boot(t);
    for (const step of steps) {
      try {
        if (step.kind === 'wait') {
          await advance(db, step.seconds);
        } else {
          await db.exec(step.sql);
        }
      } catch (e) {
        const what = step.kind === 'wait' ? `-- @wait ${step.seconds}` : shown(step.sql);
        const code = e.code ? `${e.code}: ` : '';
        const err = new Error(`tests/contract/pgque/${file}:${step.line}\n${what}\n→ ${code}${e.message}`);
        err.stack = err.message;
        throw err;
      }
    }
}
