import test from 'ava';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ips309Crash, ips309WithSecrets } from '../fixtures/crash.js';
import { apiExport } from '../fixtures/json.js';
import { javaServiceLog, tlsIncidentLog } from '../fixtures/logs.js';
import { call, connectStdio, modelView, textOf, type StdioConnected } from './mcp-helpers.js';
import { tempDir, writeTemp } from './helpers.js';

// What clients that hand the model only JSON.stringify(structuredContent) show it: every
// test here asserts on that string, through the built server over stdio.

const base = tempDir('mcp-results');
const root = join(base, 'root');
mkdirSync(root);
const BUDGET = 12 * 1024;

/** A log of `templates` distinct events (random words, so none merge), errors with a stack line. */
function manyGroupsLog(templates: number, seed = 7): string {
  let s = seed;
  const rnd = (): number => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const syl = ['ka', 'lo', 'mi', 'ner', 'tus', 'vor', 'gra', 'pel', 'sin', 'dax', 'quo', 'bre', 'fim', 'hoz', 'jun', 'wex'];
  const word = (): string => Array.from({ length: 3 }, () => syl[Math.floor(rnd() * 16)]).join('');
  const texts = Array.from({ length: templates }, (_, i) => Array.from({ length: 3 + (i % 7) }, word).join(' '));
  const lines: string[] = [];
  let t = Date.UTC(2025, 0, 1);
  for (let rep = 0; rep < 4; rep++) {
    for (let i = 0; i < templates; i++) {
      lines.push(`${new Date((t += 1000)).toISOString()} ${i % 3 === 0 ? 'ERROR' : 'WARN'} ${texts[i]} id=${rep * 1000 + i}`);
      if (i % 3 === 0) lines.push(`    at com.example.Worker${i}.run(Worker.java:${10 + i})`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A JSON object of `keys` distinct word keys (too few to be a map), each an object of its own two keys. */
function manyKeysJson(keys: number): string {
  const syl = ['ka', 'lo', 'mi', 'ner', 'tus', 'vor', 'gra', 'pel'];
  const doc: Record<string, unknown> = {};
  for (let i = 0; i < keys; i++) {
    const key = `${syl[i % 8]}${syl[Math.floor(i / 8) % 8]}${syl[Math.floor(i / 64) % 8]}_field`;
    doc[key] = { [`${key}_count`]: i, [`${key}_label`]: `label ${i}` };
  }
  return JSON.stringify(doc);
}

const tls = writeTemp(root, 'tls.log', tlsIncidentLog().text);
const java = writeTemp(root, 'java.log', javaServiceLog(2000));
const many = writeTemp(root, 'many.log', manyGroupsLog(150));
const api = writeTemp(root, 'api.json', apiExport(2 * 1024 * 1024));
const keys = writeTemp(root, 'keys.json', manyKeysJson(190));
const crash = writeTemp(root, 'app.ips', ips309Crash());
const failing = writeTemp(root, 'fail.mjs', "console.log('FATAL: config file missing');\nprocess.exit(3);\n");

let server: StdioConnected;
test.before(async () => {
  server = await connectStdio(['--root', root, '--state-dir', join(base, 'state'), '--allow-command', 'node']);
});
test.after.always(async () => server?.close());

const within = (t: { true: (v: boolean, m?: string) => void }, r: { structuredContent?: Record<string, unknown> }, budget = BUDGET): void => {
  const bytes = Buffer.byteLength(JSON.stringify(r.structuredContent));
  t.true(bytes <= budget, `structuredContent is ${bytes} bytes, over ${budget}`);
};

test('condense_log: the precursor and the continuation lines reach a structuredContent-only client', async (t) => {
  const r = await call(server.client, 'condense_log', { path: tls });
  t.falsy(r.isError, textOf(r));
  const seen = modelView(r);
  t.regex(seen, /preceded by: [^"]*cipher downgrade, renegotiating TLS[^"]*\(warning, [^"]*on the same trace/);
  t.regex(seen, /lines by severity: error \d/);
  within(t, r);

  const j = await call(server.client, 'condense_log', { path: java });
  const seenJava = modelView(j);
  t.regex(seenJava, /\| java\.lang\.IllegalStateException: inventory unavailable/);
  t.regex(seenJava, /\| {1,2}at com\.example\.Order0\.run\(Order0\.java:10\)/);
  t.is(j.structuredContent!.text, textOf(j), 'the text block is the same text, for clients that read it');
  t.like(j.structuredContent!, { kind: 'log', read: { skippedHeadBytes: 0 } });
});

test('condense_log with top 100 on 150 distinct events stays within 12 KB and says what it left out', async (t) => {
  const r = await call(server.client, 'condense_log', { path: many, top: 100 });
  t.falsy(r.isError, textOf(r));
  within(t, r);
  const s = r.structuredContent!;
  t.like(s, { totals: { groups: 150 }, omitted: { groups: 50 } });
  const shown = (String(s.text).match(/^#\d+ /gm) ?? []).length;
  t.true(shown >= 20 && shown < 100, `${shown} groups shown`);
  t.true(String(s.text).includes(`${100 - shown} more of the 100 groups chosen left out`));
  t.regex(String(s.text), /left out: 50 groups/);
});

test("json_shape: types, number ranges, optional counts and examples are in structuredContent", async (t) => {
  const r = await call(server.client, 'json_shape', { path: api });
  t.falsy(r.isError, textOf(r));
  const seen = modelView(r);
  t.regex(seen, /id: integer 100000\.\.\d{6}/);
  t.regex(seen, /score: number [\d.]+\.\.[\d.]+/);
  t.regex(seen, /pull_request\?: object \(present [\d,]+\/[\d,]+\)/);
  t.regex(seen, /node_id: string uuid len 36 e\.g\. /);
  t.like(r.structuredContent!, { kind: 'json' });
  within(t, r);
});

test('json_shape with maxLines 400 on 190 keys of 2 keys each: laid out in fewer lines to stay within 12 KB, and says so', async (t) => {
  const r = await call(server.client, 'json_shape', { path: keys, maxLines: 400 });
  t.falsy(r.isError, textOf(r));
  within(t, r);
  t.regex(String(r.structuredContent!.text), /note: the outline has \d+ lines instead of 400 to stay within 12,288 bytes/);
});

test('a crash report and a failed command: the whole answer in structuredContent', async (t) => {
  const c = await call(server.client, 'condense_log', { path: crash });
  t.falsy(c.isError, textOf(c));
  t.is(c.structuredContent!.kind, 'crash');
  t.true(String(c.structuredContent!.text).length > 200);
  within(t, c);
  const f = await call(server.client, 'run_and_condense', { command: ['node', failing] });
  t.regex(modelView(f), /WARNING: the command exited with status 3; first line of output: FATAL: config file missing/);
  within(t, f);
});

test('a crash report with secrets: none of them in the result', async (t) => {
  const { text, secrets } = ips309WithSecrets();
  const c = await call(server.client, 'condense_log', { path: writeTemp(root, 'secrets.ips', text) });
  t.falsy(c.isError, textOf(c));
  const whole = JSON.stringify(c);
  t.true(whole.includes('[REDACTED:'));
  for (const secret of secrets) t.false(whole.includes(secret), secret);
});

test("system_info: the table is in structuredContent", async (t) => {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as { port: number }).port;
  try {
    const r = await call(server.client, 'system_info', { topic: 'ports', port, process: '' });
    t.falsy(r.isError, textOf(r));
    t.true(modelView(r).includes(String(port)));
    t.is(r.structuredContent!.text, textOf(r));
  } finally {
    listener.close();
  }
});
