// The lab's virtual clock for the Node suites and benchmarks: the app's own SQL files
// (src/sql/lab), so these run on exactly the clock the lab runs on. lab.now() reads a
// session setting, so CLOCK is run again on every new session (it is idempotent).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'sql', 'lab');
const read = (name) => readFileSync(join(dir, name), 'utf8');

/** Creates lab.now() if missing, sets lab time (kept if already set) and the search path. */
export const CLOCK = read('clock_install.sql');
const ADVANCE = read('clock_advance.sql');

/** Moves lab time forward by `secs` seconds, as the lab's clock buttons do. */
export const advance = (db, secs) => db.query(ADVANCE, [secs]);
