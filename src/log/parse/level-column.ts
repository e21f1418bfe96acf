/**
 * A log's level column, learned from its head: the token position (blanks or bars between)
 * whose values come from a small set of level words (any case: `INFO`, `Info`, `info`),
 * written bare, bracketed, keyed (`level=warn`), or before a worker name as Celery does
 * (`WARNING/ForkPoolWorker-2]`), or from single letters where the format uses them
 * (logcat's `E`/`W`/`I`). Where a log has one, that column decides each line's severity and
 * the words in the message do not.
 */
import { fromLevelWord, LEVEL_NAMES, Severity } from '../model/severity.js';
import type { LevelColumn } from '../model/format.js';
import type { TimestampMatch } from './timestamp.js';

/** logcat's and glog's level letters. */
export const LEVEL_LETTERS: Readonly<Record<string, Severity>> = {
  V: Severity.Debug,
  D: Severity.Debug,
  I: Severity.Info,
  W: Severity.Warning,
  E: Severity.Error,
  F: Severity.Critical,
};
/** In a column of letters, logcat's `A` (assert) too: alone in prose it is an article. */
const LETTERS: Readonly<Record<string, Severity>> = { ...LEVEL_LETTERS, A: Severity.Critical };

/** Tokens looked at: level columns sit in the header, within a line's first few fields. */
const MAX_TOKEN = 12;
/** Share of candidate lines that must carry a level word at the position. */
const MIN_SHARE = 0.6;
const MIN_LETTER_SHARE = 0.8;
const MIN_LINES = 3;

/** Between a header's tokens: blanks, and the bars some writers use instead (`...,745|DEBUG|scheduler|`). */
const isSeparator = (c: number): boolean => c === 32 || c === 9 || c === 124;

/** Finds the n-th token of `line` from `from` (see isSeparator); false when there is none. */
export function nthToken(line: string, from: number, n: number, out: TimestampMatch): boolean {
  let i = from;
  const len = line.length;
  for (let k = 0; ; k++) {
    while (i < len && isSeparator(line.charCodeAt(i))) i++;
    if (i >= len) return false;
    let j = i;
    while (j < len && !isSeparator(line.charCodeAt(j))) j++;
    if (k === n) {
      out.start = i;
      out.end = j;
      return true;
    }
    i = j;
  }
}

/**
 * The first index of char code `code` in line[from, to), or -1. Not line.indexOf: that
 * reads on past `to` to the end of the prefix on every line without the character.
 */
export function charIndex(line: string, code: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (line.charCodeAt(i) === code) return i;
  return -1;
}

const isOpen = (c: number): boolean => c === 91 || c === 40 || c === 60 || c === 123 || c === 34 || c === 39;
const isWordChar = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** The level a token names, if it names one: `INFO`, `[warn]`, `level=error`, `WARNING/Worker-2]`, `E`. */
export function levelOfToken(line: string, a: number, b: number, letters: boolean): Severity | undefined {
  const eq = charIndex(line, 61 /* = */, a, b);
  if (eq >= a && eq < b) a = eq + 1;
  while (a < b && isOpen(line.charCodeAt(a))) a++;
  let w = a;
  while (w < b && isWordChar(line.charCodeAt(w))) w++;
  // What follows the word: nothing, a closing bracket, a colon, a slash or a comma.
  if (w < b) {
    const c = line.charCodeAt(w);
    if (!(c === 93 || c === 41 || c === 62 || c === 125 || c === 58 || c === 47 || c === 44 || c === 34 || c === 39 || c === 124)) return undefined;
  }
  const len = w - a;
  if (len === 0 || len > 13) return undefined;
  if (letters) return len === 1 ? LETTERS[line[a]!] : undefined;
  if (len === 1) return undefined;
  // A column holds a few words, mostly the one the line before held: compared in place.
  if (len === lastWord.length && line.startsWith(lastWord, a)) return lastSeverity;
  const word = line.slice(a, w);
  const severity = SPELLED.get(word) ?? (word.toLowerCase() === 'default' ? undefined : fromLevelWord(word)); // log show's "Default" is a level only there
  lastWord = word;
  lastSeverity = severity;
  return severity;
}
let lastWord = '';
let lastSeverity: Severity | undefined;

/** The usual spellings (`INFO`, `Info`, `info`) looked up as they are: most lines hit one. */
const SPELLED = new Map<string, Severity>();
for (const w of LEVEL_NAMES) {
  if (w === 'default') continue;
  const severity = fromLevelWord(w)!;
  for (const spelling of [w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1)]) SPELLED.set(spelling, severity);
}

/**
 * The level column of these lines (the head's non-blank lines that start at column 0),
 * or undefined. A column of words needs MIN_SHARE of the lines, of letters MIN_LETTER_SHARE
 * and two different letters; the first position that qualifies wins.
 */
export function detectLevelColumn(lines: readonly string[]): LevelColumn | undefined {
  if (lines.length < MIN_LINES) return undefined;
  const words = new Array<number>(MAX_TOKEN).fill(0);
  const letterHits = new Array<number>(MAX_TOKEN).fill(0);
  const letterKinds: Set<string>[] = Array.from({ length: MAX_TOKEN }, () => new Set());
  const tok: TimestampMatch = { start: 0, end: 0 };
  for (const line of lines) {
    let counted = false;
    for (let k = 0; k < MAX_TOKEN && nthToken(line, 0, k, tok); k++) {
      if (!counted && levelOfToken(line, tok.start, tok.end, false) !== undefined) {
        words[k]!++;
        counted = true;
      }
      if (k > 0 && levelOfToken(line, tok.start, tok.end, true) !== undefined) {
        letterHits[k]!++;
        letterKinds[k]!.add(line[tok.start]!);
      }
    }
  }
  for (let k = 0; k < MAX_TOKEN; k++) {
    if (words[k]! >= MIN_LINES && words[k]! >= MIN_SHARE * lines.length) return { token: k, letters: false };
  }
  for (let k = 1; k < MAX_TOKEN; k++) {
    if (letterHits[k]! >= MIN_LETTER_SHARE * lines.length && letterKinds[k]!.size >= 2) return { token: k, letters: true };
  }
  return undefined;
}
