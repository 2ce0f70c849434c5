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
