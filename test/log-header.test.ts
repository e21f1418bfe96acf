/**
 * A log line's header (native/src/log_header.c through src/log/parse/header-native.ts and
 * the line parser): the timestamp forms, where the message starts, the level a line
 * declares and a head's level column. condense_log's outputs are compared byte for byte
 * elsewhere; these pin the rules one by one.
 */
import test from 'ava';
import { detectLevelColumn } from '../src/log/parse/level-column.js';
import { HEADER_OUT, HeaderReader, headerFlags, levelWordsAddress, matchTimestampAt, stampFrom, type TimestampMatch } from '../src/log/parse/header-native.js';
import { LineParser, PREFIX_BYTES } from '../src/log/parse/line-parser.js';
import type { FormatInfo } from '../src/log/model/format.js';
import { fromWords, Severity, TROUBLE_WORDS } from '../src/log/model/severity.js';
import { addressOf, nativeLibrary } from '../src/native/library.js';
import { seededRandom } from '../fixtures/random.js';

const stamp = (line: string, pos = 0): string | undefined => {
  const m: TimestampMatch = { start: -1, end: -1 };
  return matchTimestampAt(line, pos, m) ? line.slice(m.start, m.end) : undefined;
};

test('each timestamp form is read whole, padded or not', (t) => {
  const forms: [string, string][] = [
    ['2025-12-11 12:13:46.490439+0100 x', '2025-12-11 12:13:46.490439+0100'],
    ['2022-06-20T09:28:05.8714453Z x', '2022-06-20T09:28:05.8714453Z'],
    ['2024/01/02 03:04:05 x', '2024/01/02 03:04:05'],
    ['2024-1-2 3:4:5,12 UTC x', '2024-1-2 3:4:5,12 UTC'],
    ['2024-01-02 03:04:05 +01:00 x', '2024-01-02 03:04:05 +01:00'],
    ['Jul  1 09:29:02 host x', 'Jul  1 09:29:02'],
    ['Sun Dec 04 04:47:44 2005 x', 'Sun Dec 04 04:47:44 2005'],
    ['Dec 03, 2026 2:23:32 PM Sync main', 'Dec 03, 2026 2:23:32 PM'],
    ['10/Oct/2000:13:55:36 -0700] x', '10/Oct/2000:13:55:36 -0700'],
    ['03-Dec-2026 14:23:30 UTC x', '03-Dec-2026 14:23:30 UTC'],
    ['3-Dec-2026::16:26:38.970600 ===', '3-Dec-2026::16:26:38.970600'],
    ['23.09.2025 08:00:03 x', '23.09.2025 08:00:03'],
    ['9/3/2025 8:00:03 x', '9/3/2025 8:00:03'],
    ['081109 203615 148 INFO x', '081109 203615'],
    ['20171223-22:15:29:606|Step', '20171223-22:15:29:606'],
    ['20171224-0:32:28:8|Step', '20171224-0:32:28:8'],
    ['17/06/09 20:10:40 INFO x', '17/06/09 20:10:40'],
    ['03-17 16:13:38.811  1702 D x', '03-17 16:13:38.811'],
    ['09:28:05.871 x', '09:28:05.871'],
    ['1764600031.25 x', '1764600031.25'],
  ];
  for (const [line, expected] of forms) t.is(stamp(line), expected, line);
});

test('near misses are no timestamps, and a fraction or zone stops where its word does', (t) => {
  for (const line of ['12345-01-02 03:04:05', '2024-123-02 03:04:05', 'Jul 123 09:29:02', '09:28:055 x', '09:28:05Z x', '0764600031 x', 'Hello 12:00:00', '']) {
    t.is(stamp(line), undefined, line);
  }
  t.is(stamp('09:28:05.1234567890 x'), '09:28:05', 'more than nine fraction digits: the time alone');
  t.is(stamp('2024-01-02 03:04:05 Zebra'), '2024-01-02 03:04:05', 'a zone letter inside a word is no zone');
  t.is(stamp('2024-01-02 03:04:05+01:0012'), '2024-01-02 03:04:05', 'nor a zone running into digits');
});

test('a bracketed timestamp needs its bracket, and where a timestamp may start is past the fields some writers put first', (t) => {
  t.is(stamp('[2024-01-02 03:04:05] x'), '2024-01-02 03:04:05');
  t.is(stamp('[2024-06-03T09:00:00.902001 #23933] ERROR'), '2024-06-03T09:00:00.902001', "Ruby's time with its pid before the bracket");
  t.is(stamp('[2024-01-02 03:04:05 x'), undefined);
  t.is(stampFrom('E, [2024-06-03T09:00:00.902001 #23933] ERROR -- app: x', 0), 3);
  t.is(stampFrom('24318:M 03 Dec 2026 15:58:08.399 # x', 0), 8);
  t.is(stampFrom('=ERROR REPORT==== 3-Dec-2026::16:26:38.970600 ===', 0), 18);
  t.is(stampFrom('2024-01-02 03:04:05 x', 0), 0);
  t.is(stampFrom('time=2026-12-06T11:26:47.441969837Z level=INFO msg=x', 0), 5, "logfmt's time key (Go's log/slog)");
  t.is(stampFrom('time="2026-12-06T11:27:00Z" level=info msg=x', 0), 6, 'quoted (logrus)');
  t.is(stampFrom('ts=2026-12-06T11:27:00Z caller=main.go:3', 0), 3, 'go-kit');
  t.is(stampFrom('timer=2026-12-06T11:27:00Z', 0), 0, 'another key');
  t.is(stamp('é 2024-01-02 03:04:05 x', 2), '2024-01-02 03:04:05', 'offsets are chars of the string, not bytes');
});

