/**
 * condense_log: the one pipeline that every front end's log tool runs.
 *
 *   input/ sources -> log/read (split/ into line chunks, format from the head, record chunks)
 *     -> pipeline/ dispatch (each chunk condensed by log/chunk: its native work on lanes
 *        beside this thread and its other lines here, or in a worker thread, or all here)
 *     -> log/merge (partials folded in input order) -> log/group (word variables)
 *     -> log/rank (severity, count, first line) -> a LogResult for log/render
 *
 * A single input that is a crash report is sniffed at the door and comes back as one.
 */
import { cancelledError, WispError } from '../core/errors.js';
import { keepTail, refuseOver } from '../input/byte-limit.js';
import { expectedBytes, type LogSource, type OpenedSource } from '../input/sources.js';
import { dispatchInOrder } from '../pipeline/dispatch.js';
import { ProgressMeter } from '../pipeline/progress.js';
import { defaultThreadCount, poolFor, threadsForReading, type WorkerPool } from '../pipeline/worker-pool.js';
import { condenseChunkOn, condenseChunkOnLanes } from './chunk/task.js';
import { nativeLanes, nativePassApplies } from './chunk/native-chunk.js';
import { chunkThreadsReady, warmChunkThreads } from './chunk/threads.js';
import { writeAssignments } from './group/assignments.js';
import { mergeWordVariables, type WordMerge } from './group/word-variables.js';
import { InputsMerger } from './merge/inputs-merger.js';
import { mergePartialFiles, toPartialFile, type PartialFile } from './merge/partial-file.js';
import type { FormatInfo } from './model/format.js';
import type { LogPartial } from './model/partial.js';
import type { CondenseResult, CrashInput, CrashResult, LogRead, LogResult } from './model/result.js';
import type { LogState } from './model/state.js';
import { resolveLogOptions, type CondenseLogOptions, type ResolvedLogOptions } from './options.js';
import { rankGroups } from './rank/rank-groups.js';
import { openSniffed } from './read/crash-input.js';
import { readFacts, readLogInputs, type LogItem } from './read/log-inputs.js';
import { RawLines } from './read/raw-lines.js';
import { MAX_RECORD_BYTES } from './read/record-chunks.js';
import { slotBytesFor } from '../split/line-chunks.js';
import { sharedSlots } from '../split/slots.js';

/**
 * Chunks in flight per thread or native lane: one at work and one waiting, so each stays
 * busy while the oldest is merged (or read here, after its lane). More only touched more
 * slots: each new slot is a megabyte of fresh pages (four per lane faulted 1,500 more pages
 * on the 60 MB log, 12 us each on this VM, and ran no faster).
 */
const IN_FLIGHT_PER_THREAD = 2;

/**
 * condense_log over one or more sources, read in order as one log (line numbers run on
 * across inputs, records do not). A lent pool (options.pool) is left open.
 *
 * With `assignmentsFile`, also writes `LineId,GroupId` for every line there: the sources
 * are read a second time, so they must be files (group/assignments.ts).
 */
export async function condenseLog(sources: LogSource[], options: CondenseLogOptions & { assignmentsFile?: string } = {}): Promise<CondenseResult> {
  const opts = resolveLogOptions(options);
  const assignTo = options.assignmentsFile;
  if (assignTo !== undefined && (typeof assignTo !== 'string' || assignTo === '')) throw new WispError('WISP_BAD_ARGUMENT', 'assignmentsFile must be a path');
  // A crash report's lines are assigned as a log's.
  const state = await readLog(sources, assignTo === undefined ? opts : { ...opts, crashReports: false });
  if (state.kind === 'crash') return state;
  const words = groupLog(state);
  if (assignTo !== undefined) await writeAssignments(sources, state, assignTo, (key) => words.representative.get(key) ?? key);
  return rankLog(state, opts.top, words);
}

/**
 * condense_log up to, not including, grouping and ranking: the merged state, which can be
 * ranked, compared, or written as a partial and merged with others.
 */
export async function condenseLogState(sources: LogSource[], options: CondenseLogOptions = {}): Promise<LogState | CrashResult> {
  return readLog(sources, resolveLogOptions(options));
}

/** One partial for all of `sources` (wisp log --emit-partial, a cluster job): read as logs, a bad input skipped unless told. */
export async function condenseLogToPartial(sources: LogSource[], options: CondenseLogOptions, writtenBy: string): Promise<PartialFile> {
  const state = await readLog(sources, resolveLogOptions({ ...options, skipBadInputs: options.skipBadInputs ?? true, crashReports: false }));
  if (state.kind === 'crash') throw new WispError('WISP_INTERNAL', 'a partial is read as a log');
  return toPartialFile(state, writtenBy);
}

