// scripts/wasm-parts.mjs reads a module's code bodies and names by hand; a module made here
// byte by byte, with imports of more than one kind before its functions, checks that each body
// is found where it is and named by its own index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, costs } from '../../scripts/wasm-parts.mjs';

const bytes = (s) => [...Buffer.from(s)];
/** An unsigned LEB128 number (sizes over 127 take two bytes or more). */
function leb(n) {
  const out = [];
  do {
    const low = n & 0x7f;
    n >>>= 7;
    out.push(n ? low | 0x80 : low);
  } while (n);
  return out;
}
const vec = (items) => [...leb(items.length), ...items.flat()];
const named = (s) => [...leb(s.length), ...bytes(s)];
const section = (id, content) => [id, ...leb(content.length), ...content];

/** A body with its size before it: no locals, `nops` nops, end. */
const body = (nops) => {
  const code = [0, ...Array(nops).fill(0x01), 0x0b];
  return [...leb(code.length), ...code];
};

function module() {
  const bodyA = body(40);
  const bodyB = body(200); // its size takes two bytes
  const wasm = [
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, vec([[0x60, 0, 0]])), // one type: () -> ()
    ...section(2, vec([
      [...named('environment'), ...named('imported_fn'), 0, 0], // a function, type 0
      [...named('environment'), ...named('memory'), 2, 0, 1], // a memory, min 1 page
    ])),
    ...section(3, vec([[0], [0]])), // two functions, type 0
    ...section(10, [2, ...bodyA, ...bodyB]),
    ...section(0, [...named('name'), ...section(1, vec([
      [0, ...named('env::imported_fn')],
      [1, ...named('lab_a::run')],
      [2, ...named('lab_b::draw')],
    ]))]),
  ];
  return { wasm: Buffer.from(wasm), bodyA, bodyB };
}

test('each code body is found at its bytes and named by its index after the imports', () => {
  const { wasm, bodyA, bodyB } = module();
  const { imported, bodies, names, nameSection } = parse(wasm);
  assert.equal(imported, 1, 'one function import (the memory import is not a function)');
  assert.deepEqual(bodies.map(([, len]) => len), [bodyA.length - 1, bodyB.length - 2]);
  const [offsetB, lenB] = bodies[1];
  assert.deepEqual([...wasm.subarray(offsetB, offsetB + lenB)], bodyB.slice(2));
  assert.equal(names.get(bodies.length + imported - 1), 'lab_b::draw');
  assert.equal(names.get(imported), 'lab_a::run');
  assert.ok(nameSection && nameSection[1] > 0);
});

test("a group's cost counts the bodies whose names hold any of its parts", () => {
  const { wasm, bodyA, bodyB } = module();
  const found = costs(wasm, ['lab_a', 'lab_a::|lab_b::', 'nobody']);
  assert.equal(found.functions, 2);
  assert.deepEqual(found.groups.map((g) => [g.count, g.raw]), [
    [1, bodyA.length - 1],
    [2, bodyA.length + bodyB.length - 3],
    [0, 0],
  ]);
  assert.equal(found.groups[2].gzipped, 0, 'zeroing nothing saves nothing');
});
