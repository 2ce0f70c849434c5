// What the PgQue Node suites (pgq.test.mjs, pgque_rotation.test.mjs, pgque_contract.test.mjs)
// share: a database with L4's engine, and a few steps on it.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { CLOCK } from './clock.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { PGlite } = await import(
  join(ROOT, 'pglite-bridge/node_modules/@electric-sql/pglite/dist/index.js'));
// PGQ_SQL_DIR lets a mutation run point the suites at a broken copy of the engine.
const sqlDir = process.env.PGQ_SQL_DIR ?? join(ROOT, 'src/sql/pgque');
const conf = 'max_prepared_transactions = 4';

/** A `boot(t)` for a suite: a fresh database for test `t` (closed when it ends) with the lab
 *  clock, the engine's files in name order and then `extra` (SQL). Booting PGlite from scratch
 *  costs seconds, so the first call installs once and every test starts from a copy of that
 *  data directory; the clock's session setting is set again on each. */
export function engineBoot(extra = '') {
  let installed;
  return async function boot(t) {
    if (!installed) {
      const db = await PGlite.create({ postgresqlconf: conf });
      await db.exec(CLOCK);
      for (const f of readdirSync(sqlDir).filter((f) => f.endsWith('.sql')).sort()) {
        await db.exec(readFileSync(join(sqlDir, f), 'utf8'));
      }
      if (extra) await db.exec(extra);
      installed = await db.dumpDataDir('none');
      await db.close();
    }
    const db = await PGlite.create({ loadDataDir: installed, postgresqlconf: conf });
    await db.exec(CLOCK);
    t.after(() => db.close());
    return db;
  };
}

/** Queue 'q' with `tables` event tables rotating every `period` (an interval, as text), and
 *  `consumers` subscribed to it in order. */
export async function rotatingQueue(db, tables, period, consumers) {
  await db.query(`select pgque.create_queue('q', $1)`, [tables]);
  await db.query(`select pgque.set_queue_config('q', 'rotation_period', $1)`, [period]);
  for (const c of consumers) {
    await db.query(`select pgque.subscribe('q', $1)`, [c]);
  }
}

/** Rotation step 1 for queue 'q' (maint_report: the rows say what it did and why it waits),
 *  then step 2 in a transaction of its own, as PgQue's 10 s job records it soon after a
 *  switch. Returns the report's rows, with the columns `cols`. */
export async function maintThenStep2(db, cols) {
  const { rows } = await db.query(`select ${cols} from pgque.maint_report('q')`);
  await db.query(`select pgque.maint_rotate_tables_step2()`);
  return rows;
}
