// What the PgQue Node suites (pgq.test.mjs, pgque_rotation.test.mjs) share.

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
