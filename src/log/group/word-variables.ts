import { headerTokenCount } from '../parse/header.js';
import type { GroupStat } from '../model/partial.js';
import { Severity } from '../model/severity.js';
import { countWords, mergeValueCounts, type ValueCounts } from '../model/values.js';

/**
 * After exact-template grouping: templates that are one event with variable words (a
 * user, a host, a path, a list) merge into one group. Decided by the cardinality of a
 * position among templates that agree everywhere else, on the final set of templates,
 * so the outcome does not depend on how the input was chunked or which worker saw what.
 *
 * 1. Templates are bucketed by severity and token count; a run of a repeated token (a list
 *    of block ids) counts as one token, so lists of any length share a bucket.
 * 2. For each position (then each pair of positions, for variables that vary together,
 *    such as a user and a host), templates that agree on every other token are candidates.
 * 3. They merge when the position holds a variable: two or more paths, at least
 *    MIN_VARIABLE_VALUES distinct values that look like ids (holding a digit or a
 *    placeholder: `Thunderbird_A<NUM>`, `an<NUM>…`), or at least MIN_WORD_VALUES plain
 *    words (user and host names). A few
 *    plain words are an enum and stay apart: "VM Started" and "VM Paused", or a node's
 *    states "boot", "wait" and "halt".
 */
export const MIN_VARIABLE_VALUES = 3;
export const MIN_WORD_VALUES = 5;
/** Pair search is quadratic in the token count: bounded. */
const PAIR_MAX_TOKENS = 40;
const PAIR_MAX_TEMPLATES = 5000;
const WILDCARD = '<*>';

export interface WordMerge {
  groups: GroupStat[];
  /** Key of every input group that was merged -> key of the group it now belongs to. */
  representative: Map<string, string>;
}

interface Entry {
  tokens: string[];
  /** The header the message came with; '' once merged messages came with different ones. */
  header: string;
  members: GroupStat[];
  lines: number;
  firstLine: number;
}

/** Groups as entries, bucketed by severity, token count and site: only those can be one event. */
function bucketed(groups: GroupStat[]): Map<string, Entry[]> {
  const buckets = new Map<string, Entry[]>();
  for (const g of groups) {
    const all = g.template.split(/[ \t]+/);
    const message = withoutHeader(all);
    const tokens = collapseRuns(message);
    // Raised at different places in the program's code, the same text is two events.
    const key = `${g.severity}|${tokens.length}|${g.site ?? ''}`;
    let b = buckets.get(key);
    if (b === undefined) buckets.set(key, (b = []));
    b.push({ tokens, header: all.slice(0, all.length - message.length).join(' '), members: [g], lines: g.lines, firstLine: g.firstLine });
  }
  return buckets;
}

export function mergeWordVariables(groups: GroupStat[]): WordMerge {
  const buckets = bucketed(groups);
  const representative = new Map<string, string>();
  const out: GroupStat[] = [];
  const index = pairIndex(groups);
  const rule: MergeRule = { accepts: (list, p) => isVariable(list, p, index), token: () => WILDCARD };
  for (const bucket of buckets.values()) {
    let entries = bucket;
    if (entries.length > 1) {
      // Templates that tokenise the same (a date's words, blanks) are one template.
      entries = mergeAt(entries, [], rule);
      const n = entries[0]!.tokens.length;
      // Only positions whose words differ can hold a variable; the rest need no pass.
      for (const p of varying(entries, n)) if (entries.length > 1) entries = mergeAt(entries, [p], rule);
      if (n <= PAIR_MAX_TOKENS && entries.length > 1 && entries.length <= PAIR_MAX_TEMPLATES) {
        const ps = varying(entries, n);
        for (let i = 0; i < ps.length; i++) {
          for (let j = i + 1; j < ps.length && entries.length > 1; j++) entries = mergeAt(entries, [ps[i]!, ps[j]!], rule);
        }
      }
    }
    for (const e of entries) {
      if (e.members.length === 1) {
        out.push(e.members[0]!);
        continue;
      }
      const merged = combine(e);
      for (const m of e.members) representative.set(m.key, merged.key);
      out.push(merged);
    }
  }
  return { groups: out, representative };
}

/** The message without its header (see log/header.ts): the same message from two processes is one event. */
function withoutHeader(tokens: string[]): string[] {
  const n = headerTokenCount(tokens);
  return n === 0 ? tokens : tokens.slice(n);
}

const CALENDAR_WORD = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)$/;
const isNumberToken = (t: string | undefined): boolean => t?.startsWith('<NUM>') === true;

