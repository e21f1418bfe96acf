/**
 * Parsing an .ips JSON body. Two things plain JSON.parse gets wrong here:
 *
 * - Integers past 2^53 (register values, some kernel-side addresses) lose precision. Image
 *   bases are normally below 2^53, but an address printed slightly wrong is worse than no
 *   address, so such literals are turned into digit strings first and read with BigInt.
 * - Some .ips bodies in the wild carry raw control characters (newlines, tabs) inside
 *   strings, which strict JSON forbids. One repair pass escapes them before giving up.
 */

import { WispError } from '../core/errors.js';

export type JsonObject = { [key: string]: unknown };

// A JSON string token, or an integer literal of 16+ digits outside strings. Strings are
// matched first so digits inside them are left alone. No nested quantifiers: linear time.
const STRING_OR_LONG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![.\deE])/g;
const CONTROL_CHAR = /[\u0000-\u001f]/g;

function quoteUnsafeIntegers(body: string): string {
  return body.replace(STRING_OR_LONG_INTEGER, (token) => {
    if (token.startsWith('"')) return token;
    return Number.isSafeInteger(Number(token)) ? token : `"${token}"`;
  });
}

function escapeControlCharsInStrings(body: string): string {
  return body.replace(STRING_OR_LONG_INTEGER, (token) =>
    token.startsWith('"')
      ? token.replace(CONTROL_CHAR, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      : token,
  );
}

export interface ParsedBody {
  value: JsonObject;
  /** Set when the body only parsed after escaping raw control characters. */
  repaired: boolean;
}

/**
 * Parse an .ips body into an object. Throws WISP_NOT_JSON (with a truncation hint when the
 * text ends early) if it is not a JSON object even after the control-character repair.
 */
export function parseIpsBody(body: string, what: string): ParsedBody {
  const prepared = quoteUnsafeIntegers(body);
  let firstError: unknown;
  for (const [candidate, repaired] of [
    [prepared, false],
    [escapeControlCharsInStrings(prepared), true],
  ] as const) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (isObject(value)) return { value, repaired };
      throw new WispError('WISP_NOT_JSON', `${what}: the body is JSON but not an object.`);
    } catch (err) {
      if (err instanceof WispError) throw err;
      firstError ??= err;
    }
  }
  const trimmed = body.trimEnd();
  const truncated = !trimmed.endsWith('}') || /end of (JSON|data)|Unterminated/i.test(String(firstError));
  const detail = firstError instanceof Error ? firstError.message : String(firstError);
  throw new WispError(
    'WISP_NOT_JSON',
    truncated
      ? `${what}: the JSON body is incomplete (${body.length} characters, no closing brace); the file looks truncated.`
      : `${what}: the JSON body does not parse (${detail}).`,
    { hint: 'Pass the whole .ips file as written by the system; a copied excerpt or a cut-off upload cannot be read.' },
  );
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A non-empty string, or undefined. Empty strings in .ips mean "not set". */
export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.length > 0 ? v : undefined;
  return undefined;
}

/** A number given as a JSON number or, for huge values, as the digit string made above. */
export function bigIntOf(v: unknown): bigint | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  return undefined;
}

export function intOf(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}

export function arrayOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
