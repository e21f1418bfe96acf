import { looksLikeCrashReport, parseCrashReport } from '../crash/index.js';
import { WispError } from '../errors.js';
import { LogMerger } from '../merge/log-merger.js';
import { defaultThreadCount, WorkerPool } from '../pool/worker-pool.js';
import { rankGroups } from '../rank/rank-groups.js';
import type { LogSource, OpenedSource } from '../source/log-source.js';
import { lineChunks } from '../split/line-chunks.js';
import type { CondenseLogTask } from '../../workers/condense-log.js';
import { condenseChunk } from './condense-chunk.js';
import { DETECT_BYTES, detectFormat } from './detect.js';
import type { FormatInfo } from './format.js';
import { IN_PROCESS_BELOW_BYTES, resolveOptions, type CondenseLogOptions, type ResolvedOptions } from './options.js';
import type { LogPartial } from './partial.js';
import type { CondenseResult, CrashResult, InputRead, LogResult } from './result.js';

const WORKER_FILE = new URL('../../workers/condense-log.js', import.meta.url);
const PROGRESS_EVERY_BYTES = 4 * 1024 * 1024;
const decoder = new TextDecoder('utf-8');

/** A chunk of whole lines on its way to a worker, with the input it came from. */
interface ChunkItem {
  input: number;
  info: FormatInfo;
  chunk: Buffer;
}

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
  const opts = resolveOptions(options);
  if (sources.length === 0) throw new WispError('WISP_BAD_ARGUMENT', 'no input given');
  const opened: OpenedSource[] = [];
  for (const s of sources) opened.push(await s.open());

  if (sources.length === 1) {
    const peeked = await peek(opened[0]!.chunks, DETECT_BYTES);
    opened[0]!.chunks = peeked.all;
    if (looksLikeCrashReport(decoder.decode(peeked.head.subarray(0, DETECT_BYTES)))) {
      return condenseCrash(sources[0]!.name, opened[0]!, opts);
    }
  }

  const inputs: InputRead[] = sources.map((s, i) => ({
    name: s.name,
    bytes: 0,
    gzip: opened[i]!.gzip,
    format: 'plain text',
    firstLine: 0,
    lines: 0,
  }));
  const knownTotal = opened.every((o) => o.size !== undefined && !o.gzip)
    ? opened.reduce((n, o) => n + (o.size ?? 0), 0)
    : undefined;
  const threads = chooseThreads(opts, knownTotal, pool);
  const ownPool = threads > 0 && pool === undefined ? await WorkerPool.start(threads) : undefined;
  const activePool = threads > 0 ? (pool ?? ownPool) : undefined;

  const merger = new LogMerger();
  const tail = { skippedHeadBytes: 0 };
  try {
    let items = readChunks(sources, opened, inputs, opts, knownTotal);
    if (opts.maxBytes !== undefined) items = keepTail(items, opts.maxBytes, tail);
    await condenseInOrder(items, merger, inputs, opts, activePool);
  } finally {
    await ownPool?.close();
  }

  const formats = [...new Set(inputs.map((i) => i.format))];
  const read: LogResult['read'] = {
    inputs,
    bytes: inputs.reduce((n, i) => n + i.bytes, 0),
    lines: merger.lines,
    skippedHeadBytes: tail.skippedHeadBytes,
    cutLines: merger.cut,
    frameLines: merger.skipped,
  };
  return rankGroups(merger, opts.top, read, formats.join(', '));
}

