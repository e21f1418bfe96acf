import type { GroupStat } from '../model/partial.js';
import type { FirstReason } from '../model/result.js';
import { Severity } from '../model/severity.js';
import { FIRST_RANKS } from './late-errors.js';
import { leadOf, sharedWordsAmong } from './rare-lines.js';

/**
 * The error a cascade begins with. When one failure (a database that refuses connections)
 * makes every caller fail in turn, each caller's error recurs and ranks by its count, while
 * the failure itself was logged once, before them, and ranks below all of them: past the
 * first screen, though it is the cause. Such a one-off error is shown before the ranked
 * groups when recurring errors ranked above it begin after it, the first of them shortly
 * after. Nearness alone is weak evidence (a log whose level is read from its words has
 * one-off "errors" all along): unless it ends on the line before the first of them, it must
 * share a distinctive word with them. Where several qualify, the one sharing the most words
 * wins, then the nearest, then the earliest. Errors that began before it and go on (another
 * part of the system failing all along) do not stand in its way.
 */

/** A one-off: at most this many records. */
const MAX_FIRST_RECORDS = 3;
/** A recurring error that follows it: a group ranked above it of at least this many records. */
const MIN_CASCADE_RECORDS = 5;
/**
 * Where either has no time, the first of them begins within this many lines after it: a
 * caller's failure follows the one it depends on within a few records, not pages (where
 * both have times, 15 minutes, as for a rare line: a job scheduled after a failed start).
 */
const MAX_LEAD_LINES = 200;

export interface FirstError {
  group: GroupStat;
  reason: FirstReason;
}

/**
 * `ranked`: every group in rank order. `tailFrom`: the first line shown as the input's last
 * lines; a group within them is on screen already. `moved`: groups already shown ahead of
 * the ranks (the errors the input ends with).
 */
export function findFirstError(ranked: readonly GroupStat[], tailFrom: number, moved: { has(group: GroupStat): boolean }): FirstError | undefined {
  const recurring: { group: GroupStat; rank: number }[] = [];
  ranked.forEach((g, rank) => {
    if (g.severity <= Severity.Error && g.records >= MIN_CASCADE_RECORDS) recurring.push({ group: g, rank });
  });
  if (recurring.length === 0) return undefined;
  const sharedWith = sharedWordsAmong(ranked);
  let best: { first: FirstError; distance: number } | undefined;
  for (let rank = FIRST_RANKS; rank < ranked.length; rank++) {
    const c = ranked[rank]!;
    // Ranks are severity first: past the errors nothing more can qualify.
    if (c.severity > Severity.Error) break;
    if (c.records > MAX_FIRST_RECORDS || c.firstLine >= tailFrom || moved.has(c)) continue;
    const cascade = recurring.filter((r) => r.rank < rank && r.group.firstLine > c.lastLine).map((r) => r.group);
    if (cascade.length === 0) continue;
    const next = cascade.reduce((a, b) => (b.firstLine < a.firstLine ? b : a));
    const lead = leadOf(c, next, MAX_LEAD_LINES);
    if (lead === undefined) continue;
    const shared = sharedWith(c, cascade);
    const distance = next.firstLine - c.lastLine;
    if (shared.length === 0 && distance > 1) continue;
    const better =
      best === undefined ||
      shared.length > best.first.reason.shared.length ||
      (shared.length === best.first.reason.shared.length && (distance < best.distance || (distance === best.distance && c.firstLine < best.first.group.firstLine)));
    if (better) best = { first: { group: c, reason: { errorsAfter: cascade.length, lead: lead.text, shared } }, distance };
  }
  return best?.first;
}
