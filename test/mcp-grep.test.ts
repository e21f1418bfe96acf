import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, connectStdio, textOf, type StdioConnected } from './mcp-helpers.js';
import { tempDir, writeTemp } from './helpers.js';

const base = tempDir('mcp-grep');
const root = join(base, 'root');
mkdirSync(root);
const GREP_BUDGET = 16 * 1024;

/** One minified JSON line of about `bytes` bytes with `needle` inside at about `at`. */
function longLine(bytes: number, at: number, needle: string): string {
  const record = (i: number): string => `{"id":${i},"name":"item ${i}","tags":["a","b"],"ok":true}`;
  let head = '';
  for (let i = 0; head.length < at; i++) head += `${record(i)},`;
  let tail = '';
  for (let i = 0; head.length + tail.length < bytes; i++) tail += `,${record(100_000 + i)}`;
  return `[${head}{"id":"${needle}","password":"hunter2secret"}${tail}]`;
}

const deep = longLine(600 * 1024, 500_000, 'tok_deep_7731');
const deepCol = deep.indexOf('tok_deep_7731') + 1;
const shapeFile = writeTemp(root, 'minified.json', `${deep}\n`);
const manyFile = writeTemp(root, 'many.log', Array.from({ length: 20_000 }, (_, i) => `2025-01-01T00:00:00Z ERROR request ${i} failed: upstream timeout after 30000 ms`).join('\n') + '\n');
const hunksFile = writeTemp(root, 'hunks.log', Array.from({ length: 60 }, (_, i) => (i + 1 === 10 || i + 1 === 12 || i + 1 === 40 ? `line ${i + 1} MATCH` : `line ${i + 1} plain`)).join('\n') + '\n');
const busy = `${Array.from({ length: 40 }, (_, i) => `${'x'.repeat(400)} hit${i}`).join(' ')}`;
const busyFile = writeTemp(root, 'busy.log', `first line\n${busy}\nlast line\n`);
// Over 8 MiB: the head (with its token) is not kept.
const bigFile = join(root, 'big.log');
writeFileSync(bigFile, `2025-01-01T00:00:00Z ERROR only-in-the-head token_head_42\n${'2025-01-01T00:00:01Z INFO steady state heartbeat ok\n'.repeat(200_000)}`);

let server: StdioConnected;
test.before(async () => {
  server = await connectStdio(['--root', root, '--state-dir', join(base, 'state')]);
});
test.after.always(async () => server?.close());

const handleOf = async (tool: string, path: string): Promise<string> => {
  const r = await call(server.client, tool, { path });
  if (r.isError) throw new Error(textOf(r));
  return r.structuredContent!.handle as string;
};
const bytes = (r: { structuredContent?: unknown }): number => Buffer.byteLength(JSON.stringify(r.structuredContent));

test('a match at character 500,000 of a 600 KB line is found and shown in a window with its column, redacted', async (t) => {
  const handle = await handleOf('json_shape', shapeFile);
  const r = await call(server.client, 'grep_raw', { handle, pattern: 'tok_deep_7731' });
  t.falsy(r.isError, textOf(r));
  t.like(r.structuredContent!, { totalMatches: 1, shown: 1, linesScanned: 1 });
  const text = String(r.structuredContent!.text);
  t.true(text.includes(`col ${deepCol}: `), text);
  t.regex(text, /col \d+: …[^\n]*"id":"tok_deep_7731"/);
  t.regex(text, /1: \[a line of [\d,]+ characters; 1 match\]/);
  t.false(text.includes('hunter2secret'), 'the window is redacted');
  t.true(bytes(r) < 2000, 'a window, not the line');
});

test('20,000 matching lines with maxMatches 200 and context 10: within 16 KB, with a cursor that pages on', async (t) => {
  const handle = await handleOf('condense_log', manyFile);
  const first = await call(server.client, 'grep_raw', { handle, pattern: 'failed', maxMatches: 200, context: 10 });
  t.falsy(first.isError, textOf(first));
  t.true(bytes(first) <= GREP_BUDGET, `${bytes(first)} bytes`);
  t.true(Buffer.byteLength(textOf(first)) <= GREP_BUDGET);
  const s1 = first.structuredContent!;
  t.is(s1.totalMatches, 20_000);
  t.true((s1.shown as number) > 20 && (s1.shown as number) < 200, `${s1.shown} shown`);
  const cursor = s1.nextCursor as string;
  t.is(cursor, `${(s1.shown as number) + 1}:1`, 'the next page starts at the first line not shown');
  t.regex(String(s1.text), /16,384-byte answer budget\): call grep_raw again with cursor "\d+:1"/);
  const lineNumbers = [...String(s1.text).matchAll(/^(\d+)[:-] /gm)].map((m) => Number(m[1]));
  t.deepEqual(lineNumbers, [...new Set(lineNumbers)], 'overlapping contexts merged: every line once');

  const second = await call(server.client, 'grep_raw', { handle, pattern: 'failed', maxMatches: 200, context: 10, cursor });
  const s2 = second.structuredContent!;
  t.true(bytes(second) <= GREP_BUDGET);
  t.true(String(s2.text).startsWith(`20,000 matching lines of 20,000 in ${handle}; showing ${s2.shown} (lines ${cursor.split(':')[0]}-`));
  t.regex(String(s2.text), /, [\d,]+ before the cursor/);

  const last = await call(server.client, 'grep_raw', { handle, pattern: 'failed', maxMatches: 5, cursor: '19998:1' });
  t.is(last.structuredContent!.shown, 3);
  t.is(last.structuredContent!.nextCursor, undefined, 'no cursor once nothing more matches');
});

