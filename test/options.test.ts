import test from 'ava';
import { WispError } from '../src/core/errors.js';
import { fileSource, textSource } from '../src/input/sources.js';
import { condenseLog } from '../src/log/index.js';
import { jsonShape } from '../src/shape/index.js';
import { asLog } from './condense-helpers.js';

const log = Array.from({ length: 2000 }, (_, i) => `2026-01-01 00:00:${String(i % 60).padStart(2, '0')} INFO request ${i} served`).join('\n') + '\n';
const jsonl = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ id: i, ok: i % 3 === 0 })).join('\n') + '\n';

async function code(t: { throwsAsync: (p: Promise<unknown>) => Promise<unknown> }, p: Promise<unknown>): Promise<string> {
  const err = (await t.throwsAsync(p)) as WispError;
  return err.code;
}

test('workers, chunkBytes and maxBytes are checked alike for logs and JSON, naming the option', async (t) => {
  for (const bad of [{ workers: -1 }, { workers: 65 }, { workers: 1.5 }, { chunkBytes: 0 }, { maxBytes: 0 }, { pool: {} as never }, { signal: 'x' as never }, { tap: 3 as never }]) {
    const name = Object.keys(bad)[0]!;
    const a = (await t.throwsAsync(condenseLog([textSource('t', log)], bad))) as WispError;
    const b = (await t.throwsAsync(jsonShape(jsonl, bad))) as WispError;
    t.is(a.code, 'WISP_BAD_ARGUMENT', name);
    t.is(b.code, 'WISP_BAD_ARGUMENT', name);
    t.true(a.message.startsWith(name), a.message);
    t.is(a.message, b.message, `${name}: one validator, one message`);
  }
});

test('the byte limit names its policy: a log keeps its tail or is refused; JSON is refused, never cut', async (t) => {
  const tail = asLog(await condenseLog([textSource('t', log)], { workers: 0, maxBytes: 4096 }));
  t.true(tail.read.skippedHeadBytes > 0);
  t.deepEqual(asLog(await condenseLog([textSource('t', log)], { workers: 0, maxBytes: 4096, overMaxBytes: 'keep-tail' })), tail);
  t.is(await code(t, condenseLog([textSource('t', log)], { workers: 0, maxBytes: 4096, overMaxBytes: 'refuse' })), 'WISP_INPUT_TOO_LARGE');
  t.is(asLog(await condenseLog([textSource('t', log)], { workers: 0, maxBytes: log.length, overMaxBytes: 'refuse' })).read.bytes, log.length);
  t.is(await code(t, jsonShape(jsonl, { maxBytes: 4096 })), 'WISP_INPUT_TOO_LARGE');
  const cut = (await t.throwsAsync(jsonShape(jsonl, { maxBytes: 4096, overMaxBytes: 'keep-tail' }))) as WispError;
  t.is(cut.code, 'WISP_BAD_ARGUMENT');
  t.regex(cut.message, /overMaxBytes must be 'refuse'.*never cut/);
});

test('an error that reports another keeps it as its cause', async (t) => {
  const err = (await t.throwsAsync(condenseLog([fileSource('/nonexistent/wisp/app.log')]))) as WispError;
  t.is(err.code, 'WISP_FILE_NOT_FOUND');
  t.is((err.cause as NodeJS.ErrnoException).code, 'ENOENT');
  const shape = (await t.throwsAsync(jsonShape({ path: '/nonexistent/wisp/a.json' }))) as WispError;
  t.is(shape.code, 'WISP_FILE_NOT_FOUND');
  t.is((shape.cause as NodeJS.ErrnoException).code, 'ENOENT');
});

test('instanceof WispError holds for an error made by another copy of the module', async (t) => {
  // Another URL is another module instance: as two copies of wisp in one process are.
  const other = (await import(new URL('../src/core/errors.js?another-copy', import.meta.url).href)) as typeof import('../src/core/errors.js');
  t.not(other.WispError, WispError);
  const err = new other.WispError('WISP_BAD_ARGUMENT', 'from the other copy');
  t.true(err instanceof WispError);
  t.true(new WispError('WISP_INTERNAL', 'x') instanceof other.WispError);
  t.false(new Error('plain') instanceof WispError);
  t.false({ code: 'WISP_BAD_ARGUMENT' } instanceof WispError);
});
