/**
 * Turns a stream of byte buffers into chunks of whole lines of about `chunkBytes`, each in
 * an ArrayBuffer of its own so it can be transferred to a worker without a copy.
 *
 * A line that grows past `maxLineBytes` without a newline is cut there and the rest of it
 * skipped, so memory stays bounded whatever the input. Cut lines are exactly
 * `maxLineBytes` long; the worker counts every line of that length or more as cut, which
 * makes the count the same whether a long line arrived whole in one chunk or not.
 */

export const DEFAULT_CHUNK_BYTES = 1024 * 1024;
export const MAX_LINE_BYTES = 64 * 1024;

const NEWLINE = 10;

export interface LineChunkOptions {
  chunkBytes?: number;
  maxLineBytes?: number;
}

export async function* lineChunks(source: AsyncIterable<Buffer>, options: LineChunkOptions = {}): AsyncGenerator<Buffer> {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  /** Whole lines waiting to be emitted. */
  let parts: Buffer[] = [];
  let size = 0;
  /** The current line, not yet ended. */
  let carry: Buffer[] = [];
  let carryLen = 0;
  let skipping = false;

  const take = (b: Buffer): void => {
    if (b.length === 0) return;
    parts.push(b);
    size += b.length;
  };
  const emit = (): Buffer => {
    const out = Buffer.allocUnsafeSlow(size);
    let o = 0;
    for (const p of parts) {
      p.copy(out, o);
      o += p.length;
    }
    parts = [];
    size = 0;
    return out;
  };

  for await (const buf of source) {
    let b = buf;
    if (skipping) {
      const nl = b.indexOf(NEWLINE);
      if (nl < 0) continue;
      b = b.subarray(nl + 1);
      skipping = false;
    }
    let pos = 0;
    for (;;) {
      // The first newline at or after the point where the pending chunk reaches chunkBytes.
      const want = Math.max(pos, pos + chunkBytes - size - carryLen - 1);
      const nl = want < b.length ? b.indexOf(NEWLINE, want) : -1;
      if (nl < 0) break;
      for (const c of carry) take(c);
      carry = [];
      carryLen = 0;
      take(b.subarray(pos, nl + 1));
      pos = nl + 1;
      yield emit();
    }
    // Whole lines short of a full chunk: keep them, and the unfinished line after them.
    const last = b.lastIndexOf(NEWLINE);
    if (last >= pos) {
      for (const c of carry) take(c);
      carry = [];
      carryLen = 0;
      take(b.subarray(pos, last + 1));
      pos = last + 1;
    }
    if (pos < b.length) {
      carry.push(b.subarray(pos));
      carryLen += b.length - pos;
      if (carryLen >= maxLineBytes) {
        const line = Buffer.concat(carry, carryLen).subarray(0, maxLineBytes);
        carry = [];
        carryLen = 0;
        take(line);
        take(Buffer.from([NEWLINE]));
        skipping = true;
        if (size >= chunkBytes) yield emit();
      }
    }
  }
  for (const c of carry) take(c);
  if (size > 0) yield emit();
}
