import test from 'ava';

import { hex, pick, seededRandom } from '../fixtures/random.js';
import { findId, traceKeyOf } from '../src/log/parse/trace-id.js';

/**
 * findId's grammar as a regex, on the line's text alone: the key at a word's start, up to
 * twelve name bytes taken whole (`_id`, `Id`, `-id`), a quote, blanks, `=` or `:`, blanks,
 * a quote, then an id of 4 to 128 bytes that starts with a letter or digit.
 */
const grammar = (key: string): RegExp => new RegExp(`(?<![A-Za-z0-9])${key}(?=([A-Za-z0-9_.-]{0,12}))\\1"? *[=:] *"?([A-Za-z0-9][A-Za-z0-9_.:/-]{3,127})`);

test('findId finds the first id after its key within the line alone, as its grammar reads the line', (t) => {
  const rand = seededRandom(11);
  const keys = ['trace', 'request', 'req', 'span'];
  const pieces = [' ', '=', ':', '"', '_id', 'Id', '-id', 'back', 'x', '.', '/', ' = ', '": "', 'tr', 'trac', 'requ'];
  let withId = 0;
  const lines = 20_000;
  for (let i = 0; i < lines; i++) {
    const key = pick(rand, keys);
    let line = '';
    const parts = Math.floor(rand() * 12);
    for (let p = 0; p < parts; p++) {
      const r = rand();
      line += r < 0.3 ? pick(rand, keys) : r < 0.6 ? pick(rand, pieces) : r < 0.8 ? hex(rand, 1 + Math.floor(rand() * 10)) : pick(rand, ['=', ':', ' ']);
    }
    // Between lines that hold the key and an id: they are not the line's.
    const before = `${key}=${hex(rand, 8)} `;
    const buf = Buffer.from(`${before}\n${line}\n${key}=${hex(rand, 8)}`);
    const s = before.length + 1;
    const got = findId(buf, s, s + line.length, Buffer.from(key), { start: -1, end: -1 });
    const m = grammar(key).exec(line);
    const want = m === null ? { start: -1, end: -1 } : { start: s + m.index + m[0].length - m[2]!.length, end: s + m.index + m[0].length };
    t.deepEqual({ start: got.start, end: got.end }, want, JSON.stringify(line));
    if (got.start >= 0) withId++;
  }
  t.true(withId > 500 && withId < lines - 500, `${withId} of ${lines} lines with an id`);
});

test('findId reads ids as the forms a log writes them', (t) => {
  const at = (line: string, key = 'trace'): string | undefined => {
    const buf = Buffer.from(`trace_id=aaaa1111\n${line}\ntrace_id=bbbb2222`);
    const s = 18;
    const span = findId(buf, s, s + Buffer.byteLength(line), Buffer.from(key), { start: -1, end: -1 });
    return span.start < 0 ? undefined : buf.toString('latin1', span.start, span.end);
  };
  t.is(at('GET /x trace_id=4bf92f3577b34da6 200'), '4bf92f3577b34da6');
  t.is(at('{"traceId": "abc-123-def"}'), 'abc-123-def');
  t.is(at('x-request-id: req-7781', 'request'), 'req-7781');
  t.is(at('backtrace=deadbeef'), undefined, 'a key inside a word');
  t.is(at('backtrace=1 trace=cafe0001'), 'cafe0001', 'the next occurrence');
  t.is(at('trace=ab'), undefined, 'an id of fewer than four bytes');
  t.is(at('no id here'), undefined, 'none in the line, though the lines around hold one');
  t.is(at('ends with trace'), undefined);
});

test('traceKeyOf names the first key that two head lines carry', (t) => {
  t.is(traceKeyOf('a request_id=r-0001\nb request_id=r-0002\nc trace_id=t-0001\n'), 'request');
  t.is(traceKeyOf('a trace_id=t-0001\nb request_id=r-0002\nc trace_id=t-0002\n'), 'trace');
  t.is(traceKeyOf('a trace_id=t-0001\nb backtrace=t-0002\n'), undefined);
  t.is(traceKeyOf('nothing\nhere\n'), undefined);
});
