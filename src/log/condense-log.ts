import { looksLikeCrashReport, parseCrashReport } from '../crash/index.js';
import { WispError } from '../core/errors.js';
import { LogMerger } from './merge/log-merger.js';
import { defaultThreadCount, WorkerPool } from '../pipeline/worker-pool.js';
import { rankGroups } from './rank/rank-groups.js';
import type { WordMerge } from './group/word-variables.js';
import { peek, type LogSource, type OpenedSource } from '../input/sources.js';
import { lineChunks } from '../split/line-chunks.js';
import type { CondenseLogTask } from '../../workers/condense-log.js';
import { condenseChunk } from './chunk/condense-chunk.js';
import { DETECT_BYTES, detectFormat, withFormat } from './read/detect.js';
import type { FormatInfo } from './model/format.js';
import { isLogShowJsonArray, jsonArrayAsLines, type JsonArrayStats } from './read/json-array.js';
import { MAX_RECORD_BYTES, recordChunks, type RecordChunkStats } from './read/record-chunks.js';
import { RecordReader } from './parse/records.js';

const ANSI = /(?:\x1b|\^\[)\[[\x20-\x3f]*[\x40-\x7e]?/g;
import { IN_PROCESS_BELOW_BYTES, resolveOptions, type CondenseLogOptions, type ResolvedOptions } from './options.js';
import type { LogPartial } from './model/partial.js';
import type { CondenseResult, CrashInput, CrashResult, InputRead, LogResult } from './model/result.js';

/** Everything read and merged, before ranking. */
export interface LogState {
  merger: LogMerger;
  read: LogResult['read'];
  /** A single input small enough to show whole: its lines, redacted (see SMALL_INPUT_BYTES). */
  whole?: string[];
}

/** The last lines shown as `tail` would show them: a failed run ends with its outcome. */
export const TAIL_LINES = 5;
const TAIL_BYTES = 8 * 1024;

/** An input this small fits one screen: it is shown as it is, its lines numbered, instead of grouped. */
export const SMALL_INPUT_BYTES = 3 * 1024;

const WORKER_FILE = new URL('../../workers/condense-log.js', import.meta.url);
const PROGRESS_EVERY_BYTES = 4 * 1024 * 1024;
const decoder = new TextDecoder('utf-8');

/**
 * What flows from reading to merging, in input order: chunks of whole lines, and the end
 * of each input, read whole or given up on.
 */
type Item =
  | { kind: 'chunk'; input: number; info: FormatInfo; chunk: Buffer }
  | { kind: 'end'; input: number }
  | { kind: 'crash'; input: number; lines: number }
  | { kind: 'failed'; input: number; reason: string };
type ChunkItem = Extract<Item, { kind: 'chunk' }>;

/**
 * condense_log over one or more sources, read in order as one log (line numbers run on
 * across inputs, records do not). Stages: source -> line chunks -> worker partials ->
 * in-order merge -> rank. The pool, when given, is borrowed and left open.
 */
export async function condenseLog(
  sources: LogSource[],
  options: CondenseLogOptions = {},
  pool?: WorkerPool,
): Promise<CondenseResult> {
  const state = await condenseLogState(sources, options, pool);
  return 'merger' in state ? finishLogResult(state, resolveOptions(options).top) : state;
}

/**
 * condense_log up to, not including, ranking: the merged state, which can be ranked, or
 * written as a partial and merged with others (wisp log --emit-partial, wisp merge).
 */
export async function condenseLogState(
  sources: LogSource[],
  options: CondenseLogOptions = {},
  pool?: WorkerPool,
): Promise<LogState | CrashResult> {
  const opts = resolveOptions(options);
  if (sources.length === 0) throw new WispError('WISP_BAD_ARGUMENT', 'no input given');
  // Inputs are opened one at a time as they are read: an archive of thousands of files
  // holds one open at once. A single input is opened first, to look for a crash report.
  let first: OpenedSource | undefined;
  if (sources.length === 1 && opts.crashReports) {
    first = await sources[0]!.open();
    const peeked = await peek(first.chunks, DETECT_BYTES);
    first.chunks = peeked.all;
    if (looksLikeCrashReport(decoder.decode(peeked.head.subarray(0, DETECT_BYTES)))) {
      return condenseCrash(sources[0]!.name, first.chunks, first.gzip, opts);
    }
  }
  const skipBad = opts.skipBadInputs ?? sources.length > 1;

  const inputs: InputRead[] = sources.map((s) => ({ name: s.name, bytes: 0, gzip: false, format: 'plain text', firstLine: 0, lines: 0 }));
  const knownTotal = await totalSize(sources);
  const threads = chooseThreads(opts, knownTotal, pool);
  const ownPool = threads > 0 && pool === undefined ? await WorkerPool.start(threads) : undefined;
  const activePool = threads > 0 ? (pool ?? ownPool) : undefined;

  const merger = new LogMerger();
  const tail = { skippedHeadBytes: 0 };
  const skippedInputs: { name: string; reason: string }[] = [];
  const recordStats: RecordChunkStats = { cutRecords: 0 };
  const small: { info?: FormatInfo; chunks: Buffer[]; bytes: number } = { chunks: [], bytes: 0 };
  const tailBytes: TailKeeper = { input: -1, bytes: Buffer.alloc(0) };
  const keepSmall = sources.length === 1 && opts.maxBytes === undefined ? small : undefined;
  const crashes: CrashInput[] | undefined = sources.length > 1 || !opts.crashReports ? [] : undefined;
  const notes: string[] = [];
  try {
    let items = readChunks(sources, first, inputs, opts, knownTotal, skipBad, recordStats, crashes, notes);
    if (opts.maxBytes !== undefined) items = keepTail(items, opts.maxBytes, tail);
    await condenseInOrder(items, merger, inputs, skippedInputs, opts, activePool, keepSmall, tailBytes);
  } finally {
    await ownPool?.close();
  }
  if (skippedInputs.length === sources.length && sources.length > 1) {
    throw new WispError('WISP_UNREADABLE', `none of the ${sources.length} inputs could be read (first: ${skippedInputs[0]!.name}: ${skippedInputs[0]!.reason})`);
  }

  const read: LogResult['read'] = {
    inputs,
    bytes: inputs.reduce((n, i) => n + i.bytes, 0),
    lines: merger.lines,
    skippedHeadBytes: tail.skippedHeadBytes,
    cutLines: merger.cut,
    frameLines: merger.skipped - (crashes ?? []).reduce((n, c) => n + (inputs.find((i) => i.name === c.name)?.lines ?? 0), 0),
    skippedInputs,
    notes,
    ...(crashes !== undefined && crashes.length > 0 ? { crashes } : {}),
    ...(tailBytes.info !== undefined ? { tail: tailLines(tailBytes, inputs[tailBytes.input]!) } : {}),
  };
  const cutRecords = recordStats.cutRecords + merger.cutRecords;
  if (cutRecords > 0) read.notes.push(`${cutRecords} records longer than ${MAX_RECORD_BYTES / (1024 * 1024)} MB were cut there; the rest of each reads as records of its own`);
  // JSON lines say more as groups (their messages) than as they are.
  const showWhole = small.info !== undefined && small.bytes <= SMALL_INPUT_BYTES && small.info.format !== 'json' && small.info.format !== 'logshow-json';
  const whole = keepSmall !== undefined && showWhole ? wholeLines(Buffer.concat(small.chunks), small.info!) : undefined;
  return whole === undefined ? { merger, read } : { merger, read, whole };
}

/** Ranks a merged state into the result shown: the one place both a run and a merge end. */
export function finishLogResult(state: LogState, top: number, words?: WordMerge): LogResult {
  const inputs = state.read.inputs;
  const formats = [...new Set(inputs.filter((i) => i.lines > 0 || inputs.length === 1).map((i) => i.format))];
  const result = rankGroups(state.merger, top, state.read, formats.join(', ') || 'plain text', words);
  return state.whole === undefined ? result : { ...result, whole: state.whole };
}

interface TailKeeper {
  input: number;
  info?: FormatInfo;
  bytes: Buffer;
}

/** The last TAIL_BYTES of the latest input, copied before its chunk goes to a worker. */
function keepTailBytes(tail: TailKeeper, item: ChunkItem): void {
  const chunk = item.chunk;
  const fresh = tail.input !== item.input;
  const take = chunk.subarray(Math.max(0, chunk.length - TAIL_BYTES));
  const kept = fresh || take.length >= TAIL_BYTES ? Buffer.from(take) : Buffer.concat([tail.bytes, take]);
  tail.bytes = kept.length > TAIL_BYTES ? Buffer.from(kept.subarray(kept.length - TAIL_BYTES)) : kept;
  tail.input = item.input;
  tail.info = item.info;
}

/** The input's last TAIL_LINES lines (trailing blank lines left out), redacted, with their line numbers. */
function tailLines(tail: TailKeeper, input: InputRead): { line: number; text: string }[] {
  const lines = wholeLines(tail.bytes, tail.info!);
  let end = lines.length;
  // The kept bytes may start inside a line: that piece is no line to show.
  const first = tail.bytes.length >= TAIL_BYTES ? 1 : 0;
  while (end > first && lines[end - 1]!.trim() === '') end--;
  const start = Math.max(first, end - TAIL_LINES);
  // Line numbers count from the end of the input: its last line is the one before the first of the next.
  const lastLine = input.firstLine + input.lines - 1;
  const total = lines.length - (lines.length > 0 && lines[lines.length - 1] === '' ? 1 : 0);
  return lines.slice(start, end).map((text, i) => ({ line: lastLine - (total - 1 - (start + i)), text }));
}

/** The lines of a small input as they are read: redacted, terminal colours dropped. */
function wholeLines(bytes: Buffer, info: FormatInfo): string[] {
  const reader = new RecordReader(info);
  const out: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    let nl = bytes.indexOf(10, start);
    if (nl < 0) nl = bytes.length;
    const end = nl > start && bytes[nl - 1] === 13 ? nl - 1 : nl;
    out.push(reader.textOf(bytes, start, end).replace(ANSI, ''));
    start = nl + 1;
  }
  return out;
}

/** The bytes to expect, where every input can tell (gzip cannot): decides on threads. */
async function totalSize(sources: LogSource[]): Promise<number | undefined> {
  let total = 0;
  for (const s of sources) {
    const size = s.size === undefined ? undefined : await s.size();
    if (size === undefined) return undefined;
    total += size;
  }
  return total;
}

/** Crash reports are small (the largest seen: 6 MB); past this one is not a crash report. */
const MAX_CRASH_BYTES = 32 * 1024 * 1024;

async function condenseCrash(name: string, chunks: AsyncIterable<Buffer>, gzip: boolean, opts: ResolvedOptions): Promise<CrashResult> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const b of chunks) {
    if (opts.signal?.aborted) throw cancelled();
    size += b.length;
    if (size > MAX_CRASH_BYTES) {
      throw new WispError('WISP_INPUT_TOO_LARGE', `${name} starts like a crash report but is over ${MAX_CRASH_BYTES / (1024 * 1024)} MB`);
    }
    parts.push(b);
  }
  const all = Buffer.concat(parts);
  opts.tap?.(all);
  const text = decoder.decode(all);
  const report = parseCrashReport(text);
  const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const format = report.kind === 'ips' ? 'crash report (.ips)' : report.kind === 'crash' ? 'crash report (text)' : 'diagnostic report (.ips)';
  return {
    kind: 'crash',
    read: { inputs: [{ name, bytes: size, gzip, format, firstLine: 1, lines }], bytes: size, lines },
    format,
    report,
  };
}