/**
 * `a b b b c` -> `a b… c`: a list of any length is one token. A day or month name next to
 * a number (`at Fri Jul <NUM> <NUM>:<NUM>`) is part of a date, so a variable.
 */
function collapseRuns(raw: string[]): string[] {
  const tokens = raw.map((t, i) =>
    CALENDAR_WORD.test(t) && (isNumberToken(raw[i + 1]) || isNumberToken(raw[i - 1]) || CALENDAR_WORD.test(raw[i + 1] ?? '')) ? '<DATE>' : t,
  );
  const out: string[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1];
    if (last !== undefined && (same(last) === same(t) || same(last) === same(`${t}…`))) out[out.length - 1] = `${last.endsWith('…') ? last.slice(0, -1) : last}…`;
    else out.push(t);
  }
  return out;
}

/** <HEX> and <NUM> are one variable to grouping, as they are to the template hash. */
const same = (t: string | undefined): string | undefined => (t?.includes('<HEX>') ? t.replaceAll('<HEX>', '<NUM>') : t);

/** Positions at which the entries' words are not all the same. */
function varying(entries: Entry[], n: number): number[] {
  const out: number[] = [];
  for (let p = 0; p < n; p++) {
    const first = same(entries[0]!.tokens[p]);
    if (entries.some((e) => same(e.tokens[p]) !== first)) out.push(p);
  }
  return out;
}

/** Merges the entries that agree outside `positions` where every one of them holds a variable. */
/** When the entries that agree outside some positions merge, and what stands at those positions then. */
interface MergeRule {
  accepts(list: Entry[], p: number): boolean;
  token(list: Entry[], p: number): string;
}

const VARIABLE: MergeRule = { accepts: (list, p) => isVariable(list, p), token: () => WILDCARD };

function mergeAt(entries: Entry[], positions: number[], rule: MergeRule = VARIABLE): Entry[] {
  // Something must stay constant: a one-word message is not a variable of itself.
  if (positions.length > 0 && positions.length >= (entries[0]?.tokens.length ?? 0)) return entries;
  const bySignature = new Map<string, Entry[]>();
  for (const e of entries) {
    const sig = e.tokens.map((t, i) => (positions.includes(i) ? '\u0000' : same(t))).join(' ');
    let list = bySignature.get(sig);
    if (list === undefined) bySignature.set(sig, (list = []));
    list.push(e);
  }
  const out: Entry[] = [];
  for (const list of bySignature.values()) {
    if (list.length < 2 || !positions.every((p) => rule.accepts(list, p))) {
      out.push(...list);
      continue;
    }
    // Deterministic whatever the order entries came in: the earliest leads.
    list.sort((a, b) => a.firstLine - b.firstLine);
    const tokens = list[0]!.tokens.map((t, i) => (positions.includes(i) ? rule.token(list, i) : t));
    out.push({
      tokens,
      header: list.every((e) => e.header === list[0]!.header) ? list[0]!.header : '',
      members: list.flatMap((e) => e.members),
      lines: list.reduce((s, e) => s + e.lines, 0),
      firstLine: list[0]!.firstLine,
    });
  }
  out.sort((a, b) => a.firstLine - b.firstLine);
  return out;
}

/** A Unix or a Windows path (`/var/log/x`, `C:\\Windows\\x.dll`, `\\\\host\\share`). */
const isPath = (w: string): boolean => w.includes('/') || /^(?:[A-Za-z]:)?\\|\\[^\\\s]+\\/.test(w);

/**
 * For each pair of adjacent words, the groups whose templates hold it. A name (a user, a
 * host, a queue) stands in the same slot of several different events (`user cyrus` in
 * "session opened" and "session closed"); an event's enum words (`VM Started`, `VM
 * Paused`) in that one event.
 */
type PairIndex = Map<string, Set<GroupStat>>;

function pairIndex(groups: GroupStat[]): PairIndex {
  const index: PairIndex = new Map();
  for (const g of groups) {
    const tokens = g.template.split(/[ \t]+/);
    for (let i = 1; i < tokens.length; i++) {
      const pair = `${tokens[i - 1]} ${tokens[i]}`;
      let set = index.get(pair);
      if (set === undefined) index.set(pair, (set = new Set()));
      set.add(g);
    }
  }
  return index;
}

