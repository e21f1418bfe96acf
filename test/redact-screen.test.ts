import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';

import { mayNeedRedaction, redact, RULE_NAMES } from '../src/redact/index.js';
import { withEscapesMasked } from '../src/redact/escapes.js';
import { RULE_SET } from '../src/redact/rule-set.js';
import { screenLines } from '../src/redact/screen.js';
import { codeLikeText } from '../fixtures/code-text.js';
import { knownKindExamples } from '../fixtures/known-kinds.js';
import { mixedLog } from '../fixtures/logs.js';
import { seededRandom } from '../fixtures/random.js';
import { negatives, positives } from '../fixtures/redaction-corpus.js';
import { wideCorpus } from '../fixtures/redaction-corpus-wide.js';

const screen = (text: string): boolean => {
  const bytes = Buffer.from(text);
  return mayNeedRedaction(bytes, 0, bytes.length);
};
/** Every rule, whatever the scan says: what redact() would give if no condition ever held it back. */
const everyRule = (text: string): string => withEscapesMasked(text, (masked) => RULE_SET.applyAll(masked));

/** A run of `n` characters of `secret` that survives in `out` (markers aside), if any. */
function survivingRun(secret: string, out: string, n = 8): string | undefined {
  const shown = out.replace(/\[REDACTED:[\w.-]+\]/g, ' ');
  for (let i = 0; i + n <= secret.length; i++) if (shown.includes(secret.slice(i, i + n))) return secret.slice(i, i + n);
  return undefined;
}

// ---------- the inputs: corpora in log lines, generated logs, mutated secrets ----------

const random = seededRandom(0x5c2ee7);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const prefix = (): string =>
  pick([
    () => `2025-11-0${1 + Math.floor(random() * 9)}T10:1${Math.floor(random() * 10)}:2${Math.floor(random() * 10)}.${100 + Math.floor(random() * 900)}Z ${pick(['INFO', 'WARN', 'ERROR', 'DEBUG'])} [${pick(['main', 'pool-3-thread-1', 'http-nio-8080-exec-2'])}] ${pick(['c.a.s.AuthService', 'o.s.web.Filter', 'app.db'])} - `,
    () => `Nov ${10 + Math.floor(random() * 18)} 0${Math.floor(random() * 10)}:12:44 web-${Math.floor(random() * 9)} ${pick(['sshd', 'nginx', 'app'])}[${100 + Math.floor(random() * 9000)}]: `,
    () => `[${pick(['error', 'info'])}] ${pick(['worker', 'api'])}: `,
  ])();

/** Digits masked (what a template shows), case changed, cut in the middle or at the end. */
function mutations(secret: string): string[] {
  const half = Math.floor(secret.length / 2);
  return [
    secret.replace(/\d/g, '0'),
    secret.replace(/\d/g, ''),
    secret.toUpperCase(),
    secret.toLowerCase(),
    secret.slice(0, half),
    secret.slice(half),
    secret.slice(0, Math.max(8, secret.length - 3)),
  ];
}

function inputs(): string[] {
  const out: string[] = [];
  const cases = [...positives.map((p) => ({ text: p.text, secret: p.secret as string | null })), ...negatives.map((n) => ({ text: n.text, secret: null })), ...wideCorpus(3)];
  for (const c of cases) {
    for (const line of c.text.split('\n')) {
      out.push(line, `${prefix()}${line}`);
      if (c.secret !== null && line.includes(c.secret)) for (const m of mutations(c.secret)) out.push(`${prefix()}${line.replace(c.secret, m)}`);
    }
  }
  for (const k of knownKindExamples(5)) for (const line of k.text.split('\n')) out.push(line, `${prefix()}${line}`);
  out.push(...mixedLog(3000, 41).split('\n'), ...codeLikeText(2000, 43));
  return out;
}
const INPUTS = inputs();

test('the screen is sound: where it says no, redact() leaves the line unchanged', (t) => {
  let screenedOut = 0;
  for (const line of INPUTS) {
    if (screen(line)) continue;
    screenedOut++;
    if (redact(line) !== line) t.fail(`screen said no, redact changed: ${JSON.stringify(line)}`);
  }
  t.true(screenedOut > INPUTS.length / 10, `${screenedOut} of ${INPUTS.length} lines screened out`);
  t.log(`${INPUTS.length} lines, ${screenedOut} screened out`);
});

