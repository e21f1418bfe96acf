/**
 * Getting the input's bytes: held whole when it is small enough, otherwise a head that
 * was read plus the rest as a stream. Size limits, empty input, binary data and the
 * UTF-8 byte-order mark are dealt with here, before any parsing.
 */
import { createReadStream, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { fileSource, iteratorSource, type ByteSource, type Fill } from './byte-source.js';
import { WispError } from '../core/errors.js';
import { tooLarge } from '../input/byte-limit.js';
import { fileError } from '../input/file-errors.js';
import { formatCount } from './text.js';
import { throwIfAborted, type ResolvedOptions } from './options.js';

/**
 * What jsonShape reads: JSON text as a string or bytes, a file by path, or a stream
 * (stdin, a socket) of bytes or strings.
 */
export type ShapeInput =
  | string
  | Uint8Array
  | { path: string }
  | { stream: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> };

export interface HeldInput {
  kind: 'held';
  /** The text, BOM removed (decoded on first call). */
  text: () => string;
  /** The bytes when the input came as bytes (BOM removed), for chunking JSON Lines without re-encoding. */
  bytes: Buffer | undefined;
  /** Bytes of input, as read. */
  size: number;
}

export interface StreamedInput {
  kind: 'streamed';
  /** The input (the head first, BOM removed), read on at each call; throws WISP_INPUT_TOO_LARGE past maxBytes. */
  fill: Fill;
  /**
   * The start of the input (holdBytes + 1 bytes, or maxBytes + 1 if lower; BOM removed):
   * used to tell JSON from JSON Lines before reading on. Empty once `fill` has taken it all,
   * so that holding the input does not hold it.
   */
  readonly head: Buffer;
  /** Bytes read so far (the total once `fill` has reached the end). */
  bytesRead: () => number;
  close: () => Promise<void>;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const EMPTY = Buffer.alloc(0);

export async function openInput(input: ShapeInput, o: ResolvedOptions): Promise<HeldInput | StreamedInput> {
  throwIfAborted(o.signal);
  if (typeof input === 'string') {
    const held = holdText(input, o);
    o.tap?.(Buffer.from(input));
    return held;
  }
  if (input instanceof Uint8Array) {
    checkSize(input.length, o, 'input');
    const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    o.tap?.(bytes);
    return holdBytes(bytes, input.length);
  }
  if (typeof input === 'object' && input !== null && 'path' in input && typeof input.path === 'string') return openFile(input.path, o);
  if (typeof input === 'object' && input !== null && 'stream' in input && input.stream !== undefined) {
    return openStream(iteratorSource(input.stream, 'input'), o, undefined);
  }
  throw new WispError('WISP_BAD_ARGUMENT', 'input must be JSON text (string or bytes), { path }, or { stream }');
}

function holdText(text: string, o: ResolvedOptions): HeldInput {
  const size = Buffer.byteLength(text);
  checkSize(size, o, 'input');
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (clean.indexOf('\0') !== -1) throw binary('it contains NUL characters');
  checkNotBlank(firstNonSpace((i) => clean.charCodeAt(i), clean.length), size);
  return { kind: 'held', text: () => clean, bytes: undefined, size };
}

function holdBytes(all: Buffer, size: number): HeldInput {
  checkNotBinary(all);
  const bytes = startsWithBom(all) ? all.subarray(3) : all;
  checkNotBlank(firstNonSpace((i) => bytes[i] as number, bytes.length), size);
  let text: string | undefined;
  return { kind: 'held', text: () => (text ??= bytes.toString('utf8')), bytes, size };
}

/** Index of the first character that is not JSON whitespace, or -1. */
function firstNonSpace(at: (i: number) => number, length: number): number {
  for (let i = 0; i < length; i++) {
    const c = at(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
  }
  return -1;
}

async function openFile(path: string, o: ResolvedOptions): Promise<HeldInput | StreamedInput> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (err) {
    throw fileError(path, err, 'a file');
  }
  if (info.isDirectory()) throw new WispError('WISP_NOT_A_FILE', `${path} is a directory, not a file`);
  if (!info.isFile()) {
    // A pipe or device: its size is known only by reading it.
    return openStream(iteratorSource(createReadStream(path, { highWaterMark: 64 * 1024 }), path), o, path);
  }
  checkSize(info.size, o, path);
  if (info.size <= o.holdBytes) {
    let all: Buffer;
    try {
      all = await readFile(path, o.signal === undefined ? {} : { signal: o.signal });
    } catch (err) {
      throwIfAborted(o.signal);
      throw fileError(path, err, 'a file');
    }
    o.tap?.(all);
    return holdBytes(all, all.length);
  }
  return openStream(await fileSource(path), o, path, info.size);
}

/** Blocks the head of input of unknown size is read into (holdBytes may be a GiB, the input far less). */
const HEAD_BLOCK_BYTES = 1024 * 1024;

/**
 * Read up to holdBytes (or maxBytes, if lower) and one byte more; hold the input if it
 * ended, else stream the rest. The head has that exact length whatever sizes the source
 * reads in, so whether input counts as JSON Lines (decided on the head) never depends on them.
 */
async function openStream(source: ByteSource, o: ResolvedOptions, path: string | undefined, size?: number): Promise<HeldInput | StreamedInput> {
  const name = path ?? 'input';
  const headLimit = Math.min(o.holdBytes, o.maxBytes);
  const headParts: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  try {
    while (!ended && headLength <= headLimit) {
      throwIfAborted(o.signal);
      // A file's size is known: its head is read into one buffer, with no copy to join blocks.
      const block = Buffer.allocUnsafeSlow(Math.min(size ?? HEAD_BLOCK_BYTES, headLimit + 1 - headLength));
      const n = await source.fill(block);
      ended = n < block.length;
      if (n === 0) break;
      const part = n === block.length ? block : block.subarray(0, n);
      o.tap?.(part);
      headParts.push(part);
      headLength += n;
    }
  } catch (err) {
    await source.close();
    throw err;
  }
  const headBytes = headParts.length === 1 ? (headParts[0] as Buffer) : Buffer.concat(headParts, headLength);
  headParts.length = 0;
  if (ended) {
    await source.close();
    checkSize(headLength, o, name);
    return holdBytes(headBytes, headLength);
  }
  if (o.maxBytes < headLength) {
    await source.close();
    throw tooLarge(name, o.maxBytes, 'raise it with --max-bytes to stream it');
  }
  try {
    checkNotBinary(headBytes);
  } catch (err) {
    await source.close();
    throw err;
  }
  let head = startsWithBom(headBytes) ? headBytes.subarray(3) : headBytes;
  let read = headLength;
  const limit = o.maxBytes;
  const fill: Fill = async (into) => {
    throwIfAborted(o.signal);
    let filled = 0;
    if (head.length > 0) {
      filled = Math.min(head.length, into.length);
      into.set(head.subarray(0, filled));
      head = filled === head.length ? EMPTY : head.subarray(filled);
      if (filled === into.length) return filled;
    }
    const target = filled === 0 ? into : into.subarray(filled);
    const n = await source.fill(target);
    read += n;
    if (read > limit) throw tooLarge(name, limit, 'raise it with --max-bytes');
    // The caller may use `into` again: what the tap keeps must be a copy.
    if (n > 0) o.tap?.(Buffer.from(target.subarray(0, n)));
    return filled + n;
  };
  return {
    kind: 'streamed',
    fill,
    get head() {
      return head;
    },
    bytesRead: () => read,
    close: () => source.close(),
  };
}

function checkSize(size: number, o: ResolvedOptions, what: string): void {
  if (size > o.maxBytes) {
    throw new WispError(
      'WISP_INPUT_TOO_LARGE',
      `${what} is ${formatCount(size)} bytes, over the limit of ${formatCount(o.maxBytes)} bytes`,
      { hint: 'input is refused rather than cut, because cut JSON does not parse; raise the limit with --max-bytes to stream it' },
    );
  }
}

export function startsWithBom(b: Buffer): boolean {
  return b.length >= 3 && b[0] === BOM[0] && b[1] === BOM[1] && b[2] === BOM[2];
}

function checkNotBinary(b: Buffer): void {
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) throw binary('it is gzip-compressed; decompress it first (gunzip -c FILE | wisp shape -)');
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff)) throw binary('it is UTF-16 text; convert it to UTF-8 first');
  const nul = b.indexOf(0);
  if (nul !== -1) throw binary(`it has a NUL byte at offset ${formatCount(nul)}`);
}

function checkNotBlank(firstNonSpaceAt: number, size: number): void {
  if (size === 0) throw new WispError('WISP_EMPTY_INPUT', 'input is empty');
  if (firstNonSpaceAt === -1) throw new WispError('WISP_EMPTY_INPUT', `input holds only whitespace (${formatCount(size)} bytes)`);
}

function binary(why: string): WispError {
  return new WispError('WISP_BINARY_INPUT', `input is not JSON text: ${why}`);
}
