/**
 * The byte walker (which parses and shapes in one pass) checked against independent
 * parsers on random JSON: it accepts exactly what JSON.parse accepts, its outline equals
 * the outline from stream-json's tokens, and its numbers and string lengths are the ones
 * JSON.parse gives.
 */
import test from 'ava';

import { WispError } from '../src/core/errors.js';
import { jsonShape, type ShapeReport } from '../src/shape/index.js';
import { randomJson, rng } from '../fixtures/json.js';
import { MAX_DEPTH } from '../src/shape/node.js';

const streamed = (text: string): Promise<ShapeReport> =>
  // Held up to 16 bytes only: anything longer goes through the token walk.
  jsonShape({ stream: [Buffer.from(text)] }, { holdBytes: 16, maxBytes: 1 << 30, maxLines: 10_000 });

function comparable(r: ShapeReport): string {
  return JSON.stringify({ ...r.tree, read: { ...r.tree.read, streamed: false } });
}

test('random documents: the byte walk and the token walk give the same outline', async (t) => {
  const r = rng(101);
  for (let i = 0; i < 300; i++) {
    const text = randomJson(r, { pretty: i % 2 === 0, repeatKeys: i % 3 === 0 });
    if (Buffer.byteLength(text) <= 16) continue;
    const held = await jsonShape(text, { maxLines: 10_000 });
    t.is(comparable(held), comparable(await streamed(text)), text);
  }
});

