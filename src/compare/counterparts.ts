import { isWord, lcsLength, templateWords } from './tokens.js';

/**
 * Which new group is a baseline group with some words changed: a test runner's summary
 * that now counts failures (`18 passed` -> `3 failed, 15 passed`), a test that now fails
 * (`ok 2 - one line` -> `not ok 2 - one line`), a setting read from another file.
 *
 * Likeness is the Dice coefficient of the templates' word sequences (twice the longest
 * common subsequence over the sum of lengths), with level words left out, since a summary
 * that turns into a failure changes its level. Pairs need MIN_SIMILARITY and
 * MIN_SHARED_WORDS words in common (placeholders and punctuation are not words). The best
 * pairs are taken first; each group is in one pair at most.
 */
export const MIN_SIMILARITY = 0.6;
export const MIN_SHARED_WORDS = 2;
export const WORDS_RULE = `a new group is a baseline group with words changed when their templates share ${MIN_SHARED_WORDS} or more words and ${Math.round(MIN_SIMILARITY * 100)}% or more of their word sequence, or all of it (level words aside)`;

/** A word in more baseline templates than this does not find candidates: it tells none apart. */
const MAX_POSTING = 256;
/** Candidates looked at per new group, most shared words first. */
const MAX_CANDIDATES = 32;
/**
 * New groups paired, in rank order: as many as can be shown (the largest top). Fixed, so
 * that what is gone does not depend on how many are asked for; it bounds the work.
 */
export const PAIR_MAX_NEW = 1000;

export interface Pair {
  now: number;
  was: number;
  similarity: number;
}

/**
 * Pairs `now` templates (in rank order) with `was` templates (in baseline order). Indices
 * in the result refer to the two lists. Deterministic: ties go to the better-ranked new
 * group, then the earlier baseline group.
 */
export function pairCounterparts(now: readonly string[], was: readonly string[]): Pair[] {
  if (now.length === 0 || was.length === 0) return [];
  const wasWords = was.map(templateWords);
  const wasKeys = wasWords.map((words) => words.join('\u0000'));
  const index = new Map<string, number[]>();
  wasWords.forEach((words, i) => {
    for (const w of new Set(words.filter(isWord))) {
      let list = index.get(w);
      if (list === undefined) index.set(w, (list = []));
      list.push(i);
    }
  });
  const candidates: Pair[] = [];
  now.slice(0, PAIR_MAX_NEW).forEach((template, n) => {
    const words = templateWords(template);
    const shared = new Map<number, number>();
    for (const w of new Set(words.filter(isWord))) {
      const list = index.get(w);
      if (list === undefined || list.length > MAX_POSTING) continue;
      for (const i of list) shared.set(i, (shared.get(i) ?? 0) + 1);
    }
    // The same words at another level (`# fail 0` was info, `# fail 3` is an error) pair however few they are.
    const key = words.join('\u0000');
    const ranked = [...shared].filter(([i, k]) => k >= MIN_SHARED_WORDS || wasKeys[i] === key).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    for (const [i] of ranked.slice(0, MAX_CANDIDATES)) {
      const other = wasWords[i]!;
      const similarity = (2 * lcsLength(words, other)) / (words.length + other.length);
      if (similarity >= MIN_SIMILARITY) candidates.push({ now: n, was: i, similarity });
    }
  });
  candidates.sort((a, b) => b.similarity - a.similarity || a.now - b.now || a.was - b.was);
  const usedNow = new Set<number>();
  const usedWas = new Set<number>();
  const pairs: Pair[] = [];
  for (const c of candidates) {
    if (usedNow.has(c.now) || usedWas.has(c.was)) continue;
    usedNow.add(c.now);
    usedWas.add(c.was);
    pairs.push(c);
  }
  return pairs;
}
