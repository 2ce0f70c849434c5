// The static first screen's choices (scripts/first-screen.mjs): which lab and which language
// it draws, by the app's rules (src/app.rs), and the texts it carries from the catalogs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalog, choose, labs, source } from '../../scripts/first-screen.mjs';

const LABS = labs();
const pick = (search, hash = '', stored = null, nav = 'en-US') => {
  const c = choose(LABS, search, hash, stored, nav);
  return [c.lab && c.lab.slug, c.lang, c.embed];
};

test('the language is lang=, else the stored choice, else the browser language', () => {
  assert.deepEqual(pick('?lang=ko', '#/jobs', 'en', 'en-US'), ['jobs', 'ko', false]);
  assert.deepEqual(pick('?lang=EN', '', 'ko', 'ko-KR'), [null, 'en', false]);
  assert.deepEqual(pick('', '', 'ko', 'en-US')[1], 'ko');
  assert.deepEqual(pick('?lang=fr', '', 'de', 'ko-KR')[1], 'ko', 'unknown codes fall through to the browser');
  assert.deepEqual(pick('', '', null, 'fr-FR')[1], 'en');
  assert.deepEqual(pick('', '', null, '')[1], 'en');
});

test('?lab= wins over the hash route; an unknown lab is the home page; embed=1 drops the header', () => {
  assert.deepEqual(pick('?lab=pgq&embed=1', '#/jobs'), ['pgq', 'en', true]);
  assert.deepEqual(pick('?lab=nope', '#/vacuum?x=1'), ['vacuum', 'en', false]);
  assert.deepEqual(pick('', '#/nope'), [null, 'en', false]);
  assert.deepEqual(pick('?embed=true', '#workers'), ['workers', 'en', true]);
});

test('theme=light|dark is taken for the first paint; any other value leaves the system\'s', () => {
  const theme = (search) => choose(LABS, search, '#/jobs', null, 'en-US').theme;
  assert.equal(theme('?embed=1&theme=dark'), 'dark');
  assert.equal(theme('?theme=light'), 'light');
  assert.equal(theme('?theme=auto'), null);
  assert.equal(theme('?theme=%20Dark'), 'dark', 'as the app reads it: trimmed, any case');
  assert.equal(theme('?theme=dim'), null);
  assert.equal(theme(''), null);
});

test('the labs come in the header order of src/labs/ORDER with their descriptors', () => {
  assert.deepEqual(LABS.map((l) => l.slug), ['jobs', 'workers', 'vacuum', 'pgq', 'leave']);
  assert.deepEqual(LABS.map((l) => l.tag), ['L1', 'L2', 'L3', 'L4', 'L5']);
  assert.deepEqual(LABS.map((l) => l.needsPostgres), [true, false, true, true, false]);
});

test('the generated script carries each text it draws in both languages, from the catalogs', () => {
  const text = catalog();
  const src = source();
  for (const lab of LABS) {
    for (const key of [lab.title, lab.short, lab.summary, lab.heading, lab.intro].filter(Boolean)) {
      for (const lang of ['en', 'ko']) assert.ok(src.includes(JSON.stringify(text[key][lang])), `${key} (${lang})`);
    }
  }
  assert.ok(src.includes(JSON.stringify(text['shell.starting'].ko)));
});
