/**
 * A warm-up for the byte walker, run once per thread before real input.
 *
 * V8 optimizes the walker's main loop after a few thousand values, with the type
 * feedback seen so far. A branch that first runs after that (the first negative number,
 * escaped string, deep container, or a read past the end of a chunk) throws the optimized
 * code away, and recompiling the loop costs about 40 ms of CPU each time; a fresh worker
 * measured three or four of those on its first chunks, running at a quarter of its speed
 * meanwhile. Walking a small sample that takes every branch first gives the compiler
 * complete feedback, so the first optimized code is the one that stays.
 */
import { detect } from './detect.js';
import { shapeLines } from './lines.js';
import { MAP_MAX_KEYS, MAX_DEPTH } from './node.js';

let warmed = false;

export function warmUpWalker(rounds = 40): void {
  if (warmed) return;
  warmed = true;
  const lines = sampleLines();
  const jsonLines = Buffer.from(lines.join('\n'));
  const document = Buffer.from(`[${lines.join(',\n  ')}]`);
  for (let round = 0; round < rounds; round++) {
    // Lines both inside and past the stretch where every string's format is checked.
    shapeLines(jsonLines, round * 1000);
    if (round % 4 === 0) detect(document, () => document.toString());
  }
}

function sampleLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) {
    const record: Record<string, unknown> = {
      id: i,
      negative: -i - 0.5,
      float: i / 7,
      exponent: i * 1e-30,
      scaled: [1.5e3, 2e5, -12e-3, 1e400, 0.1],
      big: 2 ** 60 + i,
      zero: i % 2 === 0 ? 0 : -0,
      flag: i % 3 === 0,
      off: false,
      none: null,
      level: ['info', 'warn', 'error'][i % 3],
      when: `2024-01-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
      text: `line ${i}\n\t"quoted" \\ caf\u00e9 \u{1F600}`,
      empty: '',
      tags: i % 4 === 0 ? [] : ['a', 'b'].slice(0, i % 3),
      nested: { a: { b: [1, [2, { c: 'd' }]] }, e: {} },
    };
    if (i % 5 === 0) record.sometimes = 'present';
    lines.push(JSON.stringify(record));
  }
  // A key that repeats, and escaped keys.
  lines.push('{"id":1,"id":2,"k\\u0065y":"v","caf\u00e9":1}');
  // A map: more keys than MAP_MAX_KEYS, of ids.
  const map: Record<string, number> = {};
  for (let i = 0; i <= MAP_MAX_KEYS; i++) map[`k${1000 + i}`] = i;
  lines.push(JSON.stringify({ map }));
  // Containers below the depth cap, which are passed over.
  lines.push(`${'[{"x":'.repeat(MAX_DEPTH)}[1,"s",true,null,{"y":-1.5e3}]${'}]'.repeat(MAX_DEPTH)}`);
  // Whitespace between tokens.
  lines.push(' { "a" : [ 1 , 2 ] , "b" : { } , "c" : [ ] } ');
  return lines;
}
