/** Small helpers shared by the crash-report parsers. */

/** Long free text (watchdog reasons, Swift messages) is clipped so a report stays a few KB. */
export const MAX_TEXT = 600;
export const MAX_ASI_MESSAGES = 12;
export const MAX_REASONS = 16;

/** Cuts long text, saying how many characters it cut: a report reader should know the text goes on. */
export function clipWithCount(s: string | undefined, max = MAX_TEXT): string | undefined {
  if (s === undefined || s.length <= max) return s;
  return `${s.slice(0, max)}... (+${s.length - max} chars)`;
}

/**
 * At most `maxCount` entries and about `maxChars` characters, each entry clipped, with a
 * last entry saying how many were left out. Watchdog reasons run to a dozen fragments and
 * Swift ASI messages to kilobytes; the summary must stay a few KB.
 */
export function capList(items: string[], maxCount: number, maxChars = 2000): string[] {
  const shown: string[] = [];
  let used = 0;
  for (const item of items) {
    if (shown.length >= maxCount || used >= maxChars) break;
    const clipped = clipWithCount(item, Math.min(MAX_TEXT, Math.max(80, maxChars - used))) ?? item;
    shown.push(clipped);
    used += clipped.length;
  }
  if (items.length > shown.length) shown.push(`... ${items.length - shown.length} more`);
  return shown;
}

/** "1.0 (1)": Apple's way of writing short version and build together. */
export function joinVersion(short: string | undefined, build: string | undefined): string | undefined {
  if (short !== undefined && build !== undefined) return short === build ? short : `${short} (${build})`;
  return short ?? build;
}

/**
 * Set an optional field only when there is a value, so absent stays absent rather than
 * `undefined`-valued. With `override`, a value replaces one already there (a report body
 * knows better than its header).
 */
export function assign<T extends object, K extends keyof T>(
  target: T,
  key: K,
  value: T[K] | undefined,
  override = false,
): void {
  if (value === undefined) return;
  if (!override && target[key] !== undefined) return;
  target[key] = value;
}