function chooseThreads(opts: ResolvedOptions, knownTotal: number | undefined, pool: WorkerPool | undefined): number {
  if (opts.workers !== 'auto') return opts.workers;
  const expected = opts.maxBytes !== undefined ? Math.min(opts.maxBytes, knownTotal ?? Infinity) : knownTotal;
  if (expected !== undefined && expected < IN_PROCESS_BELOW_BYTES) return 0;
  return pool?.threads ?? defaultThreadCount();
}

/**
 * Reads each input as line chunks, deciding its format from its first DETECT_BYTES. With
 * skipBad, an input that cannot be read (missing, binary, a corrupt gzip, even half-way)
 * ends with a `failed` item instead of ending the run.
 */
async function* readChunks(
  sources: LogSource[],
  first: OpenedSource | undefined,
  inputs: InputRead[],
  opts: ResolvedOptions,
  knownTotal: number | undefined,
  skipBad: boolean,
  recordStats: RecordChunkStats,
  crashes: CrashInput[] | undefined,
  notes: string[],
): AsyncGenerator<Item> {
  const arrays: { name: string; stats: JsonArrayStats }[] = [];
  let readSoFar = 0;
  let nextProgress = PROGRESS_EVERY_BYTES;
  for (let i = 0; i < sources.length; i++) {
    const input = inputs[i]!;
    async function* counted(src: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const b of src) {
        input.bytes += b.length;
        readSoFar += b.length;
        if (opts.onProgress !== undefined && readSoFar >= nextProgress) {
          nextProgress = readSoFar + PROGRESS_EVERY_BYTES;
          opts.onProgress({ bytes: readSoFar, totalBytes: knownTotal, inputsDone: i, inputs: sources.length });
        }
        yield b;
      }
    }
    try {
      const opened = i === 0 && first !== undefined ? first : await sources[i]!.open();
      input.gzip = opened.gzip;
      const name = sources[i]!.name;
      const peeked = await peek(opened.chunks, DETECT_BYTES);
      opened.chunks = peeked.all;
      const head = decoder.decode(peeked.head.subarray(0, DETECT_BYTES));
      if (isLogShowJsonArray(head)) {
        const stats: JsonArrayStats = { dropped: 0 };
        opened.chunks = jsonArrayAsLines(counted(opened.chunks), stats);
        arrays.push({ name, stats });
      }
      if (crashes !== undefined) {
        // Among several inputs a crash report is no log: it gets a section of its own.
        if (looksLikeCrashReport(head)) {
          const crash = await condenseCrash(name, counted(opened.chunks), opened.gzip, opts);
          input.format = crash.format;
          input.lines = crash.read.lines;
          crashes.push({ name, format: crash.format, report: crash.report });
          yield { kind: 'crash', input: i, lines: crash.read.lines };
          continue;
        }
      }
      const converted = arrays.length > 0 && arrays[arrays.length - 1]!.name === name;
      const chunks = lineChunks(converted ? opened.chunks : counted(opened.chunks), { chunkBytes: opts.chunkBytes });
      for await (const { info, chunk } of recordChunks(withFormat(chunks, (head) => decide(name, head, input)), recordStats)) {
        if (opts.signal?.aborted) throw cancelled();
        yield { kind: 'chunk', input: i, info, chunk };
      }
      if (converted) {
        const { dropped } = arrays[arrays.length - 1]!.stats;
        notes.push(`${name} is log show --style json (one JSON array): line numbers count its events${dropped > 0 ? `; ${dropped} events over 1 MB or not JSON were left out` : ''}`);
      }
      yield { kind: 'end', input: i };
    } catch (err) {
      if (!skipBad || !(err instanceof WispError) || err.code === 'WISP_CANCELLED') throw err;
      yield { kind: 'failed', input: i, reason: `${err.message} [${err.code}]` };
    }
  }
  opts.onProgress?.({ bytes: readSoFar, totalBytes: knownTotal, inputsDone: sources.length, inputs: sources.length });
}

