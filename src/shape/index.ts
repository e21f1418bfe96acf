/**
 * json_shape: outline a JSON document or JSON Lines (types per key, optional keys, ranges,
 * redacted examples, maps, formats, enums) within a line budget, deterministically.
 *
 *   held input (<= holdBytes):  the byte walker (parses and shapes in one pass); JSON Lines
 *                               in process or in line chunks across a worker pool
 *   streamed input (> holdBytes, allowed by maxBytes): JSON Lines in chunks across the
 *                               pool; a single document through stream-json's tokenizer
 */
import { open, stat } from 'node:fs/promises';
import { threadsFor, WorkerPool } from '../pipeline/worker-pool.js';
import { fillFrom } from './byte-source.js';
import { SHAPE_WORKER } from './chunk-task.js';
import { detect, startsAsJsonLines } from './detect.js';
import { openInput, startsWithBom, type HeldInput, type ShapeInput, type StreamedInput } from './input.js';
import { shapeHeldLinesInProcess, shapeLineChunks } from './jsonl.js';
import type { ShapeNode } from './node.js';
import { resolveOptions, throwIfAborted, type ResolvedOptions, type ShapeOptions } from './options.js';
import { renderShape, type ShapeReport, type ShapeSource } from './render.js';
import { textPieces } from './text-pieces.js';
import { shapeTokenStream } from './tokens.js';

export type { ShapeInput } from './input.js';
export type { ShapeOptions } from './options.js';
export type { ShapeReport, ShapeTree, ShapeTreeNode } from './render.js';
export type { NodeFacts } from './facts.js';

interface Shaped {
  root: ShapeNode;
  source: ShapeSource;
}

/**
 * Outline `input`. Resolves to the outline as text and as a tree; rejects with a WispError
 * (stable code) for bad options, missing files, empty, binary, oversized, truncated or
 * non-JSON input, and cancellation.
 */
export async function jsonShape(input: ShapeInput, options: ShapeOptions = {}): Promise<ShapeReport> {
  const o = resolveOptions(options);
  const early = await startPoolEarly(input, o);
  try {
    const opened = await openInput(input, o);
    let shaped: Shaped;
    if (opened.kind === 'held') {
      shaped = await shapeHeld(opened, o);
    } else {
      try {
        shaped = await shapeStreamed(opened, early === undefined ? o : { ...o, pool: early.pool }, early);
      } finally {
        await opened.close();
      }
    }
    throwIfAborted(o.signal);
    return renderShape(shaped.root, shaped.source, { maxLines: o.maxLines, maxOutputBytes: o.maxOutputBytes });
  } finally {
    await early?.close();
  }
}

/** Threads started before the input is read; closed once (when unneeded, or at the end). */
interface EarlyPool {
  pool: WorkerPool;
  close(): Promise<void>;
}

/**
 * A file too big to hold that starts as JSON Lines will be cut into chunks for threads:
 * they start before it is read, so their start-up overlaps the reading. A document is
 * walked on this thread, so for one (by its first bytes) none start: threads started and
 * closed unused cost a streamed document about 20 MB of memory and CPU the walk needs.
 */
async function startPoolEarly(input: ShapeInput, o: ResolvedOptions): Promise<EarlyPool | undefined> {
  if (o.pool !== undefined) return undefined;
  if (typeof input !== 'object' || input === null || !('path' in input) || typeof input.path !== 'string') return undefined;
  let size: number;
  try {
    size = (await stat(input.path)).size;
  } catch {
    return undefined; // openInput reports it
  }
  const threads = threadsFor(o.workers, size, undefined);
  if (threads === 0 || size <= o.holdBytes || size > o.maxBytes) return undefined;
  if (!(await startsAsLinesFile(input.path))) return undefined;
  const pool = await WorkerPool.start(threads);
  pool.warm(SHAPE_WORKER);
  let closed: Promise<void> | undefined;
  return { pool, close: () => (closed ??= pool.close()) };
}

/** Bytes read to guess whether a file is JSON Lines before threads start for it. */
const GUESS_BYTES = 64 * 1024;

/**
 * Whether the file's first GUESS_BYTES start as JSON Lines (a first line longer than that
 * counts as a document). Only a guess for starting threads early: what the input is, is
 * decided later on its head, and a wrong guess costs only time.
 */
async function startsAsLinesFile(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(GUESS_BYTES), 0, GUESS_BYTES, 0);
      return startsAsJsonLines(buffer.subarray(startsWithBom(buffer) ? 3 : 0, bytesRead));
    } finally {
      await handle.close();
    }
  } catch {
    return false; // openInput reports it
  }
}

async function shapeHeld(held: HeldInput, o: ResolvedOptions): Promise<Shaped> {
  const bytes = held.bytes ?? Buffer.from(held.text());
  const detected = detect(bytes, held.text);
  throwIfAborted(o.signal);
  if (detected.kind === 'document') {
    return { root: detected.root, source: { kind: 'json', bytes: held.size, values: detected.values, streamed: false } };
  }
  const threads = threadsFor(o.workers, held.size, o.pool);
  if (threads === 0 || held.size <= o.chunkBytes) {
    const { root, records, values } = shapeHeldLinesInProcess(bytes, o);
    return { root, source: { kind: 'jsonl', bytes: held.size, values, records, streamed: false } };
  }
  // About two chunks per thread, so the pool is evenly busy.
  const chunkBytes = Math.min(o.chunkBytes, Math.max(1, Math.ceil(bytes.length / (2 * threads))));
  const { root, records, values } = await shapeLineChunks(fillFrom(bytes), chunkBytes, o, threads);
  return { root, source: { kind: 'jsonl', bytes: held.size, values, records, streamed: false } };
}

async function shapeStreamed(input: StreamedInput, o: ResolvedOptions, early: EarlyPool | undefined): Promise<Shaped> {
  if (startsAsJsonLines(input.head)) {
    const threads = threadsFor(o.workers, undefined, o.pool);
    const { root, records, values } = await shapeLineChunks(input.fill, o.chunkBytes, o, threads);
    return { root, source: { kind: 'jsonl', bytes: input.bytesRead(), values, records, streamed: true } };
  }
  // One document: its tokens are walked here, so threads started for lines are not needed.
  await early?.close();
  const { root, values } = await shapeTokenStream(textPieces(input.fill), o.signal);
  return { root, source: { kind: 'json', bytes: input.bytesRead(), values, streamed: true } };
}
