/**
 * JSON and log strings carry `\n`, `\r` and `\t` as two characters, a backslash and a
 * letter. To the rules that letter would glue onto the next word (`\nAKIA...` would read
 * as `nAKIA...`, `\nbob@example.com` as `nbob@example.com`), so while the rules run the
 * letter is swapped for a whitespace character no input uses, and swapped back after.
 */

const MASK: Readonly<Record<string, string>> = { n: '\u2028', r: '\u2029', t: '\u205f' };
const UNMASK: Readonly<Record<string, string>> = { '\u2028': 'n', '\u2029': 'r', '\u205f': 't' };

/** Masked escape letters, for rules that match escaped newlines (`\n` inside a JSON PEM). */
export const ESCAPED_NEWLINE = String.raw`\\[n\u2028]`;
export const ESCAPED_RETURN = String.raw`\\[r\u2029]`;

/** Runs `fn` on `text` with its `\n`, `\r`, `\t` escapes masked, and restores them in the result. */
export function withEscapesMasked(text: string, fn: (masked: string) => string): string {
  if (!/\\[nrt]/.test(text) || /[\u2028\u2029\u205f]/.test(text)) return fn(text);
  const masked = text.replace(/\\([nrt])/g, (_m, letter: string) => `\\${MASK[letter]}`);
  return fn(masked).replace(/\\([\u2028\u2029\u205f])/g, (_m, mask: string) => `\\${UNMASK[mask]}`);
}
