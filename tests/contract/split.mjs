// Splits a contract file (tests/contract/README.md) into what a runner does in order: SQL
// statements, each to run alone in autocommit, and `-- @wait N` and `-- @session2 SQL`
// directives. A `;` ends a
// statement only outside single quotes (E'' strings with backslash escapes too), double
// quotes, dollar quotes ($$ and $tag$), `--` comments and `/* */` comments (which nest, as
// in PostgreSQL). The Rust runner (crates/pgcheck/src/contract_split.rs) follows the same
// rules.

const WAIT = /^--\s*@wait\s+(\d+)\s*$/;
const SESSION2 = /^--\s*@session2\s+(\S.*?)\s*$/;
const IDENT = /[A-Za-z0-9_$]/;
const TAG = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/u;

/**
 * The steps of `text`, in order: `{ kind: 'sql', sql, line }` (without its `;`, `line` the
 * 1-based line of its first character), `{ kind: 'wait', seconds, line }` or
 * `{ kind: 'session2', sql, line }`. Comments
 * between statements are dropped; comments inside a statement stay in its text.
 * Throws on an unterminated quote or comment, and on `-- @wait` inside a statement.
 */
export function splitStatements(text) {
  const steps = [];
  let line = 1;
  let start = -1; // index where the current statement began, -1 between statements
  let startLine = 0;
  let i = 0;
  const n = text.length;
  const begin = () => {
    if (start < 0) {
      start = i;
      startLine = line;
    }
  };
  /** Advances to `to` (exclusive), counting newlines. */
  const skipTo = (to) => {
    for (; i < to; i++) if (text[i] === '\n') line++;
  };
  const unterminated = (what, at) => {
    throw new Error(`line ${at}: unterminated ${what}`);
  };
  while (i < n) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '-' && next === '-') {
      let end = text.indexOf('\n', i);
      if (end < 0) end = n;
      const comment = text.slice(i, end).trimEnd();
      const wait = WAIT.exec(comment);
      const second = SESSION2.exec(comment);
      if (wait) {
        if (start >= 0) throw new Error(`line ${line}: -- @wait inside a statement`);
        steps.push({ kind: 'wait', seconds: Number(wait[1]), line });
      } else if (/^--\s*@wait\b/.test(comment)) {
        throw new Error(`line ${line}: malformed directive ${JSON.stringify(comment)} (-- @wait N, N whole seconds)`);
      } else if (second) {
        if (start >= 0) throw new Error(`line ${line}: -- @session2 inside a statement`);
        steps.push({ kind: 'session2', sql: second[1], line });
      } else if (/^--\s*@session2\b/.test(comment)) {
        throw new Error(`line ${line}: malformed directive ${JSON.stringify(comment)} (-- @session2 followed by one statement)`);
      }
      skipTo(end);
      continue;
    }
    if (c === '/' && next === '*') {
      const at = line;
      let depth = 0;
      let j = i;
      while (j < n) {
        if (text[j] === '/' && text[j + 1] === '*') {
          depth++;
          j += 2;
        } else if (text[j] === '*' && text[j + 1] === '/') {
          depth--;
          j += 2;
          if (depth === 0) break;
        } else {
          j++;
        }
      }
      if (depth !== 0) unterminated('/* comment', at);
      skipTo(j);
      continue;
    }
    if (c === ';') {
      if (start >= 0) {
        steps.push({ kind: 'sql', sql: text.slice(start, i).trim(), line: startLine });
        start = -1;
      }
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      if (c === '\n') line++;
      i++;
      continue;
    }
    begin();
    if (c === "'" || c === '"') {
      // A string ('…', E'…' with backslash escapes) or a quoted identifier ("…"): a doubled
      // quote stands for itself.
      const string = c === "'";
      const before = text[i - 1];
      const escapes = string && (before === 'E' || before === 'e') && !IDENT.test(text[i - 2] ?? ' ');
      const at = line;
      let j = i + 1;
      for (;;) {
        if (j >= n) unterminated(string ? 'quoted string' : 'quoted identifier', at);
        if (escapes && text[j] === '\\') {
          j += 2;
          continue;
        }
        if (text[j] === c) {
          if (text[j + 1] === c) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      skipTo(j + 1);
      continue;
    }
    if (c === '$' && !IDENT.test(text[i - 1] ?? ' ')) {
      const tag = TAG.exec(text.slice(i, i + 200));
      if (tag) {
        const at = line;
        const close = text.indexOf(tag[0], i + tag[0].length);
        if (close < 0) unterminated(`dollar quote ${tag[0]}`, at);
        skipTo(close + tag[0].length);
        continue;
      }
    }
    i++;
  }
  if (start >= 0) {
    const sql = text.slice(start).trim();
    if (sql) steps.push({ kind: 'sql', sql, line: startLine });
  }
  return steps;
}

/**
 * A contract file's header: `contract` (the sentence of its first line, which must be
 * `-- contract: …`) and `engines` (`['lab']` for a file marked `-- @engines: lab`, else null:
 * every engine). Throws when the first line is not a contract line.
 */
export function contractHeader(text) {
  const lines = text.split('\n');
  const first = /^-- contract: (.+)$/.exec(lines[0].trimEnd());
  if (!first) throw new Error('line 1: a contract file starts with "-- contract: <what PgQue does>"');
  let engines = null;
  for (const l of lines.slice(1)) {
    const m = /^--\s*@engines:\s*(.+)$/.exec(l.trim());
    if (m) engines = m[1].split(',').map((e) => e.trim()).filter(Boolean);
  }
  return { contract: first[1], engines };
}
