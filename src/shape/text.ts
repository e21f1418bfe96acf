/**
 * How values from the input are shown: every string taken from the input (examples, enum
 * values, keys, map keys) passes through redact() and is bounded and escaped here, so
 * nothing in the outline can carry a secret, a line break, or a misleading control
 * character. Numbers are formatted without the locale (byte-identical everywhere).
 */
import { formatCount, plural } from '../core/text.js';
import { redact } from '../redact/index.js';

/** Shown string examples are at most this many characters (before escaping). */
export const EXAMPLE_CHARS = 40;
const KEY_CHARS = 40;
const MAP_KEY_CHARS = 32;

/** 1234567 -> "1,234,567" for counts: the one formatter wisp writes numbers with. */
export { formatCount, plural };

/** A number from the data: at most 10 significant digits, no locale. */
export function formatValue(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return String(v);
  return String(Number(v.toPrecision(10)));
}

/**
 * A string from the data as it may be shown: redacted, then cut to `max` characters (text
 * output quotes it with quote()). Redaction sees the whole value (before the cut, so a
 * secret cannot hide by being cut), and, when the value sits under an object key, the
 * value as that key's member too (`{"password": "hunter2"}`), because a credential is
 * often recognisable only by its key's name.
 */
export function shownValue(value: string, max: number = EXAMPLE_CHARS, field?: string): string {
  return cut(redactValue(value, field), max);
}

function redactValue(value: string, field: string | undefined): string {
  const alone = redact(value);
  if (field === undefined) return alone;
  const member = redact(JSON.stringify({ [field]: alone }));
  try {
    const parsed: unknown = JSON.parse(member);
    const shown = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[field] : undefined;
    if (typeof shown === 'string') return shown;
  } catch {
    // Redaction rewrote the member beyond JSON: show nothing of the value.
  }
  return '[REDACTED]';
}

export function shownMapKey(key: string): string {
  // Keys of a map often share a long start (paths, prefixed ids): keep both ends.
  return cutMiddle(redactValue(key, undefined), MAP_KEY_CHARS);
}

/** A key as a label: bare when it is a plain identifier, else quoted; always redacted. */
export function keyLabel(key: string): string {
  const clean = redact(key);
  if (clean.length <= KEY_CHARS && /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(clean)) return clean;
  return quote(cut(clean, KEY_CHARS));
}

/** A key as a path segment: .name or ["odd key"]. */
export function pathSegment(key: string): string {
  const clean = redact(key);
  if (clean.length <= KEY_CHARS && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(clean)) return `.${clean}`;
  return `[${quote(cut(clean, KEY_CHARS))}]`;
}

/** Cut to at most `max` characters, ending in … when cut, never splitting a surrogate pair. */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  if (isHighSurrogate(s.charCodeAt(end - 1))) end--;
  return `${s.slice(0, end)}…`;
}

/** Cut to at most `max` characters by dropping the middle (marked …), never splitting a surrogate pair. */
export function cutMiddle(s: string, max: number): string {
  if (s.length <= max) return s;
  let head = Math.ceil((max - 1) / 2);
  let tail = s.length - Math.floor((max - 1) / 2);
  if (isHighSurrogate(s.charCodeAt(head - 1))) head--;
  if (isHighSurrogate(s.charCodeAt(tail - 1))) tail++;
  return `${s.slice(0, head)}…${s.slice(tail)}`;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * JSON string quoting (escapes quotes, backslashes, control characters, lone surrogates)
 * plus the characters JSON leaves alone but a reader should see: Unicode line and
 * paragraph separators, NEL, and bidirectional overrides.
 */
export function quote(s: string): string {
  return JSON.stringify(s).replace(/[\u0085\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) =>
    `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

