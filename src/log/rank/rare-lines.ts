import type { GroupStat } from '../model/partial.js';
import type { RareReason } from '../model/result.js';
import { fromLevelWord, Severity } from '../model/severity.js';
import { clip } from '../../core/text.js';
import { afterTokens, headerTokenCount } from '../parse/header.js';

/**
 * The rare line that explains a burst: a group of one or a few records that comes shortly
 * before a burst of errors begins, and would otherwise be left out or ranked past the first
 * screen (a config reload that shrank a pool, minutes before the pool timeouts start; a
 * setting logged as INFO, `DATABASE_URL not set; using sqlite3 in-memory database`, just
 * before every query fails). Found on the merged groups, so the answer does not depend on
 * chunking; a bounded number of slots.
 */

/** At most this many rare groups are shown, beyond the ranked ones. */
export const RARE_SLOTS = 3;
/** A group of at most this many records is rare. */
const MAX_RARE_RECORDS = 3;
/** A burst: an error or fault group of at least this many records that begins after the log does. */
const MIN_BURST_RECORDS = 5;
/** How far before a burst's first line a rare line may lie: in time where both have times, else in lines. */
const WINDOW_MS = 15 * 60 * 1000;
const WINDOW_LINES = 20_000;
/** A word shared with the burst counts when it is this long and in few groups' templates. */
const MIN_WORD_CHARS = 4;
const MAX_WORD_SHARE = 0.05;
const BURST_CHARS = 60;
/**
 * Without a shared word, nearness alone counts only this strictly: one of the NEAREST_RARE
 * rare groups written last before the burst's first record, within NEAR_LINES lines of it.
 * What a reader looks at first is just above the first error; recurring lines between (an
 * access log) say nothing, another rare line does.
 */
const NEAREST_RARE = 2;
const NEAR_LINES = 8;

export interface RareGroup {
  group: GroupStat;
  reason: RareReason;
}

/**
 * The rare groups worth a slot, for the bursts among `shown` (in rank order), taken from
 * `rest` (groups left out, or ranked past the first screen): at most RARE_SLOTS, best first
 * (sharing words with the burst, then nearest before it).
 */
export function findRareLines(shown: readonly GroupStat[], rest: readonly GroupStat[], all: readonly GroupStat[]): RareGroup[] {
  const found = shown.map((g, rank) => ({ g, rank })).filter(({ g }) => g.severity <= Severity.Error && g.records >= MIN_BURST_RECORDS && g.firstLine > 1);
  if (found.length === 0) return [];
  const rareByEnd = all.filter((g) => g.records <= MAX_RARE_RECORDS).sort((a, b) => a.lastLine - b.lastLine);
  const bursts = found.map((b) => ({ ...b, words: wordsOf(messageOf(b.g)), nearest: nearestRare(b.g, rareByEnd) }));
  const share = wordShare(all);
  const shownAt = new Map(shown.map((g, rank) => [g, rank]));
  const candidates: { group: GroupStat; reason: RareReason; score: number; distance: number }[] = [];
  for (const c of rest) {
    if (c.records > MAX_RARE_RECORDS) continue;
    let best: { reason: RareReason; score: number; distance: number } | undefined;
    let words: Set<string> | undefined;
    const at = shownAt.get(c) ?? shown.length;
    for (const { g: burst, rank, words: theirs, nearest } of bursts) {
      // Shown after the burst: never moved down.
      if (c.lastLine >= burst.firstLine || rank > at) continue;
      const gap = leadOf(c, burst);
      if (gap === undefined) continue;
      words ??= wordsOf(messageOf(c));
      const shared = sharedWords(words, theirs, share);
      const score = shared.length;
      // Nearness alone is weak evidence: without a shared word, only the last rare lines
      // before it, and only those that say something of their own (a distinctive word, not
      // an empty message under a logger's name, nor a rule of dashes).
      if (score === 0 && (!nearest.includes(c) || !distinctive(words, share))) continue;
      if (best === undefined || score > best.score || (score === best.score && gap.distance < best.distance)) {
        best = { reason: { beforeRank: rank + 1, burst: clip(burst.template, BURST_CHARS), burstRecords: burst.records, lead: gap.text, shared }, score, distance: gap.distance };
      }
    }
    if (best !== undefined) candidates.push({ group: c, ...best });
  }
  candidates.sort((a, b) => b.score - a.score || a.distance - b.distance || a.group.firstLine - b.group.firstLine);
  return candidates.slice(0, RARE_SLOTS).map(({ group, reason }) => ({ group, reason }));
}

/**
 * The NEAREST_RARE rare groups whose last record comes last before `burst` begins, within
 * NEAR_LINES lines, nearest first. `rareByEnd`: the rare groups by their last line (no two
 * groups' records begin on one line: the order is total), searched, not walked, per burst.
 */