const timestamped = (extra: Partial<FormatInfo> = {}): FormatInfo => ({ format: 'timestamped', label: 'x', timestamped: true, strict: false, hasTtl: false, leadingTabFields: 0, ...extra });

function header(info: FormatInfo, line: string): { time: string; severity: Severity; declared: boolean; message: string } | undefined {
  const parser = new LineParser(info);
  const buf = Buffer.from(line, 'latin1');
  if (!parser.header(buf, 0, buf.length, line.slice(0, PREFIX_BYTES))) return undefined;
  return { time: parser.time, severity: parser.severity, declared: parser.declared, message: line.slice(parser.templateAt) };
}

test('a header declares its level in its column, in a level word after the time, by its <PRI> or glog letter', (t) => {
  const column = timestamped({ levelColumn: { token: 2, letters: false } });
  t.like(header(column, '2024-01-02 03:04:05 Info CBS Loaded Servicing Stack'), { severity: Severity.Info, declared: true, message: 'Info CBS Loaded Servicing Stack' });
  t.like(header(column, '2024-01-02 03:04:05 [warn] disk'), { severity: Severity.Warning, declared: true });
  t.like(header(column, '2024-01-02 03:04:05 WARNING/ForkPoolWorker-2] Timeout: 60'), { severity: Severity.Warning, declared: true });
  const plain = timestamped();
  t.like(header(plain, '2024-01-02 03:04:05 ERROR boom'), { severity: Severity.Error, declared: true, message: 'ERROR boom' });
  t.like(header(plain, '2024-01-02 03:04:05 level=warn msg=x'), { severity: Severity.Warning, declared: true });
  t.like(header(plain, '2024-01-02 03:04:05 error in prose'), { severity: Severity.Error, declared: false }, 'a bare lowercase word is prose: the words decide');
  t.like(header(plain, '<11>2024-01-02 03:04:05 host app: x'), { severity: Severity.Error, declared: true, time: '2024-01-02 03:04:05' });
  t.like(header(plain, 'E0102 15:04:05.000000 123 x.go:1] boom'), { severity: Severity.Error, declared: true });
  t.like(header(plain, '=CRASH REPORT==== 3-Dec-2026::16:26:38.970600 ==='), { severity: Severity.Error, declared: true });
  t.like(header(plain, '1764600031 INFO x'), { time: '2025-12-01T14:40:31.000Z' }, 'epoch times are shown as ISO times');
});

test('what is no level stays none: an empty <>, a word of an object, log show\'s Default outside log show', (t) => {
  const plain = timestamped();
  t.is(header(plain, '<>2024-01-02 03:04:05 started'), undefined, '`<>` holds no priority, so it is no header');
  const parser = new LineParser(plain);
  const line = '<> started';
  parser.plain(Buffer.from(line), 0, line.length, line, undefined);
  t.like({ severity: parser.severity, declared: parser.declared }, { severity: Severity.Info, declared: false }, 'nor the start of a line without one');
  t.is(header(plain, '2024-01-02 03:04:05 [constructor] started')?.declared, false);
  t.is(header(plain, '2024-01-02 03:04:05 [toString] started')?.declared, false);
  t.is(header(plain, '2024-01-02 03:04:05 [Default] started')?.declared, false);
  t.is(header(plain, 'no time here ERROR'), undefined);
});

test("a head's level column: words at a position in most lines, or letters of two kinds", (t) => {
  t.deepEqual(detectLevelColumn(['a 1 INFO x', 'a 2 WARN y', 'a 3 info z', 'a 4 DEBUG w']), { token: 2, letters: false });
  t.deepEqual(detectLevelColumn(['03-17 16:13:38.811  1702  2395 D WindowManager: x', '03-17 16:13:38.812  1702  2395 V WindowManager: y', '03-17 16:13:38.813  1702  2395 D Foo: z']), { token: 4, letters: true }, 'V and D are two letters, though both are debug');
  t.is(detectLevelColumn(['a 1 x', 'a 2 y', 'a 3 INFO z']), undefined);
  t.is(detectLevelColumn(['03-17 1 D x', '03-17 2 D y', '03-17 3 D z']), undefined, 'one letter alone is no column');
});

