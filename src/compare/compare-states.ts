import type { LogState } from '../log/model/state.js';
import type { GroupStat } from '../log/model/partial.js';
import { severityName, type SeverityName } from '../log/model/severity.js';
import { formatCount } from '../core/text.js';
import { ENDING_LINES } from '../log/read/raw-lines.js';
import { pairCounterparts, MIN_SHARED_WORDS, MIN_SIMILARITY, WORDS_RULE } from './counterparts.js';
import { matchGroups, type MatchedGroup, type SideMembers } from './match-groups.js';
import { MIN_FACTOR, MIN_RECORDS_OFF, RATE_RULE, rateChange, type RateChange } from './rate-change.js';
import type { CompareExample, ComparisonResult, NewEntry, RateEntry, SideGroup, SideRead } from './result.js';
import { differsInValues, isWord, messageOf, templateWords } from './tokens.js';

/** Of a group with several exact templates, the first this many show their example. */
export const MAX_VARIANTS = 3;

export const MATCHING_RULE = 'groups matched by template after word-variable merging over both runs';
export const VALUES_RULE =
  'a line written once in each run changed when a word or count in it differs; times, dates, measurements (a fraction or a unit) and ids do not count';

/**
 * Compares this run's merged state with a baseline's: what is new, what changed rate,
 * what is gone, what both share. Pure: the same two states give the same result.
 */
export function compareStates(now: LogState, baseline: LogState, top: number): ComparisonResult {
  const matched = matchGroups(now.merged, baseline.merged);
  const nowRecords = recordsOf(now);
  const wasRecords = recordsOf(baseline);

  const onlyNow: MatchedGroup[] = [];
  const onlyWas: MatchedGroup[] = [];
  const valueChanged: MatchedGroup[] = [];
  const rates: { m: MatchedGroup; change: RateChange }[] = [];
  const shared = { groups: 0, records: 0, lines: 0, baselineRecords: 0, baselineLines: 0 };
  for (const m of matched) {
    if (m.baseline === undefined) onlyNow.push(m);
    else if (m.now === undefined) onlyWas.push(m);
    else if (m.now.records === 1 && m.baseline.records === 1 && differsInValues(message(m.now.members[0]!), message(m.baseline.members[0]!))) {
      valueChanged.push(m);
    } else {
      const change = rateChange(m.now.records, nowRecords, m.baseline.records, wasRecords);
      if (change !== undefined) rates.push({ m, change });
      else {
        shared.groups++;
        shared.records += m.now.records;
        shared.lines += m.now.lines;
        shared.baselineRecords += m.baseline.records;
        shared.baselineLines += m.baseline.lines;
      }
    }
  }

  // New groups in rank order; the words rule pairs them with baseline groups that are gone.
  const rankedNew = onlyNow.sort((a, b) => bySeverityCount(a, b, 'now'));
  const pairs = pairCounterparts(
    rankedNew.map((m) => m.template),
    onlyWas.map((m) => m.template),
  );
  const counterpart = new Map(pairs.map((p) => [p.now, p]));
  const paired = new Set(pairs.map((p) => p.was));

  // A new group with the very words of one exact template of the baseline's, at another
  // level, merged there into a group this run shares (`# fail 0` among `# <*> <*>`, while
  // `# fail 3` is an error of its own): that template is what it was.
  const sameWords = baselineMembersByWords(matched);
  const entries: { m: MatchedGroup; entry: Omit<NewEntry, 'rank'> }[] = [];
  rankedNew.forEach((m, i) => {
    const p = counterpart.get(i);
    const member = p === undefined ? sameWords.get(templateWords(m.now!.members[0]!.template).join(' ')) : undefined;
    const entry: Omit<NewEntry, 'rank'> = { ...sideGroup(m, m.now!), change: p === undefined && member === undefined ? 'new' : 'words' };
    if (p !== undefined) {
      entry.was = sideGroup(onlyWas[p.was]!, onlyWas[p.was]!.baseline!);
      entry.similarity = Math.round(p.similarity * 100) / 100;
    } else if (member !== undefined) {
      entry.was = sideGroup({ key: member.key, severity: member.severity, template: member.template }, memberSide(member));
      entry.similarity = 1;
    }
    entries.push({ m, entry });
  });
  for (const m of valueChanged) entries.push({ m, entry: { ...sideGroup(m, m.now!), change: 'values', was: sideGroup(m, m.baseline!) } });
  entries.sort((a, b) => bySeverityCount(a.m, b.m, 'now'));

  const newCount = { groups: entries.length, records: 0, lines: 0 };
  const bySeverity: Partial<Record<SeverityName, number>> = {};
  for (const { m } of entries) {
    newCount.records += m.now!.records;
    newCount.lines += m.now!.lines;
    const s = severityName(m.severity);
    bySeverity[s] = (bySeverity[s] ?? 0) + 1;
  }

  rates.sort((a, b) => a.m.severity - b.m.severity || b.change.recordsOff - a.change.recordsOff || a.m.now!.firstLine - b.m.now!.firstLine);
  const rateCount = { groups: rates.length, records: 0, lines: 0 };
  for (const { m } of rates) {
    rateCount.records += m.now!.records;
    rateCount.lines += m.now!.lines;
  }

  const gone = onlyWas.filter((_, i) => !paired.has(i)).sort((a, b) => bySeverityCount(a, b, 'baseline'));
  const goneCount = { groups: gone.length, records: 0, lines: 0 };
  for (const m of gone) {
    goneCount.records += m.baseline!.records;
    goneCount.lines += m.baseline!.lines;
  }

  const notes: string[] = [];
  if (now.merged.overflow.lines > 0) notes.push(`${formatCount(now.merged.overflow.lines)} lines of this run had templates past the group cap: counted, not compared`);
  if (baseline.merged.overflow.lines > 0) notes.push(`${formatCount(baseline.merged.overflow.lines)} lines of the baseline had templates past the group cap: counted, not compared`);

  return {
    kind: 'comparison',
    now: sideRead(now, matched, 'now', nowRecords),
    baseline: sideRead(baseline, matched, 'baseline', wasRecords),
    rules: {
      matching: MATCHING_RULE,
      rate: { minFactor: MIN_FACTOR, minRecordsOff: MIN_RECORDS_OFF, text: RATE_RULE },
      words: { minSimilarity: MIN_SIMILARITY, minSharedWords: MIN_SHARED_WORDS, text: WORDS_RULE },
      values: VALUES_RULE,
    },
    new: { ...newCount, bySeverity, shown: entries.slice(0, top).map(({ entry }, i) => ({ rank: i + 1, ...entry })) },
    rateChanged: { ...rateCount, shown: rates.slice(0, top).map(({ m, change }, i) => rateEntry(i + 1, m, change, nowRecords, wasRecords)) },
    gone: { ...goneCount, shown: gone.slice(0, top).map((m, i) => ({ rank: i + 1, ...sideGroup(m, m.baseline!) })) },
    shared,
    notes,
  };
}

