/**
 * Streamed input (past holdBytes): read into buffers that are used again, so these tests
 * check what that must not break: every byte reaches the shape and the tap exactly once,
 * a chunk in flight is never overwritten, and results do not depend on the sizes a source
 * delivers its bytes in.
 */
import test from 'ava';

import { apiExport, jsonLines } from '../fixtures/json.js';
import { WispError } from '../src/core/errors.js';
import { jsonShape } from '../src/shape/index.js';
import { fillFrom } from '../src/shape/byte-source.js';
import { lineTasks } from '../src/shape/line-slots.js';
import { Slots } from '../src/split/slots.js';
import { tempDir, writeTemp } from './helpers.js';

/** Lines of varied length, some longer than the slots below, the last without its newline. */
function variedLines(): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) lines.push(JSON.stringify({ i, pad: 'x'.repeat((i * 37) % (i % 50 === 7 ? 3000 : 300)) }));
  return Buffer.from(lines.join('\n'));
}

function linesIn(b: Buffer): number {
  let n = 0;
  for (let at = b.indexOf(10); at !== -1; at = b.indexOf(10, at + 1)) n++;
  return b.length > 0 && b[b.length - 1] !== 10 ? n + 1 : n;
}

test('line chunks: whole lines, in order, with their first line, and a slot used again only once released', async (t) => {
  const input = variedLines();
  for (const slotBytes of [64, 500, 1024, 1 << 20]) {
    const slots = new Slots(slotBytes);
    const seen: Buffer[] = [];
    let line = 0;
    for await (const task of lineTasks(fillFrom(input), slots)) {
      const chunk = Buffer.from(Buffer.from(task.buffer, 0, task.length));
      t.is(task.firstLine, line, `slot ${slotBytes}: first line`);
      if (seen.length > 0) t.is(seen[seen.length - 1]?.at(-1), 10, `slot ${slotBytes}: a chunk ends at a newline`);
      seen.push(chunk);
      line += linesIn(chunk);
      slots.release(task.buffer);
    }
    t.deepEqual(Buffer.concat(seen), input, `slot ${slotBytes}: every byte once`);
    // Released at once, one slot serves the whole input (long lines get buffers of their own).
    t.is(slots.made, 1, `slot ${slotBytes}: slots made`);
  }
});

test('line chunks: a slot not released is never written to again', async (t) => {
  const input = variedLines();
  const slots = new Slots(512);
  const tasks = [];
  for await (const task of lineTasks(fillFrom(input), slots)) tasks.push(task);
  // Read only now: had a slot been reused, earlier chunks would hold later bytes.
  const joined = Buffer.concat(tasks.map((task) => Buffer.from(task.buffer, 0, task.length)));
  t.deepEqual(joined, input);
  t.true(slots.made > 1);
});

/** `bytes` as a stream in pieces of `size` bytes. */
function* inPieces(bytes: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

test('a streamed document gives the same outline, and the same error, whatever sizes its bytes arrive in', async (t) => {
  const good = Buffer.from(apiExport(300_000, 4));
  // Broken far past the first piece the tokenizer is given.
  const bad = Buffer.from(good);
  bad[200_001] = 0x01;
  const options = { holdBytes: 4096, maxBytes: 1 << 24 };
  const texts = new Set<string>();
  const errors = new Set<string>();
  for (const size of [1, 1000, 65_536, 70_001, good.length]) {
    texts.add((await jsonShape({ stream: inPieces(good, size) }, options)).text);
    const err = await t.throwsAsync(jsonShape({ stream: inPieces(bad, size) }, options), { instanceOf: WispError });
    errors.add(`${err?.code}: ${err?.message}`);
  }
  t.is(texts.size, 1);
  t.deepEqual([...errors].map((e) => e.split(':')[0]), ['WISP_NOT_JSON']);
  t.is(errors.size, 1, [...errors].join('\n'));
});

test('streamed JSON Lines: the same outline whatever sizes the bytes arrive in, in process or on threads', async (t) => {
  const text = Buffer.from(jsonLines(200_000, 9));
  const outlines = new Set<string>();
  for (const [size, workers] of [
    [1, 0],
    [999, 2],
    [65_536, 2],
    [text.length, 0],
  ] as const) {
    const r = await jsonShape({ stream: inPieces(text, size) }, { holdBytes: 2048, maxBytes: 1 << 24, chunkBytes: 8192, workers });
    outlines.add(r.text);
  }
  t.is(outlines.size, 1);
});

test('the tap sees every byte of a streamed file exactly once, though the file is read into buffers used again', async (t) => {
  const dir = tempDir('wisp-shape-streaming-');
  for (const [name, content] of [
    ['doc.json', apiExport(400_000, 2)],
    ['lines.jsonl', jsonLines(400_000, 3)],
  ] as const) {
    const path = writeTemp(dir, name, content);
    const seen: Buffer[] = [];
    const r = await jsonShape({ path }, { holdBytes: 10_000, maxBytes: 1 << 24, chunkBytes: 50_000, workers: 2, tap: (b) => seen.push(b) });
    t.true(r.text.includes('streamed'), name);
    t.true(Buffer.concat(seen).equals(Buffer.from(content)), name);
  }
});
