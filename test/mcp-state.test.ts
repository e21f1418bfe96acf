import test from 'ava';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { call, connectStdio, textOf } from './mcp-helpers.js';
import { tempDir } from './helpers.js';

const base = tempDir('mcp-state');
const mode = (p: string): number => statSync(p).mode & 0o777;
const logOf = (word: string, n = 50): string => Array.from({ length: n }, (_, i) => `2025-01-01T00:00:${String(i % 60).padStart(2, '0')}Z ERROR ${word} failed ${i}`).join('\n') + '\n';

test('two server processes on one state dir: nothing wiped at start, eviction by one keeps what the other handed out', async (t) => {
  const state = join(base, 'shared');
  const a = await connectStdio(['--state-dir', state]);
  try {
    const fromA = (await call(a.client, 'condense_log', { text: logOf('alpha') })).structuredContent!.handle as string;
    // A second server starting on the same dir wipes nothing.
    const b = await connectStdio(['--state-dir', state, '--max-payloads', '1']);
    try {
      t.is((await call(a.client, 'grep_raw', { handle: fromA, pattern: 'alpha' })).structuredContent!.totalMatches, 50);
      // B hands out the same payload, then evicts it (it keeps one): A's handle must still work.
      t.is((await call(b.client, 'condense_log', { text: logOf('alpha') })).structuredContent!.handle, fromA);
      await call(b.client, 'condense_log', { text: logOf('beta') });
      await call(b.client, 'condense_log', { text: logOf('gamma') });
      const afterEviction = await call(a.client, 'grep_raw', { handle: fromA, pattern: 'alpha' });
      t.falsy(afterEviction.isError, textOf(afterEviction));
      t.is(afterEviction.structuredContent!.totalMatches, 50);

      // Both at once, the same payloads: every call gets the same handle and can search it.
      const texts = ['one', 'two', 'three'].map((w) => logOf(w, 2000));
      const results = await Promise.all([a, b, a, b, a, b].flatMap((s) => texts.map((text) => call(s.client, 'condense_log', { text }))));
      for (const r of results) t.falsy(r.isError, textOf(r));
      const handles = new Set(results.map((r) => r.structuredContent!.handle));
      t.is(handles.size, 3);
      const lastOfA = results[results.length - 2]!.structuredContent!.handle as string;
      t.is((await call(a.client, 'grep_raw', { handle: lastOfA, pattern: 'failed' })).structuredContent!.totalMatches, 2000);
    } finally {
      await b.close();
    }
  } finally {
    await a.close();
  }
  // No temporary files are left behind.
  const left = readdirSync(join(state, 'raw')).filter((f) => f.startsWith('incoming-') || f.startsWith('removing-'));
  t.deepEqual(left, []);
});

test('a restarted server still serves the handles of the one before (they are in the conversation)', async (t) => {
  const state = join(base, 'restart');
  const first = await connectStdio(['--state-dir', state]);
  const handle = (await call(first.client, 'condense_log', { text: logOf('delta') })).structuredContent!.handle as string;
  await first.close();
  const second = await connectStdio(['--state-dir', state]);
  try {
    const r = await call(second.client, 'grep_raw', { handle, pattern: 'delta', maxMatches: 1 });
    t.falsy(r.isError, textOf(r));
    t.is(r.structuredContent!.totalMatches, 50);
  } finally {
    await second.close();
  }
});

test('raw payloads are 0600 in a 0700 folder, the audit log 0600', async (t) => {
  const state = join(base, 'modes');
  const s = await connectStdio(['--state-dir', state]);
  const handle = (await call(s.client, 'condense_log', { text: logOf('epsilon') })).structuredContent!.handle as string;
  await s.close();
  t.is(mode(state), 0o700);
  t.is(mode(join(state, 'raw')), 0o700);
  t.is(mode(join(state, 'raw', handle)), 0o600);
  t.is(mode(join(state, 'raw', `${handle}.json`)), 0o600);
  t.is(mode(join(state, 'audit.jsonl')), 0o600);
});