/** The exact templates inside the groups both runs share, by their words: the first of each. */
function baselineMembersByWords(matched: readonly MatchedGroup[]): Map<string, GroupStat> {
  const out = new Map<string, GroupStat>();
  for (const m of matched) {
    if (m.now === undefined || m.baseline === undefined || m.baseline.members.length < 2) continue;
    for (const g of m.baseline.members) {
      const words = templateWords(g.template);
      if (words.some(isWord)) {
        const key = words.join(' ');
        if (!out.has(key)) out.set(key, g);
      }
    }
  }
  return out;
}

function memberSide(g: GroupStat): SideMembers {
  return { records: g.records, lines: g.lines, firstLine: g.firstLine, lastLine: g.lastLine, firstTime: g.firstTime, lastTime: g.lastTime, members: [g] };
}

/** Severity first, then count, then first appearance (in that side's run): a total order. */
function bySeverityCount(a: MatchedGroup, b: MatchedGroup, side: 'now' | 'baseline'): number {
  return a.severity - b.severity || b[side]!.records - a[side]!.records || a[side]!.firstLine - b[side]!.firstLine;
}

function recordsOf(state: LogState): number {
  let n = state.merged.overflow.records;
  for (const g of state.merged.groups.values()) n += g.records;
  return n;
}

/** A group's first line without its header: what is compared for a change of values. */
const message = (g: GroupStat): string => messageOf(g.example, g.exampleTemplateAt, g.template);

function sideGroup(m: MatchedGroup, s: SideMembers): SideGroup {
  return {
    severity: severityName(m.severity),
    records: s.records,
    lines: s.lines,
    firstLine: s.firstLine,
    lastLine: s.lastLine,
    firstTime: s.firstTime === '' ? null : s.firstTime,
    lastTime: s.lastTime === '' ? null : s.lastTime,
    template: m.template,
    examples: s.members.slice(0, MAX_VARIANTS).map(toExample),
    variants: s.members.length,
  };
}

function toExample(g: GroupStat): CompareExample {
  return { example: g.example, exampleTemplateAt: g.exampleTemplateAt, exampleMore: g.exampleMore, exampleMoreLines: g.exampleMoreLines, line: g.firstLine };
}

function rateEntry(rank: number, m: MatchedGroup, change: RateChange, nowRecords: number, wasRecords: number): RateEntry {
  const perThousand = (n: number, total: number): number => Math.round((n * 100_000) / total) / 100;
  return {
    rank,
    now: sideGroup(m, m.now!),
    was: sideGroup(m, m.baseline!),
    perThousandNow: perThousand(m.now!.records, nowRecords),
    perThousandWas: perThousand(m.baseline!.records, wasRecords),
    direction: change.direction,
    factor: change.factor,
  };
}

function sideRead(state: LogState, matched: MatchedGroup[], side: 'now' | 'baseline', records: number): SideRead {
  const inputs = state.read.inputs;
  const formats = [...new Set(inputs.filter((i) => i.lines > 0 || inputs.length === 1).map((i) => i.format))];
  // Reading keeps more last lines than a comparison shows (they are for finding a log's own ending).
  const tail = state.read.tail;
  return {
    read: tail === undefined ? state.read : { ...state.read, tail: tail.slice(Math.max(0, tail.length - ENDING_LINES)) },
    format: formats.join(', ') || 'plain text',
    totals: { lines: state.merged.lines - state.merged.skipped, records, groups: matched.filter((m) => m[side] !== undefined).length },
  };
}
