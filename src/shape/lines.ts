/**
 * Shaping a run of whole JSON Lines: the work one worker does on one chunk, and what the
 * main thread does in process. Each line's values get positions (line index, 0..), the
 * same whichever chunk the line falls in, so chunks merged in any grouping agree.
 */
import { newNode, type ShapeNode } from './node.js';
import { WispError } from '../core/errors.js';
import { ByteWalker } from './byte-walk.js';

const LF = 0x0a;

export interface BadLine {
  /** 0-based line index within the chunk. */
  line: number;
  /** The line's text, cut to a bounded length (for diagnosis, never shown raw). */
  text: string;
  /** Whether `text` is the whole line (a cut line always looks unfinished). */
  whole: boolean;
  message: string;
  /** Whether only whitespace follows the line in these bytes (a cut last line looks so). */
  restBlank: boolean;
}

export interface LinesShape {
  root: ShapeNode;
  /** Lines in the chunk (a final line without '\n' counts). */
  lines: number;
  /** Lines holding a value. */
  values: number;
  /** Values walked, nested ones included. */
  walked: number;
  bad: BadLine | undefined;
}

/** Enough of a bad line to tell where it goes wrong; the diagnosis scans only this. */
const BAD_LINE_KEEP = 1 << 20;

/**
 * Shape the lines of `bytes` (UTF-8), whose first line is line `firstLine` (0-based) of
 * the input. Stops at the first line that is not JSON.
 */
export function shapeLines(bytes: Buffer, firstLine: number): LinesShape {
  // Made before the loop and filled in it: the loop is compiled on its own (on-stack
  // replacement) before the first call returns, and code it has not yet run would be
  // compiled without type feedback and thrown away on every call.
  const shape: LinesShape = { root: newNode(Infinity, Infinity), lines: 0, values: 0, walked: 0, bad: undefined };
  const walker = new ByteWalker();
  let start = 0;
  const end = bytes.length;
  while (start < end) {
    let stop = bytes.indexOf(LF, start);
    if (stop === -1) stop = end;
    const line = shape.lines++;
    if (!isBlankBytes(bytes, start, stop)) {
      const after = walker.value(shape.root, bytes, start, stop, firstLine + line, 0);
      if (after < 0 || !isBlankBytes(bytes, after, stop)) {
        shape.bad = badLine(bytes, start, stop, line);
        return shape;
      }
      shape.walked += walker.next;
      shape.values++;
    }
    start = stop + 1;
  }
  return shape;
}

/** The line the walker refused, with JSON.parse's word on it. */
function badLine(bytes: Buffer, start: number, stop: number, line: number): BadLine {
  const whole = stop - start <= BAD_LINE_KEEP;
  const text = bytes.toString('utf8', start, whole ? stop : start + BAD_LINE_KEEP);
  const restBlank = isJsonSpace(bytes, stop + 1, bytes.length);
  try {
    JSON.parse(text);
  } catch (err) {
    return { line, text, whole, message: (err as Error).message, restBlank };
  }
  if (!whole) return { line, text, whole, message: 'the line is not JSON', restBlank };
  // Only a difference between the walker's grammar and JSON.parse's gets here.
  throw new WispError('WISP_INTERNAL', `JSON Lines: line ${line + 1} of a chunk parses with JSON.parse but not with the byte walker`);
}

/** Only JSON whitespace other than '\n' (which ends lines) in bytes [from, to). */
export function isBlankBytes(bytes: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/** Only JSON whitespace, '\n' included, in bytes [from, to). */
export function isJsonSpace(bytes: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13) return false;
  }
  return true;
}