/** Do most of the words at p stand, after the same word, in events other than the list's own? */
function namesElsewhere(words: string[], list: Entry[], p: number, index: PairIndex): boolean {
  if (p === 0) return false;
  const before = list[0]!.tokens[p - 1]!;
  if (!/^[A-Za-z]/.test(before) || before === WILDCARD) return false;
  const own = new Set(list.flatMap((e) => e.members));
  const elsewhere = words.filter((w) => [...(index.get(`${before} ${w}`) ?? [])].some((g) => !own.has(g))).length;
  return elsewhere >= 2 && elsewhere * 2 >= words.length;
}

function isVariable(list: Entry[], p: number, index?: PairIndex): boolean {
  const counts = new Map<string, number>();
  for (const e of list) {
    // A position already found variable counts as many words.
    const word = same(e.tokens[p])!;
    if (word === WILDCARD) return true;
    counts.set(word, (counts.get(word) ?? 0) + e.lines);
  }
  // Two different paths are already a variable: a file name is never the event.
  if (counts.size >= 2 && [...counts.keys()].every(isPath)) return true;
  if (counts.size < MIN_VARIABLE_VALUES) return false;
  if (counts.size >= MIN_WORD_VALUES) return true;
  const words = [...counts.keys()];
  return words.some((w) => /[\d<]/.test(w)) || (index !== undefined && namesElsewhere(words, list, p, index));
}

/** One group from several: sums, the earliest first, the latest last, the first example. */
function combine(e: Entry): GroupStat {
  const ordered = [...e.members].sort((a, b) => a.firstLine - b.firstLine);
  const first = ordered[0]!;
  let last = first;
  let records = 0;
  let lines = 0;
  let perInput: Record<number, number> | undefined;
  for (const g of ordered) {
    records += g.records;
    lines += g.lines;
    if (g.lastLine > last.lastLine) last = g;
    if (g.perInput !== undefined) {
      perInput ??= {};
      for (const [i, n] of Object.entries(g.perInput)) perInput[Number(i)] = (perInput[Number(i)] ?? 0) + n;
    }
  }
  // The shared header stays in view; where the members came from different sources, the
  // examples show them.
  const template = (e.header === '' ? '' : `${e.header} `) + e.tokens.join(' ');
  const values = mergedValues(e, ordered);
  const { values: _, ...rest } = first;
  // An error merged from a few templates: each is a failure of its own worth a line.
  const also = first.severity <= Severity.Error && ordered.length <= MAX_ALSO + 1 ? ordered.slice(1).map((g) => g.example) : undefined;
  return {
    ...rest,
    // Members share a site (bucketed): two groups of one text from two places keep two keys.
    key: `${first.severity}:${template}${first.site === undefined ? '' : ` @ ${first.site}`}`,
    template,
    records,
    lines,
    lastLine: last.lastLine,
    lastTime: last.lastTime,
    ...(perInput !== undefined ? { perInput } : {}),
    ...(values !== undefined ? { values } : {}),
    ...(also !== undefined ? { also } : {}),
  };
}

/** Examples of the other templates merged into an error group, when there are this few. */
const MAX_ALSO = 2;

const PLACEHOLDER = /<(?:NUM|HEX|UUID|IP|MAC|PID)>/g;
const ENUM_TOKEN = /^<[^<>\s|]+(?:\|[^<>\s|]+)+>$/;
/** A position that holds words: a variable (`<*>`) or an enum (`<created|paid>`). */
const isWordPosition = (token: string): boolean => token === WILDCARD || ENUM_TOKEN.test(token);

/** A member's word with its placeholders filled where each held one value: the word as logged. */
function filled(token: string, valuesOf: (j: number) => ValueCounts): string {
  let j = 0;
  return token.replace(PLACEHOLDER, (m) => {
    const v = valuesOf(j++);
    return v !== null && v.length === 1 ? v[0]![0] : m;
  });
}
/** Placeholders a token holds, as the values arrays count them: a word position is one. */
const placeholdersIn = (token: string): number => (isWordPosition(token) ? 1 : (token.match(PLACEHOLDER)?.length ?? 0));

/**
 * What the merged template's placeholders held, in its text order: at a `<*>`, the words
 * of the members' templates with their records; elsewhere the members' own values, summed.
 * Undefined where the members' placeholders cannot be lined up (a list collapsed to one
 * token, values unknown).
 */
