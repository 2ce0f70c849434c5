// The registry of labs (scripts/labs.mjs: src/labs/ORDER and each lab's lab.tsv) is the one
// list every JavaScript tool reads. The proof: a sample lab made from the template (the
// test-only stub lab, src/labs/stub/) in a copy of the repository, touching only its folder and
// one line of ORDER, is on the first screen, the embedding kit and its snippet page, and the e2e
// page list. (build.rs writes the Rust registry from the same files: the native test
// `labs::tests::a_sample_lab_from_the_template_is_in_the_rust_registry` does the same there.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { ROOT, labs, parse, embedKit, catalog } from '../../scripts/labs.mjs';
import { source, choose } from '../../scripts/first-screen.mjs';
import { pageList } from '../e2e/harness.mjs';

/** Every file under `dir`: relative path → sha256 of its bytes. */
function tree(dir, base = dir, out = {}) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) tree(p, base, out);
    else out[path.relative(base, p)] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
  }
  return out;
}

/** A copy of what the registry's readers read: src/labs, assets/i18n, assets/embed. */
function copy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-lab-registry-'));
  for (const sub of ['src/labs', 'assets/i18n', 'assets/embed']) {
    fs.cpSync(path.join(ROOT, sub), path.join(dir, sub), { recursive: true });
  }
  return dir;
}

/** Makes the lab `slug` from the template, as a new lab is made: its folder (the stub's, each
 *  file's `stub`/`Stub` renamed, not test-only) and its line in ORDER. */
function addSample(root, slug, tag) {
  const from = path.join(root, 'src/labs/stub');
  const to = path.join(root, 'src/labs', slug);
  const Cap = slug[0].toUpperCase() + slug.slice(1);
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const q = path.join(to, path.relative(from, p));
      if (e.isDirectory()) {
        fs.mkdirSync(q, { recursive: true });
        walk(p);
        continue;
      }
      let text = fs.readFileSync(p, 'utf8');
      if (e.name === 'lab.tsv') {
        // Its own slug, tag, view and schema; the template's texts (its catalog keys) kept.
        text = text.split('\n').filter((l) => !l.startsWith('feature\t')).map((l) => {
          const [k] = l.split('\t');
          if (k === 'slug') return `slug\t${slug}`;
          if (k === 'tag') return `tag\t${tag}`;
          if (k === 'view') return `view\t${Cap}Lab`;
          if (k === 'schema') return `schema\t${slug}_lab`;
          if (k === 'first_screen.section') return `first_screen.section\tlab ${slug}-lab`;
          return l;
        }).join('\n');
      } else {
        text = text.replaceAll('labs/stub.rs', `labs/${slug}.rs`).replaceAll('StubLab', `${Cap}Lab`);
      }
      fs.writeFileSync(q, text);
    }
  };
  fs.mkdirSync(to, { recursive: true });
  walk(from);
  fs.appendFileSync(path.join(root, 'src/labs/ORDER'), `${slug}\n`);
}

test('every lab of ORDER has a descriptor whose slug is its folder, and the order is the site\'s', () => {
  const all = labs({ features: true });
  assert.deepEqual(all.map((l) => l.slug), ['jobs', 'workers', 'vacuum', 'pgq', 'leave', 'stub']);
  assert.deepEqual(all.map((l) => l.tag), ['L1', 'L2', 'L3', 'L4', 'L5', 'L6']);
  assert.deepEqual(labs({ features: [] }).map((l) => l.slug), ['jobs', 'workers', 'vacuum', 'pgq', 'leave'],
    'the test-only stub only with its feature');
  assert.deepEqual(all.filter((l) => l.saves).map((l) => l.slug), ['jobs', 'vacuum', 'pgq']);
  const text = catalog();
  for (const l of all) for (const k of [l.title, l.short, l.summary, l.blurb, l.heading, l.intro].filter(Boolean)) {
    assert.ok(text[k], `${l.slug}: the key ${k} is in a catalog`);
  }
});

test('a descriptor with a field missing, an unknown one or a bad value is refused', () => {
  const good = fs.readFileSync(path.join(ROOT, 'src/labs/jobs/lab.tsv'), 'utf8');
  assert.equal(parse(good).schema, 'jobs_lab');
  assert.throws(() => parse(good.replace(/^tag\t.*\n/m, '')), /no field tag/);
  assert.throws(() => parse(good + 'colour\tblue\n'), /no lab has the field colour/);
  assert.throws(() => parse(good.replace('saves\tyes', 'saves\tmaybe')), /saves is "maybe"/);
  assert.throws(() => parse(good + 'tag\tL9\n'), /the field tag comes twice/);
});

