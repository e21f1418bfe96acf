import type { Slots } from '../../split/slots.js';
import type { FormatInfo } from '../model/format.js';
import { BelowKind, MESSAGE_BELOW_LINES, RecordReader, type ReadLine } from '../parse/records.js';

const NEWLINE = 10;
const CR = 13;

/**
 * A record longer than this is cut, at the first line that starts this far past the
 * record's first line (its continuation lines then read as records of their own). Memory
 * stays bounded whatever the input, and where the cut falls depends on the input alone.
 */
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;

export interface RecordChunkStats {
  /** Records cut at MAX_RECORD_BYTES here (condenseChunk counts those it cuts itself). */
  cutRecords: number;
}

/**
 * Re-cuts an input's chunks of whole lines so that each chunk starts where a record must
 * start (records.ts, `isRecordStart`): no record crosses chunks, so each chunk is read
 * alone and the result does not depend on where chunks were cut. The lines after a
 * chunk's last record start wait for the next chunk; only the few lines near each cut are
 * read here.
 */
export async function* recordChunks(
  chunks: AsyncIterable<{ info: FormatInfo; chunk: Buffer }>,
  stats: RecordChunkStats,
  slots?: Slots,
): AsyncGenerator<{ info: FormatInfo; chunk: Buffer }> {
  let reader: RecordReader | undefined;
  let info: FormatInfo | undefined;
  let carry: Buffer[] = [];
  let carryBytes = 0;
  /** The last non-blank line of the carry, copied: what the next chunk's first line follows. */
  let carryLast: ReadLine | undefined;
  /**
   * The carry is one whole chunk that starts a record (else it is one record, begun at its
   * first line), and the line before that chunk.
   */
  let carryIsWhole = false;
  let wholeBefore: ReadLine | undefined;
  /**
   * How many lines a header's empty message may still take (messageBelowLeft):
   * at the start of the chunk in hand, at the end of what has been read, and at the start of
   * the carry that is one whole chunk.
   */
  let chunkBelow = 0;
  let readBelow = 0;
  let wholeBelow = 0;
  const flush = (extra?: Buffer): Buffer => {
    const parts = extra === undefined ? carry : [...carry, extra];
    const out = parts.length === 1 ? parts[0]! : joined(parts, carryBytes + (extra?.length ?? 0), slots);
    carry = [];
    carryBytes = 0;
    return out;
  };
  for await (const item of chunks) {
    info ??= item.info;
    reader ??= new RecordReader(info);
    const chunk = item.chunk;
    chunkBelow = readBelow;
    readBelow = messageBelowLeft(reader, chunk, afterLastLine(chunk), chunkBelow);
    if (carryBytes > 0 && startsRecord(reader, chunk, carryLast, chunkBelow)) {
      // Most chunks start a record at their first line: what waits is whole records, and
      // goes as it is (a chunk that owns its buffer moves to a thread without a copy).
      yield { info, chunk: flush() };
      carry = [chunk];
      carryBytes = chunk.length;
      carryIsWhole = true;
      wholeBefore = carryLast;
      wholeBelow = chunkBelow;
      carryLast = lastNonBlank(reader, chunk) ?? carryLast;
      continue;
    }
    if (carryIsWhole) {
      // The chunk waiting whole ends in a record this one continues: its records up to
      // that record's start go now, and the carry is one record again.
      const whole = carry[0]!;
      const at = lastRecordStart(reader, whole, wholeBefore, true, wholeBelow);
      if (at > 0) {
        // The rest is copied: the part that goes may be a slot, used again once its result is taken.
        carry = [Buffer.from(whole.subarray(at))];
        yield { info, chunk: whole.subarray(0, at) };
        carryBytes = whole.length - at;
      }
    }
    carryIsWhole = false;
    const cut = lastRecordStart(reader, chunk, carryLast, carryBytes > 0, chunkBelow);
    if (cut >= 0) {
      // Something comes before the cut (lastRecordStart sees to it): the records up to it go.
      // The rest is copied where the part that goes shares its buffer (a slot, used again once its result is taken).
      const rest = cut === 0 ? chunk : Buffer.from(chunk.subarray(cut));
      yield { info, chunk: flush(cut > 0 ? chunk.subarray(0, cut) : undefined) };
      carry = [rest];
      carryBytes = chunk.length - cut;
    } else {
      carry.push(chunk);
      carryBytes += chunk.length;
    }
    carryLast = lastNonBlank(reader, chunk) ?? carryLast;
    // The carry is one record so far: past MAX_RECORD_BYTES it is cut where condenseChunk
    // would cut it, which keeps memory bounded.
    while (carryBytes > MAX_RECORD_BYTES) {
      const all = flush();
      const nl = all.indexOf(NEWLINE, MAX_RECORD_BYTES - 1);
      if (nl < 0 || nl + 1 >= all.length) {
        carry = [all];
        carryBytes = all.length;
        break;
      }
      stats.cutRecords++;
      const rest = Buffer.from(all.subarray(nl + 1));
      yield { info, chunk: all.subarray(0, nl + 1) };
      carry = [rest];
      carryBytes = all.length - nl - 1;
    }
  }
  if (carryBytes > 0 && info !== undefined) yield { info, chunk: flush() };
}

