/**
 * Leading timestamps in the forms logs use, so that a line can be told to start a record
 * and its time taken off before the template is made. Each form is anchored at the
 * position given (sticky), so a miss costs one failed match.
 */

const FORMS: RegExp[] = [
  // ISO 8601 and friends: 2025-12-11 12:13:46.490439+0100, 2022-06-20T09:28:05.8714453Z, 2024/01/02 03:04:05.
  // Writers do not all pad: hours, minutes, seconds, days and months may have one digit.
  /\d{4}[-/.]\d{1,2}[-/.]\d{1,2}[T ]\d{1,2}:\d{1,2}(?::\d{1,2})?(?:[.,]\d{1,9})?(?: ?(?:Z|[+-]\d\d:?\d\d|UTC|GMT)\b)?/y,
  // BSD syslog and ctime: Jul  1 09:29:02, Sun Dec 04 04:47:44 2005; java.util.logging: Dec 03, 2026 2:23:32 PM
  /(?:[A-Z][a-z]{2} )?[A-Z][a-z]{2} [ \d]?\d \d{1,2}:\d\d:\d\d(?:\.\d{1,9})?(?: \d{4})?|[A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d\d:\d\d(?: [AP]M)?/y,
  // Apache and nginx access: 10/Oct/2000:13:55:36 -0700
  /\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d(?: [+-]\d{4})?/y,
  // A month's name between day and year: 03-Dec-2026 14:23:30 UTC (PHP's error_log, Tomcat), 3 Dec 2026 14:23:30, 3-Dec-2026::16:26:38.970600 (Erlang/OTP)
  /\d{1,2}[- ][A-Z][a-z]{2}[- ]\d{4}(?: |::?)\d{1,2}:\d\d:\d\d(?:[.,]\d{1,9})?(?: ?(?:Z|[+-]\d\d:?\d\d|UTC|GMT)\b)?/y,
  // Day-first or month-first dates: 23.09.2025 08:00:03, 09/23/2025 08:00:03, 9/3/2025 8:00:03
  /\d{1,2}[./-]\d{1,2}[./-]\d{4}[ T]\d{1,2}:\d\d:\d\d(?:[.,]\d{1,9})?/y,
  // Compact date and time: 081109 203615 (HDFS), 20171223-22:15:29:606 and 20171224-0:32:28:8
  /\d{6} \d{6}\b|\d{8}-\d{1,2}:\d{1,2}:\d{1,2}(?::\d{1,3})?/y,
  // Two-digit-year dates: 17/06/09 20:10:40 (Spark), 03-17 16:13:38.811 (logcat: month-day)
  /\d\d[/-]\d\d(?:[/-]\d\d)? \d{1,2}:\d\d:\d\d(?:[.,]\d{1,9})?/y,
  // Time of day alone: 09:28:05.871, 9:28:05
  /\d{1,2}:\d\d:\d\d(?:[.,]\d{1,9})?\b/y,
  // Unix epoch seconds (2001..2286), optionally fractional
  /1\d{9}(?:\.\d{1,9})?\b/y,
];

export interface TimestampMatch {
  /** Where the timestamp text starts and ends. */
  start: number;
  end: number;
}

/**
 * Matches a timestamp at `pos` (optionally wrapped in `[...]`). Returns the end of the
 * timestamp text, or -1. Cheap first-character screen before any regex runs.
 */
export function matchTimestampAt(line: string, pos: number, out: TimestampMatch): boolean {
  let p = pos;
  let c = line.charCodeAt(p);
  const bracketed = c === 91; // [
  if (bracketed) c = line.charCodeAt(++p);
  const digit = c >= 48 && c <= 57;
  const upper = c >= 65 && c <= 90;
  if (!digit && !upper) return false;
  for (let f = 0; f < FORMS.length; f++) {
    if (upper !== (f === 1)) continue;
    const re = FORMS[f]!;
    re.lastIndex = p;
    if (re.test(line)) {
      const end = re.lastIndex;
      out.start = p;
      out.end = end;
      return !bracketed || line.charCodeAt(end) === 93 || (line.charCodeAt(end) === 32 && line.indexOf(']', end) > end);
    }
  }
  return false;
}

/**
 * Where a line's timestamp may start, from `pos`: past the level letter Ruby's Logger
 * writes before its bracketed time (`E, [2024-06-03T09:00:00.902001 #23933] ERROR -- app:
 * ...`; the level's word follows the time, where the level column finds it), and past the
 * process id and role letter Redis writes before it (`24318:M 03 Dec 2026 15:58:08.399 #`),
 * and past the kind of report Erlang/OTP writes before it (`=ERROR REPORT==== 3-Dec-2026::...`).
 */
export function stampFrom(line: string, pos: number): number {
  const c = line.charCodeAt(pos);
  if (c === 61 /* = */) {
    REPORT_HEADER.lastIndex = pos;
    return REPORT_HEADER.test(line) ? REPORT_HEADER.lastIndex : pos;
  }
  if (c >= 65 && c <= 90) return line.charCodeAt(pos + 1) === 44 && line.charCodeAt(pos + 2) === 32 && line.charCodeAt(pos + 3) === 91 ? pos + 3 : pos;
  if (c < 48 || c > 57) return pos;
  let p = pos + 1;
  while (p < pos + 10 && isDigit(line.charCodeAt(p))) p++;
  const role = line.charCodeAt(p + 1);
  return line.charCodeAt(p) === 58 /* : */ && role >= 65 && role <= 90 && line.charCodeAt(p + 2) === 32 && isDigit(line.charCodeAt(p + 3)) ? p + 3 : pos;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** Erlang/OTP's report header before its time: `=CRASH REPORT==== `; the kind is group 1. */
export const REPORT_HEADER = /=([A-Z]+) REPORT={4} /y;

/**
 * A bare Unix epoch (seconds, milliseconds, microseconds or nanoseconds, 2001..2286) as an
 * ISO time; anything else as it is. JSON logs write `time: 1764600031174`; a reader wants a date.
 */
export function epochToIso(text: string): string {
  const c = text.charCodeAt(0);
  if (c !== 49 /* 1 */ || text.length < 10 || text.length > 20) return text;
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  if (!/^\d+$/.test(whole) || (dot >= 0 && !/^\d+$/.test(text.slice(dot + 1)))) return text;
  const digits = whole.length;
  const scale = digits === 10 ? 1000 : digits === 13 ? 1 : digits === 16 ? 1e-3 : digits === 19 ? 1e-6 : 0;
  if (scale === 0) return text;
  const ms = Number(text) * scale;
  if (!Number.isFinite(ms)) return text;
  return new Date(Math.floor(ms)).toISOString();
}
