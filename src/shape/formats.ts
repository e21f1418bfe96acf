/**
 * String formats and enums, each with a rule stated in the output.
 *
 * Format rule: a path has a format when every non-empty string seen there matches it.
 * The formats are mutually exclusive, so "the format of this string" is one id and the
 * per-path state merges as: same id stays, different ids give none. Checkers are
 * hand-written character loops (no regex) because they run once per string on the hot
 * path until a path's format is ruled out.
 */
import { ENUM_MAX_DISTINCT, FORMAT_NONE, FORMAT_UNSEEN } from './node.js';

export const FORMAT_DATE_TIME = 1;
export const FORMAT_DATE = 2;
export const FORMAT_UUID = 3;
export const FORMAT_EMAIL = 4;
export const FORMAT_URL = 5;

const FORMAT_NAMES: Record<number, string> = {
  [FORMAT_DATE_TIME]: 'date-time',
  [FORMAT_DATE]: 'date',
  [FORMAT_UUID]: 'uuid',
  [FORMAT_EMAIL]: 'email',
  [FORMAT_URL]: 'url',
};

export const FORMAT_RULE =
  'format = every non-empty string matches it (date-time: YYYY-MM-DD[T ]hh:mm[:ss[.f]][Z|±hh:mm]; date: YYYY-MM-DD; uuid: 8-4-4-4-12 hex; email: local@domain.tld; url: scheme://...)';

export const ENUM_RULE = `enum = at least 10 strings with at most min(${ENUM_MAX_DISTINCT}, √count) distinct values, each at most 64 characters`;

export function formatName(format: number): string | undefined {
  return FORMAT_NAMES[format];
}

export function combineFormats(a: number, b: number): number {
  if (a === FORMAT_UNSEEN) return b;
  if (b === FORMAT_UNSEEN || a === b) return a;
  return FORMAT_NONE;
}

/** The one format a string has, or FORMAT_NONE. */
export function classify(s: string): number {
  const n = s.length;
  if (n === 0) return FORMAT_UNSEEN;
  const c0 = s.charCodeAt(0);
  if (isDigit(c0)) {
    if (n === 10) return isDate(s) ? FORMAT_DATE : FORMAT_NONE;
    if (n === 36 && isUuid(s)) return FORMAT_UUID;
    if (n >= 16 && isDateTime(s)) return FORMAT_DATE_TIME;
  } else if (n === 36 && isUuid(s)) {
    return FORMAT_UUID;
  }
  if (isUrl(s)) return FORMAT_URL;
  if (isEmail(s)) return FORMAT_EMAIL;
  return FORMAT_NONE;
}

/** Cheaper than classify once a path has a format: check only that one. */
export function matches(format: number, s: string): boolean {
  switch (format) {
    case FORMAT_DATE_TIME:
      return isDateTime(s);
    case FORMAT_DATE:
      return s.length === 10 && isDate(s);
    case FORMAT_UUID:
      return s.length === 36 && isUuid(s);
    case FORMAT_EMAIL:
      return isEmail(s);
    case FORMAT_URL:
      return isUrl(s);
    default:
      return false;
  }
}

/** The enum rule: enough samples, few distinct values (quicktype's √n, capped). */
export function isEnum(strings: number, distinct: number): boolean {
  return strings >= 10 && distinct >= 1 && distinct <= Math.min(ENUM_MAX_DISTINCT, Math.floor(Math.sqrt(strings)));
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

function digitsAt(s: string, from: number, count: number): boolean {
  if (from + count > s.length) return false;
  for (let i = from; i < from + count; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

/** The first 10 characters are YYYY-MM-DD with month 01-12 and day 01-31 (callers check length). */
function isDate(s: string): boolean {
  if (!digitsAt(s, 0, 4) || s.charCodeAt(4) !== 45 || !digitsAt(s, 5, 2) || s.charCodeAt(7) !== 45 || !digitsAt(s, 8, 2)) {
    return false;
  }
  const month = (s.charCodeAt(5) - 48) * 10 + (s.charCodeAt(6) - 48);
  const day = (s.charCodeAt(8) - 48) * 10 + (s.charCodeAt(9) - 48);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** YYYY-MM-DD, 'T' or ' ', hh:mm, optional :ss and fraction, optional Z or ±hh:mm. */
function isDateTime(s: string): boolean {
  const n = s.length;
  if (n < 16 || n > 40 || !isDate(s)) return false;
  const sep = s.charCodeAt(10);
  if (sep !== 84 && sep !== 116 && sep !== 32) return false;
  if (!digitsAt(s, 11, 2) || s.charCodeAt(13) !== 58 || !digitsAt(s, 14, 2)) return false;
  let i = 16;
  if (i < n && s.charCodeAt(i) === 58) {
    if (!digitsAt(s, i + 1, 2)) return false;
    i += 3;
    if (i < n && s.charCodeAt(i) === 46) {
      i++;
      const start = i;
      while (i < n && isDigit(s.charCodeAt(i))) i++;
      if (i === start) return false;
    }
  }
  if (i === n) return true;
  const z = s.charCodeAt(i);
  if ((z === 90 || z === 122) && i + 1 === n) return true;
  if (z === 43 || z === 45) {
    return i + 6 === n && digitsAt(s, i + 1, 2) && s.charCodeAt(i + 3) === 58 && digitsAt(s, i + 4, 2);
  }
  return false;
}

function isUuid(s: string): boolean {
  for (let i = 0; i < 36; i++) {
    const c = s.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
    } else if (!isHex(c)) {
      return false;
    }
  }
  return true;
}

/** scheme://rest with no whitespace; the scheme is a letter then letters, digits, + . - */
function isUrl(s: string): boolean {
  const n = s.length;
  const sep = s.indexOf('://');
  if (sep < 1 || sep > 20 || sep + 3 >= n) return false;
  const c0 = s.charCodeAt(0);
  if (!((c0 >= 97 && c0 <= 122) || (c0 >= 65 && c0 <= 90))) return false;
  for (let i = 1; i < sep; i++) {
    const c = s.charCodeAt(i);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 43 || c === 46 || c === 45;
    if (!ok) return false;
  }
  for (let i = sep + 3; i < n; i++) if (s.charCodeAt(i) <= 32) return false;
  return true;
}

/**
 * local@domain.tld: one '@'; the local part has no whitespace, quotes, or : / < > ( ) [ ] , ; @;
 * the domain is dot-separated labels of letters, digits and '-', at least two labels.
 */
function isEmail(s: string): boolean {
  const n = s.length;
  if (n < 5 || n > 254) return false;
  const at = s.indexOf('@');
  if (at < 1 || at > n - 4) return false;
  for (let i = 0; i < at; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32 || c === 34 || c === 40 || c === 41 || c === 44 || c === 47 || c === 58 || c === 59 || c === 60 || c === 62 || c === 91 || c === 93) {
      return false;
    }
  }
  let labelLength = 0;
  let dots = 0;
  for (let i = at + 1; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (labelLength === 0) return false;
      dots++;
      labelLength = 0;
    } else if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 45) {
      labelLength++;
    } else {
      return false;
    }
  }
  return dots > 0 && labelLength > 0;
}
