/**
 * Reading a log's inputs, in order, as chunks of whole records: each input opened when
 * its turn comes (an archive of thousands of files holds one open at once), its format
 * decided once from its first DETECT_BYTES, a binary input refused, `log show --style
 * json` turned into lines, and, among several inputs, a crash report read as one.
 *
 *   source -> bytes (counted) -> split/line-chunks -> detect on the head -> record chunks -> items
 */
import { cancelledError, WispError } from '../../core/errors.js';
import { looksLikeCrashReport } from '../../crash/index.js';
import { peek, type LogSource, type OpenedSource } from '../../input/sources.js';
import type { ProgressMeter } from '../../pipeline/progress.js';
import { fileLineChunks, lineChunks } from '../../split/line-chunks.js';
import type { Slots } from '../../split/slots.js';
import type { FormatInfo } from '../model/format.js';
import type { CrashInput, InputRead } from '../model/result.js';
import { headText, readCrashReport } from './crash-input.js';
import { DETECT_BYTES, detectFormat, withFormat } from './detect.js';
import { isLogShowJsonArray, jsonArrayAsLines, type JsonArrayStats } from './json-array.js';
import { recordChunks, type RecordChunkStats } from './record-chunks.js';

/**
 * What flows from reading to merging, in input order: chunks of whole records, and the
 * end of each input, read whole, read as a crash report, or given up on.
 */
export type LogItem =
  | { kind: 'chunk'; input: number; info: FormatInfo; chunk: Buffer }
  | { kind: 'end'; input: number }
  | { kind: 'crash'; input: number; lines: number }
  | { kind: 'failed'; input: number; reason: string };
export type ChunkItem = Extract<LogItem, { kind: 'chunk' }>;

export interface ReadOptions {
  chunkBytes: number;
  signal: AbortSignal | undefined;
  tap: ((bytes: Buffer) => void) | undefined;
  /** Report an input that cannot be read (missing, binary, a corrupt gzip, even half-way) with a `failed` item instead of ending the run. */
  skipBad: boolean;
  /** Among several inputs, crash reports are read as such, each into this list; undefined: read as logs. */
  crashes: CrashInput[] | undefined;
  /** Chunks are filled in these (line-chunks.ts); whoever takes a chunk's result releases its slot. */
  slots?: Slots;
}

/** What the reading found out, filled in as the items are read. */
export interface ReadFacts {
  /** One per source, in order: name, bytes, gzip, format (line numbers are the merge's). */
  inputs: InputRead[];
  notes: string[];
  records: RecordChunkStats;
}

export function readFacts(sources: LogSource[]): ReadFacts {
  return {
    inputs: sources.map((s) => ({ name: s.name, bytes: 0, gzip: false, format: 'plain text', firstLine: 0, lines: 0 })),
    notes: [],
    records: { cutRecords: 0 },
  };
}

/**
 * The items of `sources`, read one after another. `first`, when given, is the first
 * source already opened (to sniff it for a crash report).
 */
export async function* readLogInputs(
  sources: LogSource[],
  first: OpenedSource | undefined,
  facts: ReadFacts,
  progress: ProgressMeter,
  o: ReadOptions,
): AsyncGenerator<LogItem> {
  const arrays: { name: string; stats: JsonArrayStats }[] = [];
  for (let i = 0; i < sources.length; i++) {
    const input = facts.inputs[i]!;
    const counted = (src: AsyncIterable<Buffer>): AsyncGenerator<Buffer> => progress.count(src, i, (n) => (input.bytes += n));
    let opened: OpenedSource | undefined;
    try {
      opened = i === 0 && first !== undefined ? first : await sources[i]!.open();
      input.gzip = opened.gzip;
      const name = sources[i]!.name;
      const peeked = await peek(opened.chunks, DETECT_BYTES);
      opened.chunks = peeked.all;
      const head = headText(peeked.head);
      if (isLogShowJsonArray(head)) {
        const stats: JsonArrayStats = { dropped: 0 };
        opened.chunks = jsonArrayAsLines(counted(opened.chunks), stats);
        arrays.push({ name, stats });
      }
      // Among several inputs a crash report is no log: it gets a section of its own.
      if (o.crashes !== undefined && looksLikeCrashReport(head)) {
        const crash = await readCrashReport(name, counted(opened.chunks), opened.gzip, o.signal, o.tap);
        input.format = crash.format;
        input.lines = crash.read.lines;
        o.crashes.push({ name, format: crash.format, report: crash.report });
        yield { kind: 'crash', input: i, lines: crash.read.lines };
        continue;
      }
      const converted = arrays.length > 0 && arrays[arrays.length - 1]!.name === name;
      // A file read as it is on disk is read straight into the slots (its head again, from the page cache).
      const { slots } = o;
      const file = converted ? undefined : opened.file;
      const chunks =
        file !== undefined && slots !== undefined
          ? fileLineChunks(file, slots, (n) => {
              input.bytes += n;
              progress.add(n, i);
            }, { chunkBytes: o.chunkBytes })
          : lineChunks(converted ? opened.chunks : counted(opened.chunks), { chunkBytes: o.chunkBytes, ...(slots !== undefined ? { slots } : {}) });
      for await (const { info, chunk } of recordChunks(withFormat(chunks, (head) => decide(name, head, input)), facts.records, o.slots)) {
        if (o.signal?.aborted) throw cancelledError('condense_log');
        yield { kind: 'chunk', input: i, info, chunk };
      }
      if (converted) {
        const { dropped } = arrays[arrays.length - 1]!.stats;
        facts.notes.push(`${name} is log show --style json (one JSON array): line numbers count its events${dropped > 0 ? `; ${dropped} events over 1 MB or not JSON were left out` : ''}`);
      }
      facts.notes.push(...(opened.notes ?? []));
      yield { kind: 'end', input: i };
    } catch (err) {
      if (!o.skipBad || !(err instanceof WispError) || err.code === 'WISP_CANCELLED') throw err;
      yield { kind: 'failed', input: i, reason: `${err.message} [${err.code}]` };
    } finally {
      // A plain file stays open past its chunks' end (sources.ts): it is closed here, however it was read.
      await opened?.file?.close();
    }
  }
  progress.done();
}

function decide(name: string, bytes: Buffer, input: InputRead): FormatInfo {
  refuseBinary(name, bytes);
  const info = detectFormat(new TextDecoder('utf-8').decode(bytes));
  input.format = info.label;
  return info;
}

/** NUL bytes or mostly control characters in the head: not a log. */
function refuseBinary(name: string, head: Buffer): void {
  const sample = head.subarray(0, 8192);
  let control = 0;
  for (const b of sample) {
    if (b === 0) {
      throw new WispError('WISP_BINARY_INPUT', `${name} looks like binary data (NUL bytes), not a log`, { hint: 'pass a text log, or a .gz of one' });
    }
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 27 && b !== 12) control++;
  }
  if (sample.length > 0 && control / sample.length > 0.1) {
    throw new WispError('WISP_BINARY_INPUT', `${name} looks like binary data, not a log`, { hint: 'pass a text log, or a .gz of one' });
  }
}
