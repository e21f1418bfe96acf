/**
 * The native library's records: one per line, tab-separated fields, the first naming the
 * kind. String fields are escaped in C (\t \n \r \\ \xNN) so they cannot break the layout.
 */

export type RecordFields = string[];

/** Splits records; a record's first field is its kind. */
export function splitRecords(data: Buffer): RecordFields[] {
  const text = data.toString('utf8');
  const out: RecordFields[] = [];
  for (const line of text.split('\n')) {
    if (line !== '') out.push(line.split('\t'));
  }
  return out;
}

const ESCAPE = /\\(?:x([0-9a-f]{2})|([tnr\\]))/g;
const SIMPLE: Record<string, string> = { t: '\t', n: '\n', r: '\r', '\\': '\\' };

/** Undoes the C side's escaping. */
export function unescapeField(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(ESCAPE, (_, hex: string | undefined, simple: string | undefined) =>
    hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : SIMPLE[simple ?? ''] ?? '',
  );
}

/** A numeric field; NaN-safe (a malformed field reads as `fallback`). */
export function num(s: string | undefined, fallback = 0): number {
  if (s === undefined || s === '') return fallback;
  const n = Number(s);
  return Number.isFinite(n) ? n : fallback;
}
