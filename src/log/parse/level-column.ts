/**
 * A log's level column, learned from its head: the token position (blanks or bars between)
 * whose values come from a small set of level words (any case: `INFO`, `Info`, `info`),
 * written bare, bracketed, keyed (`level=warn`), or before a worker name as Celery does
 * (`WARNING/ForkPoolWorker-2]`), or from single letters where the format uses them
 * (logcat's `E`/`W`/`I`). Where a log has one, that column decides each line's severity and
 * the words in the message do not. What a token holds is read natively
 * (native/src/log_header.c, through header-native.ts), as each line's column is.
 */
import type { Severity } from '../model/severity.js';
import type { LevelColumn } from '../model/format.js';
import { LEVEL_TOKENS, tokenLevels } from './header-native.js';

/** Share of candidate lines that must carry a level word at the position. */
const MIN_SHARE = 0.6;
const MIN_LETTER_SHARE = 0.8;
const MIN_LINES = 3;

/**
 * The level column of these lines (the head's non-blank lines that start at column 0),
 * or undefined. A column of words needs MIN_SHARE of the lines, of letters MIN_LETTER_SHARE
 * and two different letters; the first position that qualifies wins. A line's word counts
 * at its first token that holds one.
 */
export function detectLevelColumn(lines: readonly string[]): LevelColumn | undefined {
  if (lines.length < MIN_LINES) return undefined;
  const words = new Array<number>(LEVEL_TOKENS).fill(0);
  const letterHits = new Array<number>(LEVEL_TOKENS).fill(0);
  const letterKinds: Set<string>[] = Array.from({ length: LEVEL_TOKENS }, () => new Set());
  const wordAt: (Severity | undefined)[] = [];
  const letterAt: (string | undefined)[] = [];
  for (const line of lines) {
    const n = tokenLevels(line, wordAt, letterAt);
    let counted = false;
    for (let k = 0; k < n; k++) {
      if (!counted && wordAt[k] !== undefined) {
        words[k]!++;
        counted = true;
      }
      if (k > 0 && letterAt[k] !== undefined) {
        letterHits[k]!++;
        letterKinds[k]!.add(letterAt[k]!);
      }
    }
  }
  for (let k = 0; k < LEVEL_TOKENS; k++) {
    if (words[k]! >= MIN_LINES && words[k]! >= MIN_SHARE * lines.length) return { token: k, letters: false };
  }
  for (let k = 1; k < LEVEL_TOKENS; k++) {
    if (letterHits[k]! >= MIN_LETTER_SHARE * lines.length && letterKinds[k]!.size >= 2) return { token: k, letters: true };
  }
  return undefined;
}
