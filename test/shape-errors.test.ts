/** json_shape refuses bad input with a clear message and a stable code, never a crash. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';

import { WispError, exitCodeFor, type WispErrorCode } from '../src/core/errors.js';
import { jsonShape, type ShapeInput, type ShapeOptions } from '../src/shape/index.js';
import { apiExport, concatenatedPretty, jsonLinesWithBadLine, smallJsonLines, truncated } from '../fixtures/json.js';
import { tempDir, writeTemp } from './helpers.js';

async function refused(t: { fail: (m: string) => void }, input: ShapeInput, options: ShapeOptions = {}): Promise<WispError> {
  try {
    await jsonShape(input, options);
  } catch (err) {
    if (err instanceof WispError) return err;
    throw err;
  }
  t.fail('expected a WispError');
  throw new Error('unreachable');
}

async function expectCode(t: Parameters<typeof refused>[0] & { is: (a: unknown, b: unknown, m?: string) => void }, input: ShapeInput, code: WispErrorCode, options: ShapeOptions = {}): Promise<WispError> {
  const err = await refused(t, input, options);
  t.is(err.code, code, err.message);
  t.is(exitCodeFor(err), 2);
  return err;
}

test('empty input and whitespace-only input are refused', async (t) => {
  await expectCode(t, '', 'WISP_EMPTY_INPUT');
  await expectCode(t, Buffer.alloc(0), 'WISP_EMPTY_INPUT');
  const err = await expectCode(t, ' \n\t\r\n', 'WISP_EMPTY_INPUT');
  t.regex(err.message, /only whitespace/);
});

test('binary data is refused, naming what it looks like', async (t) => {
  const nul = await expectCode(t, Buffer.from([0x7b, 0x22, 0x61, 0x00, 0x22, 0x7d]), 'WISP_BINARY_INPUT');
  t.regex(nul.message, /NUL byte at offset 3/);
  const gz = await expectCode(t, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]), 'WISP_BINARY_INPUT');
  t.regex(gz.message, /gzip/);
});

test('a missing file and a directory are refused', async (t) => {
  const dir = tempDir('shape-err');
  const missing = await expectCode(t, { path: join(dir, 'nope.json') }, 'WISP_FILE_NOT_FOUND');
  t.regex(missing.message, /nope\.json/);
  const sub = join(dir, 'sub');
  mkdirSync(sub);
  await expectCode(t, { path: sub }, 'WISP_NOT_A_FILE');
});

test('input over the cap is refused with its size and the limit', async (t) => {
  const dir = tempDir('shape-big');
  const path = writeTemp(dir, 'big.json', `[${'1,'.repeat(600)}1]`);
  const err = await expectCode(t, { path }, 'WISP_INPUT_TOO_LARGE', { maxBytes: 1000 });
  t.regex(err.message, /1,203 bytes, over the limit of 1,000 bytes/);
  const text = await expectCode(t, `[${'1,'.repeat(600)}1]`, 'WISP_INPUT_TOO_LARGE', { maxBytes: 1000 });
  t.regex(text.message, /over the limit of 1,000 bytes/);
  const stream = await expectCode(t, { stream: [Buffer.from('[1,'), Buffer.from('2'.repeat(2000)), Buffer.from(']')] }, 'WISP_INPUT_TOO_LARGE', {
    maxBytes: 1000,
    holdBytes: 500,
  });
  t.regex(stream.message, /more than 1,000 bytes/);
});

test('a truncated document is refused as truncated, held or streamed', async (t) => {
  const cut = truncated(apiExport(20_000));
  const held = await expectCode(t, cut, 'WISP_TRUNCATED_JSON');
  t.regex(held.message, /looks truncated/);
  const streamed = await expectCode(t, cut, 'WISP_TRUNCATED_JSON', { holdBytes: 1000, maxBytes: 1 << 20 });
  t.regex(streamed.message, /looks truncated/);
  await expectCode(t, '{"a": [1, 2', 'WISP_TRUNCATED_JSON');
  await expectCode(t, '{"a": "unfinished', 'WISP_TRUNCATED_JSON');
});

test('JSON Lines whose last line is cut off is refused as truncated', async (t) => {
  const lines = smallJsonLines().trimEnd();
  const err = await expectCode(t, lines.slice(0, -6), 'WISP_TRUNCATED_JSON');
  t.regex(err.message, /JSON Lines: the last line \(5\) looks truncated/);
});

test('JSON Lines with a bad line names the line, whatever the chunking', async (t) => {
  const text = jsonLinesWithBadLine(40, 17);
  for (const options of [{ workers: 0 }, { workers: 2, chunkBytes: 64 }, { workers: 3, chunkBytes: 200, holdBytes: 256, maxBytes: 1 << 20 }]) {
    const err = await expectCode(t, text, 'WISP_NOT_JSON', options);
    t.is(err.message, 'JSON Lines: line 17 is not JSON (unexpected "o", expected a value at column 19); lines 1-16 parse', JSON.stringify(options));
  }
});

test('concatenated pretty-printed documents get an error that says so', async (t) => {
  const err = await expectCode(t, concatenatedPretty(), 'WISP_NOT_JSON');
  t.regex(err.message, /several JSON documents one after another.*second begins at line 8, column 1/);
  t.regex(err.hint ?? '', /jq -c/);
});

test('garbage names the first bad position', async (t) => {
  const err = await expectCode(t, '{"a": 1,\n "b": tru }', 'WISP_NOT_JSON');
  t.is(err.message, 'not JSON: unexpected U+0020, expected \'true\' at line 2, column 10');
  const word = await expectCode(t, 'hello', 'WISP_NOT_JSON');
  t.regex(word.message, /line 1, column 1/);
});

test('bad options are refused before any input is read', async (t) => {
  await expectCode(t, { path: '/nonexistent' }, 'WISP_BAD_ARGUMENT', { maxLines: 3 });
  await expectCode(t, '{}', 'WISP_BAD_ARGUMENT', { workers: -1 });
  await expectCode(t, '{}', 'WISP_BAD_ARGUMENT', { maxBytes: 1.5 });
  await expectCode(t, 42 as unknown as ShapeInput, 'WISP_BAD_ARGUMENT');
});

test('an aborted signal cancels', async (t) => {
  const controller = new AbortController();
  controller.abort();
  await expectCode(t, '{"a": 1}', 'WISP_CANCELLED', { signal: controller.signal });
});
