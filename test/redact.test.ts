import { PassThrough } from 'node:stream';
import test from 'ava';

import { runRedact } from '../src/cli/commands/redact.js';
import { LineRedactor, redact, UNPROCESSED } from '../src/redact/index.js';
import type { Match } from '../src/redact/rule.js';
import { RULE_SET } from '../src/redact/rule-set.js';
import { redactStream } from '../src/redact/stream.js';
import { providerTokenKinds } from '../src/redact/rules/provider-tokens.js';
import { negatives, positiveKinds, positives, type PositiveCase } from '../fixtures/redaction-corpus.js';

// ---------- the labelled corpus ----------

function leaks(out: string, p: PositiveCase): boolean {
  return [p.secret, ...(p.extraSecrets ?? [])].some((s) => out.includes(s));
}

/** Redacts a multi-line text the way `wisp redact` does: line by line, state carried over. */
function redactByLines(text: string): string {
  const redactor = new LineRedactor();
  return text
    .split('\n')
    .map((line) => redactor.line(line))
    .join('\n');
}

function score(fn: (text: string) => string): { recall: number; fpr: number; misses: string[]; falsePositives: string[] } {
  const misses: string[] = [];
  for (const p of positives) {
    const out = fn(p.text);
    if (leaks(out, p)) misses.push(`[${p.kind}] ${JSON.stringify(out).slice(0, 300)}`);
  }
  const falsePositives: string[] = [];
  for (const n of negatives) {
    const out = fn(n.text);
    if (out !== n.text) falsePositives.push(`[${n.kind}] ${JSON.stringify(n.text).slice(0, 200)}\n      -> ${JSON.stringify(out).slice(0, 200)}`);
  }
  return {
    recall: 1 - misses.length / positives.length,
    fpr: falsePositives.length / negatives.length,
    misses,
    falsePositives,
  };
}

test('the corpus has at least 300 positives over 40 kinds and 300 negatives', (t) => {
  t.true(positives.length >= 300, `${positives.length} positives`);
  t.true(positiveKinds().length >= 40, `${positiveKinds().length} kinds`);
  t.true(negatives.length >= 300, `${negatives.length} negatives`);
});

for (const [name, fn] of [
  ['redact()', redact],
  ['line by line (wisp redact)', redactByLines],
] as const) {
  test(`corpus through ${name}: recall >= 99%, false positives <= 1%`, (t) => {
    const { recall, fpr, misses, falsePositives } = score(fn);
    t.true(recall >= 0.99, `recall ${(recall * 100).toFixed(1)}%; misses:\n  ${misses.join('\n  ')}`);
    t.true(fpr <= 0.01, `false positives ${(fpr * 100).toFixed(1)}%:\n  ${falsePositives.join('\n  ')}`);
    t.log(`recall ${(recall * 100).toFixed(1)}% (${positives.length - misses.length}/${positives.length}), false positives ${(fpr * 100).toFixed(1)}% (${falsePositives.length}/${negatives.length})`);
  });
}

test('at least 40 kinds of prefixed provider tokens have a rule', (t) => {
  t.true(providerTokenKinds.length >= 40, `${providerTokenKinds.length} kinds`);
});

// ---------- what stays readable ----------

test('key names, the scheme word, the URL user and PEM BEGIN/END lines stay', (t) => {
  t.is(redact('DB_PASSWORD=hunter2'), 'DB_PASSWORD=[REDACTED:password]');
  t.is(redact('{"password": "hunter2", "user": "bob"}'), '{"password": "[REDACTED:password]", "user": "bob"}');
  t.is(redact('Authorization: Bearer abcDEF0123456789xyzXYZ'), 'Authorization: Bearer [REDACTED:authorization]');
  t.is(redact('postgres://app:s3cr3t!@db.internal:5432/orders'), 'postgres://app:[REDACTED:password]@db.internal:5432/orders');
  t.is(redact('curl -u admin:hunter2 https://ci.example.com'), 'curl -u admin:[REDACTED:password] https://ci.example.com');
  const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234567890abcdefABCDEF\nAbCdEf0123456789+/==\n-----END RSA PRIVATE KEY-----';
  t.is(redact(pem), '-----BEGIN RSA PRIVATE KEY-----\n[REDACTED:private-key]\n-----END RSA PRIVATE KEY-----');
  const escaped = '"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\nAbCdEf0123456789+/==\\n-----END PRIVATE KEY-----\\n"';
  t.is(redact(escaped), '"-----BEGIN PRIVATE KEY-----\\n[REDACTED:private-key]\\n-----END PRIVATE KEY-----\\n"');
});