test('following the cursor page after page shows every matching line exactly once', async (t) => {
  const file = writeTemp(root, 'pages.log', Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? `2025-01-01T00:00:00Z ERROR job ${i} failed` : `2025-01-01T00:00:00Z INFO job ${i} ok`)).join('\n') + '\n');
  const handle = await handleOf('condense_log', file);
  const seen: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await call(server.client, 'grep_raw', { handle, pattern: 'failed', maxMatches: 200, context: 1, ...(cursor !== undefined ? { cursor } : {}) });
    t.true(bytes(r) <= GREP_BUDGET);
    seen.push(...[...String(r.structuredContent!.text).matchAll(/^(\d+): /gm)].map((m) => Number(m[1])));
    cursor = r.structuredContent!.nextCursor as string | undefined;
    pages++;
  } while (cursor !== undefined && pages < 50);
  t.true(pages > 1);
  t.deepEqual(seen, Array.from({ length: 1000 }, (_, i) => i * 3 + 1));
});

test('contexts that overlap are merged into one hunk; separate hunks are divided by --', async (t) => {
  const handle = await handleOf('condense_log', hunksFile);
  const r = await call(server.client, 'grep_raw', { handle, pattern: 'MATCH', context: 2 });
  const body = String(r.structuredContent!.text).split('\n').slice(1, -1);
  t.deepEqual(body, [
    '8- line 8 plain',
    '9- line 9 plain',
    '10: line 10 MATCH',
    '11- line 11 plain',
    '12: line 12 MATCH',
    '13- line 13 plain',
    '14- line 14 plain',
    '--',
    '38- line 38 plain',
    '39- line 39 plain',
    '40: line 40 MATCH',
    '41- line 41 plain',
    '42- line 42 plain',
  ]);
});

test('a long line with more matches than windows gives its own cursor, and the cursor shows the rest', async (t) => {
  const handle = await handleOf('condense_log', busyFile);
  const r = await call(server.client, 'grep_raw', { handle, pattern: 'hit', context: 1 });
  const text = String(r.structuredContent!.text);
  t.regex(text, /2: \[a line of [\d,]+ characters; 40 matches\]/);
  t.is([...text.matchAll(/^ {4}col /gm)].length, 5);
  t.true(text.includes('1- first line') && text.includes('3- last line'));
  const m = /ask with cursor "(2:\d+)"/.exec(text);
  t.truthy(m, text);
  const more = await call(server.client, 'grep_raw', { handle, pattern: 'hit', cursor: m![1] });
  const rest = String(more.structuredContent!.text);
  t.regex(rest, /35 matches from column \d+/);
  t.true(rest.includes(' hit5'), rest);
  t.false(rest.includes(' hit4 '), 'the page starts at the cursor');
});

test('a tail payload: every answer says the head was not stored and how to search the file', async (t) => {
  const c = await call(server.client, 'condense_log', { path: bigFile });
  t.true((c.structuredContent!.read as { skippedHeadBytes: number }).skippedHeadBytes > 0);
  const handle = c.structuredContent!.handle as string;
  for (const pattern of ['token_head_42', 'heartbeat']) {
    const r = await call(server.client, 'grep_raw', { handle, pattern, maxMatches: 1 });
    const s = r.structuredContent!;
    t.like(s, { notStored: { bytes: (c.structuredContent!.read as { skippedHeadBytes: number }).skippedHeadBytes } });
    t.regex(String(s.text), /MB were not stored and were not searched: search the whole file on the command line: grep -nF -e token_head_42|heartbeat/);
    t.true(String(s.text).includes(bigFile));
  }
});

test('empty matches and runaway patterns stay bounded', async (t) => {
  const handle = await handleOf('condense_log', manyFile);
  const r = await call(server.client, 'grep_raw', { handle, pattern: '^', regex: true, maxMatches: 200 });
  t.falsy(r.isError, textOf(r));
  t.is(r.structuredContent!.totalMatches, 20_000);
  t.true(bytes(r) <= GREP_BUDGET);
});