test("the scan's conditions hold back no rule: redact() equals every rule applied", (t) => {
  const differ: string[] = [];
  for (const line of INPUTS) if (line.length < 60_000 && redact(line) !== everyRule(line)) differ.push(line);
  t.deepEqual(differ.slice(0, 10), []);
});

test('digit layouts: on random digit text the scan holds back no card, SSN, phone or address', (t) => {
  const r = seededRandom(99);
  const alphabet = ['0123456789', '0123456789  ', '0123456789 -', '0123456789..', '0123456789 .-()+', '0123456789 -:/,'];
  const differ: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const chars = alphabet[i % alphabet.length]!;
    let s = '';
    for (let k = 0, n = 5 + Math.floor(r() * 30); k < n; k++) s += chars[Math.floor(r() * chars.length)];
    const line = r() < 0.5 ? s : `x ${s} y`;
    if (redact(line) !== everyRule(line)) differ.push(line);
  }
  t.deepEqual(differ.slice(0, 10), []);
});

test('runs: near the lengths the shapes need, behind escapes and separators, the scan holds back no rule', (t) => {
  const r = seededRandom(7);
  const from = (chars: string, n: number): string => {
    let s = '';
    for (let k = 0; k < n; k++) s += chars[Math.floor(r() * chars.length)];
    return s;
  };
  const near = (n: number): number => n - 3 + Math.floor(r() * 7);
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const WORD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  const HEX = '0123456789abcdef';
  // Each a shape at the edge of the length its rule takes: base64 keys, key lines, hex keys, Discord tokens.
  const shapes = [
    () => from(B64, near(40)),
    () => from(B64, near(64)),
    () => `${from(HEX, near(32))}-us${1 + Math.floor(r() * 20)}`,
    () => `key-${from(HEX, near(32))}`,
    () => `${from(HEX, near(32))}-${from(HEX, 8)}-${from(HEX, 8)}`,
    () => `${'MNO'[Math.floor(r() * 3)]}${from(WORD, near(24))}.${from(WORD, 6)}.${from(WORD, near(30))}`,
  ];
  // No `=` or `:` after a shape: a rule's marker before one reads as a key name (`[REDACTED:mailgun-key]=v`)
  // to the rules after it, which the scan of the text as it came cannot know.
  const separators = [' ', '  ', '\\n', '\\t', '\\r', '\\\\n', '\\', '-', '_', '.', ',', '"', '/', 'é', ''];
  const differ: string[] = [];
  let unsound = 0;
  for (let i = 0; i < 20_000; i++) {
    let line = r() < 0.3 ? prefix() : '';
    for (let k = 0, n = 1 + Math.floor(r() * 3); k < n; k++) line += `${separators[Math.floor(r() * separators.length)]}${shapes[Math.floor(r() * shapes.length)]!()}`;
    line += separators[Math.floor(r() * separators.length)];
    const out = redact(line);
    if (out !== everyRule(line)) differ.push(line);
    if (out !== line && !screen(line)) unsound++;
  }
  t.deepEqual(differ.slice(0, 10), []);
  t.is(unsound, 0);
});

test('the screen reads raw bytes like the string: non-ASCII and invalid UTF-8 are separators', (t) => {
  const secret = `ghp_${'aB3'.repeat(12)}`;
  const line = Buffer.concat([Buffer.from('é token='), Buffer.from(secret), Buffer.from([0xff, 0xfe]), Buffer.from(' ok')]);
  t.true(mayNeedRedaction(line, 0, line.length));
  const plain = Buffer.from('naïve café — nothing here ✓');
  t.false(mayNeedRedaction(plain, 0, plain.length));
  t.is(redact(plain.toString()), plain.toString());
  // A sub-range is screened on its own.
  const framed = Buffer.from(`nothing here\npassword=hunter2\n`);
  t.false(mayNeedRedaction(framed, 0, 12));
  t.true(mayNeedRedaction(framed, 13, framed.length - 1));
});

