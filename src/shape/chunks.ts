/**
 * Cutting input into chunks of whole lines, each in its own ArrayBuffer so it can be
 * transferred to a worker without a copy. A chunk ends just after a '\n' (except the last),
 * and grows past the target size only for a line longer than it.
 */
import type { ChunkTask } from './chunk-task.js';

const NEWLINE = 0x0a;

/** Lines that start in bytes[0, length): newlines, plus one for a last line without one. */
function countLines(bytes: Uint8Array, length: number): number {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, length);
  let lines = 0;
  let at = view.indexOf(NEWLINE);
  while (at !== -1) {
    lines++;
    at = view.indexOf(NEWLINE, at + 1);
  }
  return length > 0 && view[length - 1] !== NEWLINE ? lines + 1 : lines;
}

/** Chunks of held bytes (copied out, so each chunk owns its buffer). */
export function* chunksOfBytes(bytes: Uint8Array, chunkBytes: number): Generator<ChunkTask> {
  let start = 0;
  let firstLine = 0;
  while (start < bytes.length) {
    let end = Math.min(start + chunkBytes, bytes.length);
    if (end < bytes.length) {
      const nl = bytes.lastIndexOf(NEWLINE, end - 1);
      end = nl >= start ? nl + 1 : nextLineEnd(bytes, end);
    }
    const buffer = new ArrayBuffer(end - start);
    const view = new Uint8Array(buffer);
    view.set(bytes.subarray(start, end));
    const lines = countLines(view, end - start);
    yield { buffer, length: end - start, firstLine };
    firstLine += lines;
    start = end;
  }
}

function nextLineEnd(bytes: Uint8Array, from: number): number {
  const nl = bytes.indexOf(NEWLINE, from);
  return nl === -1 ? bytes.length : nl + 1;
}

/** Chunks of a byte stream; memory stays at about two chunks whatever the input size. */
export async function* chunksOfStream(source: AsyncIterable<Uint8Array>, chunkBytes: number): AsyncGenerator<ChunkTask> {
  let buffer = new ArrayBuffer(chunkBytes);
  let view = new Uint8Array(buffer);
  let filled = 0;
  let firstLine = 0;
  for await (const part of source) {
    let from = 0;
    while (from < part.length) {
      if (filled === view.length) {
        // Full: cut after its last newline, or grow for a line longer than a chunk.
        const nl = view.lastIndexOf(NEWLINE, filled - 1);
        if (nl === -1) {
          const bigger = new ArrayBuffer(buffer.byteLength * 2);
          new Uint8Array(bigger).set(view);
          buffer = bigger;
          view = new Uint8Array(buffer);
          continue;
        }
        const next = new ArrayBuffer(chunkBytes > filled - nl - 1 ? chunkBytes : (filled - nl - 1) * 2);
        const nextView = new Uint8Array(next);
        nextView.set(view.subarray(nl + 1, filled));
        const lines = countLines(view, nl + 1);
        yield { buffer, length: nl + 1, firstLine };
        firstLine += lines;
        filled -= nl + 1;
        buffer = next;
        view = nextView;
      }
      const take = Math.min(part.length - from, view.length - filled);
      view.set(part.subarray(from, from + take), filled);
      filled += take;
      from += take;
    }
  }
  if (filled > 0) yield { buffer, length: filled, firstLine };
}
