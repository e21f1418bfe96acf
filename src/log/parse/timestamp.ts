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
  const whole = dot < 0 ? text : text.slice(0, dot);
  if (!/^\d+$/.test(whole) || (dot >= 0 && !/^\d+$/.test(text.slice(dot + 1)))) return text;
  const digits = whole.length;
  const scale = digits === 10 ? 1000 : digits === 13 ? 1 : digits === 16 ? 1e-3 : digits === 19 ? 1e-6 : 0;
  if (scale === 0) return text;
  const ms = Number(text) * scale;
  if (!Number.isFinite(ms)) return text;
  return new Date(Math.floor(ms)).toISOString();
}
