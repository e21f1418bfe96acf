/**
 * String formats and enums, each with a rule stated in the output.
 *
 * Format rule: a path has a format when every checked non-empty string there matches it.
 * Strings are checked at positions chosen by formatChecked (all of them in small input,
 * one position in eight further on), which depends only on the position, so the result is
 * the same however the input is chunked.
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
  'format = every checked non-empty string matches it (checked: all in the first 64 lines or 4,096 values, then 1 position in 8); date-time = YYYY-MM-DD[T ]hh:mm[:ss[.f]][Z|±hh:mm], date = YYYY-MM-DD, uuid = 8-4-4-4-12 hex, email = local@domain.tld, url = scheme://...';

/** Strings in the first FULL_CHECK_RECORDS records are all checked (within FULL_CHECK_VALUES of each). */
const FULL_CHECK_RECORDS = 64;
const FULL_CHECK_VALUES = 4096;

/**
 * Whether the string at position (major, minor) is checked for a format: every string
 * early on, one position in eight after that. Formats cost more than everything else a
 * string gets, and one bad string in eight is enough to find a path that has no format.
 */
export function formatChecked(major: number, minor: number): boolean {
  return (major < FULL_CHECK_RECORDS && minor < FULL_CHECK_VALUES) || ((major + minor) & 7) === 0;
}

export const ENUM_RULE = `enum = at least 10 strings with at most min(${ENUM_MAX_DISTINCT}, √count) distinct values, each at most 64 characters`;

export function formatName(format: number): string | undefined {
  return FORMAT_NAMES[format];
}

export function combineFormats(a: number, b: number): number {
  if (a === FORMAT_UNSEEN) return b;
  if (b === FORMAT_UNSEEN || a === b) return a;
  return FORMAT_NONE;
}

/**
 * The one format a string has, or FORMAT_NONE (FORMAT_UNSEEN for ""). The checkers are
 * mutually exclusive (a date has '-' at 4 and length 10, a date-time also ':' at 13 and
 * length 16+, a uuid only hex and '-', an email an '@' and no ':' or '/', a url "://"),
 * so matches(f, s) is exactly classify(s) === f, whichever order strings come in.
 */
export function classify(s: string): number {
  if (s.length === 0) return FORMAT_UNSEEN;
  if (isDate(s)) return FORMAT_DATE;
  if (isDateTime(s)) return FORMAT_DATE_TIME;
  if (isUuid(s)) return FORMAT_UUID;
  if (isUrl(s)) return FORMAT_URL;
  if (isEmail(s)) return FORMAT_EMAIL;
  return FORMAT_NONE;
}

/** classify(s) === format, checking only that format (the hot path once a path has one). */
export function matches(format: number, s: string): boolean {
  switch (format) {
    case FORMAT_DATE_TIME:
      return isDateTime(s);
    case FORMAT_DATE:
      return isDate(s);
    case FORMAT_UUID:
      return isUuid(s);
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

/*
 * The checkers are anchored regular expressions without nested or overlapping quantifiers
 * (linear time on any input); on V8 they beat character loops by about 2x. Each carries
 * a cheap length or separator test first so most non-matching strings stop there.
 */
const DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;
const DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:[Zz]|[+-]\d\d:\d\d)?$/;
/** 1 for the UTF-16 code units 0-9 a-f A-F (a table beats a regex on 36-character UUIDs by ~3x). */
const HEX = new Uint8Array(65536);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
const URL_SHAPE = /^[A-Za-z][A-Za-z0-9+.-]{0,19}:\/\/[^\x00-\x20\x7f]+$/;
const EMAIL = /^[^\x00-\x20"(),/:;<>@[\]\\]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

/** YYYY-MM-DD with month 01-12 and day 01-31. */
function isDate(s: string): boolean {
  return s.length === 10 && s.charCodeAt(4) === 45 && DATE.test(s);
}

/** YYYY-MM-DD, 'T' or ' ', hh:mm, optional :ss and fraction, optional Z or ±hh:mm. */
function isDateTime(s: string): boolean {
  const n = s.length;
  return n >= 16 && n <= 40 && s.charCodeAt(4) === 45 && s.charCodeAt(13) === 58 && DATE_TIME.test(s);
}

/** 8-4-4-4-12 hex digits. */
function isUuid(s: string): boolean {
  if (s.length !== 36 || s.charCodeAt(8) !== 45 || s.charCodeAt(13) !== 45 || s.charCodeAt(18) !== 45 || s.charCodeAt(23) !== 45) {
    return false;
  }
  let hex = 0;
  for (let i = 0; i < 36; i++) hex += HEX[s.charCodeAt(i)] as number;
  return hex === 32;
}

/** scheme://rest with no whitespace or control characters; the scheme is a letter then letters, digits, + . - */
function isUrl(s: string): boolean {
  const sep = s.indexOf('://');
  return sep >= 1 && sep <= 20 && URL_SHAPE.test(s);
}

/**
 * local@domain.tld: the local part has no whitespace, quotes, or ( ) , / : ; < > @ [ ] \;
 * the domain is dot-separated labels of letters, digits and '-', at least two labels.
 */
function isEmail(s: string): boolean {
  return s.length >= 5 && s.length <= 254 && s.indexOf('@') > 0 && EMAIL.test(s);
}
