import type { GroupStat } from '../model/partial.js';
import type { TailLine } from '../model/result.js';
import { Severity } from '../model/severity.js';
import { ENDING_LINES, TAIL_LINES } from '../read/raw-lines.js';
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
 * that recur), or a tool's output with no body to end, shows TAIL_LINES. A log whose
 * failure is followed by a routine run of its service's records shows the ending before
 * that run, and the run's last lines: `tail` would show the routine alone.
 */

/** The ending shown is at most ENDING_LINES and this many bytes as printed (each line cut to the width the text shows). */
export const ENDING_BYTES = 1600;
/** Shown whatever their length: the last lines an agent reads first. */
export const ALWAYS_LINES = 5;
const LINE_CHARS = 300;
/** A body's recurring group has at least this many records (late-errors.ts's noise has as many). */
const MIN_BODY_RECORDS = MIN_NOISE_RECORDS;

/**
 * `tail`: the input's last lines, in order (up to KEPT_LINES, as read kept them).
 * `groups`: every group, with its first and last line. Where the input ends with a quiet
 * run (see quietFrom), the ending shown is the one before it and the run's last
 * QUIET_KEPT lines; else the ending is that of the last ENDING_LINES (see ending).
 */
export function endingLines(tail: readonly TailLine[], groups: readonly GroupStat[]): TailLine[] {
  const quiet = quietFrom(tail, groups);
  if (quiet < 0) return ending(tail, groups, ENDING_BYTES);
  const kept = tail.slice(tail.length - QUIET_KEPT);
  const budget = ENDING_BYTES - kept.reduce((n, l) => n + printed(l), 0);
  // The run's groups recur all along, over the ending too: where it begins is read from the others.
  const runFrom = tail[quiet]!.line;
  const before = groups.filter((g) => g.lastLine < runFrom);
  return [...ending(tail.slice(0, quiet), before, budget), ...kept];
}

/** Where the lines endingLines gave leave out a quiet run: after which line, how many. */
export function tailLeftOut(shown: readonly TailLine[]): { afterLine: number; lines: number } | undefined {
  for (let i = 1; i < shown.length; i++) {
    const lines = shown[i]!.line - shown[i - 1]!.line - 1;
    if (lines > 0) return { afterLine: shown[i - 1]!.line, lines };
  }
  return undefined;
}

/** Of a quiet run that ends the input, its last lines shown: the input's very end. */
export const QUIET_KEPT = 2;

/**
 * Where the input ends with a quiet run: a service that went on logging its routine after
 * the failure (`batch 18 done` after a tool's report), so `tail` shows only the routine.
 * The run is the last lines after every line of a loud group: one that is rare (fewer
 * than MIN_BODY_RECORDS records), or a warning or worse begun within the lines kept. A
 * service's own errors that recur all along are its routine too. The run counts when it
 * is TAIL_LINES or more long and something is kept before it. Gives the run's first
 * index in `tail`, or -1.
 */
function quietFrom(tail: readonly TailLine[], groups: readonly GroupStat[]): number {
  const firstKept = tail[0]?.line ?? 0;
  let loud = 0;
  for (const g of groups) if ((g.records < MIN_BODY_RECORDS || (g.severity <= Severity.Warning && g.firstLine >= firstKept)) && g.lastLine > loud) loud = g.lastLine;
  let from = tail.length;
  while (from > 0 && tail[from - 1]!.line > loud) from--;
  return from > 0 && tail.length - from >= TAIL_LINES ? from : -1;
}

/**
 * Of the last ENDING_LINES of `all`: the ending begins at the earliest line L where no
 * group begins before L and ends at or after it, after a body; of it and the
 * CONTEXT_LINES before it, or else of the last TAIL_LINES, as many last lines as fit
 * `budget` bytes are shown, ALWAYS_LINES at least.
 */
function ending(all: readonly TailLine[], groups: readonly GroupStat[], budget: number): TailLine[] {
  const offset = Math.max(0, all.length - ENDING_LINES);
  const always = Math.max(0, all.length - ALWAYS_LINES);
  const least = Math.max(offset, all.length - TAIL_LINES);
  let begins = -1;
  for (let k = offset; k < least && begins < 0; k++) if (beginsEnding(all[k]!.line, groups)) begins = k;
  const stop = begins >= 0 && afterBody(all[begins]!.line, groups) ? Math.max(0, begins - CONTEXT_LINES) : least;
  let from = all.length;
  for (let bytes = 0; from > stop; from--) {
    const b = printed(all[from - 1]!);
    if (from <= always && bytes + b > budget) break;
    bytes += b;
  }
  return all.slice(from);
}

/**
 * An ending is shown with the lines just before it, the body's last records: what the run
 * was doing when it failed (`processing initech ...` before Tcl's error, the batch whose
 * values a traceback then chokes on), as `grep -B` would. The first cut when bytes run out.
 */
const CONTEXT_LINES = 2;

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
