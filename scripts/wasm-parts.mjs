// wasm-parts.mjs — what groups of functions cost a .wasm, gzipped: each group's bodies are
// zeroed in a copy and the copy gzipped again (level 9), against the module with only its
// "name" section zeroed (the release strips it). The .wasm must keep its names: see the
// header of scripts/wasm-size.sh for how to build one that does.
//
// For: how much a cut could save before making it (a lab's code split out of the main
// .wasm, a dependency dropped). Not for: the shipped size (scripts/wasm-size.sh), or exact
// attribution: wasm-opt inlines small functions into their callers, so a group's figure is
// what is still under its names.
//
//   node scripts/wasm-parts.mjs FILE.wasm GROUP...
//
// A GROUP is one or more substrings of function names, joined by '|': a function is in it
// when its (mangled-then-demangled by the name section) name contains any of them, e.g.
//   node scripts/wasm-parts.mjs /tmp/named/opt.wasm queue_lab::labs::pgq 'tachys|reactive_graph'
// Prints the module's size, then per group: its functions, their raw bytes, and the gzipped
// bytes the module would lose without them.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

/** A module's code bodies ([offset, length], in order: the function index is the body's
 *  plus `imported`), its function names by index, and where its name section is
 *  ([offset, length] of the section's content, or null). tests/node/wasm_parts.test.mjs
 *  checks it on a module made byte by byte. */
export function parse(buf) {
  let p = 8;
  const leb = () => {
    let r = 0;
    let shift = 0;
    let b;
    do {
      b = buf[p++];
      r += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return r;
  };
  const skipLimits = () => {
    const flags = buf[p++];
    leb();
    if (flags & 1) leb();
  };
  let imported = 0;
  const bodies = [];
  const names = new Map();
  let nameSection = null;
  while (p < buf.length) {
    const id = buf[p++];
    const size = leb();
    const start = p;
    const end = p + size;
    if (id === 2) {
      for (let n = leb(), i = 0; i < n; i++) {
        // (`p += leb()` would add to p as it was before leb() moved it.)
        const moduleLen = leb();
        p += moduleLen;
        const fieldLen = leb();
        p += fieldLen;
        const kind = buf[p++];
        if (kind === 0) { leb(); imported++; } // a function: its type
        else if (kind === 1) { p++; skipLimits(); } // a table: element type, limits
        else if (kind === 2) skipLimits(); // a memory
        else if (kind === 3) p += 2; // a global: type, mutability
        else { leb(); } // a tag
      }
    } else if (id === 10) {
      for (let n = leb(), i = 0; i < n; i++) {
        const len = leb();
        bodies.push([p, len]);
        p += len;
      }
    } else if (id === 0) {
      const nameLen = leb();
      const custom = buf.subarray(p, p + nameLen).toString();
      p += nameLen;
      if (custom === 'name') {
        nameSection = [start, size];
        while (p < end) {
          const sub = buf[p++];
          const subLen = leb();
          const subEnd = p + subLen;
          if (sub === 1) {
            for (let n = leb(), i = 0; i < n; i++) {
              const index = leb();
              const len = leb();
              names.set(index, buf.subarray(p, p + len).toString());
              p += len;
            }
          }
          p = subEnd;
        }
      }
    }
    p = end;
  }
  return { imported, bodies, names, nameSection };
}

/** The gzipped bytes each group costs `wasm` (see the header): { functions, whole, groups:
 *  [{ group, count, raw, gzipped }] }, or null for a module without a name section. */
export function costs(wasm, groups) {
  const { imported, bodies, names, nameSection } = parse(wasm);
  if (!nameSection) return null;
  const gzipped = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
  const base = Buffer.from(wasm);
  base.fill(0, nameSection[0], nameSection[0] + nameSection[1]);
  const whole = gzipped(base);
  return {
    functions: bodies.length,
    whole,
    groups: groups.map((group) => {
      const parts = group.split('|');
      const copy = Buffer.from(base);
      let count = 0;
      let raw = 0;
      bodies.forEach(([offset, len], i) => {
        const name = names.get(i + imported) ?? '';
        if (parts.some((s) => name.includes(s))) {
          copy.fill(0, offset, offset + len);
          count++;
          raw += len;
        }
      });
      return { group, count, raw, gzipped: whole - gzipped(copy) };
    }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, ...groups] = process.argv.slice(2);
  if (!file || groups.length === 0) {
    console.error('usage: node scripts/wasm-parts.mjs FILE.wasm GROUP...');
    process.exit(2);
  }
  const found = costs(fs.readFileSync(file), groups);
  if (!found) {
    console.error(`wasm-parts: ${file} has no name section (build it as scripts/wasm-size.sh says)`);
    process.exit(1);
  }
  console.log(`${file}: ${found.functions} functions; without names ${found.whole} B gzipped`);
  for (const g of found.groups) {
    console.log(`${g.group}: ${g.count} functions, ${g.raw} B raw, ${g.gzipped} B gzipped`);
  }
}
