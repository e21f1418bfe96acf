/**
 * One JSON Lines chunk as a task: whole lines as bytes in, a partial shape out. The
 * worker (workers/shape.ts) runs exactly this, and so does the calling thread when it
 * shapes in process, so both give the same partial shapes.
 */
import type { WarmUp, WorkerPool } from '../pipeline/worker-pool.js';
import { shapeLines, type LinesShape } from './lines.js';
import { dropWalkCaches } from './node.js';
import { packageFile } from '../paths.js';

export interface ChunkTask {
  /**
   * Whole lines (the last may lack its '\n' only at the end of input) in bytes [0, length).
   * Shared, not transferred: the caller uses it again once the result is taken (line-slots.ts).
   */
  buffer: SharedArrayBuffer;
  length: number;
  /** Index (0-based) of the chunk's first line in the input: positions its lines among all others. */
  firstLine: number;
}

/** dist/src/shape/chunk-task.js -> dist/workers/shape.cjs */
export const SHAPE_WORKER = packageFile('dist/workers/shape.cjs');

export function shapeChunk(task: ChunkTask): LinesShape {
  const shape = shapeLines(Buffer.from(task.buffer, 0, task.length), task.firstLine);
  dropWalkCaches(shape.root);
  return shape;
}

/** The worker's task: a chunk, or a warm-up sent when the pool starts (WorkerPool.warm). */
export function runShapeTask(task: ChunkTask | WarmUp): LinesShape | undefined {
  return 'warm' in task ? undefined : shapeChunk(task);
}

/** Shapes a chunk on the pool, or here when there is none. */
export function shapeChunkOn(pool: WorkerPool | undefined, task: ChunkTask): Promise<LinesShape> {
  if (pool === undefined) return Promise.resolve(shapeChunk(task));
  return pool.run<LinesShape>(SHAPE_WORKER, task, []);
}
