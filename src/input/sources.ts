import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { isWispError } from '../core/errors.js';
import { fileError } from './file-errors.js';
import { assertRegularFile } from './file-kind.js';
import { gunzip, isGzip } from './gzip.js';
import { readsAsIs, textBytes } from './text-bytes.js';

/** Something to read log bytes from: a file, stdin, or text handed over inline. */
export interface LogSource {
  /** How results name it: the path, `-` for stdin, or a caller's label. */
  name: string;
  /** Checks that it can be read (a missing file fails here, before any work starts). */
  open(): Promise<OpenedSource>;
  /** Bytes to expect, where known before reading (not for gzip or streams). */
  size?(): Promise<number | undefined>;
}

export interface OpenedSource {
  /** Bytes on disk, where known (a gzip file's compressed size). */
  size: number | undefined;
  gzip: boolean;
  /**
   * The bytes, decompressed, leading NULs skipped, UTF-16 decoded (text-bytes.ts); the
   * reader may replace it (to put back a peeked head). A buffer is good until the next is
   * asked for (a file is read into one buffer, again and again): a reader that keeps bytes
   * keeps a copy.
   */
  chunks: AsyncIterable<Buffer>;
  /** What was done to the bytes on the way, filled in once they have been read. */
  notes?: string[];
  /**
   * A regular file whose bytes go to the reader as they are on disk (no gzip, leading NUL
   * or byte order mark): read at any offset into the reader's own buffers, from the
   * start, instead of `chunks`. The file stays open when `chunks` ends: whoever opened
   * the source closes it (file.close()), whichever way it was read.
   */
  file?: PlainFile;
}

/** A file read at any offset into a caller's buffer (split/line-chunks.ts's BytesAt), and closed once. */
export interface PlainFile {
  readAt(target: Buffer, offset: number, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

/** Read size for files: about a chunk at a time, so the splitter rarely copies. */
const READ_BYTES = 1024 * 1024;

const REGULAR_HINT = 'copy its content into a file, or read it from stdin: wisp log - < PATH';

export function fileSource(path: string): LogSource {
  return {
    name: path,
    async size() {
      if (path.endsWith('.gz')) return undefined;
      try {
        const info = await stat(path);
        return info.isFile() ? info.size : undefined;
      } catch {
        return undefined;
      }
    },
    async open() {
      let info: Stats;
      try {
        info = await stat(path);
      } catch (err) {
        throw fileError(path, err, 'a log file');
      }
      assertRegularFile(path, info, 'a log file', REGULAR_HINT);
      // Opened once, and read through that one descriptor. O_NONBLOCK: should the path have
      // become a FIFO since the stat, the open returns at once (it would wait for a writer)
      // and the check of the opened file refuses it.
      let fh: FileHandle;
      try {
        fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
      } catch (err) {
        throw fileError(path, err, 'a log file');
      }
      let head: Buffer;
      try {
        info = await fh.stat();
        assertRegularFile(path, info, 'a log file', REGULAR_HINT);
        const magic = Buffer.alloc(2);
        const { bytesRead } = await fh.read(magic, 0, 2, 0);
        head = magic.subarray(0, bytesRead);
      } catch (err) {
        await fh.close();
        throw isWispError(err) ? err : fileError(path, err, 'a log file');
      }
      const gzip = isGzip(head);
      const notes: string[] = [];
      // gzip's stream holds on to what it is given: it reads buffers of their own.
      const file = openFile(fh);
      const plain = !gzip && readsAsIs(head);
      const raw = gzip ? gunzip(fh.createReadStream({ start: 0, highWaterMark: READ_BYTES }), path) : fileBytes(file, !plain);
      const opened: OpenedSource = { size: info.size, gzip, chunks: textBytes(raw, path, notes), notes };
      if (plain) opened.file = file;
      return opened;
    },
  };
}

/**
 * A file's bytes, read into one buffer again and again (fresh memory costs more to touch
 * than reading into memory already touched): each buffer is good until the next is asked
 * for. With `closeAtEnd`, the file is closed at its end, or when the reader stops early.
 */
async function* fileBytes(file: PlainFile, closeAtEnd: boolean): AsyncGenerator<Buffer> {
  try {
    const buf = Buffer.allocUnsafeSlow(READ_BYTES);
    for (let position = 0; ; ) {
      const bytesRead = await file.readAt(buf, 0, buf.length, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    if (closeAtEnd) await file.close();
  }
}

/** An open file read at any offset; closed once, whether by the reader of its bytes or of its chunks. */
function openFile(fh: FileHandle): PlainFile {
  let closed: Promise<void> | undefined;
  return {
    readAt: async (target, offset, length, position) => (await fh.read(target, offset, length, position)).bytesRead,
    close: () => (closed ??= fh.close()),
  };
}

/** stdin or any other byte stream; gzip is recognised by its first two bytes. */
export function streamSource(name: string, stream: NodeJS.ReadableStream): LogSource {
  return {
    name,
    async open() {
      async function* buffers(): AsyncGenerator<Buffer> {
        for await (const b of stream as Readable) yield toBuffer(b as Buffer | string);
      }
      const { head, all } = await peek(buffers(), 2);
      const gzip = isGzip(head);
      const notes: string[] = [];
      const chunks = textBytes(gzip ? gunzip(Readable.from(all, { objectMode: false }), name) : all, name, notes);
      return { size: undefined, gzip, chunks, notes };
    },
  };
}

/** The first `bytes` of a stream (or all of a shorter one), and the whole stream again, head included. */
export async function peek(src: AsyncIterable<Buffer>, bytes: number): Promise<{ head: Buffer; all: AsyncIterable<Buffer> }> {
  const iterator = src[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < bytes) {
    // The source may use its buffer again for its next read: a buffer taken before is copied first.
    if (taken.length > 0) taken[taken.length - 1] = Buffer.from(taken[taken.length - 1]!);
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    taken.push(next.value);
    size += next.value.length;
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield* taken;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head: Buffer.concat(taken, Math.min(size, bytes)), all: all() };
}

/** Text given inline (the MCP `text` source, tests). */
export function textSource(name: string, text: string | Buffer): LogSource {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  // Handed on in read-sized pieces, like a file, so progress and chunking behave the same.
  function* pieces(): Generator<Buffer> {
    for (let at = 0; at < bytes.length; at += READ_BYTES) yield bytes.subarray(at, at + READ_BYTES);
  }
  return streamSource(name, Readable.from(pieces(), { objectMode: false }));
}

function toBuffer(v: Buffer | string): Buffer {
  return typeof v === 'string' ? Buffer.from(v, 'utf8') : v;
}

/** The bytes to expect, where every input can tell (gzip and streams cannot). */
export async function expectedBytes(sources: LogSource[]): Promise<number | undefined> {
  let total = 0;
  for (const s of sources) {
    const size = s.size === undefined ? undefined : await s.size();
    if (size === undefined) return undefined;
    total += size;
  }
  return total;
}
