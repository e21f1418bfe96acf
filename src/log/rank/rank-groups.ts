import type { GroupStat } from '../model/partial.js';
import type { InputRead, LogRead, LogResult, ShownGroup, SeverityCount } from '../model/result.js';
import { SEVERITIES, severityName, type SeverityName } from '../model/severity.js';
import type { MergedLog } from '../model/state.js';
import { findPrecursors } from './precursors.js';
import { endingLines, tailLeftOut } from './ending.js';
import { findFirstError } from './first-error.js';
import { FIRST_RANKS, findLateErrors } from './late-errors.js';
import { findRareLines } from './rare-lines.js';
import { shownValues } from './shown-values.js';
import { foldEnums, type WordMerge } from '../group/word-variables.js';

/** Severity first, then count, then first appearance: a total order, so ties cannot flip. */
export function compareGroups(a: GroupStat, b: GroupStat): number {
  return a.severity - b.severity || b.records - a.records || a.firstLine - b.firstLine;
}

const zeroBySeverity = (): Record<SeverityName, number> =>
  Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<SeverityName, number>;

/**
 * Ranks the groups (after word-variable merging: `words`), keeps the top N, and accounts
 * for everything it leaves out.
 */
export function rankGroups(log: MergedLog, words: WordMerge, top: number, readAll: LogRead, format: string): LogResult {
  const { groups: merged, representative: byWords } = words;
  // Enum variations of one event that would crowd the view are shown as one group.
  const { groups: all, representative: byEnum } = foldEnums(merged.sort(compareGroups), top, compareGroups);
  const representative = new Map(byWords);
  for (const [key, rep] of representative) representative.set(key, byEnum.get(rep) ?? rep);
  for (const [key, rep] of byEnum) if (!representative.has(key)) representative.set(key, rep);
  // As much of the input's end as is its own ending; then the errors the run ends with
  // come first when ranking puts them past the first screen and that ending.
  const tail = readAll.tail === undefined ? undefined : endingLines(readAll.tail, all);
  const leftOut = tail === undefined ? undefined : tailLeftOut(tail);
  const read: LogRead = tail === undefined ? readAll : { ...readAll, tail, ...(leftOut !== undefined ? { tailLeftOut: leftOut } : {}) };
  const late = findLateErrors(all, tail?.[0]?.line ?? Number.POSITIVE_INFINITY, log.lines, top);
  const lateAfter = new Map(late.map((l) => [l.group, l.after]));
  // Then the error a cascade began with, when its recurring consequences rank above it.
  const first = findFirstError(all, tail?.[0]?.line ?? Number.POSITIVE_INFINITY, lateAfter);
  const ranked = all.slice(0, top);
  // The rare line before a burst, which ranking leaves out or puts past the first screen,
  // is shown right after the burst.
  const rare = findRareLines(ranked, all.slice(Math.min(top, FIRST_RANKS)).filter((g) => !lateAfter.has(g) && g !== first?.group), all);
  const rareOf = new Map(rare.map((r) => [r.group, r.reason]));
  // Those before one burst are read as the log has them: the last just above it.
  rare.sort((a, b) => a.group.firstLine - b.group.firstLine);
  const shown: GroupStat[] = [...lateAfter.keys(), ...(first !== undefined ? [first.group] : [])];
  ranked.forEach((g, i) => {
    if (!lateAfter.has(g) && g !== first?.group && !rareOf.has(g)) shown.push(g);
    for (const r of rare) if (r.reason.beforeRank === i + 1) shown.push(r.group);
  });
  const rankOf = new Map(all.map((g, i) => [g, i]));
  const shownSet = new Set(shown);
  const precursors = findPrecursors(shown, all, log.pairs, representative);
  const linesBySeverity = zeroBySeverity();
  let records = log.overflow.records;
  for (const g of all) {
    linesBySeverity[severityName(g.severity)] += g.lines;
    records += g.records;
  }
  log.overflow.bySeverity.forEach((n, s) => {
    linesBySeverity[SEVERITIES[s]!] += n;
  });

  const bySeverity: Partial<Record<SeverityName, SeverityCount>> = {};
  let omittedRecords = log.overflow.records;
  let omittedLines = log.overflow.lines;
  for (const g of all) {
    if (shownSet.has(g)) continue;
    const name = severityName(g.severity);
    const c = (bySeverity[name] ??= { groups: 0, lines: 0 });
    c.groups++;
    c.lines += g.lines;
    omittedRecords += g.records;
    omittedLines += g.lines;
  }
  log.overflow.bySeverity.forEach((n, s) => {
    if (n === 0) return;
    const c = (bySeverity[SEVERITIES[s]!] ??= { groups: 0, lines: 0 });
    c.lines += n;
  });

  return {
    kind: 'log',
    read,
    format,
    totals: { lines: log.lines - log.skipped, records, groups: all.length },
    linesBySeverity,
    groups: shown.map((g) => {
      const s = withInputs(toShown(g, rankOf.get(g)!), g, read.inputs);
      const precursor = precursors.get(g.key);
      const reason = rareOf.get(g);
      return {
        ...s,
        ...(precursor !== undefined ? { precursor } : {}),
        ...(reason !== undefined ? { rare: reason } : {}),
        ...(lateAfter.has(g) ? { late: { after: lateAfter.get(g)! } } : {}),
        ...(g === first?.group ? { first: first.reason } : {}),
      };
    }),
    omitted: {
      groups: all.length - shown.length,
      records: omittedRecords,
      lines: omittedLines,
      bySeverity,
      overflowLines: log.overflow.lines,
    },
  };
}

const SHOWN_INPUTS = 5;

/** Where a group occurs, when there are several inputs: the question batch users ask. */
function withInputs(shown: ShownGroup, g: GroupStat, inputs: InputRead[]): ShownGroup {
  if (inputs.length < 2 || g.perInput === undefined) return shown;
  const counts = Object.entries(g.perInput)
    .map(([i, count]) => ({ index: Number(i), count }))
    .sort((a, b) => b.count - a.count || a.index - b.index);
  const first = inputs.find((inp) => inp.lines > 0 && g.firstLine >= inp.firstLine && g.firstLine < inp.firstLine + inp.lines);
  return {
    ...shown,
    inputs: counts.slice(0, SHOWN_INPUTS).map((c) => ({ name: inputs[c.index]!.name, count: c.count })),
    inputCount: counts.length,
    ...(first !== undefined ? { firstAt: { name: first.name, line: g.firstLine - first.firstLine + 1 } } : {}),
  };
}

/** Everything in a group was made from lines redacted as they were read (records.ts). */
function toShown(g: GroupStat, i: number): ShownGroup {
  const values = shownValues(g);
  return {
    ...(values !== undefined ? { values } : {}),
    rank: i + 1,
    severity: severityName(g.severity),
    count: g.records,
    lines: g.lines,
    template: g.template,
    example: g.example,
    exampleTemplateAt: g.exampleTemplateAt,
    exampleMore: g.exampleMore,
    exampleMoreLines: g.exampleMoreLines,
    ...(g.printedBefore !== undefined ? { printedBefore: g.printedBefore } : {}),
    ...(g.also !== undefined ? { also: g.also } : {}),
    firstLine: g.firstLine,
    lastLine: g.lastLine,
    firstTime: g.firstTime === '' ? null : g.firstTime,
    lastTime: g.lastTime === '' ? null : g.lastTime,
  };
}
