/**
 * Nothing secret leaves wisp: for every credential kind the redaction module knows, its
 * example is embedded in log lines of several kinds (a timestamped record's message, a
 * continuation line under an exception, a JSON log's message and error, a line of its
 * own), condensed, and every output is searched for any run of 8 characters of the
 * secret, as it is and with its digits masked as templates mask them (`<NUM>`): the text,
 * `--json`, a partial file, and the values and cause lines inside them.
 */
import test from 'ava';
import { condenseLog, condenseLogState } from '../src/log/index.js';
import type { LogResult } from '../src/log/model/result.js';
import { toPartialFile } from '../src/log/merge/partial-file.js';
import { renderLogText } from '../src/log/render/log-text.js';
import { textSource } from '../src/input/sources.js';
import { redact } from '../src/redact/index.js';
import { knownKindExamples } from '../fixtures/known-kinds.js';

const examples = knownKindExamples();
const MARKER = /\[REDACTED:[a-z0-9-]+\]/g;
const RUN = 8;

/** Every run of RUN characters of the secret, and of the secret with its digit runs masked. */
function runsOf(secret: string): string[] {
  const out = new Set<string>();
  for (const form of [secret, secret.replace(/\d+/g, '<NUM>')]) {
    for (const part of form.split(/\s+/)) {
      for (let i = 0; i + RUN <= part.length; i++) {
        const run = part.slice(i, i + RUN);
        // A run that is mostly the placeholder's own letters is in every template with a number.
        if (run.replace(/<NUM>|<NU|<N|UM>|M>|NUM|NU/g, '').replace(/[^A-Za-z0-9]/g, '').length >= 4) out.add(run);
      }
    }
  }
  return [...out];
}

/** The lines one example is embedded in, in the formats a log holds. */
function embed(text: string, i: number): string[] {
  const t = `2026-12-01T10:00:${String(i % 60).padStart(2, '0')}.000Z`;
  return [
    `${t} INFO [worker-${i}] loaded ${text}`,
    `${t} ERROR [worker-${i}] request failed`,
    `java.lang.IllegalStateException: bad config ${text}`,
    `\tat com.example.Config.load(Config.java:${i})`,
    JSON.stringify({ level: 50, time: 1764600000000 + i, msg: `call with ${text}`, err: { type: 'Error', message: text } }),
    text,
  ];
}

test('every known credential kind has an example', (t) => {
  t.true(examples.length >= 100, `${examples.length} examples`);
});

for (const format of ['text', 'json'] as const) {
  test(`no run of ${RUN} characters of any secret survives in any output (${format} log)`, async (t) => {
    const lines: string[] = [];
    examples.forEach((e, i) => {
      const embedded = embed(e.text, i);
      // Each kind twice, so that it forms groups with values, not only single records.
      for (let k = 0; k < 2; k++) lines.push(...(format === 'json' ? embedded.slice(4, 5) : embedded));
    });
    const input = `${lines.join('\n')}\n`;
    const result = (await condenseLog([textSource('secrets.log', input)], { workers: 2, top: 1000, chunkBytes: 4096 })) as LogResult;
    const state = await condenseLogState([textSource('secrets.log', input)], { workers: 0 });
    if (state.kind !== 'merged') throw new Error('not a log');
    const outputs = {
      text: renderLogText(result, 1_000_000),
      json: JSON.stringify(result),
      partial: JSON.stringify(toPartialFile(state, 'test')),
    };
    const leaks: string[] = [];
    for (const e of examples) {
      for (const [name, out] of Object.entries(outputs)) {
        const clean = out.replace(MARKER, ' ');
        const run = runsOf(e.secret).find((r) => clean.includes(r));
        if (run !== undefined) leaks.push(`${e.kind} in ${name}: ${JSON.stringify(run)}`);
      }
    }
    t.deepEqual(leaks, []);
  });
}

/** The ways a secret is written escaped: percent-encoded (either case) and as JSON `\uXXXX` escapes. */
const ESCAPINGS: Record<string, (text: string) => string> = {
  percent: (s) => encodeURIComponent(s),
  'percent, lower case': (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  'percent, separators only': (s) => s.replace(/[\s=:"'@/&]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`),
  unicode: (s) => s.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
};

/** What a reader would see once the escapes are decoded (written apart from the module under test). */
const decodeEscapes = (s: string): string =>
  s.replace(/\\u([0-9A-Fa-f]{4})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))).replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));

function leaksIn(out: string, secret: string): string | undefined {
  const clean = out.replace(MARKER, ' ');
  const decoded = decodeEscapes(clean).replace(MARKER, ' ');
  return runsOf(secret).find((r) => clean.includes(r) || decoded.includes(r));
}

test(`no run of ${RUN} characters of any secret survives when it is written escaped (redact and a condensed log)`, async (t) => {
  const leaks: string[] = [];
  const lines: string[] = [];
  examples.forEach((e, i) => {
    for (const [name, escapeText] of Object.entries(ESCAPINGS)) {
      const escaped = escapeText(e.text);
      const run = leaksIn(redact(escaped), e.secret);
      if (run !== undefined) leaks.push(`${e.kind} ${name} in redact(): ${JSON.stringify(run)}`);
      const line = `2026-12-01T10:00:${String(i % 60).padStart(2, '0')}.000Z INFO [worker-${i}] request ${escaped}`;
      lines.push(line, line);
    }
  });
  t.deepEqual(leaks, []);
  const result = (await condenseLog([textSource('escaped.log', `${lines.join('\n')}\n`)], { workers: 2, top: 1000, chunkBytes: 8192 })) as LogResult;
  const outputs = { text: renderLogText(result, 2_000_000), json: JSON.stringify(result) };
  for (const e of examples) {
    for (const [name, out] of Object.entries(outputs)) {
      const run = leaksIn(out, e.secret);
      if (run !== undefined) leaks.push(`${e.kind} in ${name}: ${JSON.stringify(run)}`);
    }
  }
  t.deepEqual(leaks, []);
});

test('an escaped secret is replaced where it is written; the rest of the text stays as written', (t) => {
  const token = 'ghp_abcdefghijABCDEFGHIJ0123456789abcdef';
  t.is(redact(`GET /cb?state=1&token%3D${token}%26page%3D2 HTTP/1.1`), 'GET /cb?state=1&token%3D[REDACTED:github-token]%26page%3D2 HTTP/1.1');
  t.is(redact('body password%3DS3cr3tPassw0rd%26user%3Dbob'), 'body password%3D[REDACTED:password]%26user%3Dbob');
  t.is(redact(String.raw`{\u0022password\u0022:\u0022S3cr3tPassw0rd\u0022,\u0022user\u0022:\u0022bob\u0022}`), String.raw`{\u0022password\u0022:\u0022[REDACTED:password]\u0022,\u0022user\u0022:\u0022bob\u0022}`);
  t.is(redact(`x=\\u003d${token} done`), 'x=\\u003d[REDACTED:github-token] done');
  t.is(redact('path /a%20b/%E2%9C%93 and 100%25 sure'), 'path /a%20b/%E2%9C%93 and 100%25 sure');
  // Redacted again, a marker behind an escaped quote stays one marker.
  for (const s of [String.raw`password=\u0022[REDACTED:password]\u0022`, 'password=%22[REDACTED:password]%22']) t.is(redact(s), s);
  t.is(redact('password=%22Pw12345678abc%22'), 'password=%22[REDACTED:password]%22');
});
