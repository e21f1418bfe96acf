import type { GroupStat } from '../log/model/partial.js';
import type { Severity } from '../log/model/severity.js';
import type { MergedLog } from '../log/model/state.js';
import { mergeWordVariables } from '../log/group/word-variables.js';

/** One run's records of a matched group: its exact-template groups, first first. */
export interface SideMembers extends Pick<GroupStat, 'records' | 'lines' | 'firstLine' | 'lastLine' | 'firstTime' | 'lastTime'> {
  members: GroupStat[];
}

/** A group of the two runs together, with what each run has of it. */
export interface MatchedGroup {
  key: string;
  severity: Severity;
  template: string;
  now?: SideMembers;
  baseline?: SideMembers;
}

/**
 * Matches the groups of two runs. Word-variable merging runs once over the exact templates
 * of both runs together, so that a position is a variable when it varies across the two
 * (a customer id, a host, a temporary path) and the same event gets one template in both,
 * even where one run alone had too few values to tell. Exact templates are the same key
 * in both runs, so an event written identically matches without merging.
 *
 * The order is fixed by the inputs (the baseline's groups, then this run's), so the
 * result does not depend on chunking or workers.
 */
export function matchGroups(now: MergedLog, baseline: MergedLog): MatchedGroup[] {
  const offset = baseline.lines;
  const union = new Map<string, GroupStat>();
  for (const g of baseline.groups.values()) union.set(g.key, { ...g });
  for (const g of now.groups.values()) {
    const seen = union.get(g.key);
    if (seen !== undefined) {
      seen.records += g.records;
      seen.lines += g.lines;
      seen.lastLine = g.lastLine + offset;
    } else {
      union.set(g.key, { ...g, firstLine: g.firstLine + offset, lastLine: g.lastLine + offset });
    }
  }
  const { groups, representative } = mergeWordVariables([...union.values()]);
  const byKey = new Map<string, MatchedGroup>();
  const out: MatchedGroup[] = [];
  for (const g of groups.sort((a, b) => a.firstLine - b.firstLine)) {
    const m: MatchedGroup = { key: g.key, severity: g.severity, template: g.template };
    byKey.set(g.key, m);
    out.push(m);
  }
  const place = (merger: MergedLog, side: 'now' | 'baseline'): void => {
    for (const g of merger.groups.values()) {
      const m = byKey.get(representative.get(g.key) ?? g.key)!;
      const s = m[side];
      if (s === undefined) {
        m[side] = { records: g.records, lines: g.lines, firstLine: g.firstLine, lastLine: g.lastLine, firstTime: g.firstTime, lastTime: g.lastTime, members: [g] };
        continue;
      }
      s.records += g.records;
      s.lines += g.lines;
      s.members.push(g);
      if (g.firstLine < s.firstLine) {
        s.firstLine = g.firstLine;
        s.firstTime = g.firstTime;
      }
      if (g.lastLine > s.lastLine) {
        s.lastLine = g.lastLine;
        s.lastTime = g.lastTime;
      }
    }
  };
  place(baseline, 'baseline');
  place(now, 'now');
  for (const m of out) {
    m.now?.members.sort((a, b) => a.firstLine - b.firstLine);
    m.baseline?.members.sort((a, b) => a.firstLine - b.firstLine);
  }
  return out;
}
