import type { GroupStat } from '../model/partial.js';
import { Severity } from '../model/severity.js';

/**
 * The errors a run ends with. Ranking by severity then count puts a noisy log's recurring
 * errors first; a failure printed after them (a test runner's report after a service's
 * logs, a build's error after a machine's kernel noise) has a record or two per group and
 * would rank past the screen, while it is what ended the run. The error groups that begin
 * near the input's end, after every group an agent reads first has ended, are shown before
 * those: a bounded number, in the order they were written, under a heading that says why.
 */

/** The groups an agent reads first: the late errors must come after all of them. */
export const FIRST_RANKS = 5;
/** A late group begins within this many lines of the input's end (or is one record that reaches into them): a failure's report, not a log's middle. */
export const LATE_WINDOW_LINES = 500;
/** Noise recurs: a first-ranked group of at least this many records must have ended before a late group. */
export const MIN_NOISE_RECORDS = 5;
/** At most this many late groups are moved forward. */
export const LATE_SLOTS = 8;

export interface LateGroup {
  group: GroupStat;
  /** The last line of the first-ranked groups begun before it: it begins after that line. */
  after: number;
}

/**
 * `ranked` is every group in rank order; the late ones are among those past FIRST_RANKS:
 * error groups that begin after every first-ranked group begun before them has ended (a
 * first-ranked group may begin later: a panic that ends the run). `tailFrom`: the first
 * line the result shows as the input's last lines; a group wholly within them is on
 * screen already. `lastLine`: the input's last line; a late group begins within
 * LATE_WINDOW_LINES of it. The LATE_SLOTS begun last (no more than `top`, the groups
 * asked for), in the order they were written.
 */
export function findLateErrors(ranked: readonly GroupStat[], tailFrom: number, lastLine: number, top: number): LateGroup[] {
  if (ranked.length <= FIRST_RANKS) return [];
  const from = lastLine - LATE_WINDOW_LINES;
  const first = ranked.slice(0, FIRST_RANKS);
  const late: LateGroup[] = [];
  for (let i = FIRST_RANKS; i < ranked.length; i++) {
    const g = ranked[i]!;
    // Ranks are severity first: past the errors nothing more can qualify.
    if (g.severity > Severity.Error) break;
    // One long record that runs into the window (an assertion's report dumping both values) begins before it.
    const reaches = g.firstLine > from || (g.records === 1 && g.lastLine > from);
    if (g.firstLine >= tailFrom || !reaches) continue;
    const after = endBefore(g, first);
    if (after > 0) late.push({ group: g, after });
  }
  if (late.length === 0) return [];
  // A first-ranked error group of the same ending (one of the run's failures that ranks
  // high) is shown with the others, in line order, once the noise before them is known.
  const noise = first.filter((g) => g.severity > Severity.Error || endBefore(g, first) === 0);
  const noiseEnd = Math.max(0, ...noise.map((g) => g.lastLine));
  for (const g of first) {
    if (g.severity <= Severity.Error && !noise.includes(g) && g.firstLine > Math.max(noiseEnd, from) && g.firstLine < tailFrom) late.push({ group: g, after: noiseEnd });
  }
  late.sort((a, b) => b.group.firstLine - a.group.firstLine);
  return late.slice(0, Math.min(LATE_SLOTS, top)).reverse();
}

/**
 * The last line of the groups among `first` begun before `g`, when all of them have ended
 * before it begins and one of them recurred (noise, not the same failure's other parts);
 * 0 otherwise.
 */
function endBefore(g: GroupStat, first: readonly GroupStat[]): number {
  let after = 0;
  let recurring = false;
  for (const h of first) {
    if (h === g || h.firstLine >= g.firstLine) continue;
    if (h.lastLine >= g.firstLine) return 0;
    after = Math.max(after, h.lastLine);
    if (h.records >= MIN_NOISE_RECORDS) recurring = true;
  }
  return recurring ? after : 0;
}
