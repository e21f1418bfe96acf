/**
 * Turns a stream of byte buffers into chunks of whole lines of about `chunkBytes`. Bytes
 * are copied as they come into the chunk being filled: a source may reuse its buffers
 * (a file is read into one buffer, again and again), and with `slots` every chunk is a
 * slot (split/slots.ts), read in place by a worker and used again once its result is
 * taken. Without slots, each chunk is an ArrayBuffer of its own, to be transferred.
 *
 * A chunk ends at the first newline at or after its `chunkBytes`th byte. A line that
 * grows past `maxLineBytes` without a newline, across a source's buffers, is cut there and
 * the rest of it skipped, so memory stays bounded whatever the input. Cut lines are
 * exactly `maxLineBytes` long; the worker counts every line of that length or more as
 * cut, which makes the count the same whether a long line arrived whole in one buffer or not.
 */
import type { Slots } from './slots.js';

export const DEFAULT_CHUNK_BYTES = 1024 * 1024;
export const MAX_LINE_BYTES = 64 * 1024;

const NEWLINE = 10;
const NEWLINE_BYTE = Buffer.from([NEWLINE]);

export interface LineChunkOptions {
  chunkBytes?: number;
  maxLineBytes?: number;
  /** Chunks are filled in these (each released by whoever takes the chunk's result); a chunk larger than a slot gets a buffer of its own. */
  slots?: Slots;
}

/** The slot size that holds a chunk of `chunkBytes` and the line it ends with, most of the time. */
export const slotBytesFor = (chunkBytes: number, maxLineBytes = MAX_LINE_BYTES): number => chunkBytes + maxLineBytes;

/** Lines that start in `bytes` as a chunk's readers split it: newlines, plus one for a last line without one. */
export function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE ? lines + 1 : lines;
}

export async function* lineChunks(source: AsyncIterable<Buffer>, options: LineChunkOptions = {}): AsyncGenerator<Buffer> {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const slots = options.slots;
  /** A buffer to fill the next chunk in: a slot, or room for a chunk and the newline that ends it. */
  const fresh = (): Buffer => (slots !== undefined ? Buffer.from(slots.acquire()) : Buffer.allocUnsafeSlow(chunkBytes + 1));
  /** The chunk being filled: whole lines, then the start of the current line at lineStart. */
  let out = fresh();
  let filled = 0;
  let lineStart = 0;
  let skipping = false;

  const append = (b: Buffer, from: number, to: number): void => {
    const n = to - from;
    if (n <= 0) return;
    if (filled + n > out.length) {
      // A chunk past its buffer (long lines): a buffer of its own, twice as large.
      const larger = Buffer.allocUnsafeSlow(Math.max(2 * out.length, filled + n));
      out.copy(larger, 0, 0, filled);
      slots?.release(out.buffer);
      out = larger;
    }
    b.copy(out, filled, from, to);
    filled += n;
  };
  /** The chunk filled so far (whole lines); the buffer is filled anew. Without slots, a copy of its own size, to be transferred whole. */
  const emit = (): Buffer => {
    let chunk: Buffer;
    if (slots === undefined) {
      chunk = Buffer.allocUnsafeSlow(filled);
      out.copy(chunk, 0, 0, filled);
    } else {
      chunk = out.subarray(0, filled);
      out = fresh();
    }
    filled = 0;
    lineStart = 0;
    return chunk;
  };

  for await (const b of source) {
    let pos = 0;
    if (skipping) {
      const nl = b.indexOf(NEWLINE);
      if (nl < 0) continue;
      pos = nl + 1;
      skipping = false;
    }
    for (;;) {
      // The first newline at or after the point where the chunk reaches chunkBytes.
      const want = Math.max(pos, pos + chunkBytes - filled - 1);
      const nl = want < b.length ? b.indexOf(NEWLINE, want) : -1;
      if (nl < 0) break;
      append(b, pos, nl + 1);
      pos = nl + 1;
      yield emit();
    }
    // Whole lines short of a full chunk, and the unfinished line after them.
    const last = b.lastIndexOf(NEWLINE);
    if (last >= pos) lineStart = filled + last + 1 - pos;
    append(b, pos, b.length);
    if (filled - lineStart >= maxLineBytes) {
      filled = lineStart + maxLineBytes;
      append(NEWLINE_BYTE, 0, 1);
      lineStart = filled;
      skipping = true;
      if (filled >= chunkBytes) yield emit();
    }
  }
  if (filled > 0) yield emit();
  else if (slots !== undefined) slots.release(out.buffer);
}

