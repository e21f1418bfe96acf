/**
 * Condensing one chunk as a task: in a worker thread (workers/condense-log.cts runs
 * exactly this) or in the calling thread, with the same partial either way. The chunk's
 * buffer is transferred, not copied, and read in place as bytes; only the small partial
 * comes back.
 */
import { transferable, type WarmUp, type WorkerPool } from '../../pipeline/worker-pool.js';
import type { FormatInfo } from '../model/format.js';
import type { LogPartial } from '../model/partial.js';
import { condenseChunk } from './condense-chunk.js';
import { CONDENSE_LOG_WORKER } from './threads.js';

export interface CondenseChunkTask {
  buffer: ArrayBuffer;
  info: FormatInfo;
}

/** The worker's task (what workers/condense-log.cts runs): a chunk, or a warm-up (WorkerPool.warm). */
export function runCondenseChunkTask(task: CondenseChunkTask | WarmUp): LogPartial | WarmUp {
  return 'warm' in task ? task : condenseChunk(Buffer.from(task.buffer), task.info);
}

/** Condenses a chunk on the pool, or here when there is none. */
export function condenseChunkOn(pool: WorkerPool | undefined, chunk: Buffer, info: FormatInfo): Promise<LogPartial> {
  if (pool === undefined) return Promise.resolve(condenseChunk(chunk, info));
  const buffer = transferable(chunk);
  return pool.run<LogPartial>(CONDENSE_LOG_WORKER, { buffer, info } satisfies CondenseChunkTask, [buffer]);
}