/** Partials merged in the order given, ranked: the result one run over all their inputs would give. */
export function mergeLogPartials(files: PartialFile[], options: Pick<CondenseLogOptions, 'top'> = {}): LogResult {
  const { top } = resolveLogOptions(options);
  return rankLog(mergePartialFiles(files), top);
}

/** Groups of one event with variable words merged (grouping), before ranking. */
export function groupLog(state: LogState): WordMerge {
  return mergeWordVariables([...state.merged.groups.values()]);
}

/** Ranks a merged state into the result shown: the one place both a run and a merge end. */
export function rankLog(state: LogState, top: number, words: WordMerge = groupLog(state)): LogResult {
  const inputs = state.read.inputs;
  const formats = [...new Set(inputs.filter((i) => i.lines > 0 || inputs.length === 1).map((i) => i.format))];
  const result = rankGroups(state.merged, words, top, state.read, formats.join(', ') || 'plain text');
  return state.whole === undefined ? result : { ...result, whole: state.whole };
}

async function readLog(sources: LogSource[], opts: ResolvedLogOptions): Promise<LogState | CrashResult> {
  if (sources.length === 0) throw new WispError('WISP_BAD_ARGUMENT', 'no input given');
  const knownTotal = await expectedBytes(sources);
  const threads = threadsForReading(opts.workers, knownTotal, opts.maxBytes, opts.pool);
  // Threads start with the first chunk that needs them and load their code while the next
  // chunks are read; until one has, chunks are condensed here (the same partial either way).
  // Left to choose, a run of its own uses one thread fewer than it has cores and condenses
  // here too: this thread only read and merged while the threads worked (on two cores, a
  // pool of two read 30 MB of JSON lines no faster than this thread alone).
  const poolThreads = opts.pool === undefined && opts.workers === 'auto' && threads > 1 ? threads - 1 : threads;
  const pool = new StartingPool(poolThreads, opts.pool);
  try {
    return await readStarted(sources, opts, knownTotal, pool, threads);
  } finally {
    await pool.close();
  }
}

async function readStarted(sources: LogSource[], opts: ResolvedLogOptions, knownTotal: number | undefined, pool: StartingPool, threads: number): Promise<LogState | CrashResult> {
  // A single input is opened first, to look for a crash report.
  let first: OpenedSource | undefined;
  if (sources.length === 1 && opts.crashReports) {
    const sniffed = await openSniffed(sources[0]!, opts.signal, opts.tap);
    if ('kind' in sniffed) return sniffed;
    first = sniffed;
  }
  const facts = readFacts(sources);
  const crashes: CrashInput[] | undefined = sources.length > 1 || !opts.crashReports ? [] : undefined;
  // Chunks are read into slots a thread reads in place; each is used again once its partial is taken.
  const slots = sharedSlots(slotBytesFor(opts.chunkBytes));
  let items: AsyncIterable<LogItem> = readLogInputs(sources, first, facts, new ProgressMeter(opts.onProgress, knownTotal, sources.length), {
    chunkBytes: opts.chunkBytes,
    slots,
    signal: opts.signal,
    tap: opts.tap,
    skipBad: opts.skipBadInputs ?? sources.length > 1,
    crashes,
  });
  const skippedHead = { bytes: 0 };
  if (opts.maxBytes !== undefined) {
    items = opts.overMaxBytes === 'keep-tail' ? keepTail(items, opts.maxBytes, skippedHead) : refuseOver(items, opts.maxBytes, sources.length === 1 ? sources[0]!.name : 'the input');
  }
  const merger = new InputsMerger(facts.inputs);
  const raw = new RawLines(sources.length === 1 && opts.maxBytes === undefined);
  // Where the native pass reads a format, a chunk's native work runs on lanes beside this
  // thread and its other lines are read here: no worker thread has to start for it. A
  // lent pool's threads are warm already: they take every chunk.
  const lanes = threads > 0 && opts.pool === undefined ? nativeLanes(threads) : undefined;
  await dispatchInOrder<LogItem, LogPartial>(items, {
    start: (item) => {
      if (item.kind !== 'chunk') return undefined;
      opts.tap?.(item.chunk);
      raw.see(item);
      if (lanes !== undefined && nativePassApplies(item.info)) return condenseChunkOnLanes(lanes, item.chunk, item.info);
      return pool.condense(item.chunk, item.info);
    },
    take: (item, partial) => {
      merger.take(item, partial);
      if (item.kind === 'chunk') slots.release(item.chunk.buffer);
    },
    limit: threads === 0 ? 1 : threads * IN_FLIGHT_PER_THREAD,
    signal: opts.signal,
    cancelled: () => cancelledError('condense_log'),
  });
  const inputs = facts.inputs;
  if (merger.skipped.length === sources.length && sources.length > 1) {
    throw new WispError('WISP_UNREADABLE', `none of the ${sources.length} inputs could be read (first: ${merger.skipped[0]!.name}: ${merger.skipped[0]!.reason})`);
  }
  const merged = merger.finish();
  const tail = raw.tail(inputs);
  const read: LogRead = {
    inputs,
    bytes: inputs.reduce((n, i) => n + (i.skipped ? 0 : i.bytes), 0),
    lines: merged.lines,
    skippedHeadBytes: skippedHead.bytes,
    cutLines: merged.cut,
    frameLines: merged.skipped - (crashes ?? []).reduce((n, c) => n + (inputs.find((i) => i.name === c.name)?.lines ?? 0), 0),
    skippedInputs: merger.skipped,
    notes: facts.notes,
    ...(crashes !== undefined && crashes.length > 0 ? { crashes } : {}),
    ...(tail !== undefined ? { tail } : {}),
  };
  const cutRecords = facts.records.cutRecords + merged.cutRecords;
  if (cutRecords > 0) read.notes.push(`${cutRecords} records longer than ${MAX_RECORD_BYTES / (1024 * 1024)} MB were cut there; the rest of each reads as records of its own`);
  const whole = raw.whole();
  return whole === undefined ? { kind: 'merged', merged, read } : { kind: 'merged', merged, read, whole };
}