/** A file read at any offset into a caller's buffer: bytes read, 0 at its end. */
export interface BytesAt {
  readAt(target: Buffer, offset: number, length: number, position: number): Promise<number>;
}

/** Bytes read past a chunk's size to find where its last line ends: one read finds it for lines this short. */
const LOOK_PAST_BYTES = 16 * 1024;

/**
 * lineChunks for a file whose bytes go to the reader as they are on disk: each chunk is
 * read straight into its slot, where lineChunks copies every byte from a read buffer
 * (about 50 ms of the main thread's 600 on the bench's 60 MB log). The bytes past a
 * chunk's last newline are read again, from the page cache, as the next chunk's start.
 *
 * A chunk ends at the first newline at or after its `chunkBytes`th byte, as in
 * lineChunks. A line longer than `maxLineBytes` is cut there as lineChunks cuts it
 * (exactly `maxLineBytes` long, then a newline), and ends its chunk. `onBytes` sees the
 * bytes of the file each chunk took, a cut line's skipped rest included.
 */
export async function* fileLineChunks(file: BytesAt, slots: Slots, onBytes: (n: number) => void, options: Omit<LineChunkOptions, 'slots'> = {}): AsyncGenerator<Buffer> {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const room = chunkBytes + maxLineBytes;
  const firstRead = Math.min(room, chunkBytes + LOOK_PAST_BYTES);
  for (let position = 0; ; ) {
    const out = Buffer.from(slots.acquire(room));
    let ends: { chunk: number; taken: number } | undefined;
    try {
      // The chunk's bytes and a little more, then the rest of the slot if its last line is long.
      let filled = await readFull(file, out, 0, firstRead, position);
      let atEnd = filled < firstRead;
      let nl = newlineFrom(out, chunkBytes - 1, filled);
      if (nl < 0 && !atEnd && filled < room) {
        const more = await readFull(file, out, filled, room - filled, position + filled);
        atEnd = more < room - filled;
        filled += more;
        nl = newlineFrom(out, chunkBytes - 1, filled);
      }
      if (nl >= 0) ends = { chunk: nl + 1, taken: nl + 1 };
      else if (atEnd) ends = filled === 0 ? undefined : { chunk: filled, taken: filled };
      else {
        // No newline in the slot's last maxLineBytes: the last line is longer than that. It
        // is cut, and the rest of it skipped up to its newline.
        const lineStart = out.subarray(0, filled).lastIndexOf(NEWLINE) + 1;
        out[lineStart + maxLineBytes] = NEWLINE;
        ends = { chunk: lineStart + maxLineBytes + 1, taken: filled + (await bytesToNewline(file, position + filled)) };
      }
    } finally {
      if (ends === undefined) slots.release(out.buffer);
    }
    if (ends === undefined) return;
    position += ends.taken;
    onBytes(ends.taken);
    yield out.subarray(0, ends.chunk);
  }
}

/** The first newline in out[from, to), or -1. */
function newlineFrom(out: Buffer, from: number, to: number): number {
  if (from >= to) return -1;
  return out.subarray(0, to).indexOf(NEWLINE, Math.max(0, from));
}

/** Reads `length` bytes at `position` into out at `offset`, or as many as the file has: how many. */
async function readFull(file: BytesAt, out: Buffer, offset: number, length: number, position: number): Promise<number> {
  let got = 0;
  while (got < length) {
    const n = await file.readAt(out, offset + got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** How many bytes from `position` up to and including the next newline (or to the file's end). */
async function bytesToNewline(file: BytesAt, position: number): Promise<number> {
  const scratch = Buffer.allocUnsafe(LOOK_PAST_BYTES);
  for (let skipped = 0; ; ) {
    const n = await file.readAt(scratch, 0, scratch.length, position + skipped);
    if (n === 0) return skipped;
    const nl = scratch.subarray(0, n).indexOf(NEWLINE);
    if (nl >= 0) return skipped + nl + 1;
    skipped += n;
  }
}
