import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, connectStdio, modelView, type StdioConnected } from './mcp-helpers.js';
import { ROOT, tempDir } from './helpers.js';

const REAL = join(ROOT, 'fixtures', 'real');
const pair = (JSON.parse(readFileSync(join(REAL, 'causes.json'), 'utf8')) as { pairs: Record<string, { baseline: string; failing: string; new: string[]; shared: string[] }> }).pairs[
  'python-logging'
]!;
const failing = join(REAL, pair.failing);
const baseline = join(REAL, pair.baseline);
const state = tempDir('mcp-compare');

let server: StdioConnected;
test.before(async () => {
  server = await connectStdio(['--root', join(REAL, 'pairs'), '--state-dir', state]);
});
test.after.always(async () => {
  await server?.close();
});

interface Compared {
  handle: string;
  kind: string;
  comparison: { baseline: string; new: number; rateChanged: number; gone: number; shared: number };
  text: string;
}

test('condense_log with a baseline path: what is new first, in the text a client hands the model', async (t) => {
  const r = await call(server.client, 'condense_log', { path: failing, baseline });
  t.falsy(r.isError, JSON.stringify(r.content));
  const s = r.structuredContent as unknown as Compared;
  t.regex(s.handle, /^raw_/);
  t.is(s.comparison.baseline, baseline);
  t.true(s.comparison.new > 0 && s.comparison.shared > 0);
  // What clients that read only structuredContent give the model carries the whole comparison.
  const view = JSON.parse(modelView(r)) as Compared;
  for (const c of pair.new) {
    const at = view.text.indexOf(c);
    t.true(at >= 0 && Buffer.byteLength(view.text.slice(0, at + c.length)) <= 3 * 1024, c);
  }
  const fresh = view.text.slice(view.text.indexOf('\n== new in this run\n'), view.text.indexOf('\n== ', view.text.indexOf('\n== new in this run\n') + 4));
  for (const c of pair.shared) t.false(fresh.includes(c), c);
  t.regex(view.text, /^shared with the baseline: \d+ groups/m);
});

test('condense_log with the handle of an earlier result as its baseline: the same comparison', async (t) => {
  const first = await call(server.client, 'condense_log', { path: baseline });
  const handle = (first.structuredContent as unknown as Compared).handle;
  const byHandle = await call(server.client, 'condense_log', { path: failing, baseline: handle });
  const byPath = await call(server.client, 'condense_log', { path: failing, baseline });
  t.falsy(byHandle.isError, JSON.stringify(byHandle.content));
  const a = byHandle.structuredContent as unknown as Compared;
  const b = byPath.structuredContent as unknown as Compared;
  t.true(a.comparison.baseline.startsWith(`${handle} (`));
  const body = (s: string): string => s.replace(/^baseline: .*$/m, '');
  t.is(body(a.text), body(b.text));
  t.deepEqual({ ...a.comparison, baseline: '' }, { ...b.comparison, baseline: '' });

  const self = await call(server.client, 'condense_log', { path: failing, baseline: failing });
  t.regex((self.structuredContent as unknown as Compared).text, /^new in this run: nothing/m);
});

test('a baseline outside the roots, or an unknown handle, is an error naming the baseline', async (t) => {
  const outside = await call(server.client, 'condense_log', { path: failing, baseline: '/etc/hostname' });
  t.true(outside.isError);
  t.regex(outside.content[0]!.text!, /^WISP_PATH_NOT_ALLOWED: baseline: /);
  const unknown = await call(server.client, 'condense_log', { path: failing, baseline: 'raw_00000000000000000000' });
  t.true(unknown.isError);
  t.regex(unknown.content[0]!.text!, /^WISP_UNKNOWN_HANDLE: baseline: /);
});