function nearestRare(burst: GroupStat, rareByEnd: readonly GroupStat[]): GroupStat[] {
  let lo = 0;
  let hi = rareByEnd.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rareByEnd[mid]!.lastLine < burst.firstLine) lo = mid + 1;
    else hi = mid;
  }
  const near: GroupStat[] = [];
  for (let i = lo - 1; i >= 0 && near.length < NEAREST_RARE && burst.firstLine - rareByEnd[i]!.lastLine <= NEAR_LINES; i--) near.push(rareByEnd[i]!);
  return near;
}

/**
 * For `all` groups: a function giving the distinctive words of one group's message that the
 * message of one of `others` holds too, each once, sorted. Words are read once per group.
 */
export function sharedWordsAmong(all: readonly GroupStat[]): (c: GroupStat, others: readonly GroupStat[]) => string[] {
  const share = wordShare(all);
  const words = new Map<GroupStat, Set<string>>();
  const of = (g: GroupStat): Set<string> => {
    let w = words.get(g);
    if (w === undefined) words.set(g, (w = wordsOf(messageOf(g))));
    return w;
  };
  return (c, others) => {
    const shared = new Set<string>();
    for (const g of others) for (const w of sharedWords(of(c), of(g), share)) shared.add(w);
    return [...shared].sort();
  };
}

/** How far before the burst, and a rank for nearness (0 nearest), or undefined when too far (`maxLines` apart where either has no time). */
export function leadOf(c: GroupStat, burst: GroupStat, maxLines = WINDOW_LINES): { text: string; distance: number } | undefined {
  const before = parseTime(c.lastTime);
  const after = parseTime(burst.firstTime);
  if (before !== undefined && after !== undefined && after >= before) {
    const ms = after - before;
    if (ms > WINDOW_MS) return undefined;
    return { text: ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`, distance: burst.firstLine - c.lastLine };
  }
  const lines = burst.firstLine - c.lastLine;
  if (lines > maxLines) return undefined;
  return { text: `${lines} ${lines === 1 ? 'line' : 'lines'}`, distance: lines };
}

const ISO = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?(?:[.,](\d{1,9}))?\s?(Z|[+-]\d\d:?\d\d)?/;

/** Milliseconds for ISO-like times (the zone, where missing, taken as the same for both). */
export function parseTime(text: string): number | undefined {
  const m = ISO.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0), Math.floor(Number(`0.${frac ?? '0'}`) * 1000));
  if (zone === undefined || zone === 'Z') return ms;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.replace(':', '');
  return ms - sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))) * 60_000;
}

const wordsOf = (text: string): Set<string> =>
  new Set(
    text
      // A JSON line's keys (`"comp":`, `"level":`) are every line's words, not its message's.
      .replace(JSON_KEY, ' ')
      .split(/[\s,;()[\]{}"=]+/)
      .map((w) => w.replace(/^['`]+|['`.:]+$/g, ''))
      // Words, not numbers, dates or times: two letters at least. Not a level's name either
      // (`status: ERROR`): every error line of any part of a program may say it.
      .filter((w) => w.length >= MIN_WORD_CHARS && !w.startsWith('<') && /[A-Za-z].*[A-Za-z]/.test(w) && fromLevelWord(w) === undefined),
  );

const JSON_KEY = /"[^"\s]{1,64}"\s*:/g;

/** For each word of the templates, how many groups' templates hold it. */
function wordShare(all: readonly GroupStat[]): { count: Map<string, number>; most: number } {
  const count = new Map<string, number>();
  for (const g of all) for (const w of wordsOf(g.template)) count.set(w, (count.get(w) ?? 0) + 1);
  // Distinctive: in the two groups at hand and few others.
  return { count, most: Math.max(2, Math.floor(MAX_WORD_SHARE * all.length)) };
}

/** Whether one of `words` is in few groups' templates. */
function distinctive(words: Set<string>, share: { count: Map<string, number>; most: number }): boolean {
  for (const w of words) if ((share.count.get(w) ?? 0) <= share.most) return true;
  return false;
}

/** Distinctive words of the rare group's message (`mine`) that the burst's message holds too (`theirs`). */
function sharedWords(mine: Set<string>, theirs: Set<string>, share: { count: Map<string, number>; most: number }): string[] {
  return [...mine].filter((w) => theirs.has(w) && (share.count.get(w) ?? 0) <= share.most).sort();
}

/**
 * A group's example past the input's header and the source fields its template begins with:
 * those fields (a thread, a logger's name) say only that a rare line and a burst came from
 * the same part of the program, which every line of it shares.
 */
function messageOf(g: GroupStat): string {
  const sourceFields = headerTokenCount(g.template.split(/[ \t]+/));
  return g.exampleTemplateAt < 0 ? g.example : g.example.slice(afterTokens(g.example, g.exampleTemplateAt, sourceFields));
}