test("a chunk's lines screened at once get each line's own verdict: CRLF, blank lines, a last line without newline, a range inside a buffer", (t) => {
  const lines = INPUTS.filter((l) => !l.includes('\n') && !l.includes('\r')).slice(0, 4000);
  const endings = ['\n', '\r\n', '\n\n'];
  const text = `${lines.map((l, k) => l + endings[k % 3]).join('')}password=hunter2`;
  const bytes = Buffer.from(`junk-before:${text}:after`);
  const start = 'junk-before:'.length;
  const end = bytes.length - ':after'.length;
  // The lines as condense_log reads them: split at \n, a \r before it left out.
  const expected: boolean[] = [];
  for (let s = start; s < end; ) {
    let nl = bytes.indexOf(10, s);
    if (nl < 0 || nl > end) nl = end;
    const e = nl > s && bytes[nl - 1] === 13 ? nl - 1 : nl;
    expected.push(mayNeedRedaction(bytes, s, e));
    s = nl + 1;
  }
  const flags = screenLines(bytes, start, end);
  t.is(flags.length, expected.length);
  t.deepEqual([...flags].map((f) => f === 1), expected);
  t.true(expected.filter(Boolean).length > 100 && expected.filter((x) => !x).length > 100, 'both verdicts are exercised');
  t.true(flags[flags.length - 1] === 1, 'the last line, with no newline, is screened up to the range end');
  t.is(screenLines(bytes, 5, 5).length, 0);
});

test('the native scan refuses a range outside its buffer with a coded error, not a read past it', (t) => {
  const bytes = Buffer.from('password=hunter2');
  t.throws(() => mayNeedRedaction(bytes, 0, bytes.length + 1), { code: 'WISP_INTERNAL' });
  t.throws(() => mayNeedRedaction(bytes, 5, 4), { code: 'WISP_INTERNAL' });
  t.throws(() => screenLines(bytes, -1, 4), { code: 'WISP_INTERNAL' });
});

// ---------- every kind the module knows ----------

test('every rule has a known-kind example, and no 8-character run of its secret survives', (t) => {
  const examples = knownKindExamples();
  const covered = new Set(examples.map((e) => e.kind));
  t.deepEqual(RULE_NAMES.filter((name) => !covered.has(name)), []);
  for (const e of examples) {
    t.true(screen(e.text), `${e.kind}: the screen let it through`);
    const out = e.text.split('\n').map(redact).join('\n');
    t.is(survivingRun(e.secret, out), undefined, `${e.kind}: ${out}`);
  }
});

test('each line of a real private key, redacted alone, keeps no 8-character run of the key', (t) => {
  const keys = [
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }),
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }),
    generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }),
  ].map(String);
  for (const pem of keys) {
    const lines = pem.trim().split('\n');
    const body = lines.slice(1, -1).join('');
    for (const line of lines) {
      t.is(survivingRun(body, redact(line)), undefined, line);
      // Behind a log prefix, a full-length body line (the last may be shorter) goes too.
      if (line.length === 64) t.is(survivingRun(body, redact(`${prefix()}${line}`)), undefined, line);
    }
  }
});

test('lone lines that are not key material stay: identifiers, hex, words, short tokens', (t) => {
  for (const line of ['Uint8Array', '  HTTP2ServerRequest,', 'constructor', '0x12345678', 'deadbeefcafebabe0123456789abcdef', 'README', '    "lodash",', 'v8Engine', 'SomeClassName2']) {
    t.is(redact(line), line);
  }
});

// ---------- ordinary code ----------

test('generated code-like text (declarations, minified JS, lock file, git log): at most 0.5% of lines change', (t) => {
  const lines = codeLikeText(8000);
  const changed = lines.filter((l) => redact(l) !== l);
  t.true(changed.length / lines.length <= 0.005, `${changed.length} of ${lines.length}:\n${changed.slice(0, 10).join('\n')}`);
});

test('the look-alikes the issue names stay as they are', (t) => {
  for (const line of [
    '    "minipass": "^7.1.2",',
    '    countToken: "COUNT";',
    '    patternToken: "MATCH";',
    '<Buffer 01 02 03 04 05>',
    'const clientSecret = isPublicClient ? undefined : options.clientSecret;',
    "errorCode = 'invalid_token'",
  ]) {
    t.is(redact(line), line);
  }
});

test('a key body line without a digit, behind a log prefix, goes too (a random key draws one now and then)', (t) => {
  const line = 'MIIEogIBAAKCAQEAihUbErsORhcpediFxtbUYFfOS+RXYqroGZiblcOHnGZTaTSd';
  for (const p of ['[error] worker: ', 'Nov 12 03:12:44 web-3 nginx[4711]: ', '2025-11-03T10:12:23.456Z INFO [main] app.db - ']) {
    t.false(redact(`${p}${line}`).includes(line.slice(0, 16)), p);
  }
});
