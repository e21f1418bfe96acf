/**
 * Piscina worker for json_shape: shapes one chunk of whole JSON Lines (a transferred
 * ArrayBuffer) and returns the partial shape, which the main thread merges in input order.
 */
import { shapeChunk, type ChunkTask } from '../src/shape/chunk-task.js';
import type { LinesShape } from '../src/shape/lines.js';
import type { WarmTask } from '../src/shape/pool.js';
import { primeWalker } from '../src/shape/prime.js';

// Before the first chunk: see prime.ts.
primeWalker();

export default function shapeWorker(task: ChunkTask | WarmTask): LinesShape | undefined {
  // Sent when the pool starts, so each thread loads this module while the input is read.
  if ('warm' in task) return undefined;
  return shapeChunk(task);
}
