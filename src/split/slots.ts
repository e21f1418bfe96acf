/**
 * Shared buffers of one size (slots), handed out and taken back: a chunk is read straight
 * into one, a worker reads it in place, and it is used again once the chunk's result has
 * been taken. Memory for chunks is then the slots in flight (a few times a chunk) at every
 * moment: no chunk is copied into a new buffer and transferred, to be freed by the worker's
 * garbage collector when it next runs (tens of megabytes of them per thread were seen
 * waiting), and no chunk pays for fresh pages (a fresh megabyte costs about as much to
 * touch as reading it from the page cache does, several times over).
 */
export class Slots {
  readonly #free: SharedArrayBuffer[] = [];
  readonly slotBytes: number;
  /** Slots made so far (oversized buffers for long lines not counted). */
  made = 0;

  constructor(slotBytes: number) {
    this.slotBytes = slotBytes;
  }

  /** A free slot, or a new one; a buffer of its own for more than slotBytes. */
  acquire(bytes = this.slotBytes): SharedArrayBuffer {
    if (bytes > this.slotBytes) return new SharedArrayBuffer(bytes);
    const free = this.#free.pop();
    if (free !== undefined) return free;
    this.made++;
    return new SharedArrayBuffer(this.slotBytes);
  }

  /** Called once the chunk in `buffer` has been read and its result taken: a slot is used again, anything else is left. */
  release(buffer: ArrayBufferLike): void {
    if (buffer instanceof SharedArrayBuffer && buffer.byteLength === this.slotBytes) this.#free.push(buffer);
  }
}

/** This thread's slots, by size: a run's slots serve the next run too (a server condenses many logs). */
const shared = new Map<number, Slots>();

/**
 * The slots of `slotBytes` this thread shares between runs. What stays held is what the
 * busiest run had in flight at once (a few chunks' worth), not what runs have read.
 */
export function sharedSlots(slotBytes: number): Slots {
  let slots = shared.get(slotBytes);
  if (slots === undefined) {
    slots = new Slots(slotBytes);
    shared.set(slotBytes, slots);
  }
  return slots;
}
