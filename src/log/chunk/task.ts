/**
 * Condensing one chunk as a task: in a worker thread (workers/condense-log.cts runs
 * exactly this) or in the calling thread, with the same partial either way. The chunk's
 * buffer is transferred, not copied, and read in place as bytes; only the small partial
 * comes back.
 */
import { threadId } from 'node:worker_threads';
import { transferable, type WarmUp, type WorkerPool } from '../../pipeline/worker-pool.js';
import type { FormatInfo } from '../model/format.js';
import type { LogPartial } from '../model/partial.js';
import { condenseChunk } from './condense-chunk.js';
import { CONDENSE_LOG_WORKER } from './threads.js';

export interface CondenseChunkTask {
  buffer: ArrayBuffer;
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
  return 'warm' in task ? task : condenseTimed(Buffer.from(task.buffer), task.info);
}

/** Condenses a chunk on the pool, or here when there is none. */
export function condenseChunkOn(pool: WorkerPool | undefined, chunk: Buffer, info: FormatInfo): Promise<LogPartial> {
  if (pool === undefined) return Promise.resolve(condenseTimed(chunk, info));
  const buffer = transferable(chunk);
  return pool.run<LogPartial>(CONDENSE_LOG_WORKER, { buffer, info } satisfies CondenseChunkTask, [buffer]);
}
