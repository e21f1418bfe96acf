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