/**
 * A run's pool while it starts, and where each chunk is condensed (`condense`): on the
 * threads once one of them has loaded the chunk condenser, else here. A pool that fails to
 * start fails the run at the next chunk, as it failed the run at its start before threads
 * started early.
 *
 * Condensing here while the threads load helps only where a core is left for this
 * thread: with a thread on every core, it takes the cores the threads load on (and warms
 * code this thread then leaves). There the chunks wait instead (`#waits`).
 */
class StartingPool {
  #pool: WorkerPool | undefined;
  #error: unknown;
  #failed = false;
  #started: Promise<{ pool: WorkerPool | undefined; close: () => Promise<void> }> | undefined;
  #ready: Promise<WorkerPool | undefined> | undefined;
  readonly #threads: number;
  readonly #lent: WorkerPool | undefined;
  /** Chunks wait for the threads rather than be condensed here while they load. */
  readonly #waits: boolean;
  /** A core is left for this thread and the pool is the run's own: this thread condenses chunks too, while the threads are busy. */
  readonly #helps: boolean;

  /** Starts nothing yet: the first chunk that needs the threads starts them (where native lanes read every chunk, none does). */
  constructor(threads: number, lent: WorkerPool | undefined) {
    this.#waits = threads >= defaultThreadCount();
    this.#helps = !this.#waits && lent === undefined;
    this.#threads = threads;
    this.#lent = lent;
  }

  #start(): Promise<WorkerPool | undefined> {
    if (this.#ready !== undefined) return this.#ready;
    const started = poolFor(this.#threads, this.#lent).then((p) => {
      if (p.pool !== undefined) this.#pool = p.pool;
      return p;
    });
    this.#started = started;
    this.#ready = started.then(async (p) => {
      if (p.pool === undefined) return undefined;
      await warmChunkThreads(p.pool);
      return p.pool;
    });
    started.catch((err: unknown) => {
      this.#failed = true;
      this.#error = err;
    });
    this.#ready.catch(() => undefined);
    return this.#ready;
  }

  /** The pool once a thread has loaded the chunk condenser, else undefined; throws as the start failed. */
  #readyNow(): WorkerPool | undefined {
    void this.#start();
    if (this.#failed) throw this.#error;
    return this.#pool !== undefined && chunkThreadsReady(this.#pool) ? this.#pool : undefined;
  }

  /**
   * Condenses `chunk`: on the threads once one is ready, but here once every thread has a
   * chunk and one waits (where this thread helps); while they load, here, or once one is
   * ready (where chunks wait for them).
   */
  condense(chunk: Buffer, info: FormatInfo): Promise<LogPartial> {
    const ready = this.#readyNow();
    if (ready !== undefined) return condenseChunkOn(this.#helps && ready.queued > 0 ? undefined : ready, chunk, info);
    if (!this.#waits) return condenseChunkOn(undefined, chunk, info);
    return this.#start().then((p) => condenseChunkOn(p, chunk, info));
  }

  /** Closes a pool of the run's own; one that failed to start has nothing to close (condense reports it). */
  async close(): Promise<void> {
    const started = await this.#started?.catch(() => undefined);
    await started?.close();
  }
}
