/**
 * One JSON Lines chunk as a task: whole lines as bytes in, a partial shape out. The
 * worker (workers/shape.ts) runs exactly this, and so does the main thread when it shapes
 * in process, so both give the same partial shapes.
 */
import { isJsonSpace, shapeLines, type LinesShape } from './lines.js';
import { dropWalkCaches } from './node.js';

export interface ChunkTask {
  /** Whole lines (the last may lack its '\n' only at the end of input). Transferred. */
  buffer: ArrayBuffer;
  length: number;
  /** Index (0-based) of the chunk's first line in the input: positions its lines among all others. */
  firstLine: number;
}

export interface ChunkResult extends LinesShape {
  /** True when everything after the bad line (if any) in this chunk is blank. */
  restBlank: boolean;
}

export function shapeChunk(task: ChunkTask): ChunkResult {
  const bytes = Buffer.from(task.buffer, 0, task.length);
  const shape = shapeLines(bytes, task.firstLine);
  dropWalkCaches(shape.root);
  return withRestBlank(shape, bytes);
}

export function withRestBlank(shape: LinesShape, bytes: Buffer): ChunkResult {
  if (shape.bad === undefined) return { ...shape, restBlank: true };
  // Find the end of the bad line, then check what follows.
  let at = 0;
  for (let line = 0; line <= shape.bad.line; line++) {
    const nl = bytes.indexOf(0x0a, at);
    at = nl === -1 ? bytes.length : nl + 1;
  }
  return { ...shape, restBlank: isJsonSpace(bytes, at, bytes.length) };
}
