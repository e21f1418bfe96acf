/** Text helpers every renderer uses. */

/**
 * 12,345: thousands separators without Intl, whose first use loads ICU data (about 20 ms,
 * a tenth of a small CLI run).
 */
export function formatCount(n: number): string {
  const s = String(n);
  return Number.isInteger(n) && Math.abs(n) >= 1000 ? s.replace(/\B(?=(\d{3})+$)/g, ',') : s;
}

/** Cuts text to at most `max` characters, the last one an ellipsis that marks the cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `1 line`, `2 lines`, `1 zombie process`, `3 zombie processes`: a count with its noun in the number it needs. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A terminal's colour or cursor sequence, escaped (`\x1b[31m`) or as `cat -v` and some CI logs print it (`^[[31m`). */
export const ANSI = /(?:\x1b|\^\[)\[[\x20-\x3f]*[\x40-\x7e]?/g;