test('markers are typed and survive a second pass unchanged', (t) => {
  const once = redact('token=ghp_0123456789abcdefghijABCDEFGHIJ012345 mail alice@example.org');
  t.is(once, 'token=[REDACTED:github-token] mail [REDACTED:email]');
  t.is(redact(once), once);
});

test('placeholders and messages about credentials stay', (t) => {
  for (const text of [
    'password=${DB_PASSWORD}',
    'token: {{ .Values.token }}',
    'api_key=<your-api-key>',
    'password: ****',
    'token expired',
    'password reset requested for user 42',
    'Authorization: Bearer <token>',
  ]) {
    t.is(redact(text), text);
  }
});

test('public IPv4 goes; private, loopback, link-local and version-like quads stay', (t) => {
  t.is(redact('login from 81.2.69.160'), 'login from [REDACTED:ipv4]');
  for (const text of ['10.0.0.1', '192.168.1.20', '172.16.5.4', '127.0.0.1', '169.254.169.254', '100.64.1.1', 'version 1.2.3.4', 'v8.8.8.8']) {
    t.is(redact(text), text);
  }
});

// ---------- no catastrophic backtracking ----------

const BOUND_MS = 1000;
const base64Run = (n: number): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[(i * 7919 + (i >> 3)) % 64];
  return s;
};
/** A JSON log dump on one line: ordinary records, one credential every few kilobytes. */
function oneMegabyteLine(): string {
  const records: string[] = [];
  let length = 0;
  for (let i = 0; length < 1 << 20; i++) {
    const record =
      i % 20 === 0
        ? `{"id":${i},"msg":"login","password":"hunter${i}","ip":"81.2.69.${i % 250}"}`
        : `{"id":${i},"ts":"2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z","msg":"GET /api/v1/items/${i} 200","request_id":"3f2a9c1d-7e4b-4c1a-9b2e-${String(i).padStart(12, '0')}","duration_ms":${i % 977}}`;
    records.push(record);
    length += record.length + 1;
  }
  return `[${records.join(',')}]`.slice(0, 1 << 20);
}

const pathological: [string, string][] = [
  ['1,000 spaces', ' '.repeat(1000)],
  ['100 KB of base64', base64Run(100 * 1024)],
  ['a 1 MB line without a newline', oneMegabyteLine()],
  ['100 KB dense with credentials', 'INFO user=bob password=hunter2 token=abc123def456 '.repeat(2_000)],
  ['1 MB of one letter', 'a'.repeat(1 << 20)],
  ['1 MB of digits', '4'.repeat(1 << 20)],
  ['100 KB of key=value without spaces', 'password='.repeat(12_000)],
  ['100 KB of @ and dots', 'a@b.'.repeat(25_000)],
  ['a BEGIN line followed by 200 KB of base64', `-----BEGIN RSA PRIVATE KEY-----\\n${base64Run(200 * 1024)}`],
  ['100 KB of URL-ish text', 'https://a:b@'.repeat(8_000)],
  ['100 KB of dashes and spaces', '- -- '.repeat(20_000)],
  ['100 KB of phone-like groups', '+1 2 '.repeat(20_000)],
  ['1 MB of key= without spaces', 'key='.repeat(1 << 18)],
  ['1 MB of spaces then a password', `${' '.repeat(1 << 20)}password=abc`],
  ['1 MB of ://@ pairs', '://a@'.repeat(200_000)],
  ['1 MB of digits and single spaces', '4 '.repeat(1 << 19)],
  ['1 MB of a 21-letter keyword prefix', 'A'.repeat(1 << 20)],
  ['1 MB of base64 lines joined by escaped newlines', `${base64Run(64)}\\n`.repeat(15_000)],
];
for (const [name, input] of pathological) {
  test(`no catastrophic backtracking: ${name}`, (t) => {
    const started = performance.now();
    const out = redact(input);
    const ms = performance.now() - started;
    t.true(ms < BOUND_MS, `${name} took ${ms.toFixed(0)} ms`);
    t.true(out.length > 0);
  });
}

// ---------- streaming ----------

async function streamThrough(input: string | string[], options = {}): Promise<string> {
  const chunks = Array.isArray(input) ? input : [input];
  const source = (async function* () {
    for (const c of chunks) yield Buffer.from(c);
  })();
  let out = '';
  await redactStream(source, { write: (s: string) => { out += s; return true; }, once: () => undefined }, options);
  return out;
}

