/**
 * Workers for JSON Lines chunks: the caller's WorkerPool when it lends one (a server keeps
 * its threads warm between calls), else a pool started for this call and closed after it.
 * Chunk buffers are transferred, not copied.
 */
import { WispError } from '../core/errors.js';
import { WorkerPool } from '../pipeline/worker-pool.js';
import type { ChunkTask } from './chunk-task.js';
import type { LinesShape } from './lines.js';

export interface ShapePool {
  readonly threads: number;
  runLines(task: ChunkTask, signal: AbortSignal | undefined): Promise<LinesShape>;
  close(): Promise<void>;
}

/** dist/src/shape/pool.js -> dist/workers/shape.js */
const WORKER_FILE = new URL('../../workers/shape.js', import.meta.url);

/**
 * Start threads for a call that will likely need them, before its input is read: each
 * thread boots and loads the shape worker while this thread reads. Returns the pool; the
 * caller lends it on (options.pool) and closes it.
 */
export async function startShapeThreads(threads: number): Promise<WorkerPool> {
  const pool = await WorkerPool.start(threads);
  for (let i = 0; i < threads; i++) {
    // One small task per thread; a failure to load shows again on the first real task.
    pool.run(WORKER_FILE, { warm: true } satisfies WarmTask, []).catch(() => undefined);
  }
  return pool;
}

/** A task that only makes a thread load the worker. */
export interface WarmTask {
  warm: true;
}

export async function openShapePool(threads: number, borrowed: WorkerPool | undefined): Promise<ShapePool> {
  const pool = borrowed ?? (await WorkerPool.start(threads));
  // The signal is checked between chunks by the caller and not handed to piscina: a task
  // aborted just as its worker answers makes piscina 5.3 throw "Unexpected message from
  // Worker" outside any promise (seen in the log condenser's cancellation test).
  const runLines = async (task: ChunkTask, signal: AbortSignal | undefined): Promise<LinesShape> => {
    try {
      return await pool.run<LinesShape>(WORKER_FILE, task, [task.buffer]);
    } catch (err) {
      if (signal?.aborted) throw new WispError('WISP_CANCELLED', 'json_shape was cancelled');
      throw err;
    }
  };
  return {
    threads: pool.threads,
    runLines,
    // Callers let their tasks settle first, so nothing is cut off. A lent pool stays open.
    close: borrowed === undefined ? () => pool.close() : async () => undefined,
  };
}
