/**
 * Priming the byte walker before the first real input in a thread: one pass over a small
 * sample that takes every branch, and every kind of value stored once in a node's fields.
 *
 * Why: V8 optimizes the walker's loop with the type feedback seen so far. A branch that
 * first runs after that (the first empty array, a number starting with 0, a node that
 * stops tracking enum values) throws the optimized code away, and the walker's loop takes
 * 55-90 ms of compiler time each time; a fresh worker was measured compiling it three or
 * four times on its first chunks. After priming it compiles once. Priming itself costs
 * about a millisecond: it only has to run each branch, not make anything hot.
 */
import { detect } from './detect.js';
import { shapeLines } from './lines.js';
import { MAP_MAX_KEYS, MAX_DEPTH, newNode } from './node.js';

let primed = false;

export function primeWalker(): void {
  if (primed) return;
  primed = true;
  generalizeNodeFields();
  const lines = sampleLines();
  // Lines both inside and past the stretch where every string's format is checked.
  shapeLines(Buffer.from(lines.join('\n')), 0);
  shapeLines(Buffer.from(lines.join('\n')), 1_000_000);
  const document = Buffer.from(`[${lines.join(',\n  ')}]`);
  detect(document, () => document.toString());
}

/**
 * Store into one node every kind of value its fields ever hold: nodes share one hidden
 * class, so its field types widen here rather than under optimized code later.
 */
function generalizeNodeFields(): void {
  const n = newNode(0, 0);
  const other = newNode(Infinity, 0.5);
  n.firstMajor = 1.5;
  n.firstMinor = Infinity;
  n.numMin = -0.5;
  n.numMax = 2 ** 60;
  n.strMinLen = 0;
  n.strMaxLen = 1.5;
  n.arrMinLen = 0;
  n.arrMaxLen = 1.5;
  n.objMinKeys = 0;
  n.objMaxKeys = 1.5;
  n.exMajor = Infinity;
  n.exMinor = 0.5;
  n.example = 'x';
  n.format = -1;
  n.enumValues = null;
  n.items = other;
  n.keys = new Map([['k', other]]);
  n.map = { values: other, sampleKeys: [{ key: 'k', major: 0, minor: 0 }] };
  n.slotKeys = ['k'];
  n.slotKids = [other];
  n.enumTexts = ['x'];
  n.enumEntries = [{ count: 1, major: 0, minor: 0 }];
  n.stamp = 2 ** 40;
  n.keys = undefined;
  n.map = undefined;
  n.items = undefined;
}

function sampleLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < 20; i++) {
    const record: Record<string, unknown> = {
      id: i,
      negative: -i - 0.5,
      float: i / 7,
      tiny: i * 1e-30,
      // Infinity is written as null by JSON.stringify.
      scaled: [1.5e3, 2e5, -12e-3, Infinity, 0.1, 0, -0],
      big: 2 ** 60 + i,
      flag: i % 3 === 0,
      off: false,
      none: null,
      level: ['info', 'warn', 'error'][i % 3],
      word: `w${i}`,
      when: `2024-01-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
      text: `line ${i}\n\t"quoted" \\ caf\u00e9 \u{1F600}`,
      escaped: 'a\nb',
      empty: '',
      tags: i % 4 === 0 ? [] : ['a', 'b'].slice(0, i % 3),
      nested: { a: { b: [1, [2, { c: 'd' }]] }, e: {} },
    };
    if (i % 5 === 0) record.sometimes = 'present';
    lines.push(JSON.stringify(record));
  }
  // A repeated key, escaped and non-ASCII keys.
  lines.push('{"id":1,"id":2,"k\\u0065y":"v","caf\u00e9":1}');
  // A map: more keys than MAP_MAX_KEYS.
  const map: Record<string, number> = {};
  for (let i = 0; i <= MAP_MAX_KEYS; i++) map[`k${1000 + i}`] = i;
  lines.push(JSON.stringify({ map }));
  // Containers below the depth cap, which are passed over.
  lines.push(`${'[{"x":'.repeat(MAX_DEPTH)}[1,"s",true,null,{"y":-1.5e3},[]]${'}]'.repeat(MAX_DEPTH)}`);
  // Whitespace between tokens, and a last line without a newline (a read past the end).
  lines.push(' { "a" : [ 1 , 2 ] , "b" : { } , "c" : [ ] } ');
  return lines;
}
