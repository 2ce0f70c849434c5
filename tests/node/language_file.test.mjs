// The Korean file a build ships (scripts/language-file.mjs): every catalog's Korean texts,
// a test-only catalog's (first line `# test-only: <feature>`) only in a build with its feature,
// and an address that changes with the file's bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { languageFile, koreanUrl } from '../../scripts/language-file.mjs';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets/i18n');

/** The keys of a catalog file, and the feature it is test-only for (null when it ships). */
function catalogKeys(name) {
  const lines = fs.readFileSync(path.join(DIR, name), 'utf8').split(/\r?\n/);
  const only = /^# test-only: (.*)$/.exec(lines[0]);
  const keys = lines.filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.split('\t')[0]);
  return { feature: only ? only[1].trim() : null, keys };
}

const keysOf = (file) => new Set(file.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')[0]));

test("a test-only catalog's texts ship only in a build with its feature; every other catalog's always", () => {
  const testOnly = fs.readdirSync(DIR).filter((n) => n.endsWith('.tsv')).map((name) => ({ name, ...catalogKeys(name) })).filter((c) => c.feature);
  assert.ok(testOnly.length > 0, 'there is a test-only catalog to check (assets/i18n/stub.tsv)');
  const shipped = keysOf(languageFile(2, []));
  for (const { name, feature, keys } of testOnly) {
    assert.deepEqual(keys.filter((k) => shipped.has(k)), [], `${name} (${feature}) is not in a build without ${feature}`);
    const withIt = keysOf(languageFile(2, [feature]));
    assert.deepEqual(keys.filter((k) => !withIt.has(k)), [], `${name} is in a build with ${feature}`);
  }
  const jobs = catalogKeys('jobs.tsv');
  assert.equal(jobs.feature, null);
  assert.deepEqual(jobs.keys.filter((k) => !shipped.has(k)), [], "L1's texts ship in every build");
});

test("the file carries each key's Korean text, and its address changes with its bytes", () => {
  const file = languageFile(2, []);
  const line = file.split('\n').find((l) => l.startsWith('lab.jobs.title\t'));
  assert.ok(line, 'lab.jobs.title is in the file');
  assert.match(line.split('\t')[1], /[가-힣]/, 'in Korean');
  assert.match(koreanUrl(file), /^i18n\/ko\.tsv\?v=[0-9a-f]{8}$/);
  assert.notEqual(koreanUrl(file), koreanUrl(file + 'x\ty\n'));
});
