/**
 * Shaping a run of whole JSON Lines: the work one worker does on one chunk, and what the
 * main thread does in process. Each line's values get positions (line index, 0..), the
 * same whichever chunk the line falls in, so chunks merged in any grouping agree.
 */
import { newNode, type ShapeNode } from './node.js';
import { Walker } from './walk.js';

export interface BadLine {
  /** 0-based line index within the chunk. */
  line: number;
  /** The line's text, cut to a bounded length (for diagnosis, never shown raw). */
  text: string;
  /** Whether `text` is the whole line (a cut line always looks unfinished). */
  whole: boolean;
  message: string;
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
 * Shape the lines of `text`, whose first line is line `firstLine` (0-based) of the input.
 * Stops at the first line that is not JSON.
 */
export function shapeLines(text: string, firstLine: number): LinesShape {
  const root = newNode(Infinity, Infinity);
  const walker = new Walker();
  let lines = 0;
  let values = 0;
  let walked = 0;
  let start = 0;
  const end = text.length;
  while (start < end) {
    let stop = text.indexOf('\n', start);
    if (stop === -1) stop = end;
    const line = lines++;
    if (!isBlank(text, start, stop)) {
      const slice = text.slice(start, stop);
      let value: unknown;
      try {
        value = JSON.parse(slice);
      } catch (err) {
        const cut = slice.length > BAD_LINE_KEEP ? slice.slice(0, BAD_LINE_KEEP) : slice;
        return { root, lines, values, walked, bad: { line, text: cut, whole: cut === slice, message: (err as Error).message } };
      }
      walked += walker.walk(root, value, firstLine + line, 0);
      values++;
    }
    start = stop + 1;
  }
  return { root, lines, values, walked, bad: undefined };
}

/** Only JSON whitespace other than '\n' (which ends lines) between from and to. */
export function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}