function decide(name: string, bytes: Buffer, input: InputRead): FormatInfo {
  refuseBinary(name, bytes);
  const info = detectFormat(decoder.decode(bytes));
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

/**
 * Keeps the last maxBytes of the input (whole lines), counting what it skips. Memory stays
 * about maxBytes plus a chunk. Input ends and failures pass through.
 */
async function* keepTail(
  items: AsyncIterable<Item>,
  maxBytes: number,
  tail: { skippedHeadBytes: number },
): AsyncGenerator<Item> {
  const kept: Item[] = [];
  let keptBytes = 0;
  const size = (item: Item): number => (item.kind === 'chunk' ? item.chunk.length : 0);
  for await (const item of items) {
    kept.push(item);
    keptBytes += size(item);
    // Drop whole chunks from the head while the rest still holds maxBytes.
    for (let k = 0; k < kept.length - 1 && keptBytes - size(kept[k]!) >= maxBytes; ) {
      const head = kept[k]!;
      if (head.kind !== 'chunk') {
        k++;
        continue;
      }
      kept.splice(k, 1);
      keptBytes -= head.chunk.length;
      tail.skippedHeadBytes += head.chunk.length;
    }
  }
  const first = kept.find((item): item is ChunkItem => item.kind === 'chunk');
  if (first !== undefined && keptBytes > maxBytes) {
    // Cut the first kept chunk after a newline so that at most maxBytes remain.
    const excess = keptBytes - maxBytes;
    const nl = first.chunk.indexOf(10, excess - 1);
    const from = nl < 0 ? first.chunk.length : nl + 1;
    tail.skippedHeadBytes += from;
    first.chunk = Buffer.from(first.chunk.subarray(from));
    if (first.chunk.length === 0) kept.splice(kept.indexOf(first), 1);
  }
  yield* kept;
}

/**
 * Sends chunks to the pool (or condenses them here) with a bounded number in flight, and
 * merges the partials strictly in input order: each input into a merger of its own, folded
 * into the whole when the input ends, or dropped (and named) when it failed.
 */
async function condenseInOrder(
  items: AsyncIterable<Item>,
  merger: LogMerger,
  inputs: InputRead[],
  skippedInputs: { name: string; reason: string }[],
  opts: ResolvedOptions,
  pool: WorkerPool | undefined,
  small: { info?: FormatInfo; chunks: Buffer[]; bytes: number } | undefined,
  tail: TailKeeper,
): Promise<void> {
  type Queued = { item: Item; partial?: Promise<LogPartial> };
  const inFlight: Queued[] = [];
  const limit = pool === undefined ? 1 : pool.threads * 4;
  let current: { input: number; merger: LogMerger } | undefined;
  const mergeOldest = async (): Promise<void> => {
    const { item, partial } = inFlight.shift()!;
    if (current === undefined || current.input !== item.input) current = { input: item.input, merger: new LogMerger() };
    if (item.kind === 'chunk') {
      current.merger.add(await partial!);
      return;
    }
    if (item.kind === 'crash') {
      // Its lines count in the whole (line numbers run on), in no group.
      merger.startInput();
      inputs[item.input]!.firstLine = merger.lines + 1;
      merger.add({ lines: item.lines, skipped: item.lines, cut: 0, groups: [], last: null }, item.input);
    } else if (item.kind === 'end') {
      merger.startInput();
      inputs[item.input]!.firstLine = merger.lines + 1;
      merger.add(current.merger.toPartial(), item.input);
      inputs[item.input]!.lines = merger.lines - inputs[item.input]!.firstLine + 1;
    } else {
      skippedInputs.push({ name: inputs[item.input]!.name, reason: item.reason });
    }
    current = undefined;
  };
  try {
    for await (const item of items) {
      if (opts.signal?.aborted) throw cancelled();
      if (item.kind === 'chunk') {
        opts.tap?.(item.chunk);
        keepTailBytes(tail, item);
        if (small !== undefined && small.bytes <= SMALL_INPUT_BYTES) {
          small.info = item.info;
          small.bytes += item.chunk.length;
          // A copy: the chunk's own buffer is handed to a worker.
          if (small.bytes <= SMALL_INPUT_BYTES) small.chunks.push(Buffer.from(item.chunk));
        }
        inFlight.push({ item, partial: condenseOne(item, pool) });
      } else {
        inFlight.push({ item });
      }
      if (inFlight.length >= limit) await mergeOldest();
    }
    while (inFlight.length > 0) await mergeOldest();
  } catch (err) {
    // Let the chunks already sent settle so that no rejection goes unhandled.
    await Promise.allSettled(inFlight.map((f) => f.partial));
    throw err;
  }
}

/**
 * Cancellation stops the dispatch of new chunks; chunks already sent finish (a chunk is a
 * few milliseconds of work) and are dropped. The signal is not handed to piscina: a task
 * aborted just as its worker answers makes piscina throw "Unexpected message from Worker"
 * outside any promise (seen with piscina 5.3 in this project's cancellation test).
 */
function condenseOne(item: ChunkItem, pool: WorkerPool | undefined): Promise<LogPartial> {
  if (pool === undefined) {
    return Promise.resolve(condenseChunk(item.chunk, item.info));
  }
  const buffer = ownArrayBuffer(item.chunk);
  const task: CondenseLogTask = { buffer, info: item.info };
  return pool.run<LogPartial>(WORKER_FILE, task, [buffer]);
}

/** Transferring detaches a whole ArrayBuffer: make sure the chunk owns exactly one. */
function ownArrayBuffer(b: Buffer): ArrayBuffer {
  if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer) return b.buffer;
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return copy.buffer;
}

function cancelled(): WispError {
  return new WispError('WISP_CANCELLED', 'condense_log was cancelled');
}