test('the embedding kit and its snippet page list exactly the registry\'s labs with their header names and blurbs', () => {
  const kit = embedKit({ features: [] });
  const text = catalog();
  const obj = (file, name) => JSON.parse(new RegExp(`var ${name} = (\\{.*\\});`).exec(file)[1]);
  const names = obj(kit['queue-lab.js'], 'LABS');
  const descriptions = obj(kit['index.html'], 'DESCRIPTIONS');
  const shipped = labs({ features: [] });
  assert.deepEqual(Object.keys(names), shipped.map((l) => l.slug));
  assert.deepEqual(Object.keys(descriptions), shipped.map((l) => l.slug));
  for (const l of shipped) {
    assert.deepEqual(names[l.slug], { en: text[l.short].en, ko: text[l.short].ko });
    assert.deepEqual(descriptions[l.slug], [text[l.blurb].en, text[l.blurb].ko]);
  }
  // The sources hold no list of their own.
  for (const name of ['queue-lab.js', 'index.html']) {
    const src = fs.readFileSync(path.join(ROOT, 'assets/embed', name), 'utf8');
    assert.ok(!/\bworkers: /.test(src), `assets/embed/${name} lists no lab by hand`);
  }
});

test('a sample lab from the template, its folder and one line of ORDER, is on the first screen, the embed page and the e2e page list', () => {
  const root = copy();
  try {
    const before = tree(root);
    addSample(root, 'sample', 'L7');
    const after = tree(root);
    // What adding it touched: files in its own folder, and ORDER by one line.
    const changed = Object.keys(after).filter((f) => before[f] !== after[f]);
    assert.ok(changed.length > 3);
    for (const f of changed) {
      assert.ok(f.startsWith('src/labs/sample/') || f === 'src/labs/ORDER', `touched ${f}`);
    }
    assert.ok(Object.keys(before).every((f) => f in after), 'nothing removed');
    const order = (r) => fs.readFileSync(path.join(r, 'src/labs/ORDER'), 'utf8').split('\n');
    assert.deepEqual(order(root), [...order(ROOT).slice(0, -1), 'sample', '']);

    const features = ['stub-lab'];
    const list = labs({ root, features });
    assert.deepEqual(list.map((l) => l.slug), ['jobs', 'workers', 'vacuum', 'pgq', 'leave', 'stub', 'sample']);
    const sample = list.at(-1);
    assert.equal(sample.tag, 'L7');
    assert.equal(sample.schema, 'sample_lab');

    // The first screen: in the header and on the home page, and drawn for ?lab=sample.
    const script = source({ root, features });
    const drawn = JSON.parse(/var LABS = (\[.*\]);/.exec(script)[1]);
    assert.deepEqual(drawn.map((l) => l.slug), list.map((l) => l.slug));
    assert.equal(choose(drawn, '?lab=sample', '', null, 'en').lab.slug, 'sample');
    assert.equal(choose(drawn, '', '#/sample', null, 'ko').lab.section, 'lab sample-lab');
    assert.ok(!source({ features }).includes('"sample"'), 'the repository itself is untouched');

    // The embedding kit and its snippet page.
    const kit = embedKit({ root, features: [] });
    const texts = catalog(root);
    assert.deepEqual(JSON.parse(/var LABS = (\{.*\});/.exec(kit['queue-lab.js'])[1]).sample,
      { en: texts['lab.stub.short'].en, ko: texts['lab.stub.short'].ko });
    assert.deepEqual(JSON.parse(/var DESCRIPTIONS = (\{.*\});/.exec(kit['index.html'])[1]).sample,
      [texts['lab.stub.blurb'].en, texts['lab.stub.blurb'].ko]);

    // The e2e page list: its page, with the plain open (no entry of its own in the harness).
    const pages = pageList({ root, features });
    const page = pages.find((p) => p.name === 'sample');
    assert.equal(page?.route, '#/sample');
    assert.equal(typeof page.open, 'function');
    assert.deepEqual(pages.map((p) => p.name), ['home', ...list.map((l) => l.slug)]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
