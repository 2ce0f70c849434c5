// What the benchmark learns of the labs: the limits part's heaviest accepted inputs (L3's and
// L4's bounds), read from the data files the app's constants are checked against
// (src/labs/vacuum/model/limits.tsv, src/labs/pgq/model/limits.tsv; tests/limits.rs), never
// from Rust.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../scripts/labs.mjs';

/** A lab's model/limits.tsv (`key<TAB>value` lines, `#` comments) as numbers by key.
 * @param {string} slug
 * @returns {Record<string, number>} */
export function labLimits(slug) {
  const where = `src/labs/${slug}/model/limits.tsv`;
  /** @type {Record<string, number>} */
  const out = {};
  for (const line of fs.readFileSync(path.join(ROOT, where), 'utf8').split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [key, value] = line.split('\t');
    const n = Number(value);
    if (!Number.isInteger(n)) throw new Error(`${where}: ${key} is not a whole number`);
    out[key.trim()] = n;
  }
  return new Proxy(out, {
    get: (o, k) => {
      if (typeof k === 'string' && !(k in o)) throw new Error(`${where}: no ${k}`);
      return o[/** @type {string} */ (k)];
    },
  });
}

// L3: a run is bounded by jobs × rounds (run_jobs_max) and claims (run_claims_max) a table:
// the heaviest it accepts, at the most jobs a round and at the most rounds, each with the
// smallest batch allowed (the most claims, each reading the whole table); and the defaults.
export const L3_LARGEST = (() => {
  const c = labLimits('vacuum');
  const heaviest = (jobs, rounds) => `${jobs}x${rounds}x${Math.ceil(jobs / Math.floor(c.run_claims_max / rounds))}`;
  const rounds = Math.min(c.rounds_max, Math.floor(c.run_jobs_max / c.jobs_max));
  const jobs = Math.min(c.jobs_max, Math.floor(c.run_jobs_max / c.rounds_max));
  return [heaviest(c.jobs_max, rounds), heaviest(jobs, c.rounds_max), `${c.jobs_default}x${c.rounds_default}x${c.batch_default}`].join(',');
})();
// L4's side by side: at most run_pages_max pages a side (events ÷ page × rounds), so its
// heaviest accepted run is the most events and rounds at the smallest page allowed.
export const L4_LARGEST = (() => {
  const c = labLimits('pgq');
  const [events, rounds] = [c.events_max, c.rounds_max];
  return { events, rounds, page: Math.max(c.page_min, Math.ceil(events / Math.floor(c.run_pages_max / rounds))) };
})();
