/**
 * JSON Lines cut into chunks of whole lines, each read straight into a shared buffer (a
 * slot) that a worker reads in place and that is used again once the chunk's result has
 * been taken. Memory for chunks is then the slots in flight (a few times chunkBytes) at
 * every moment: no chunk is copied into a new buffer, transferred, and left for the
 * worker's garbage collector, which frees such buffers only when it next runs (tens of
 * megabytes of them per thread were seen waiting).
 *
 * A chunk ends at the last newline that fits in a slot; the unfinished line after it
 * starts the next slot. A line longer than a slot gets a larger buffer of its own, used
 * once. Where chunks end does not change the outline (chunks merge to the same shape
 * however the lines are grouped), only how the work is spread.
 */
import type { Fill } from './byte-source.js';
import type { ChunkTask } from './chunk-task.js';
import { countLines } from '../split/line-chunks.js';
import type { Slots } from '../split/slots.js';

const LF = 0x0a;

/**
 * Chunks of whole lines read with `fill` into slots, with the
 * index of each chunk's first line. The caller releases each chunk's slot once done with
 * it; a slot not released is simply not used again.
 */
export async function* lineTasks(fill: Fill, slots: Slots): AsyncGenerator<ChunkTask> {
  let firstLine = 0;
  /** The unfinished line at the end of the last chunk's slot. */
  let carry: Buffer | undefined;
  let ended = false;
  while (!ended || carry !== undefined) {
    // A carry from a buffer of its own (after a long line) may not fit in a slot.
    let buffer = slots.acquire(carry !== undefined && carry.length >= slots.slotBytes ? carry.length * 2 : slots.slotBytes);
    let view = Buffer.from(buffer);
    let filled = 0;
    if (carry !== undefined) {
      // The slot just released may be the one the carry is in: copyWithin moves it safely.
      if (carry.buffer === buffer) view.copyWithin(0, carry.byteOffset, carry.byteOffset + carry.length);
      else view.set(carry);
      filled = carry.length;
      carry = undefined;
    }
    let length = 0;
    for (;;) {
      if (!ended) {
        const n = await fill(view.subarray(filled));
        filled += n;
        ended = filled < view.length;
      }
      if (ended) {
        length = filled;
        break;
      }
      const last = view.lastIndexOf(LF, filled - 1);
      if (last !== -1) {
        length = last + 1;
        if (length < filled) carry = view.subarray(length, filled);
        break;
      }
      // One line fills the slot: read it into a buffer twice the size.
      const larger = slots.acquire(view.length * 2);
      const largerView = Buffer.from(larger);
      largerView.set(view.subarray(0, filled));
      slots.release(buffer);
      buffer = larger;
      view = largerView;
    }
    if (length === 0) {
      slots.release(buffer);
      break;
    }
    const lines = countLines(view.subarray(0, length));
    yield { buffer, length, firstLine };
    firstLine += lines;
  }
}
