// The registry of labs, for every JavaScript tool: src/labs/ORDER (one slug a line, in the
// site's order) and each lab's descriptor src/labs/<slug>/lab.tsv (`field<TAB>value` lines,
// `#` comments, `-` for none), the same files build.rs writes the Rust registry from
// (build/labs.rs). The first screen (scripts/first-screen.mjs), the embedding kit and its
// snippet page (written into build/embed/ by embedKit below), and the e2e page list
// (tests/e2e/harness.mjs) read the labs from here; no script reads the Rust sources for them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The cargo features a build has (QUEUE_LAB_FEATURES, comma-separated; e.g. `stub-lab`). */
export function features() {
  return (process.env.QUEUE_LAB_FEATURES ?? '').split(',').filter(Boolean);
}

/** A descriptor from the text of a lab.tsv: the fields as build/labs.rs reads them. */
export function parse(text, where = 'lab.tsv') {
  const fields = {};
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue;
    const tab = line.indexOf('\t');
    if (tab < 0) throw new Error(`${where}: the line ${JSON.stringify(line)} is not field<TAB>value`);
    const key = line.slice(0, tab).trim();
    if (key in fields) throw new Error(`${where}: the field ${key} comes twice`);
    fields[key] = line.slice(tab + 1).trim();
  }
  const take = (name) => {
    if (!(name in fields)) throw new Error(`${where}: no field ${name}`);
    const v = fields[name];
    delete fields[name];
    return v;
  };
  const opt = (v) => (v === '-' ? null : v);
  const yes = (name) => {
    const v = take(name);
    if (v !== 'yes' && v !== 'no') throw new Error(`${where}: ${name} is ${JSON.stringify(v)}, not yes or no`);
    return v === 'yes';
  };
  const schema = opt(take('schema'));
  const lab = {
    slug: take('slug'),
    tag: take('tag'),
    view: take('view'),
    schema,
    needsPostgres: schema !== null,
    keepsPath: yes('keeps_path'),
    saves: yes('saves'),
    tour: Number(take('tour')),
    title: take('title'),
    short: take('short'),
    summary: take('summary'),
    blurb: take('blurb'),
    section: take('first_screen.section'),
    heading: take('first_screen.heading'),
    intro: opt(take('first_screen.intro')),
    lead: yes('first_screen.lead'),
    feature: 'feature' in fields ? take('feature') : null,
  };
  if (!Number.isInteger(lab.tour) || lab.tour < 0) throw new Error(`${where}: tour is not a count`);
  const extra = Object.keys(fields);
  if (extra.length) throw new Error(`${where}: no lab has the field ${extra[0]}`);
  return lab;
}

/**
 * Every lab of src/labs/ORDER with its descriptor, in order; a test-only lab (`feature`) only
 * when `features` has its feature (`true`: every lab). `root` is the repository (a test
 * passes a copy).
 * @param {{ root?: string, features?: string[] | true }} [options]
 */
export function labs({ root = ROOT, features: have = features() } = {}) {
  root ??= ROOT;
  const dir = path.join(root, 'src/labs');
  const order = fs.readFileSync(path.join(dir, 'ORDER'), 'utf8').split(/\r?\n/)
    .map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const out = [];
  for (const slug of order) {
    const where = `src/labs/${slug}/lab.tsv`;
    const lab = parse(fs.readFileSync(path.join(dir, slug, 'lab.tsv'), 'utf8'), where);
    if (lab.slug !== slug) throw new Error(`${where}: slug ${lab.slug} is not its folder's`);
    if (out.some((l) => l.slug === slug)) throw new Error(`src/labs/ORDER lists ${slug} twice`);
    if (!lab.feature || have === true || have.includes(lab.feature)) out.push(lab);
  }
  return out;
}

/** Every catalog entry (assets/i18n/*.tsv, the message catalogs): key → { en, ko }. */
export function catalog(root = ROOT) {
  const dir = path.join(root, 'assets/i18n');
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

/** The embedding kit's and its snippet page's lists: slug → the header's name and the blurb,
 *  each in both languages, from the catalogs. */
export function embedLists(list, texts) {
  const text = (key) => {
    if (!texts[key]) throw new Error(`labs: no catalog has the key ${key}`);
    return texts[key];
  };
  const names = {};
  const descriptions = {};
  for (const lab of list) {
    names[lab.slug] = { en: text(lab.short).en, ko: text(lab.short).ko };
    descriptions[lab.slug] = [text(lab.blurb).en, text(lab.blurb).ko];
  }
  return { names, descriptions };
}

// Where the kit's sources mark the lists a build writes in.
const KIT_MARK = '/* LABS: written by scripts/labs.mjs */ {}';
const PAGE_MARK = '/* DESCRIPTIONS: written by scripts/labs.mjs */ {}';

/**
 * The embedding kit as the site ships it (dist/embed/): the files of assets/embed/, with
 * queue-lab.js's `LABS` and index.html's `DESCRIPTIONS` written from the registry. Returns
 * file name → text.
 */
export function embedKit({ root = ROOT, features: have = features() } = {}) {
  const { names, descriptions } = embedLists(labs({ root, features: have }), catalog(root));
  const dir = path.join(root, 'assets/embed');
  const out = {};
  for (const name of fs.readdirSync(dir).sort()) {
    let text = fs.readFileSync(path.join(dir, name), 'utf8');
    const fill = (mark, value) => {
      if (!text.includes(mark)) throw new Error(`labs: assets/embed/${name} has no ${mark}`);
      text = text.replace(mark, JSON.stringify(value));
    };
    if (name === 'queue-lab.js') fill(KIT_MARK, names);
    if (name === 'index.html') fill(PAGE_MARK, descriptions);
    out[name] = text;
  }
  return out;
}

/** Writes embedKit() into `dir` (build/embed/, which index.html copies to dist/embed/),
 *  leaving a file that is already the same untouched. */
export function writeEmbedKit(dir = path.join(ROOT, 'build', 'embed'), options = {}) {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(embedKit(options))) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
  }
  return dir;
}
