/**
 * The template scan (native/src/template.c through src/log/parse/template.ts): what a
 * message's template is, which lines share a key, and where each placeholder's value is.
 * condense_log's outputs over every fixture are compared byte for byte elsewhere; these
 * pin the rules themselves, one by one.
 */
import test from 'ava';
import { WispError } from '../src/core/errors.js';
import { MAX_TEMPLATE_BYTES, TemplateScanner } from '../src/log/parse/template.js';

const scanner = new TemplateScanner();

function scan(text: string, from = 0, to?: number): { text: string; key: number; values: string[] } {
  const buf = Buffer.from(text, 'utf8');
  scanner.begin(buf).add(from, to ?? buf.length);
  const ranges = new Int32Array(64);
  const n = scanner.placeholders(ranges);
  const values: string[] = [];
  for (let k = 0; k < n; k++) values.push(buf.toString('utf8', ranges[2 * k], ranges[2 * k + 1]));
  return { text: scanner.text(), key: scanner.key(), values };
}

test('each kind of variable becomes its placeholder, and the placeholders point at the values', (t) => {
  const line = 'conn 0x99d81897 to 10.1.2.3:5432 id=38101a0b-2096-447d-96ea-a692162415ae mac aa:bb:cc:dd:ee:ff [1234] worker12 v3.14 blk_-42 fe80::1 port 8080.';
  const r = scan(line);
  t.is(r.text, 'conn <HEX> to <IP> id=<UUID> mac <MAC> [<PID>] worker<NUM> v<NUM>.<NUM> blk_<NUM> <IP> port <NUM>.');
  t.deepEqual(r.values, ['0x99d81897', '10.1.2.3:5432', '38101a0b-2096-447d-96ea-a692162415ae', 'aa:bb:cc:dd:ee:ff', '1234', '12', '3', '14', '42', 'fe80::1', '8080']);
});

test('lines of one event share a key; another word, or another kind of value, is another key', (t) => {
  const a = scan('conn 0x99d81897 to 10.1.2.3:5432 [1234] worker12 port 8080.');
  const b = scan('conn 0x1f to 10.9.9.9:1 [7] worker9 port 1.');
  t.is(a.key, b.key);
  t.not(scan('conn 0x1f to 10.9.9.9:1 [7] worker9 host 1.').key, a.key);
  t.not(scan('conn 0x1f to host:1 [7] worker9 port 1.').key, a.key, 'a host name is no <IP>');
  t.is(scan('short sha 1234567').key, scan('short sha abcdef1').key, '<HEX> keys as <NUM>: a short sha is all digits now and then');
});

test('terminal colours and runs of blanks are no part of the event', (t) => {
  const coloured = scan('\x1b[31mERROR\x1b[0m disk   full ^[[1mnow^[[0m');
  t.is(coloured.text, 'ERROR disk   full now');
  t.is(coloured.key, scan('ERROR disk full now').key);
});

test('a redaction marker stays a word, and a UUID inside a longer token is found', (t) => {
  t.is(scan('from [REDACTED:ipv4] user [REDACTED:email]').text, 'from [REDACTED:ipv4] user [REDACTED:email]');
  t.deepEqual(scan('req-38101a0b-2096-447d-96ea-a692162415ae done').values, ['38101a0b-2096-447d-96ea-a692162415ae']);
});

test('the bytes just past the range are looked at, as the line has them: `[123]` is a pid even when the range stops before `]`', (t) => {
  t.is(scan('[123] x', 1, 4).text, '<PID>');
  t.is(scan('[123] x', 1, 3).text, '<NUM>');
});

test('a message past the budget is cut, said with `…`, and keyed apart from its own first bytes', (t) => {
  const long = scan('x'.repeat(MAX_TEMPLATE_BYTES + 100));
  const exact = scan('x'.repeat(MAX_TEMPLATE_BYTES));
  t.true(long.text.endsWith('…'));
  t.is(long.text.length, 401);
  t.is(scan('x'.repeat(MAX_TEMPLATE_BYTES + 5)).key, long.key, 'cut messages of the same first bytes share the key');
  t.not(long.key, exact.key);
});

test('ranges added one after another make the template of their bytes joined', (t) => {
  const buf = Buffer.from('job build: step 3 failed after 12 s');
  scanner.begin(buf).add(0, 10).add(10, buf.length);
  const text = scanner.text();
  const key = scanner.key();
  t.is(text, 'job build: step <NUM> failed after <NUM> s');
  t.is(key, scan('job build: step 3 failed after 12 s').key);
});

test('two scanners keep their own state, and an empty buffer is an empty template', (t) => {
  const other = new TemplateScanner();
  const a = Buffer.from('user 42 logged in');
  const b = Buffer.from('disk 7 full');
  scanner.begin(a);
  other.begin(b).add(0, b.length);
  scanner.add(0, a.length);
  t.is(scanner.text(), 'user <NUM> logged in');
  t.is(other.text(), 'disk <NUM> full');
  t.is(scan('').text, '');
});

test('a range outside the buffer is refused with a coded error, not read', (t) => {
  const buf = Buffer.from('short');
  const err = t.throws(() => scanner.begin(buf).add(2, 50));
  t.true(err instanceof WispError);
  t.is((err as WispError).code, 'WISP_INTERNAL');
  t.throws(() => scanner.begin(buf).add(4, 2));
});