test('random documents cut or corrupted: refused exactly when JSON.parse refuses them', async (t) => {
  const r = rng(202);
  const junk = ['', '"', '\\', ',', ':', '[', ']', '{', '}', '-', '.', 'e', '0', 'x', ' ', '\u00e9', 'tru', 'nul'];
  let refused = 0;
  for (let i = 0; i < 1500; i++) {
    const text = randomJson(r);
    const at = Math.floor(r() * (text.length + 1));
    const how = r();
    let broken: string;
    if (how < 0.3) {
      broken = text.slice(0, at); // cut
    } else if (how < 0.5) {
      // One of the grammar's own characters taken out, chosen at random among them.
      const marks = [...text.matchAll(/[:,"\]}[{]/g)].map((m) => m.index);
      const gone = marks.length === 0 ? at : (marks[Math.floor(r() * marks.length)] as number);
      broken = text.slice(0, gone) + text.slice(gone + 1);
    } else {
      broken = text.slice(0, at) + junk[Math.floor(r() * junk.length)] + text.slice(at + (r() < 0.5 ? 1 : 0));
    }
    // One in three below the depth cap, where containers are checked by the skip scan.
    if (i % 3 === 0) broken = `${'['.repeat(MAX_DEPTH)}${broken}${']'.repeat(MAX_DEPTH)}`;
    if (broken.trim() === '') continue;
    let parses = true;
    try {
      JSON.parse(broken);
    } catch {
      parses = false;
    }
    try {
      await jsonShape(broken);
      t.true(parses, `accepted what JSON.parse refuses: ${JSON.stringify(broken)}`);
    } catch (err) {
      if (!(err instanceof WispError)) throw err;
      t.false(parses, `refused what JSON.parse accepts: ${JSON.stringify(broken)} (${err.message})`);
      t.true(err.code === 'WISP_NOT_JSON' || err.code === 'WISP_TRUNCATED_JSON', `${err.code}: ${err.message}`);
      refused++;
    }
  }
  t.true(refused > 300, `only ${refused} refusals: the corruption is too mild to test anything`);
});

test('JSON Lines with one corrupted line: refused exactly when that line does not parse, naming it', async (t) => {
  const r = rng(303);
  for (let i = 0; i < 300; i++) {
    const lines = Array.from({ length: 6 }, () => randomJson(r, { depth: 3 }));
    const bad = 1 + Math.floor(r() * 4);
    const line = lines[bad] as string;
    const at = Math.floor(r() * line.length);
    lines[bad] = `${line.slice(0, at)}${['"', ']', '}', ',', '1.', '-'][i % 6]}${line.slice(at)}`;
    let parses = true;
    try {
      JSON.parse(lines[bad] as string);
    } catch {
      parses = false;
    }
    const text = `${lines.join('\n')}\n`;
    try {
      await jsonShape(text, { workers: 0 });
      t.true(parses, `accepted line ${bad + 1}: ${JSON.stringify(lines[bad])}`);
    } catch (err) {
      if (!(err instanceof WispError)) throw err;
      t.false(parses, `refused: ${err.message}`);
      t.regex(err.message, new RegExp(`line ${bad + 1}\\b`));
    }
  }
});

/** `count` random top-level scalars (trimmed JSON text) whose text matches `kind`. */
function scalars(r: () => number, count: number, kind: RegExp): string[] {
  const found: string[] = [];
  while (found.length < count) {
    const text = randomJson(r, { depth: 0 }).trim();
    if (kind.test(text)) found.push(text);
  }
  return found;
}

test('numbers spelled every way come out as the doubles JSON.parse gives', async (t) => {
  const r = rng(404);
  for (let i = 0; i < 200; i++) {
    const spelled = scalars(r, 20, /^-?\d/);
    const values = spelled.map((s) => JSON.parse(s) as number);
    const report = await jsonShape(`[${spelled.join(',')}]`);
    const items = report.tree.root.array?.items;
    t.is(items?.number?.min, Math.min(...values), spelled.join(','));
    t.is(items?.number?.max, Math.max(...values), spelled.join(','));
    t.is(items?.number?.integers, values.filter((v) => Number.isInteger(v)).length);
  }
});

test('string lengths are JSON.parse lengths, whatever the escapes and encoding', async (t) => {
  const r = rng(505);
  for (let i = 0; i < 100; i++) {
    const spelled = scalars(r, 10, /^"/);
    const lengths = spelled.map((s) => (JSON.parse(s) as string).length);
    const report = await jsonShape(`[${spelled.join(',')}]`);
    const strings = report.tree.root.array?.items?.string;
    t.is(strings?.minLength, Math.min(...lengths), spelled.join(','));
    t.is(strings?.maxLength, Math.max(...lengths), spelled.join(','));
  }
});

test('a key repeated within an object: every value counted, the outline says so', async (t) => {
  const report = await jsonShape('[{"a":1,"b":2,"a":"x"},{"a":3,"b":4},{"b":5}]');
  t.regex(report.text, /a\?: integer 2 1\.\.3 \| string 1 .*\(present 2\/3\) \(repeated within an object: 1 extra value, all counted\)/);
  const a = report.tree.root.children?.find((c) => c.key === 'a');
  t.is(a?.present, 2);
  t.is(a?.repeated, 1);
  const b = report.tree.root.children?.find((c) => c.key === 'b');
  t.is(b?.repeated, undefined);
  t.is(b?.present, undefined);
});

test('integer-like keys keep their document order (JSON.parse would sort them first)', async (t) => {
  const report = await jsonShape('{"b":1,"2":2,"a":3,"1":4}');
  t.deepEqual(
    report.tree.root.children?.map((c) => c.key),
    ['b', '2', 'a', '1'],
  );
});

test('random JSON Lines with repeated keys: the same outline however they are chunked', async (t) => {
  const r = rng(606);
  const lines = Array.from({ length: 400 }, () => randomJson(r, { depth: 3, repeatKeys: true }));
  const text = `${lines.join('\n')}\n`;
  const alone = comparable(await jsonShape(text, { workers: 0, maxLines: 10_000 }));
  t.regex(alone, /"repeated":/, 'the input has repeated keys');
  for (const chunkBytes of [97, 1000, 7777]) {
    t.is(comparable(await jsonShape(text, { workers: 2, chunkBytes, maxLines: 10_000 })), alone, `chunkBytes ${chunkBytes}`);
  }
});

test('repeated keys in objects that become a map: the same outline however they are chunked', async (t) => {
  // Two id keys per line, one of them repeated: ten ids make the object a map, at a
  // different line in each chunk.
  const lines = Array.from({ length: 60 }, (_, i) => `{"m":{"${1000 + 2 * i}":1,"${1001 + 2 * i}":2,"${1000 + 2 * i}":3},"k":1,"k":2}`);
  const text = `${lines.join('\n')}\n`;
  const alone = await jsonShape(text, { workers: 0 });
  t.regex(alone.text, /m: object as map/);
  t.regex(alone.text, /k: integer .*repeated within an object: 60 extra values/);
  for (const chunkBytes of [60, 200, 1000]) {
    t.is(comparable(await jsonShape(text, { workers: 2, chunkBytes })), comparable(alone), `chunkBytes ${chunkBytes}`);
  }
});
