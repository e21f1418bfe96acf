/**
 * A timestamp's text as it is shown. Where a line's timestamp is, is read natively
 * (header-native.ts: native/src/log_header.c holds the forms).
 */

/**
 * A bare Unix epoch (seconds, milliseconds, microseconds or nanoseconds, 2001..2286) as an
 * ISO time; anything else as it is. JSON logs write `time: 1764600031174`; a reader wants a date.
 */
export function epochToIso(text: string): string {
  const c = text.charCodeAt(0);
  if (c !== 49 /* 1 */ || text.length < 10 || text.length > 20) return text;
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text.length : dot;
  if (!digitsOnly(text, 0, whole) || (dot >= 0 && !digitsOnly(text, dot + 1, text.length))) return text;
  const scale = whole === 10 ? 1000 : whole === 13 ? 1 : whole === 16 ? 1e-3 : whole === 19 ? 1e-6 : 0;
  if (scale === 0) return text;
  const ms = Number(text) * scale;
  if (!Number.isFinite(ms)) return text;
  return isoOfMs(Math.floor(ms));
}

/** Whether text[from, to) is one or more ASCII digits. */
function digitsOnly(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The second last formatted, and its text up to the milliseconds: a log's records share their second. */
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/** `new Date(ms).toISOString()` for a whole, positive `ms` before the year 10000, formatting the date once a second. */
function isoOfMs(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  const rest = ms - second * 1000;
  return `${cachedPrefix}${rest < 10 ? '00' : rest < 100 ? '0' : ''}${rest}Z`;
}
