// The static first screen: writes build/first-screen.js, which index.html inlines (Trunk's
// `rel="inline"`) at the top of <body>. Before the app's .wasm has downloaded, it paints the
// header, the asked lab's title and intro (or the home page) in the asked language, and a
// "starting" line, with the app's own markup and classes; src/main.rs removes it when the
// app has mounted, in the same task, so no frame shows both.
//
// Run by Trunk's pre-build hook (Trunk.toml). The texts come from the catalogs
// (assets/i18n/*.tsv) and the labs' list and descriptors from src/labs/ at build time: nothing
// here is retyped. The keys below are scanned like the Rust sources' (build/i18n_keys.rs): a
// key no catalog has fails `cargo build`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { languageFile, koreanUrl, features } from './language-file.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT = path.join(ROOT, 'build', 'first-screen.js');

// What each lab's view puts first: its `<section class>`, its `<h1>` (`heading`) and the
// paragraph under it (`intro`, with `class="lead"` or not).
// An intro with placeholders (L3's counts come from its model) is left out: the static screen
// shows only what it can show exactly. tests/e2e/paint.test.mjs checks these against the app.
const PAGES = {
  jobs: { section: 'lab jobs-lab', heading: "lab.jobs.title", intro: "jobs.intro", lead: true },
  workers: { section: 'lab workers-lab', heading: "lab.workers.title", intro: "workers.intro", lead: false },
  vacuum: { section: 'lab vacuum-lab', heading: "vacuum.title", intro: null, lead: true },
  pgq: { section: 'lab pgq-lab', heading: "lab.pgq.title", intro: "pgq.lead", lead: true },
  leave: { section: 'lab leave', heading: "lab.leave.title", intro: "leave.ui.lead", lead: true },
};
const SHELL = ["shell.title", "shell.lead", "shell.nav_label", "shell.lang_label", "shell.starting"];

/** Every catalog entry: key → { en, ko }. */
export function catalog() {
  const dir = path.join(ROOT, 'assets/i18n');
  const entries = {};
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.tsv') || name === 'figures.tsv' || name === 'glossary.tsv') continue;
    for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      if (!line.trim() || line.startsWith('#')) continue;
      const [key, en, ko] = line.split('\t');
      entries[key] = { en, ko };
    }
  }
  return entries;
}

/** The catalog key a generated constant is named after (`LAB_JOBS_TITLE` → `lab.jobs.title`). */
function keyOfConstant(constant) {
  return Object.keys(catalog()).find((k) => k.replace(/[^A-Za-z0-9]/g, '_').toUpperCase() === constant);
}

