// Accessibility, checked: axe-core (WCAG 2.0/2.1, levels A and AA) on every page, before and
// after its default actions, in both languages, on the release build. A first test proves
// the check can fail: a control without a label, added to the page, is reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, PAGES, visit, useSite, violations } from './harness.mjs';

const site = useSite();

async function expectClean(page, label) {
  const found = await violations(page);
  if (found.length) await shot(page, `a11y-${label}`);
  assert.deepEqual(found, [], `${label}: WCAG A/AA violations`);
}

test('the check fails on a control without a label', async () => {
  const page = await newPage(site.browser);
  await page.goto(site.server.url + '?lang=en');
  await page.waitForSelector('#main h1'); // the app's, not the static first screen's
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'text';
    input.id = 'unlabeled-probe';
    document.querySelector('#main').append(input);
  });
  const found = await violations(page);
  assert.ok(
    found.some((v) => v.startsWith('label:') && v.includes('#unlabeled-probe')),
    `axe should report the unlabeled input: ${found.join('; ')}`,
  );
});

for (const lang of ['en', 'ko']) {
  test(`no WCAG A/AA violations on any page, before and after its default actions (${lang})`, async () => {
    const page = await newPage(site.browser, { width: 1280, height: 900 });
    for (const p of PAGES) {
      await visit(page, site.server, p, lang);
      await expectClean(page, `${p.name}-${lang}`);
      if (p.act) {
        await p.act(page);
        await expectClean(page, `${p.name}-${lang}-after`);
      }
    }
    assert.deepEqual(page.errors, []);
  });
}
