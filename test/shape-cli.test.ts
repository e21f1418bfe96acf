/** `wisp shape` as a command: arguments, stdin, --json, and errors with exit status 2. */
import test from 'ava';

import { runShape, SHAPE_USAGE } from '../src/cli/commands/shape.js';
import { WispError, exitCodeFor } from '../src/core/errors.js';
import { jsonLines, optionalKeys } from '../fixtures/json.js';
import { runInProcess, tempDir, writeTemp } from './helpers.js';

const run = (args: string[], stdin = '') => runInProcess(runShape, args, stdin);

async function failure(args: string[], stdin = ''): Promise<WispError> {
  try {
    await run(args, stdin);
  } catch (err) {
    if (err instanceof WispError) return err;
    throw err;
  }
  throw new Error('expected a WispError');
}

test('shape FILE prints the text outline', async (t) => {
  const path = writeTemp(tempDir('shape-cli'), 'rows.json', optionalKeys());
  const { code, stdout } = await run([path]);
  t.is(code, 0);
  t.true(stdout.startsWith('array of 10 objects (JSON, '), stdout);
  t.true(stdout.endsWith('\n'));
});

test('shape - and no FILE read stdin; --json prints the tree', async (t) => {
  const viaDash = await run(['-'], optionalKeys());
  const viaNone = await run([], optionalKeys());
  t.is(viaDash.stdout, viaNone.stdout);
  const json = await run(['--json', '-'], optionalKeys());
  const tree = JSON.parse(json.stdout) as { kind: string; summary: string; root: { children: unknown[] } };
  t.is(tree.kind, 'json');
  t.is(tree.summary, 'array of 10 objects');
  t.is(tree.root.children.length, 4);
});

test('--max-lines caps the outline; --workers does not change it', async (t) => {
  const path = writeTemp(tempDir('shape-cli-w'), 'events.jsonl', jsonLines(200_000));
  const capped = await run(['--max-lines', '12', path]);
  t.true(capped.stdout.trimEnd().split('\n').length <= 12, capped.stdout);
  const w0 = await run(['--workers', '0', path]);
  const w2 = await run(['--workers', '2', '--chunk-bytes', '16K', path]);
  t.is(w2.stdout, w0.stdout);
});

test('stdin over the cap is refused; --max-bytes lets it stream', async (t) => {
  const text = jsonLines(100_000);
  const err = await failure(['--hold-bytes', '20000', '--max-bytes', '50000', '-'], text);
  t.is(err.code, 'WISP_INPUT_TOO_LARGE');
  const ok = await run(['--hold-bytes', '20000', '--max-bytes', '1M', '-'], text);
  t.regex(ok.stdout, /^[\d,]+ JSON Lines of objects \([\d,]+ bytes, streamed\)\n/);
});

test('bad arguments and bad input are WispErrors (exit status 2)', async (t) => {
  for (const args of [['--max-lines', 'many'], ['--max-lines', '3'], ['--workers', '-1'], ['--max-bytes', '0'], ['--frobnicate'], ['a.json', 'b.json']]) {
    const err = await failure(args);
    t.is(err.code, 'WISP_BAD_ARGUMENT', args.join(' '));
    t.is(exitCodeFor(err), 2);
  }
  t.is((await failure(['/nonexistent/file.json'])).code, 'WISP_FILE_NOT_FOUND');
  t.is((await failure(['-'], '[1, 2')).code, 'WISP_TRUNCATED_JSON');
  t.is((await failure(['-'], '')).code, 'WISP_EMPTY_INPUT');
});

test('--help prints the usage', async (t) => {
  const { code, stdout } = await run(['--help']);
  t.is(code, 0);
  t.is(stdout, `usage: ${SHAPE_USAGE}\n`);
});
