/** One match in a line: where it starts (0-based) and how long it is. */
export interface Occurrence {
  index: number;
  length: number;
}

export interface LineMatcher {
  test(line: string): boolean;
  /** Matches starting at or after `from`, at most `limit` of them. */
  occurrences(line: string, from: number, limit: number): Occurrence[];
}

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Plain text is found with indexOf; a regular expression, or plain text without regard to
 * case, with a RegExp (lower-casing a line can change its length, and so its columns).
 */
export function lineMatcher(q: { pattern: string; regex: boolean; ignoreCase: boolean }): LineMatcher {
  if (!q.regex && !q.ignoreCase) {
    const needle = q.pattern;
    return {
      test: (line) => line.includes(needle),
      occurrences(line, from, limit) {
        const out: Occurrence[] = [];
        for (let i = line.indexOf(needle, from); i >= 0 && out.length < limit; i = line.indexOf(needle, i + Math.max(needle.length, 1))) {
          out.push({ index: i, length: needle.length });
        }
        return out;
      },
    };
  }
  const source = q.regex ? q.pattern : escapeRegExp(q.pattern);
  const flags = q.ignoreCase ? 'i' : '';
  const once = new RegExp(source, flags);
  const all = new RegExp(source, `${flags}g`);
  return {
    test: (line) => once.test(line),
    occurrences(line, from, limit) {
      const out: Occurrence[] = [];
      all.lastIndex = from;
      for (let m = all.exec(line); m !== null && out.length < limit; m = all.exec(line)) {
        out.push({ index: m.index, length: m[0].length });
        // An empty match would be found at the same place forever.
        if (m[0].length === 0) all.lastIndex++;
      }
      return out;
    },
  };
}