function mergedValues(e: Entry, members: GroupStat[]): ValueCounts[] | undefined {
  // Per member: its message tokens and the placeholder ordinal each token starts at.
  const views: { tokens: string[]; startAt: number[]; values: ValueCounts[] }[] = [];
  for (const m of members) {
    if (m.values === undefined) return undefined;
    const all = m.template.split(/[ \t]+/);
    const message = withoutHeader(all);
    if (collapseRuns(message).length !== message.length || message.length !== e.tokens.length) return undefined;
    let at = all.slice(0, all.length - message.length).reduce((n, t) => n + placeholdersIn(t), 0);
    const startAt = message.map((t) => {
      const here = at;
      at += placeholdersIn(t);
      return here;
    });
    views.push({ tokens: message, startAt, values: m.values });
  }
  const out: ValueCounts[] = [];
  const valueAt = (v: (typeof views)[number], k: number): ValueCounts => v.values[k] ?? null;
  if (e.header !== '') {
    const headerPlaceholders = e.header.split(/[ \t]+/).reduce((n, t) => n + placeholdersIn(t), 0);
    for (let k = 0; k < headerPlaceholders; k++) out.push(views.map((v) => valueAt(v, k)).reduce((a, b) => mergeValueCounts(a, b)));
  }
  e.tokens.forEach((token, p) => {
    if (isWordPosition(token)) {
      // A member that holds words here already (a merged group) brings its own counts.
      out.push(
        views
          .map((v, i): ValueCounts => (isWordPosition(v.tokens[p]!) ? valueAt(v, v.startAt[p]!) : countWords([[filled(v.tokens[p]!, (j) => valueAt(v, v.startAt[p]! + j)), members[i]!.records]])))
          .reduce((a, b) => mergeValueCounts(a, b)),
      );
      return;
    }
    for (let k = 0; k < placeholdersIn(token); k++) out.push(views.map((v) => valueAt(v, v.startAt[p]! + k)).reduce((a, b) => mergeValueCounts(a, b)));
  });
  return out;
}

/** An enum has at most this many words at a position; more is a variable (see isVariable). */
const MAX_ENUM_WORDS = 8;
/** Members of one enum family among the groups shown that make it one group on screen. */
const CROWDING = 3;

const ENUM: MergeRule = {
  accepts(list, p) {
    const words = new Set(list.map((e) => e.tokens[p]!));
    if (words.size < 2 || words.size > MAX_ENUM_WORDS) return false;
    // Plain words only: numbers, placeholders, paths and variables are no enum.
    return [...words].every((w) => /^[A-Za-z][A-Za-z_\-]*[.,:;]?$/.test(w));
  },
  token(list, p) {
    const lines = new Map<string, number>();
    for (const e of list) lines.set(e.tokens[p]!, (lines.get(e.tokens[p]!) ?? 0) + e.lines);
    const words = [...lines].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
    return `<${words.join('|')}>`;
  },
};

/**
 * Variations of one event by enum words (`order <NUM> state created -> paid`, `... paid ->
 * shipped`) that would crowd the groups shown: CROWDING or more of them among the first
 * `top` become one group on screen, `state <created|paid|packed> -> <paid|shipped|...>`,
 * its values counted word by word. Grouping itself (assignments, GA) keeps them apart: an
 * enum of a few frequent words can be different events ("VM Started", "VM Paused").
 * `ranked` is in rank order; the result is too, with `representative` for what was folded.
 */
export function foldEnums(ranked: GroupStat[], top: number, rank: (a: GroupStat, b: GroupStat) => number): WordMerge {
  const position = new Map(ranked.map((g, i) => [g, i]));
  const buckets = bucketed(ranked.slice(0, top));
  const representative = new Map<string, string>();
  const folded = new Set<GroupStat>();
  const out: GroupStat[] = [];
  for (const bucket of buckets.values()) {
    if (bucket.length < CROWDING) continue;
    let entries = bucket;
    const n = entries[0]!.tokens.length;
    const ps = varying(entries, n);
    for (const p of ps) if (entries.length > 1) entries = mergeAt(entries, [p], ENUM);
    for (let i = 0; i < ps.length && n <= PAIR_MAX_TOKENS; i++) {
      for (let j = i + 1; j < ps.length && entries.length > 1; j++) entries = mergeAt(entries, [ps[i]!, ps[j]!], ENUM);
    }
    for (const e of entries) {
      if (e.members.filter((m) => (position.get(m) ?? Infinity) < top).length < CROWDING) continue;
      const merged = combine(e);
      for (const m of e.members) {
        folded.add(m);
        representative.set(m.key, merged.key);
      }
      out.push(merged);
    }
  }
  if (folded.size === 0) return { groups: ranked, representative };
  return { groups: [...ranked.filter((g) => !folded.has(g)), ...out].sort(rank), representative };
}
