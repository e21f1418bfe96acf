/**
 * Condensing one chunk as a task: in a worker thread (workers/condense-log.ts runs
 * exactly this) or in the calling thread, with the same partial either way. The chunk's
 * buffer is transferred, not copied, and read in place as bytes; only the small partial
 * comes back.
 */
import { transferable, type WarmUp, type WorkerPool } from '../../pipeline/worker-pool.js';
import type { FormatInfo } from '../model/format.js';
import type { LogPartial } from '../model/partial.js';
import { condenseChunk } from './condense-chunk.js';

export interface CondenseChunkTask {
  buffer: ArrayBuffer;
  info: FormatInfo;
}

/** dist/src/log/chunk/task.js -> dist/workers/condense-log.js */
const WORKER = new URL('../../../workers/condense-log.js', import.meta.url);

/** The worker's task (what workers/condense-log.ts exports): a chunk, or a warm-up (WorkerPool.warm). */
export function runCondenseChunkTask(task: CondenseChunkTask | WarmUp): LogPartial | WarmUp {
  return 'warm' in task ? task : condenseChunk(Buffer.from(task.buffer), task.info);
}

/** Has the pool's threads load the chunk condenser now, while the caller reads. */
export function warmChunkThreads(pool: WorkerPool): void {
  pool.warm(WORKER);
}

/** Whether a thread of the pool has loaded the chunk condenser (see warmChunkThreads). */
export function chunkThreadsReady(pool: WorkerPool): boolean {
  return pool.warmed(WORKER) > 0;
}

/** Condenses a chunk on the pool, or here when there is none. */
export function condenseChunkOn(pool: WorkerPool | undefined, chunk: Buffer, info: FormatInfo): Promise<LogPartial> {
  if (pool === undefined) return Promise.resolve(condenseChunk(chunk, info));
  const buffer = transferable(chunk);
  return pool.run<LogPartial>(WORKER, { buffer, info } satisfies CondenseChunkTask, [buffer]);
}