/** The labs in the header's order (src/labs/mod.rs `ALL`), each with its descriptor's fields. */
export function labs() {
  const list = fs.readFileSync(path.join(ROOT, 'src/labs/mod.rs'), 'utf8').match(/pub const ALL: &\[LabId\] = &\[([^\]]*(?:\][^\]]*)*?)\];/);
  if (!list) throw new Error('first-screen: no `pub const ALL: &[LabId]` in src/labs/mod.rs');
  // An entry behind a cargo feature (the test-only stub lab) is not in the shipped site.
  const shipped = list[1].replace(/#\[cfg\([^)]*\)\]\s*[a-z_]+::ID,?/g, '');
  return shipped.split(',').map((s) => s.trim().replace(/::ID$/, '')).filter(Boolean).map((module) => {
    const src = fs.readFileSync(path.join(ROOT, 'src/labs', module, 'mod.rs'), 'utf8');
    // A text field (`slug: "jobs"`), or a key by its generated constant (`title:
    // keys::LAB_JOBS_TITLE`, build/i18n_keys.rs), read back as the key it names.
    const field = (name) => {
      const m = src.match(new RegExp(`\\b${name}: (?:"([^"]*)"|keys::([A-Z0-9_]+))`));
      if (!m) throw new Error(`first-screen: src/labs/${module}/mod.rs has no ${name}`);
      if (m[1] !== undefined) return m[1];
      const key = keyOfConstant(m[2]);
      if (!key) throw new Error(`first-screen: src/labs/${module}/mod.rs: keys::${m[2]} is no catalog key`);
      return key;
    };
    const slug = field('slug');
    if (!PAGES[slug]) throw new Error(`first-screen: lab "${slug}" has no entry in PAGES (scripts/first-screen.mjs)`);
    return {
      slug,
      tag: field('tag'),
      title: field('title'),
      short: field('short'),
      summary: field('summary'),
      needsPostgres: /\bschema: Some\(/.test(src),
      ...PAGES[slug],
    };
  });
}

/** The script's source: the texts it needs in both languages, and the code that draws them. */
export function source() {
  const texts = catalog();
  const list = labs();
  const keys = new Set(SHELL);
  for (const lab of list) for (const k of [lab.short, lab.summary, lab.title, lab.heading, lab.intro]) if (k) keys.add(k);
  const t = { en: {}, ko: {} };
  for (const key of keys) {
    if (!texts[key]) throw new Error(`first-screen: no catalog has the key ${key}`);
    if (/\{/.test(texts[key].en)) throw new Error(`first-screen: ${key} has placeholders`);
    t.en[key] = texts[key].en;
    t.ko[key] = texts[key].ko;
  }
  return `// Generated by scripts/first-screen.mjs from assets/i18n/*.tsv and src/labs/: do not edit.
(function () {
var T = ${JSON.stringify(t)};
var LABS = ${JSON.stringify(list)};
var KO = ${JSON.stringify(koreanUrl(languageFile(2, features())))};
${choose.toString()}
${draw.toString()}
draw(T, LABS, KO);
})();
`;
}

// What to draw, by the same rules as the app (src/app.rs): `?lab=` wins over the hash route
// (`#/jobs`), anything else is the home page; the language is `lang=`, else the stored choice,
// else navigator.language (ko… → Korean, anything else English); `embed=1` drops the header;
// `theme=light|dark` sets the palette (src/ui/embed.rs: apply_theme), else the system's.
// Runs in the page (serialised into the generated script) and in tests/node/first_screen.test.mjs.
export function choose(labs, search, hash, stored, navigatorLanguage) {
  var q = new URLSearchParams(search);
  var code = function (l) { l = (l || '').trim().toLowerCase(); return l === 'en' || l === 'ko' ? l : null; };
  var find = function (slug) {
    for (var i = 0; i < labs.length; i++) if (labs[i].slug === slug) return labs[i];
    return null;
  };
  var route = find(q.get('lab')) || find(hash.replace(/^#/, '').replace(/^\/+/, '').split(/[?/]/)[0]);
  return {
    lang: code(q.get('lang')) || code(stored) || ((navigatorLanguage || '').toLowerCase().indexOf('ko') === 0 ? 'ko' : 'en'),
    lab: route,
    embed: q.get('embed') === '1' || q.get('embed') === 'true',
    theme: (function (t) { t = (t || '').trim().toLowerCase(); return t === 'light' || t === 'dark' ? t : null; })(q.get('theme')),
  };
}

// Draws the first screen with the app's markup and classes. Runs in the page.
function draw(T, LABS, KO) {
  function asked() {
    var stored = null;
    try { stored = localStorage.getItem('queue-lab-lang'); } catch (e) { /* storage blocked */ }
    return choose(LABS, location.search, location.hash, stored, navigator.language);
  }
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    for (var k in attrs) if (attrs[k] != null) e.setAttribute(k, attrs[k]);
    (kids || []).forEach(function (c) { e.append(c); });
    return e;
  }
  function render() {
    var a = asked();
    var l = a.lang, here = a.lab, embed = a.embed;
    var t = function (key) { return T[l][key]; };
    // The app's .wasm has the English texts only (src/ui/i18n.rs): a page in Korean asks for
    // the Korean ones now, so they download beside the .wasm; the app takes the request over
    // (and reports its failure: the catch only keeps it from being an unhandled rejection).
    if (l === 'ko' && !window.queueLabKorean) {
      window.queueLabKorean = fetch(KO);
      window.queueLabKorean.catch(function () {});
    }
    document.documentElement.setAttribute('lang', l);
    // The host page's theme from the first paint, not only once the app has started.
    if (a.theme) document.documentElement.setAttribute('data-theme', a.theme);
    var root = el('div', { id: 'first-screen' });
    if (!embed) {
      var nav = el('nav', { 'aria-label': t('shell.nav_label') }, LABS.map(function (x) {
        var current = here && here.slug === x.slug;
        return el('a', { href: '#/' + x.slug, class: current ? 'current' : null, 'aria-current': current ? 'page' : null }, [t(x.short)]);
      }));
      var langs = el('div', { class: 'lang-switch', role: 'group', 'aria-label': t('shell.lang_label') }, [['ko', '한국어'], ['en', 'English']].map(function (b) {
        var button = el('button', { type: 'button', class: 'lang', 'aria-pressed': String(b[0] === l), lang: b[0] }, [b[1]]);
        button.addEventListener('click', function () {
          // The stored choice, as the app's switch stores it; the address's `lang=` goes, so
          // that the app, when it mounts, reads the choice too.
          try { localStorage.setItem('queue-lab-lang', b[0]); } catch (e) { /* storage blocked */ }
          var u = new URL(location.href);
          u.searchParams.delete('lang');
          history.replaceState(history.state, '', u);
          render();
        });
        return button;
      }));
      root.append(el('header', { class: 'site-header' }, [el('a', { class: 'brand', href: '#/' }, [t('shell.title')]), nav, langs]));
    }
    var starting = el('p', { class: 'muted', role: 'status', id: 'first-screen-starting' }, [t('shell.starting')]);
    var main = el('main', { class: embed ? 'embed' : null });
    if (here) {
      if (here.needsPostgres) main.append(el('section', { class: 'start-panel' }, [starting]));
      var section = el('section', { class: here.section }, [el('h1', {}, [t(here.heading)])]);
      if (here.intro) section.append(el('p', { class: here.lead ? 'lead' : null }, [t(here.intro)]));
      if (!here.needsPostgres) section.append(starting);
      main.append(section);
    } else {
      main.append(el('section', { class: 'home' }, [
        el('h1', {}, [t('shell.title')]),
        el('p', { class: 'lead' }, [t('shell.lead')]),
        el('ul', { class: 'cards' }, LABS.map(function (x) {
          return el('li', { class: 'card' }, [
            el('a', { href: '#/' + x.slug }, [el('span', { class: 'card-tag' }, [x.tag]), el('h2', {}, [t(x.title)])]),
            el('p', {}, [t(x.summary)]),
          ]);
        })),
        starting,
      ]));
    }
    root.append(main);
    var old = document.getElementById('first-screen');
    if (old) old.replaceWith(root); else document.body.prepend(root);
  }
  render();
  addEventListener('hashchange', function () { if (document.getElementById('first-screen')) render(); });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = source();
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  if (!fs.existsSync(OUT) || fs.readFileSync(OUT, 'utf8') !== text) fs.writeFileSync(OUT, text);
  console.log(`first-screen: ${path.relative(ROOT, OUT)} (${text.length} bytes)`);
}
