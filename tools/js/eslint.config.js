// ESLint over the project's own JavaScript (`./lab test eslint`, run from the repository's
// root): ESLint's recommended rules, with the globals each file really has. Paths are from
// the root; generated and installed files are left out.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      'target/**',
      'build/**',
      'pglite-bridge/build/**',
      'tests/e2e/artifacts/**',
      'bench/tmp/**',
    ],
  },
  js.configs.recommended,
  {
    // Node scripts and tests; they hand functions to a page (Playwright's evaluate), so the
    // page's globals are real in them too.
    files: ['pglite-bridge/build.mjs', 'scripts/*.mjs', 'tests/**/*.mjs', 'bench/**/*.mjs', 'tools/js/*.js'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The first screen's page code is written as the oldest browsers read it (var, a named
    // catch binding), and a binding it does not read is that style, not a slip.
    files: ['scripts/first-screen.mjs'],
    rules: { 'no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
  {
    // Code that runs on a page.
    files: ['pglite-bridge/bridge.js', 'assets/embed/queue-lab.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Code that runs in a Web Worker.
    files: ['pglite-bridge/worker.js', 'bench/bare-worker.js'],
    languageOptions: { globals: { ...globals.worker } },
  },
];
