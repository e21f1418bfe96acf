/**
 * Piscina worker for json_shape: shapes one chunk of whole JSON Lines (a transferred
 * ArrayBuffer) and returns the partial shape, which the main thread merges in input order.
 */
import { shapeChunk, type ChunkResult, type ChunkTask } from '../src/shape/chunk-task.js';
import { warmUpWalker } from '../src/shape/warm-up.js';

// Before the first task: see warm-up.ts.
warmUpWalker();

export default function shapeWorker(task: ChunkTask): ChunkResult {
  return shapeChunk(task);
}
