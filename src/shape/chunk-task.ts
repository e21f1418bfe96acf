/**
 * One JSON Lines chunk as a task: whole lines as bytes in, a partial shape out. The
 * worker (workers/shape.ts) runs exactly this, and so does the main thread when it shapes
 * in process, so both give the same partial shapes.
 */
import { shapeLines, type LinesShape } from './lines.js';
import { dropWalkCaches } from './node.js';

export interface ChunkTask {
  /** Whole lines (the last may lack its '\n' only at the end of input). Transferred. */
  buffer: ArrayBuffer;
  length: number;
  /** Index (0-based) of the chunk's first line in the input: positions its lines among all others. */
  firstLine: number;
}

export function shapeChunk(task: ChunkTask): LinesShape {
  const shape = shapeLines(Buffer.from(task.buffer, 0, task.length), task.firstLine);
  dropWalkCaches(shape.root);
  return shape;
}
