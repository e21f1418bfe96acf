/**
 * Getting the input's bytes: held whole when it is small enough, otherwise a head that
 * was read plus the rest as a stream. Size limits, empty input, binary data and the
 * UTF-8 byte-order mark are dealt with here, before any parsing.
 */
import { createReadStream, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
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
  /** Everything, BOM removed, as byte chunks; throws WISP_INPUT_TOO_LARGE past maxBytes. */
  chunks: AsyncIterable<Buffer>;
  /**
   * The start of the input (at most holdBytes, BOM removed): used to tell JSON from JSON
   * Lines before reading on. It is the first of `chunks`, and let go once yielded there, so
   * holding the input object does not hold it.
   */
  readonly head: Buffer;
  /** Bytes read so far (the total once chunks is exhausted). */
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
    return openStream(input.stream, o, undefined);
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
    return openStream(createReadStream(path, { highWaterMark: 64 * 1024 }), o, path);
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
  return openStream(createReadStream(path, { highWaterMark: 64 * 1024 }), o, path);
}

/** Read up to holdBytes (or maxBytes, if lower); hold the input if it ended, else stream the rest. */
async function openStream(
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  o: ResolvedOptions,
  path: string | undefined,
): Promise<HeldInput | StreamedInput> {
  const iterator: AsyncIterator<Uint8Array | string> | Iterator<Uint8Array | string> =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  const headParts: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  const headLimit = Math.min(o.holdBytes, o.maxBytes);
  try {
    while (headLength <= headLimit) {
      throwIfAborted(o.signal);
      const { value, done } = await iterator.next();
      if (done) {
        ended = true;
        break;
      }
      const part = typeof value === 'string' ? Buffer.from(value) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      o.tap?.(part);
      headParts.push(part);
      headLength += part.length;
    }
  } catch (err) {
    if (err instanceof WispError) throw err;
    throw fileError(path ?? 'input', err, 'a file');
  }
  const headBytes = Buffer.concat(headParts, headLength);
  headParts.length = 0;
  if (ended) {
    checkSize(headLength, o, path ?? 'input');
    return holdBytes(headBytes, headLength);
  }
  if (o.maxBytes <= headLength) {
    await iterator.return?.();
    throw tooLarge(path ?? 'input', o.maxBytes, 'raise it with --max-bytes to stream it');
  }
  checkNotBinary(headBytes);
  const bom = startsWithBom(headBytes);
  let read = headLength;
  const limit = o.maxBytes;
  let head: Buffer | undefined = bom ? headBytes.subarray(3) : headBytes;
  async function* chunks(): AsyncGenerator<Buffer> {
    yield takeHead();
    for (;;) {
      throwIfAborted(o.signal);
      let next: IteratorResult<Uint8Array | string>;
      try {
        next = await iterator.next();
      } catch (err) {
        throw fileError(path ?? 'input', err, 'a file');
      }
      if (next.done) return;
      const value = next.value;
      const part = typeof value === 'string' ? Buffer.from(value) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      read += part.length;
      if (read > limit) throw tooLarge(path ?? 'input', limit, 'raise it with --max-bytes');
      o.tap?.(part);
      yield part;
    }
  }
  const takeHead = (): Buffer => {
    const taken = head ?? EMPTY;
    head = undefined;
    return taken;
  };
  return {
    kind: 'streamed',
    chunks: chunks(),
    get head() {
      return head ?? EMPTY;
    },
    bytesRead: () => read,
    close: async () => {
      await iterator.return?.();
    },
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

function startsWithBom(b: Buffer): boolean {
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
