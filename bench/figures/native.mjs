// Native side: the L2 simulator built --release (crates/sim/examples/bench.rs) and L1's and
// L3's SQL on a PostgreSQL server (crates/pgcheck/src/bin/bench-native.rs) that it starts with
// scripts/pg-local.sh on its own port and data directory (QUEUE_LAB_BENCH_PG_URL points it at
// another server instead). Run first, so a build failure shows before the long browser part.
import { RUNS, notes, say, sh } from '../report.mjs';

const PG_PORT = process.env.QUEUE_LAB_BENCH_PG_PORT || '54339';
const PG_DATA = process.env.QUEUE_LAB_BENCH_PG_DATA || '/tmp/queue-lab-bench-pg/data';

export async function native() {
  let nativeSim = null;
  let nativeSql = null;
  let pgStarted = false;
  // The bench's own server (port and data directory), apart from the one ./lab test starts.
  const pgEnv = { ...process.env, QUEUE_LAB_PG_PORT: PG_PORT, QUEUE_LAB_PG_DATA: PG_DATA };
  say(`native: the L2 simulator (--release), ${RUNS} repeats per strategy`);
  try {
    const out = sh('cargo', ['run', '--release', '-q', '-p', 'queue-sim', '--example', 'bench', '--', 'all', String(RUNS), '--json']);
    nativeSim = JSON.parse(out.trim().split('\n').pop());
  } catch (e) {
    notes.push(`native simulator did not run: ${e.message.split('\n')[0]}`);
  }
  say(`native: L1 and L3 SQL on PostgreSQL, ${RUNS} runs`);
  try {
    let url = process.env.QUEUE_LAB_BENCH_PG_URL;
    if (!url) {
      url = sh('scripts/pg-local.sh', ['start'], { env: pgEnv }).trim();
      pgStarted = true;
    }
    const out = sh('cargo', ['run', '--release', '-q', '-p', 'pgcheck', '--bin', 'bench-native', '--', '--database-url', url, '--runs', String(RUNS)]);
    nativeSql = JSON.parse(out.trim().split('\n').pop());
    console.log(`  PostgreSQL ${nativeSql.server_version}`);
  } catch (e) {
    notes.push(`native PostgreSQL part did not run: ${e.message.split('\n')[0]}`);
  } finally {
    if (pgStarted) {
      try {
        sh('scripts/pg-local.sh', ['stop'], { env: pgEnv, stdio: 'ignore' });
      } catch {
        /* the next start finds it running */
      }
    }
  }
  return { sim: nativeSim, sql: nativeSql };
}