/** The first `bytes` of a stream, and the whole stream again, head included. */
async function peek(src: AsyncIterable<Buffer>, bytes: number): Promise<{ head: Buffer; all: AsyncIterable<Buffer> }> {
  const iterator = src[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < bytes) {
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
  return { head: Buffer.concat(taken), all: all() };
}

/** Crash reports are small (the largest seen: 6 MB); past this one is not a crash report. */
const MAX_CRASH_BYTES = 32 * 1024 * 1024;

async function condenseCrash(name: string, source: OpenedSource, opts: ResolvedOptions): Promise<CrashResult> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const b of source.chunks) {
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
    read: { inputs: [{ name, bytes: size, gzip: source.gzip, format, firstLine: 1, lines }], bytes: size, lines },
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

/** Reads each input as line chunks, deciding its format from its first DETECT_BYTES. */
async function* readChunks(
  sources: LogSource[],
  opened: OpenedSource[],
  inputs: InputRead[],
  opts: ResolvedOptions,
  knownTotal: number | undefined,
): AsyncGenerator<ChunkItem> {
  let readSoFar = 0;
  let nextProgress = PROGRESS_EVERY_BYTES;
  for (let i = 0; i < opened.length; i++) {
    const input = inputs[i]!;
    async function* counted(src: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const b of src) {
        input.bytes += b.length;
        readSoFar += b.length;
        if (opts.onProgress !== undefined && readSoFar >= nextProgress) {
          nextProgress = readSoFar + PROGRESS_EVERY_BYTES;
          opts.onProgress(readSoFar, knownTotal);
        }
        yield b;
      }
    }
    const head: Buffer[] = [];
    let headBytes = 0;
    let info: FormatInfo | undefined;
    for await (const chunk of lineChunks(counted(opened[i]!.chunks), { chunkBytes: opts.chunkBytes })) {
      if (opts.signal?.aborted) throw cancelled();
      if (info !== undefined) {
        yield { input: i, info, chunk };
        continue;
      }
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes < DETECT_BYTES) continue;
      info = decide(sources[i]!.name, head, input);
      for (const c of head.splice(0)) yield { input: i, info, chunk: c };
    }
    if (info === undefined && head.length > 0) {
      info = decide(sources[i]!.name, head, input);
      for (const c of head.splice(0)) yield { input: i, info, chunk: c };
    }
  }
}

function decide(name: string, head: Buffer[], input: InputRead): FormatInfo {
  const bytes = Buffer.concat(head).subarray(0, DETECT_BYTES);
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
      throw new WispError('WISP_BINARY_INPUT', `${name} looks like binary data (NUL bytes), not a log`, 'pass a text log, or a .gz of one');
    }
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 27 && b !== 12) control++;
  }
  if (sample.length > 0 && control / sample.length > 0.1) {
    throw new WispError('WISP_BINARY_INPUT', `${name} looks like binary data, not a log`, 'pass a text log, or a .gz of one');
  }
}

/**
 * Keeps the last maxBytes of the input (whole lines), counting what it skips. Memory stays
 * about maxBytes plus a chunk.
 */
async function* keepTail(
  items: AsyncIterable<ChunkItem>,
  maxBytes: number,
  tail: { skippedHeadBytes: number },
): AsyncGenerator<ChunkItem> {
  const kept: ChunkItem[] = [];
  let keptBytes = 0;
  for await (const item of items) {
    kept.push(item);
    keptBytes += item.chunk.length;
    while (kept.length > 1 && keptBytes - kept[0]!.chunk.length >= maxBytes) {
      const dropped = kept.shift()!;
      keptBytes -= dropped.chunk.length;
      tail.skippedHeadBytes += dropped.chunk.length;
    }
  }
  const first = kept[0];
  if (first !== undefined && keptBytes > maxBytes) {
    // Cut the first kept chunk after a newline so that at most maxBytes remain.
    const excess = keptBytes - maxBytes;
    const nl = first.chunk.indexOf(10, excess - 1);
    const from = nl < 0 ? first.chunk.length : nl + 1;
    tail.skippedHeadBytes += from;
    first.chunk = Buffer.from(first.chunk.subarray(from));
    if (first.chunk.length === 0) kept.shift();
  }
  yield* kept;
}

/**
 * Sends chunks to the pool (or condenses them here) with a bounded number in flight, and
 * merges the partials strictly in input order.
 */
async function condenseInOrder(
  items: AsyncIterable<ChunkItem>,
  merger: LogMerger,
  inputs: InputRead[],
  opts: ResolvedOptions,
  pool: WorkerPool | undefined,
): Promise<void> {
  const inFlight: { input: number; partial: Promise<LogPartial> }[] = [];
  const limit = pool === undefined ? 1 : pool.threads * 2;
  let currentInput = -1;
  const mergeOldest = async (): Promise<void> => {
    const next = inFlight.shift()!;
    const partial = await next.partial;
    if (next.input !== currentInput) {
      currentInput = next.input;
      merger.startInput();
      inputs[currentInput]!.firstLine = merger.lines + 1;
    }
    const before = merger.lines;
    merger.add(partial);
    inputs[currentInput]!.lines += merger.lines - before;
  };
  try {
    for await (const item of items) {
      if (opts.signal?.aborted) throw cancelled();
      opts.tap?.(item.chunk);
      inFlight.push({ input: item.input, partial: condenseOne(item, pool) });
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