test('the stream keeps one output line per input line, a PEM block included', async (t) => {
  const input = ['user=bob password=hunter2', '-----BEGIN EC PRIVATE KEY-----', 'MHcCAQEEIBkN3q0x9vM0aBcDeFgHiJkLmNoPqRsTuVwXyZ012345', 'oUQDQgAEabcdefGHIJKLmnopQRSTuvwxYZ0123456789+/AbCdEf==', '-----END EC PRIVATE KEY-----', 'done', ''].join('\n');
  const out = await streamThrough(input);
  t.is(out.split('\n').length, input.split('\n').length);
  t.is(
    out,
    ['user=bob password=[REDACTED:password]', '-----BEGIN EC PRIVATE KEY-----', '[REDACTED:private-key]', '[REDACTED:private-key]', '-----END EC PRIVATE KEY-----', 'done', ''].join('\n'),
  );
});

test('the stream splits lines across chunk boundaries and keeps CRLF and a missing final newline', async (t) => {
  const out = await streamThrough(['pass', 'word=hun', 'ter2\r\nnext ☃', ' line']);
  t.is(out, 'password=[REDACTED:password]\r\nnext ☃ line');
});

test('a line over the line limit becomes a marker and the lines around it flow', async (t) => {
  const long = `password=${'x'.repeat(50_000)}`;
  const out = await streamThrough(['token=ghp_0123456789abcdefghijABCDEFGHIJ012345\n', long.slice(0, 20_000), long.slice(20_000), '\nlast password=hunter2\n'], { maxLineBytes: 16 * 1024 });
  t.is(out, `token=[REDACTED:github-token]\n[REDACTED:line-over-16384-bytes]\nlast password=[REDACTED:password]\n`);
});

test('the stream writes each line before it reads the next', async (t) => {
  const written: string[] = [];
  let wrote: () => void = () => undefined;
  const source = (async function* () {
    yield Buffer.from('user=bob password=hunter2\n');
    // Wait until the first line is out; a stream that read ahead first would hang here.
    await new Promise<void>((resolve) => {
      wrote = resolve;
      if (written.length > 0) resolve();
    });
    yield Buffer.from('second line\n');
  })();
  const sink = {
    write: (s: string) => {
      written.push(s);
      wrote();
      return true;
    },
    once: () => undefined,
  };
  const done = redactStream(source, sink);
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5000).unref());
  t.not(await Promise.race([done, timeout]), 'timeout');
  t.deepEqual(written, ['user=bob password=[REDACTED:password]\n', 'second line\n']);
});

// ---------- inputs that broke it ----------

async function runCli(input: string): Promise<{ code: number; out: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stdin.end(input);
  const code = await runRedact([], { stdin, stdout, stderr: new PassThrough() });
  return { code, out };
}

for (const key of ['key=', 'pwd=', 'sig=', 'token: ']) {
  test(`\`${key}\` repeated 1,000 times on a line: no stack overflow, every line out`, async (t) => {
    const line = key.repeat(1000);
    t.notThrows(() => redact(line));
    const { code, out } = await runCli(`before password=hunter2\n${line}\nafter\n`);
    t.is(code, 0);
    const lines = out.split('\n');
    t.is(lines.length, 4);
    t.is(lines[0], 'before password=[REDACTED:password]');
    t.is(lines[2], 'after');
  });
}

test('100 KB of spaces then password=abc: wisp redact redacts it', async (t) => {
  const { code, out } = await runCli(`${' '.repeat(100_000)}password=abc\n`);
  t.is(code, 0);
  t.is(out, `${' '.repeat(100_000)}password=[REDACTED:password]\n`);
});

test('a line a rule fails on becomes a marker; the lines around it are redacted as usual', (t) => {
  const rule = RULE_SET.rules.find((r) => r.name === 'credential-assignment') as { replace: (m: Match) => string };
  const original = rule.replace;
  rule.replace = (m) => {
    if (m.text.includes('BOOM')) throw new RangeError('simulated failure');
    return original(m);
  };
  try {
    t.is(redact('a password=hunter2\nb password=BOOM\nc'), `a password=[REDACTED:password]\n${UNPROCESSED}\nc`);
  } finally {
    rule.replace = original;
  }
});

test('wisp redact reads stdin and writes stdout', async (t) => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let written = '';
  stdout.on('data', (d: Buffer) => (written += d.toString()));
  stdin.end('a=1 password=hunter2\nAKIA0123456789ABCDEF\n');
  const code = await runRedact([], { stdin, stdout, stderr });
  t.is(code, 0);
  t.is(written, 'a=1 password=[REDACTED:password]\n[REDACTED:aws-access-key]\n');
});
