/**
 * Cheap measures of how a value looks: random like a generated credential, or made of
 * words, paths and numbers like ordinary text. Used where a rule has no prefix or key
 * name to go by (bare `key`, vendor keywords, the AWS secret shape, URL user tokens).
 */

const enum CharClass {
  Upper,
  Lower,
  Digit,
  Other,
}

function classOf(code: number): CharClass {
  if (code >= 65 && code <= 90) return CharClass.Upper;
  if (code >= 97 && code <= 122) return CharClass.Lower;
  if (code >= 48 && code <= 57) return CharClass.Digit;
  return CharClass.Other;
}

/**
 * Share of neighbouring characters that change class (upper, lower, digit, other).
 * Random base62/base64 sits near 0.6; words, identifiers and paths stay well below 0.3.
 */
export function classChangeRatio(value: string): number {
  if (value.length < 2) return 0;
  let changes = 0;
  let previous = classOf(value.charCodeAt(0));
  for (let i = 1; i < value.length; i++) {
    const current = classOf(value.charCodeAt(i));
    if (current !== previous) changes++;
    previous = current;
  }
  return changes / (value.length - 1);
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

export const isHex = (value: string): boolean => /^[0-9a-fA-F]+$/.test(value);

export const isUuid = (value: string): boolean =>
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(value);

/**
 * Dummies such as `AKIAXXXXXXXXXXXXXXXX`, `ghp_000000...` or `abababab...`: few distinct
 * characters, or one character repeated over a long run. Values that merely contain a
 * word like EXAMPLE are not dummies: redacting a documented example costs nothing,
 * leaking a real key that happens to contain the word costs a lot.
 */
export function isLowDiversity(value: string): boolean {
  if (value.length === 0) return true;
  const distinct = new Set(value).size;
  if (distinct <= Math.min(6, Math.max(3, Math.floor(value.length / 8)))) return true;
  return /(.)\1{7}|x{6}|X{6}|\*{3}/.test(value);
}

/** Share of the value made of words (`Gost`, `Meshing`, `cache`): high for names, low for generated values. */
export function wordCoverage(value: string): number {
  let covered = 0;
  for (const word of value.match(/[A-Z]?[a-z]{3,}/g) ?? []) covered += word.length;
  return covered / Math.max(1, value.length);
}

/**
 * A generated credential rather than a word, identifier, path or number: long enough,
 * letters and digits mixed, and characters switching class often. Hex digests and
 * UUIDs are left to the caller, which knows whether its context makes them secret.
 */
export function looksRandom(value: string, minLength = 16): boolean {
  if (value.length < minLength) return false;
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  if (isLowDiversity(value)) return false;
  if (entropy(value) < 3.2) return false;
  if (wordCoverage(value) > 0.45) return false;
  return classChangeRatio(value) >= 0.3;
}

/** Looks like a file system path or file name rather than a value. */
export function looksLikePath(value: string): boolean {
  return (
    /^(?:~?\/|\.{1,2}\/|[A-Za-z]:[\\/]|\\\\)/.test(value) ||
    /\.(?:pem|key|crt|cer|p12|pfx|jks|keystore|json|ya?ml|txt|env|conf|cfg|ini|toml|pub|gpg|asc|der)$/i.test(value)
  );
}

/**
 * A value already masked by whoever wrote it: only mask characters (`xxxx`, `XXXX-XXXX`,
 * `****`, `....`) between any separators. Not digits or letters repeated: `sk_live_1111...`
 * and `AAAA...` are valid token bodies and may be real. `\u2022` is `•`, `\u2026` `…`: escaped
 * to keep the CLI's bundle ASCII (scripts/bundle-cli.mjs).
 */
export function isMasked(value: string): boolean {
  return /^[xX*#\u2022.\u2026_\-]*$/.test(value) && /[xX*#\u2022.\u2026]/.test(value);
}
