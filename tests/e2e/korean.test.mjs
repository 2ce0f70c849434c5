// Korean mode shows Korean: every lab in one tab, after its default actions, scanned for
// English words outside code. SQL, identifiers and names (PostgreSQL, PgQue, Kafka…) are
// not translated and are allowed; any other Latin word is a text that skipped the catalog.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { newPage, shot, PAGES, visit, useSite } from './harness.mjs';

const site = useSite();

/**
 * Words that stay in Latin letters in the Korean texts (case-sensitive): product and project
 * names, PostgreSQL's and the labs' SQL names, units. One list, read by this scan and by the
 * native test of the catalogs (`korean_texts_show_no_english_outside_code`). Ordinary English
 * words ('claim', 'queue', 'worker', 'job') are not in it: Korean says them in Korean.
 */
const KEPT = new Set(
  readFileSync(new URL('../../assets/i18n/kept_words.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split('\t')[0].trim()), // each word, then a tab and why it is kept
);

/**
 * Glosses, `term(english)`, of the terms the glossary marks `gloss` (its fourth column): the
 * one place a Korean text may show an ordinary English word, for a learner who will meet it
 * in English docs (each page glosses a term where it first uses it: a native test checks).
 */
const GLOSSES = readFileSync(new URL('../../assets/i18n/glossary.tsv', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => !l.startsWith('#'))
  .map((l) => l.split('\t'))
  .filter((c) => c[3]?.trim() === 'gloss')
  .map(([english, korean]) => [`${korean}(${english})`, korean]);

/** Latin words in visible text outside code, SQL, inputs and the SQL log. */
async function englishWords(page) {
  return page.evaluate((glosses) => {
    const skip = 'code, pre, kbd, samp, textarea, input, select, .mono, .sql-log, script, style, noscript, [translate="no"], svg';
    const words = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(skip)) continue;
      const lang = el.closest('[lang]')?.getAttribute('lang');
      if (lang && lang !== 'ko') continue; // marked as another language (the language switch)
      if (!el.getClientRects().length) continue; // hidden
      let text = n.textContent;
      for (const [gloss, term] of glosses) text = text.split(gloss).join(term);
      for (const m of text.matchAll(/[A-Za-z][A-Za-z0-9_'’./-]*[A-Za-z0-9_]/g)) {
        words.push({ word: m[0], where: (el.id ? '#' + el.id : el.tagName.toLowerCase()) + ': ' + n.textContent.trim().slice(0, 80) });
      }
    }
    return words;
  }, GLOSSES);
}

function untranslated(found) {
  return found.filter(({ word }) => {
    if (word.length < 3) return false;
    if (/^[A-Z0-9_/ -]+$/.test(word)) return false; // SQL keywords and acronyms: SELECT, SKIP, LOCKED, FIFO
    if (/[_(]|\.\w/.test(word)) return false; // identifiers: locked_until, pgq.send
    if (/^[a-z]+\d/.test(word)) return false; // event_1_0-like names, L3
    return !KEPT.has(word);
  });
}

/** Adds what `page` shows in English to `found` as "label: word (where)". */
async function scan(page, label, found) {
  const bad = untranslated(await englishWords(page));
  const lines = [...new Set(bad.map((b) => `${label}: ${b.word} (${b.where})`))];
  if (lines.length) await shot(page, `korean-${label}`);
  found.push(...lines);
}

test('no English words in Korean mode on any page, before and after its default actions', async () => {
  const page = await newPage(site.browser, { width: 1280, height: 900 });
  const found = [];
  for (const p of PAGES) {
    await visit(page, site.server, p, 'ko');
    await scan(page, p.name, found);
    if (p.act) {
      await p.act(page);
      await scan(page, `${p.name}-after`, found);
    }
  }
  assert.deepEqual(found, [], 'English shown in Korean mode');
  assert.deepEqual(page.errors, []);
});
