/**
 * Splitting input into chunks of whole lines: a file read straight into slots
 * (fileLineChunks) gives the lines a stream's splitter (lineChunks) gives, long lines cut
 * alike, and a whole run gives the same result whichever way its input was read.
 */
import test from 'ava';
import { fileSource, textSource } from '../src/input/sources.js';
import { condenseLog } from '../src/log/index.js';
import { fileLineChunks, lineChunks, slotBytesFor } from '../src/split/line-chunks.js';
import { Slots } from '../src/split/slots.js';
import { javaServiceLog, mixedLog } from '../fixtures/logs.js';
import { asLog } from './condense-helpers.js';
import { tempDir, writeTemp } from './helpers.js';

const dir = tempDir('line-chunks');

/** A file in memory that gives at most `most` bytes a read, as a pipe or a busy disk may. */
const inMemory = (bytes: Buffer, most: number) => ({
  readAt: async (target: Buffer, offset: number, length: number, position: number): Promise<number> =>
    bytes.copy(target, offset, position, Math.min(bytes.length, position + Math.min(length, most))),
});

/** The lines a chunk's reader sees: each cut at maxLineBytes, as the readers cut them. */
const linesOf = (chunks: Buffer[], maxLineBytes: number): string[] =>
  Buffer.concat(chunks)
    .toString('latin1')
    .split('\n')
    .map((l) => l.slice(0, maxLineBytes));

/** A deterministic mix of short lines, lines near the cut, long lines, blank lines; with or without a last newline. */
function sample(seed: number, maxLineBytes: number, endsWithNewline: boolean): Buffer {
  let x = seed;
  const next = (n: number): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  const lines: string[] = [];
  for (let i = 0; i < 300; i++) {
    const kind = next(10);
    const length = kind === 0 ? maxLineBytes + next(3) - 1 : kind === 1 ? maxLineBytes * (2 + next(4)) : kind === 2 ? 0 : next(200);
    lines.push(String.fromCharCode(97 + (i % 26)).repeat(length));
  }
  return Buffer.from(lines.join('\n') + (endsWithNewline ? '\n' : ''), 'latin1');
}

test('a file read straight into slots gives the lines lineChunks gives, long lines cut alike, and counts every byte', async (t) => {
  const maxLineBytes = 256;
  for (const seed of [1, 2, 3, 4]) {
    for (const endsWithNewline of [true, false]) {
      const bytes = sample(seed, maxLineBytes, endsWithNewline);
      for (const chunkBytes of [1, 100, 1000, 4096]) {
        async function* pieces(): AsyncGenerator<Buffer> {
          for (let at = 0; at < bytes.length; at += 333) yield bytes.subarray(at, at + 333);
        }
        const streamed: Buffer[] = [];
        for await (const c of lineChunks(pieces(), { chunkBytes, maxLineBytes })) streamed.push(Buffer.from(c));
        for (const most of [7, 1 << 20]) {
          const slots = new Slots(slotBytesFor(chunkBytes, maxLineBytes));
          const read: Buffer[] = [];
          let counted = 0;
          for await (const c of fileLineChunks(inMemory(bytes, most), slots, (n) => (counted += n), { chunkBytes, maxLineBytes })) {
            const last = c[c.length - 1];
            t.true(last === 10 || counted === bytes.length, 'a chunk ends at a newline, or at the end of the file');
            t.true(c.buffer instanceof SharedArrayBuffer, 'the chunk is read in its slot');
            read.push(Buffer.from(c));
            slots.release(c.buffer);
          }
          const what = `seed ${seed}, ${endsWithNewline ? '' : 'no '}last newline, chunks of ${chunkBytes}, reads of ${most}`;
          t.is(counted, bytes.length, what);
          t.deepEqual(linesOf(read, maxLineBytes), linesOf(streamed, maxLineBytes), what);
          t.true(slots.made <= 1, `${what}: one slot, released after each chunk, serves them all`);
        }
      }
    }
  }
});

test('an empty file gives no chunk and takes no slot for good', async (t) => {
  const slots = new Slots(slotBytesFor(1024, 64));
  const chunks: Buffer[] = [];
  for await (const c of fileLineChunks(inMemory(Buffer.alloc(0), 10), slots, () => undefined, { chunkBytes: 1024, maxLineBytes: 64 })) chunks.push(c);
  t.is(chunks.length, 0);
  t.is(slots.made, 1);
  slots.acquire();
  t.is(slots.made, 1, 'the slot it read nothing into is free again');
});

test('a log condenses the same read from its file and from a stream, a line over 64 KB and no last newline included', async (t) => {
  const text = `${mixedLog(3_000)}2025-12-11T12:00:01.000Z ERROR huge ${'x'.repeat(200_000)}\n${javaServiceLog(300)}2025-12-11T13:00:00.000Z ERROR the last line`;
  const path = writeTemp(dir, 'both-ways.log', text);
  for (const chunkBytes of [4096, 1024 * 1024]) {
    const fromFile = asLog(await condenseLog([fileSource(path)], { workers: 0, chunkBytes }));
    const fromStream = asLog(await condenseLog([textSource(path, text)], { workers: 0, chunkBytes }));
    t.is(JSON.stringify({ ...fromFile, read: { ...fromFile.read, inputs: [] } }), JSON.stringify({ ...fromStream, read: { ...fromStream.read, inputs: [] } }), `chunks of ${chunkBytes}`);
    t.is(fromFile.read.inputs[0]!.bytes, Buffer.byteLength(text));
    t.true(fromFile.read.cutLines >= 1, 'the long line is said to be cut');
  }
});
