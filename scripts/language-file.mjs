// The Korean texts as a file of their own: writes build/i18n/ko.tsv, which index.html copies to
// dist/i18n/ko.tsv. The app's .wasm has only the English texts compiled in (its fallback);
// a page in Korean fetches this file (src/ui/i18n.rs), at start as early as the first screen's
// script can ask for it (scripts/first-screen.mjs).
//
// Run by Trunk's pre-build hook (Trunk.toml). Derived from the catalogs (assets/i18n/*.tsv) the
// way build.rs derives the same file for the tests (build/i18n_keys.rs: language_file), byte
// for byte; tests/e2e/lang.test.mjs proves the two agree on the release (the app asks for the
// address koreanUrl makes of this file, which hashes its bytes). A test-only catalog (first line `# test-only: <feature>`)
// is left out unless QUEUE_LAB_FEATURES (comma-separated, as tests/e2e/harness.mjs reads it)
// names its feature.
//
// The page asks for it as `i18n/ko.tsv?v=<hash of its bytes>` (koreanUrl; build.rs writes the
// same URL for the app): a new file is a new address, so no browser keeps using a copy cached
// before a new site went up (which would lack the new texts' keys).
//
//   node scripts/language-file.mjs            writes build/i18n/ko.tsv
//   node scripts/language-file.mjs --print    prints it instead
//   node scripts/language-file.mjs --url      prints the address the page asks for it by
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.join(ROOT, 'assets/i18n');
export const OUT = path.join(ROOT, 'build', 'i18n', 'ko.tsv');
const HEADER = '# Generated from assets/i18n/*.tsv: key<TAB>text, one language. Do not edit.';
const NOT_CATALOGS = ['figures.tsv', 'glossary.tsv'];

/** One language's texts (`column` 1 English, 2 Korean) of the catalogs a build with `features` ships. */
export function languageFile(column, features) {
  let out = HEADER + '\n';
  const names = fs.readdirSync(DIR).filter((n) => n.endsWith('.tsv') && !NOT_CATALOGS.includes(n));
  // Sorted by bytes, as Rust sorts the names (build/i18n_keys.rs: catalogs).
  names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (const name of names) {
    const lines = fs.readFileSync(path.join(DIR, name), 'utf8').split(/\r?\n/);
    const only = /^# test-only: (.*)$/.exec(lines[0]);
    if (only && !features.includes(only[1].trim())) continue;
    for (const line of lines) {
      if (!line.trim() || line.startsWith('#')) continue;
      const cols = line.split('\t');
      out += cols[0] + '\t' + (cols[column] ?? '') + '\n';
    }
  }
  return out;
}

/** FNV-1a, 32 bits, of `text`'s UTF-8 bytes (build/i18n_keys.rs: fnv1a32, the same). */
export function fnv1a32(text) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

/** The address a page asks for the Korean file by: its path and a hash of its bytes. */
export function koreanUrl(text) {
  return 'i18n/ko.tsv?v=' + fnv1a32(text).toString(16).padStart(8, '0');
}

/** The features a build ships test-only catalogs for (QUEUE_LAB_FEATURES). */
export function features() {
  return (process.env.QUEUE_LAB_FEATURES ?? '').split(',').filter(Boolean);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = languageFile(2, features());
  if (process.argv.includes('--url')) {
    process.stdout.write(koreanUrl(text) + '\n');
  } else if (process.argv.includes('--print')) {
    process.stdout.write(text);
  } else {
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    if (!fs.existsSync(OUT) || fs.readFileSync(OUT, 'utf8') !== text) fs.writeFileSync(OUT, text);
    console.log(`language-file: ${path.relative(ROOT, OUT)} (${Buffer.byteLength(text)} bytes)`);
  }
}
