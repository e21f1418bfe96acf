import { afterTokens, headerTokenCount } from '../log/parse/header.js';
import { fromLevelWord } from '../log/model/severity.js';

/**
 * Words of templates and lines, as the comparison reads them. Two runs of a program write
 * the same events with other values; what tells one event from another is its words.
 */

/**
 * What a group's template says, for likeness: its head (the part before a root cause
 * joined with ` | `) without its header (host, process, node: see log/header.ts), which
 * every line of a source shares.
 */
export function templateWords(template: string): string[] {
  const bar = template.indexOf(' | ');
  const head = (bar < 0 ? template : template.slice(0, bar)).split(/[ \t]+/).filter((t) => t !== '');
  const out: string[] = [];
  for (const raw of head.slice(headerTokenCount(head))) {
    const t = normalise(raw);
    if (t === '' || isLevelToken(t)) continue;
    out.push(t);
  }
  return out;
}

/**
 * A declared level (`INFO`, `[error]`): what changes when a summary turns into a failure
 * (INFO -> ERROR). Only in capitals or brackets: `fine` and `default` are words as well.
 */
function isLevelToken(t: string): boolean {
  const bare = t.replace(/^[[(<]+|[\])>]+$/g, '');
  return (bare !== t || bare === bare.toUpperCase()) && fromLevelWord(bare) !== undefined;
}

/**
 * Sentence punctuation after a word is not part of it (`ok,` is `ok`), and a rule of one
 * repeated character (`=====`, `-----`) is one token whatever its width: test runners pad
 * their summaries to the terminal's width.
 */
function normalise(raw: string): string {
  if (raw.length > 1 && /^(.)\1+$/u.test(raw) && !/[\p{L}\p{N}]/u.test(raw)) return raw.slice(0, 3);
  return raw.length > 1 ? raw.replace(/[,;:.]+$/, '') : raw;
}

/** A word (two letters or more, no placeholder): what two templates must share to be one event. */
export const isWord = (t: string): boolean => !t.includes('<') && /\p{L}{2}/u.test(t);

/** Length of the longest common subsequence of two token lists. */
export const lcsLength = (a: readonly string[], b: readonly string[]): number => a.length - unmatchedTokens(a, b).a.length;

/** Tokens of a and b that are not in their longest common subsequence (a's, then b's). */
export function unmatchedTokens(a: readonly string[], b: readonly string[]): { a: number[]; b: number[] } {
  const n = a.length;
  const m = b.length;
  const table: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const onlyA: number[] = [];
  const onlyB: number[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) onlyA.push(i++);
    else onlyB.push(j++);
  }
  while (i < n) onlyA.push(i++);
  while (j < m) onlyB.push(j++);
  return { a: onlyA, b: onlyB };
}

/** A line's tokens past this many are not compared: the table is quadratic, and an event says what it is early. */
const MAX_LINE_TOKENS = 200;

/** A line's tokens, cut where templates cut them (blanks, quotes, brackets, `=`, `,` ...). */
export function lineTokens(line: string): string[] {
  return line
    .split(/[\s"'(),;<=>[\]{|}]+/)
    .map((t) => (t.length > 1 ? t.replace(/[.:]+$/, '') : t))
    .filter((t) => t !== '')
    .slice(0, MAX_LINE_TOKENS);
}

/** Units after a number that make it a measurement: a duration or a size (`\u00b5`: µ, escaped to keep the CLI's bundle ASCII, see scripts/bundle-cli.mjs). */
const UNIT = /^(?:ns|us|\u00b5s|ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|b|bytes?|kb|kib|mb|mib|gb|gib)$/i;
const MEASURED = /^[-+]?\d*\.\d+(?:[a-z\u00b5%]{1,3})?$|^[-+]?\d+(?:ns|us|\u00b5s|ms|s|m|h|b|kb|mb|gb|%)$/i;
/** A clock time or a date: `19:59:07`, `19:59:07.190`, `2026-12-01`, `2005.06.04`, `12/01/2026`, `2026-12-01T19:59:07Z`. */
const TIME_OR_DATE = /^(?:\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?|\d{4}([-/.])\d{1,2}\1\d{1,2}(?:[T-]\S*)?|\d{1,2}\/\d{1,2}\/\d{2,4})$/;
/** An id: six or more digits in a row, or hex of eight or more characters with a digit. */
const ID = /\d{6}|(?=[0-9a-f]*\d)[0-9a-f]{8}/i;

/** A line's message: what follows its header's time (`timeAt`) and the header tokens of its template. */
export function messageOf(line: string, timeAt: number, template: string): string {
  return line.slice(afterTokens(line, Math.max(0, timeAt), headerTokenCount(template.split(/[ \t]+/))));
}

/**
 * Whether two lines of one template (written once in each run) say something different:
 * a word or a count changed. A value that varies from run to run by nature does not
 * count: a time or date, a measurement (a number with a fraction or a unit: `0.89s`,
 * `562 ms`), an id (six digits in a row, or eight hex characters with a digit).
 */
export function differsInValues(nowLine: string, wasLine: string): boolean {
  const a = lineTokens(nowLine);
  const b = lineTokens(wasLine);
  const { a: onlyA, b: onlyB } = unmatchedTokens(a, b);
  return onlyA.some((i) => counts(a, i)) || onlyB.some((j) => counts(b, j));
}

function counts(tokens: readonly string[], i: number): boolean {
  const t = tokens[i]!;
  if (MEASURED.test(t) || TIME_OR_DATE.test(t) || ID.test(t)) return false;
  if (/^[-+]?\d+$/.test(t) && UNIT.test(tokens[i + 1] ?? '')) return false;
  return true;
}
