/**
 * The byte limit's policy, named: past `maxBytes`, a log keeps its tail (a failed run ends
 * with its outcome) and JSON is refused (cut JSON does not parse).
 */
import { WispError } from '../core/errors.js';
import { formatCount } from '../core/text.js';

export type OverMaxBytes = 'keep-tail' | 'refuse';
export const OVER_MAX_BYTES: readonly OverMaxBytes[] = ['keep-tail', 'refuse'];

/** An item of a stream of line chunks: chunk items carry bytes, others (an input's end) pass through. */
type Item = { kind: string; chunk?: Buffer };

/**
 * Keeps the last maxBytes of the stream (whole lines: from the first line that starts at
 * or after that point), counting what it skips in `skipped.bytes`. Memory stays about
 * maxBytes plus a chunk. Items without bytes pass through in their place.
 */
export async function* keepTail<T extends Item>(items: AsyncIterable<T>, maxBytes: number, skipped: { bytes: number }): AsyncGenerator<T> {
  const kept: T[] = [];
  let keptBytes = 0;
  const size = (item: T): number => item.chunk?.length ?? 0;
  for await (const item of items) {
    kept.push(item);
    keptBytes += size(item);
    // Drop whole chunks from the head while the rest still holds maxBytes.
    for (let k = 0; k < kept.length - 1 && keptBytes - size(kept[k]!) >= maxBytes; ) {
      const head = kept[k]!;
      if (head.chunk === undefined) {
        k++;
        continue;
      }
      kept.splice(k, 1);
      keptBytes -= head.chunk.length;
      skipped.bytes += head.chunk.length;
    }
  }
  const first = kept.find((item) => item.chunk !== undefined);
  if (first?.chunk !== undefined && keptBytes > maxBytes) {
    // Cut the first kept chunk after a newline so that at most maxBytes remain.
    const excess = keptBytes - maxBytes;
    const nl = first.chunk.indexOf(10, excess - 1);
    const from = nl < 0 ? first.chunk.length : nl + 1;
    skipped.bytes += from;
    first.chunk = Buffer.from(first.chunk.subarray(from));
    if (first.chunk.length === 0) kept.splice(kept.indexOf(first), 1);
  }
  yield* kept;
}

/** Passes the stream on until it grows past maxBytes, then refuses it: nothing is cut. */
export async function* refuseOver<T extends Item>(items: AsyncIterable<T>, maxBytes: number, name: string): AsyncGenerator<T> {
  let bytes = 0;
  for await (const item of items) {
    bytes += item.chunk?.length ?? 0;
    if (bytes > maxBytes) throw tooLarge(name, maxBytes);
    yield item;
  }
}

export function tooLarge(name: string, maxBytes: number, hint = 'raise the limit (--max-bytes) to read it'): WispError {
  return new WispError('WISP_INPUT_TOO_LARGE', `${name} is more than ${formatCount(maxBytes)} bytes, the limit`, { hint });
}
