// What the benchmark learns of the labs from their Rust sources: the limits part's heaviest
// accepted inputs (L3's and L4's bounds, read from the constants the app checks them by).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../tests/e2e/harness.mjs';

// The limits part's heaviest accepted inputs where the smallest value is the heaviest (L3's
// claim batch, L4's page): read from the app's source, so the bench follows the bounds.
const rustConst = (file, name) => Number(fs.readFileSync(path.join(ROOT, file), 'utf8').match(new RegExp(`pub const ${name}: [^=]+= ([0-9_]+)`))[1].replace(/_/g, ''));
// L3: a run is bounded by jobs × rounds (RUN_JOBS_MAX) and claims (RUN_CLAIMS_MAX) a table:
// the heaviest it accepts, at the most jobs a round and at the most rounds, each with the
// smallest batch allowed (the most claims, each reading the whole table); and the defaults.
export const L3_LARGEST = (() => {
  const c = (name) => rustConst(/^RUN_/.test(name) ? 'src/labs/vacuum/model/limits.rs' : 'src/labs/vacuum/model.rs', name);
  const [jobsMax, roundsMax, runJobs, runClaims] = [c('JOBS_MAX'), c('ROUNDS_MAX'), c('RUN_JOBS_MAX'), c('RUN_CLAIMS_MAX')];
  const heaviest = (jobs, rounds) => `${jobs}x${rounds}x${Math.ceil(jobs / Math.floor(runClaims / rounds))}`;
  const rounds = Math.min(roundsMax, Math.floor(runJobs / jobsMax));
  const jobs = Math.min(jobsMax, Math.floor(runJobs / roundsMax));
  return [heaviest(jobsMax, rounds), heaviest(jobs, roundsMax), `${c('JOBS_DEFAULT')}x${c('ROUNDS_DEFAULT')}x${c('BATCH_DEFAULT')}`].join(',');
})();
// L4's side by side: at most RUN_PAGES_MAX pages a side (events ÷ page × rounds), so its
// heaviest accepted run is the most events and rounds at the smallest page allowed.
export const L4_LARGEST = (() => {
  const compare = fs.readFileSync(path.join(ROOT, 'src/labs/pgq/model/compare.rs'), 'utf8');
  const bound = (name) => compare.match(new RegExp(`pub const ${name}: \\(i64, i64, i64\\) = \\(([0-9_]+), ([0-9_]+)`)).slice(1).map((x) => Number(x.replace(/_/g, '')));
  const pages = rustConst('src/labs/pgq/model/compare.rs', 'RUN_PAGES_MAX');
  const [events, rounds] = [bound('EVENTS')[1], bound('ROUNDS')[1]];
  return { events, rounds, page: Math.max(bound('PAGE')[0], Math.ceil(events / Math.floor(pages / rounds))) };
})();
