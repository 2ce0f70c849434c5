// The contract runner's statement splitter (tests/contract/split.mjs). Run: node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitStatements, contractHeader } from '../contract/split.mjs';

const sqls = (text) => splitStatements(text).map((s) => (s.kind === 'sql' ? s.sql : `@wait ${s.seconds}`));

test('splits on semicolons and drops comments between statements', () => {
  assert.deepEqual(sqls('-- a comment\nselect 1;\n\n/* note */ select 2 ;select 3'), ['select 1', 'select 2', 'select 3']);
});

test('a semicolon inside quotes, identifiers, dollar quotes or comments does not split', () => {
  const text = [
    "select 'a;b', 'it''s;', E'\\';', \"x;y\" from t;",
    'do $$ begin perform 1; end $$;',
    'create function f() returns int language sql as $body$ select 1; $body$;',
    'select 1 -- trailing; comment\n + 1;',
    'select /* a; /* nested; */ still; */ 2;',
  ].join('\n');
  assert.deepEqual(sqls(text), [
    "select 'a;b', 'it''s;', E'\\';', \"x;y\" from t",
    'do $$ begin perform 1; end $$',
    'create function f() returns int language sql as $body$ select 1; $body$',
    'select 1 -- trailing; comment\n + 1',
    'select /* a; /* nested; */ still; */ 2',
  ]);
});

test('$1 and identifiers with $ are not dollar quotes; an inner $x$ does not close $y$', () => {
  assert.deepEqual(sqls('select $1, a$b$ from t; select $y$ $x$; $y$;'), ['select $1, a$b$ from t', 'select $y$ $x$; $y$']);
});

test('@wait directives come in order, with the line each statement starts on', () => {
  const steps = splitStatements('select 1;\n-- @wait 2\nselect\n  2;\n');
  assert.deepEqual(steps, [
    { kind: 'sql', sql: 'select 1', line: 1 },
    { kind: 'wait', seconds: 2, line: 2 },
    { kind: 'sql', sql: 'select\n  2', line: 3 },
  ]);
});

test('a @session2 directive carries its statement and line; it stands alone and names one', () => {
  assert.deepEqual(splitStatements('select 1;\n-- @session2 begin isolation level repeatable read\nselect 2;'), [
    { kind: 'sql', sql: 'select 1', line: 1 },
    { kind: 'session2', sql: 'begin isolation level repeatable read', line: 2 },
    { kind: 'sql', sql: 'select 2', line: 3 },
  ]);
  assert.throws(() => splitStatements('-- @session2\nselect 1;'), /malformed directive/);
  assert.throws(() => splitStatements('select\n-- @session2 commit\n1;'), /@session2 inside a statement/);
});

test('refuses unterminated quotes, a wait inside a statement and a malformed wait', () => {
  assert.throws(() => splitStatements("select 'open;"), /line 1: unterminated quoted string/);
  assert.throws(() => splitStatements('select 1;\ndo $$ begin'), /line 2: unterminated dollar quote \$\$/);
  assert.throws(() => splitStatements('select\n-- @wait 1\n1;'), /@wait inside a statement/);
  assert.throws(() => splitStatements('-- @wait 1.5\nselect 1;'), /malformed directive/);
});

test('the header: the contract sentence and the engines line', () => {
  assert.deepEqual(contractHeader('-- contract: it ticks.\nselect 1;'), { contract: 'it ticks.', engines: null });
  assert.deepEqual(contractHeader('-- contract: x\n-- @engines: lab\n'), { contract: 'x', engines: ['lab'] });
  assert.throws(() => contractHeader('select 1;'), /starts with "-- contract:/);
});
