import test from 'ava';

import { seededRandom } from '../fixtures/random.js';
import { epochToIso } from '../src/log/parse/timestamp.js';

/** What epochToIso answered before it formatted a second once: the whole conversion, every time. */
function reference(text: string): string {
  if (text.charCodeAt(0) !== 49 || text.length < 10 || text.length > 20) return text;
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  if (!/^\d+$/.test(whole) || (dot >= 0 && !/^\d+$/.test(text.slice(dot + 1)))) return text;
  const scale = whole.length === 10 ? 1000 : whole.length === 13 ? 1 : whole.length === 16 ? 1e-3 : whole.length === 19 ? 1e-6 : 0;
  if (scale === 0) return text;
  const ms = Number(text) * scale;
  return Number.isFinite(ms) ? new Date(Math.floor(ms)).toISOString() : text;
}

test('epochToIso reads seconds, milliseconds, micro- and nanoseconds as Date does, in any order of calls', (t) => {
  const rand = seededRandom(7);
  const texts: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const ms = 1_000_000_000_000 + Math.floor(rand() * 8_999_999_999_000);
    const digits = String(ms);
    // Runs of records within one second, then a jump, and every unit and a fraction.
    const run = [digits, String(ms + 1), String(ms + 999), digits.slice(0, 10), `${digits.slice(0, 10)}.${digits.slice(10)}`, `${digits}123`, `${digits}123456`, `${digits}.5`];
    texts.push(run[Math.floor(rand() * run.length)]!);
  }
  // Edges: a second's first and last millisecond, 2286's last second, near misses.
  texts.push('1000000000000', '1000000000999', '1000000001000', '9999999999', '1999999999999', '2000000000', '1234567890.', '1234567890.x', '123456789', '1x34567890123', '12345678901', '1234567890123.000001', '1e12', '');
  for (const text of texts) t.is(epochToIso(text), reference(text), text);
});
