import type { GroupStat } from '../model/partial.js';
import type { TailLine } from '../model/result.js';
import { TAIL_LINES } from '../read/raw-lines.js';
import { MIN_NOISE_RECORDS } from './late-errors.js';

/**
 * How much of the input's end the result shows. `tail` shows its last lines whatever they
 * are, and an agent reads them first: a failed run ends with its outcome. The last
 * TAIL_LINES are shown as bytes allow (ALWAYS_LINES of them whatever their length); before
 * them, the input's ending too, when it is one: the lines from where no group begun
 * earlier reaches on, as a tool's report printed after a service's logs is (Tcl's `key
 * "/srv" not known in dictionary` and its `while executing` trace, dpkg's dependency
 * problems, a deadlock's goroutines: a dozen lines, none with a level word, after the
 * noise's last record). A log that ends as it went on (its last lines belong to groups
 * that recur), or a tool's output with no body to end, shows TAIL_LINES.
 */

/** The ending shown is at most the lines reading keeps (ENDING_LINES) and this many bytes as printed (each line cut to the width the text shows). */
export const ENDING_BYTES = 1600;
/** Shown whatever their length: the last lines an agent reads first. */
export const ALWAYS_LINES = 5;
const LINE_CHARS = 300;
/** A body's recurring group has at least this many records (late-errors.ts's noise has as many). */
const MIN_BODY_RECORDS = MIN_NOISE_RECORDS;

/**
 * `tail`: the input's last lines, in order (up to ENDING_LINES, as read kept them).
 * `groups`: every group, with its first and last line. The ending begins at the earliest
 * line L of `tail` where no group begins before L and ends at or after it, after a body;
 * of it, or else of the last TAIL_LINES, as many last lines as fit ENDING_BYTES are
 * shown, ALWAYS_LINES at least.
 */
export function endingLines(tail: readonly TailLine[], groups: readonly GroupStat[]): TailLine[] {
  const always = Math.max(0, tail.length - ALWAYS_LINES);
  const least = Math.max(0, tail.length - TAIL_LINES);
  let begins = -1;
  for (let k = 0; k < least && begins < 0; k++) if (beginsEnding(tail[k]!.line, groups)) begins = k;
  const stop = begins >= 0 && afterBody(tail[begins]!.line, groups) ? begins : least;
  let from = tail.length;
  for (let bytes = 0; from > stop; from--) {
    const b = printed(tail[from - 1]!);
    if (from <= always && bytes + b > ENDING_BYTES) break;
    bytes += b;
  }
  return tail.slice(from);
}

const printed = (l: TailLine): number => Math.min(l.text.length, LINE_CHARS) + 8;

/**
 * An ending follows a body: a group begun before it recurs (MIN_BODY_RECORDS or more). A
 * tool's output alone, all of it one-off lines (a sanitizer's report and its legend),
 * has no body to end: there `tail`'s last lines are what is shown.
 */
function afterBody(line: number, groups: readonly GroupStat[]): boolean {
  for (const g of groups) if (g.firstLine < line && g.records >= MIN_BODY_RECORDS) return true;
  return false;
}

/** No group begun before `line` reaches it: what follows is the input's own ending. */
function beginsEnding(line: number, groups: readonly GroupStat[]): boolean {
  for (const g of groups) if (g.firstLine < line && g.lastLine >= line) return false;
  return true;
}