test('the native search for trouble words finds one exactly where fromWords\'s first test does, in any case', (t) => {
  const lib = nativeLibrary();
  const words = levelWordsAddress();
  const anyWord = new RegExp(TROUBLE_WORDS.join('|'), 'i');
  const rand = seededRandom(11);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const others = ['er', 'fai', 'can', 'could', 'no such', 'time', 'by', 'with', 'ok', 'user', 'session opened', ' ', '-', "'", '\u00e9', '\u00ff', 'K', 'Z'];
  let found = 0;
  for (let i = 0; i < 20_000; i++) {
    let text = '';
    for (let k = Math.floor(rand() * 6); k >= 0; k--) {
      let piece = rand() < 0.15 ? pick(TROUBLE_WORDS) : pick(others);
      // A word cut short, or in another case, letter by letter.
      if (rand() < 0.3) piece = piece.slice(0, Math.max(1, Math.floor(rand() * piece.length)));
      piece = [...piece].map((c) => (rand() < 0.5 ? c.toUpperCase() : c)).join('');
      text += rand() < 0.5 ? piece : ` ${piece}`;
    }
    const buf = Buffer.from(text, 'latin1');
    const native = lib.logTrouble(words, buf, buf.length, 0, buf.length);
    t.is(native === 1, anyWord.test(text), JSON.stringify(text));
    if (native === 0) t.is(fromWords(text), Severity.Info, JSON.stringify(text));
    found += native;
  }
  t.true(found > 4_000 && found < 16_000, `${found} of 20000 hold one`);
});

test('a line skipped without a call for its first byte is one the C reader finds no header in (wisp_log_header_starts)', (t) => {
  const lib = nativeLibrary();
  const words = levelWordsAddress();
  const out = new Int32Array(new ArrayBuffer(4 * HEADER_OUT.words));
  const outAddress = addressOf(out);
  const heads = ['2024-01-02 03:04:05 ERROR x', '<13>Jan  1 09:00:00 host x', '=ERROR REPORT==== 3-Dec-2026::16:26:38.970600 ===', '[2024-01-02T03:04:05Z] WARN x', 'I0102 15:04:05.000000 1 x.go:1] x', 'E, [2024-06-03T09:00:00.902001 #23933] ERROR -- app: x', 'Jul  1 09:29:02 host x', '24318:M 03 Dec 2026 15:58:08.399 # x', 'time=2026-12-06T11:26:47.441969837Z level=INFO msg=x', 'time="2026-12-06T11:27:00Z" level=info', '  at f (x.js:1:2)', '\tat com.x.Y(Y.java:1)', 'goroutine 1 [running]:', ''];
  const infos: FormatInfo[] = [
    { format: 'timestamped', label: 'timestamped log', timestamped: true, leadingTabFields: 0 } as FormatInfo,
    { format: 'timestamped', label: 'timestamped log', timestamped: true, leadingTabFields: 0, levelColumn: { token: 2, letters: false } } as FormatInfo,
    { format: 'plain', label: 'plain text', timestamped: false, leadingTabFields: 0 } as FormatInfo,
  ];
  const rand = seededRandom(5);
  let skippedHeaders = 0;
  let headers = 0;
  for (let i = 0; i < 20_000; i++) {
    const head = heads[Math.floor(rand() * heads.length)]!;
    // A byte of any value at the header's place, or none; fields before it (gh run view's job and step).
    const fields = rand() < 0.3 ? 'job\tstep\t' : '';
    const first = rand() < 0.5 ? String.fromCharCode(Math.floor(rand() * 256)) : '';
    const line = Buffer.from(fields + first + head.slice(rand() < 0.5 ? 1 : 0), 'latin1');
    const info = infos[Math.floor(rand() * infos.length)]!;
    const { flags, column } = headerFlags(info);
    const fieldsEnd = fields.length;
    const direct = lib.logHeader(words, line, line.length, 0, line.length, 0, fieldsEnd, flags, column, outAddress);
    const reader = new HeaderReader(info);
    const read = reader.read(line, 0, line.length, 0, fieldsEnd);
    t.is(read, direct === 1, JSON.stringify(line.toString('latin1')));
    // `out` is read here, which also keeps its memory alive while C writes to it by address.
    if (direct === 1) {
      headers++;
      t.deepEqual([reader.timeStart, reader.timeEnd, reader.message], [out[HEADER_OUT.timeStart], out[HEADER_OUT.timeEnd], out[HEADER_OUT.message]]);
    }
    if (direct === 0 && line[fieldsEnd] !== undefined && !/[<=[A-Z0-9]/.test(String.fromCharCode(line[fieldsEnd]!))) skippedHeaders++;
  }
  t.true(headers > 2_000, `${headers} lines with a header`);
  t.true(skippedHeaders > 2_000, `${skippedHeaders} lines skipped for their first byte`);
});