/**
 * The parts of a chunk, one after the other in one buffer: a slot where they fit (fresh
 * memory costs more to touch than the copy). Each part is then copied and held by nothing
 * else, so the slot it was read into is free again: a record that spans chunks does not
 * make the reader take new slots.
 */
function joined(parts: Buffer[], bytes: number, slots: Slots | undefined): Buffer {
  if (slots === undefined) return Buffer.concat(parts, bytes);
  const out = bytes <= slots.slotBytes ? Buffer.from(slots.acquire()).subarray(0, bytes) : Buffer.allocUnsafeSlow(bytes);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
    slots.release(part.buffer);
  }
  return out;
}

/**
 * The offset of the last line of `chunk` that must start a record, scanning back from
 * its end; -1 when none does. `below`: what a header's empty message may still take at
 * the chunk's start (messageBelowLeft). The chunk's first line counts only when something comes
 * before it (`hasBefore`): an input's first line is no place to cut.
 */
function lastRecordStart(reader: RecordReader, chunk: Buffer, carryLast: ReadLine | undefined, hasBefore: boolean, below: number): number {
  let end = chunk.length;
  if (end > 0 && chunk[end - 1] === NEWLINE) end--;
  while (end >= 0) {
    const s = end === 0 ? 0 : chunk.lastIndexOf(NEWLINE, end - 1) + 1;
    const e = end > s && chunk[end - 1] === CR ? end - 1 : end;
    if (s === 0 && !hasBefore) return -1;
    if (!isBlank(reader, chunk, s, e) && reader.isRecordStart(chunk, s, e, nonBlankBefore(reader, chunk, s) ?? carryLast, () => messageBelowLeft(reader, chunk, s, below))) return s;
    if (s === 0) return -1;
    end = s - 1;
  }
  return -1;
}

/** Whether the chunk's first line is not blank and must start a record after `before` (the line before the chunk). */
function startsRecord(reader: RecordReader, chunk: Buffer, before: ReadLine | undefined, below: number): boolean {
  let end = chunk.indexOf(NEWLINE);
  if (end < 0) end = chunk.length;
  const e = end > 0 && chunk[end - 1] === CR ? end - 1 : end;
  return !isBlank(reader, chunk, 0, e) && reader.isRecordStart(chunk, 0, e, before, () => below);
}

/**
 * Blank as the reader reads it: blanks only, or, asked of the reader, what it reads as
 * blank though its bytes are not (terminal colour codes alone, a memory checker's
 * `==22307==` or a service's `worker-1  | ` alone).
 */
function isBlank(reader: RecordReader, b: Buffer, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    if (c !== 32 && c !== 9 && c !== CR) return reader.isBlankLine(b, s, e);
  }
  return true;
}

/** The non-blank line that ends before offset `at` of chunk, if the chunk holds one. */
function nonBlankBefore(reader: RecordReader, chunk: Buffer, at: number): ReadLine | undefined {
  let end = at - 1;
  while (end >= 0) {
    const s = end === 0 ? 0 : chunk.lastIndexOf(NEWLINE, end - 1) + 1;
    const e = end > s && chunk[end - 1] === CR ? end - 1 : end;
    if (!isBlank(reader, chunk, s, e)) return { buf: chunk, s, e };
    if (s === 0) return undefined;
    end = s - 1;
  }
  return undefined;
}

/** Where a line after the chunk's last would begin: nonBlankBefore it is the chunk's last line. */
const afterLastLine = (chunk: Buffer): number => (chunk.length > 0 && chunk[chunk.length - 1] === NEWLINE ? chunk.length : chunk.length + 1);

/**
 * How many lines a header's empty message may still take after the lines of `chunk` before
 * offset `at` (RecordReader's MESSAGE_BELOW_LINES), `before` being that number at the
 * chunk's start: read back over that many non-blank lines at most. It may count more than
 * the reader does (a line with a shape that starts a record among them ends the message
 * there), never fewer: a chunk is then cut in fewer places, never where the reader would
 * not cut.
 */
function messageBelowLeft(reader: RecordReader, chunk: Buffer, at: number, before: number): number {
  let seen = 0;
  for (let line = nonBlankBefore(reader, chunk, at); line !== undefined && seen < MESSAGE_BELOW_LINES; line = nonBlankBefore(reader, chunk, line.s)) {
    const kind = reader.belowKindOf(chunk, line.s, line.e);
    if (kind === BelowKind.HeaderBelow) return MESSAGE_BELOW_LINES - seen;
    if (kind === BelowKind.Header) return 0;
    seen++;
  }
  return seen >= MESSAGE_BELOW_LINES ? 0 : Math.max(0, before - seen);
}

function lastNonBlank(reader: RecordReader, chunk: Buffer): ReadLine | undefined {
  const line = nonBlankBefore(reader, chunk, afterLastLine(chunk));
  return line === undefined ? undefined : { buf: Buffer.from(line.buf.subarray(line.s, line.e)), s: 0, e: line.e - line.s };
}
