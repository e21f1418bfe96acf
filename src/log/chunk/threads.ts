/**
 * The chunk condenser's worker file and its warm-up, apart from the condenser itself: a
 * caller can start threads loading it before loading the pipeline's own modules.
 */
import type { WorkerPool } from '../../pipeline/worker-pool.js';
import { packageFile } from '../../paths.js';

/** dist/src/log/chunk/threads.js -> dist/workers/condense-log.cjs */
export const CONDENSE_LOG_WORKER = packageFile('dist/workers/condense-log.cjs');

/** Has the pool's threads load the chunk condenser now, while the caller reads; resolves once one has. */
export function warmChunkThreads(pool: WorkerPool): Promise<void> {
  return pool.warm(CONDENSE_LOG_WORKER);
}

/** Whether a thread of the pool has loaded the chunk condenser (see warmChunkThreads). */
export function chunkThreadsReady(pool: WorkerPool): boolean {
  return pool.warmed(CONDENSE_LOG_WORKER) > 0;
}
