/**
 * One JSON Lines chunk as a task: whole lines as bytes in, a partial shape out. The
 * worker (workers/shape.ts) runs exactly this, and so does the main thread when it shapes
 * in process, so both give the same partial shapes.
 */
import { shapeLines, type LinesShape } from './lines.js';
import { dropSlotCaches } from './node.js';

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
  // Buffer's UTF-8 decoding, as for held input: '\n' never falls inside a multi-byte
  // sequence, so decoding per chunk gives the same text as decoding the whole.
  const text = Buffer.from(task.buffer, 0, task.length).toString('utf8');
  const shape = shapeLines(text, task.firstLine);
  dropSlotCaches(shape.root);
  return withRestBlank(shape, text);
}

export function withRestBlank(shape: LinesShape, text: string): ChunkResult {
  if (shape.bad === undefined) return { ...shape, restBlank: true };
  // Find the end of the bad line, then check what follows.
  let at = 0;
  for (let line = 0; line <= shape.bad.line; line++) {
    const nl = text.indexOf('\n', at);
    at = nl === -1 ? text.length : nl + 1;
  }
  return { ...shape, restBlank: /^\s*$/.test(text.slice(at)) };
}
