/**
 * Condensing one chunk as a task: in a worker thread (workers/condense-log.cts runs
 * exactly this) or in the calling thread, with the same partial either way. The chunk is
 * read in place as bytes, never copied: a slot (split/slots.ts) is shared with the thread,
 * any other buffer transferred to it; only the small partial comes back.
 */
import { threadId } from 'node:worker_threads';
import { transferable, type WarmUp, type WorkerPool } from '../../pipeline/worker-pool.js';
import type { FormatInfo } from '../model/format.js';
import type { LogPartial } from '../model/partial.js';
import { condenseChunk, condenseScreened } from './condense-chunk.js';
import type { NativeLanes } from './native-chunk.js';
import { MAX_LINE_BYTES } from '../../split/line-chunks.js';
import { CONDENSE_LOG_WORKER } from './threads.js';

export interface CondenseChunkTask {
  /** A slot shared with the caller (who uses it again once the partial is taken), or a buffer of the chunk's own, transferred. */
  buffer: ArrayBuffer | SharedArrayBuffer;
  /** The chunk's bytes in it. */
  start: number;
  length: number;
  info: FormatInfo;
}

/**
 * WISP_CHUNK_TIMES=1 writes each chunk's size and time to stderr, with the thread that
 * condensed it: how a thread's first chunks (its code still compiling) compare with its
 * later ones. Read once, when the module loads.
 */
const TIMED = process.env.WISP_CHUNK_TIMES === '1';

function condenseTimed(chunk: Buffer, info: FormatInfo): LogPartial {
  if (!TIMED) return condenseChunk(chunk, info);
  const t0 = performance.now();
  const partial = condenseChunk(chunk, info);
  process.stderr.write(`wisp: chunk of ${chunk.length} bytes in ${(performance.now() - t0).toFixed(1)} ms (thread ${threadId})\n`);
  return partial;
}

/** The worker's task (what workers/condense-log.cts runs): a chunk, or a warm-up (WorkerPool.warm). */
export function runCondenseChunkTask(task: CondenseChunkTask | WarmUp): LogPartial | WarmUp {
  return 'warm' in task ? task : condenseTimed(Buffer.from(task.buffer, task.start, task.length), task.info);
}

/** Condenses a chunk on the pool, or here when there is none. */
export function condenseChunkOn(pool: WorkerPool | undefined, chunk: Buffer, info: FormatInfo): Promise<LogPartial> {
  if (pool === undefined) return Promise.resolve(condenseTimed(chunk, info));
  if (chunk.buffer instanceof SharedArrayBuffer) {
    return pool.run<LogPartial>(CONDENSE_LOG_WORKER, { buffer: chunk.buffer, start: chunk.byteOffset, length: chunk.length, info } satisfies CondenseChunkTask, []);
  }
  const buffer = transferable(chunk);
  return pool.run<LogPartial>(CONDENSE_LOG_WORKER, { buffer, start: 0, length: buffer.byteLength, info } satisfies CondenseChunkTask, [buffer]);
}

/**
 * Condenses a chunk with its native work (the screen, the native pass) on a lane beside
 * this thread, and its other lines read here once that is done: the same partial.
 */
export async function condenseChunkOnLanes(lanes: NativeLanes, chunk: Buffer, info: FormatInfo): Promise<LogPartial> {
  const t0 = TIMED ? performance.now() : 0;
  const lane = await lanes.run(chunk, info, MAX_LINE_BYTES);
  const t1 = TIMED ? performance.now() : 0;
  try {
    return condenseScreened(chunk, info, lane.screen, lane.native);
  } finally {
    lane.release();
    if (TIMED) process.stderr.write(`wisp: chunk of ${chunk.length} bytes in ${(t1 - t0).toFixed(1)} ms on a lane, then ${(performance.now() - t1).toFixed(1)} ms here\n`);
  }
}
