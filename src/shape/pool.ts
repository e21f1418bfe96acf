/**
 * The piscina pool for JSON Lines chunks: one per jsonShape call that needs it, sized
 * exactly (minThreads = maxThreads), closed when the call ends. Chunk buffers are
 * transferred, not copied.
 */
import { Piscina } from 'piscina';
import { WispError } from '../errors.js';
import type { ChunkResult, ChunkTask } from './chunk-task.js';

export interface ShapePool {
  runLines(task: ChunkTask, signal: AbortSignal | undefined): Promise<ChunkResult>;
  close(): Promise<void>;
}

/** dist/src/shape/pool.js -> dist/workers/shape.js */
const WORKER_FILE = new URL('../../workers/shape.js', import.meta.url).href;

export function openShapePool(threads: number): ShapePool {
  const pool = new Piscina<ChunkTask, ChunkResult>({
    filename: WORKER_FILE,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 1_000,
    // Parsing makes many short-lived objects: a 64 MB young generation means far fewer
    // scavenges (the log workers measured about twice the throughput with it).
    resourceLimits: { maxYoungGenerationSizeMb: 64 },
  });
  // A worker that dies outside a task (e.g. failing to load) is reported here by piscina;
  // the tasks it had fail on their own promises, so this only keeps the event from being
  // an uncaught exception in the caller's process.
  let workerFailure: unknown;
  pool.on('error', (err: unknown) => {
    workerFailure ??= err;
  });
  // The signal is checked between chunks by the caller and not handed to piscina: a task
  // aborted just as its worker answers makes piscina 5.3 throw "Unexpected message from
  // Worker" outside any promise (seen in the log condenser's cancellation test).
  const run = async (task: ChunkTask, signal: AbortSignal | undefined): Promise<ChunkResult> => {
    try {
      return await pool.run(task, { transferList: [task.buffer] });
    } catch (err) {
      if (signal?.aborted) throw new WispError('WISP_CANCELLED', 'json_shape was cancelled');
      throw workerFailure ?? err;
    }
  };
  return {
    runLines: run,
    // Callers let their tasks settle first, so nothing is cut off.
    close: () => pool.close(),
  };
}
