// The contract suite (tests/contract/pgque/*.sql, see tests/contract/README.md) on the lab's
// engine in PGlite: one test per contract file. Every file passes on real PgQue; a file that
// fails here is a difference between L4's engine and PgQue, reported with the file:line of
// the statement that failed, the statement, and the error. Run: node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { advance } from './clock.mjs';
import { ROOT, engineBoot } from './pgque.mjs';
import { splitStatements, contractHeader } from '../contract/split.mjs';

const contractDir = join(ROOT, 'tests/contract');
// The engine and the prelude are installed once; each file starts from a copy of that.
const boot = engineBoot(readFileSync(join(contractDir, 'prelude.sql'), 'utf8'));

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
    .map((l) => /** @type {[string, string]} */ (l.split('\t'))));

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
  // PGlite is one session: a file that holds a transaction open in a second one runs on a
  // server only (pgcheck).
  const skip = engines && !engines.includes('lab') ? `for ${engines.join(', ')} only`
    : steps.some((s) => s.kind === 'session2') ? 'needs a second session (PGlite has one): pgcheck runs it on a server'
      : false;
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
