/**
 * Where streamed input comes from, read into buffers the caller owns: a regular file
 * through its handle (straight into the caller's buffer, so reading allocates nothing),
 * or any iterator of chunks (a pipe, stdin, a caller's stream), copied out of them.
 *
 * Reading into buffers that are used again, rather than taking a new buffer per read,
 * keeps memory flat: a buffer read and dropped is freed only when its thread next
 * collects garbage, and a thread that makes little other garbage (the JSON Lines reader)
 * can pile up tens of megabytes of them first.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { fileError } from '../input/file-errors.js';

/**
 * Reads the input on into `into` until it is full or the input ends: the bytes written,
 * fewer than its length only at the end. `into` is the caller's, and may be used again.
 */
export type Fill = (into: Uint8Array) => Promise<number>;

export interface ByteSource {
  /** Reads into `into` until it is full or the input ends: the bytes written (fewer than its length only at the end). */
  fill(into: Uint8Array): Promise<number>;
  close(): Promise<void>;
}

export async function fileSource(path: string): Promise<ByteSource> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw fileError(path, err, 'a file');
  }
  let position = 0;
  return {
    async fill(into) {
      let filled = 0;
      while (filled < into.length) {
        let n: number;
        try {
          ({ bytesRead: n } = await handle.read(into, filled, into.length - filled, position));
        } catch (err) {
          throw fileError(path, err, 'a file');
        }
        if (n === 0) break;
        filled += n;
        position += n;
      }
      return filled;
    },
    close: () => handle.close(),
  };
}

export function iteratorSource(source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, name: string): ByteSource {
  const iterator: AsyncIterator<Uint8Array | string> | Iterator<Uint8Array | string> =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  /** What is left of the chunk read last. */
  let rest: Uint8Array = new Uint8Array(0);
  let ended = false;
  return {
    async fill(into) {
      let filled = 0;
      while (filled < into.length) {
        if (rest.length === 0) {
          if (ended) break;
          let next: IteratorResult<Uint8Array | string>;
          try {
            next = await iterator.next();
          } catch (err) {
            throw fileError(name, err, 'a file');
          }
          if (next.done) {
            ended = true;
            break;
          }
          rest = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
          continue;
        }
        const n = Math.min(rest.length, into.length - filled);
        into.set(n === rest.length ? rest : rest.subarray(0, n), filled);
        rest = rest.subarray(n);
        filled += n;
      }
      return filled;
    },
    close: async () => {
      await iterator.return?.();
    },
  };
}

/** Bytes in memory read as StreamedInput.fill reads the input (for held JSON Lines cut into chunks). */
export function fillFrom(bytes: Uint8Array): Fill {
  let at = 0;
  return async (into) => {
    const n = Math.min(into.length, bytes.length - at);
    into.set(bytes.subarray(at, at + n));
    at += n;
    return n;
  };
}
