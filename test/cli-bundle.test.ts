import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { CLI_BUNDLE, cacheFileOf, type LoadedCli, loadCli } from '../src/cli/load-bundle.js';
import { ROOT, runInProcess } from './helpers.js';

/** Runs a command of a loaded CLI in this process. */
const run = (cli: LoadedCli, argv: string[]) => runInProcess((args, io) => cli.main(args, io), argv);

/**
 * A copy of the bundle beside it (where it finds the package's files and node_modules as the
 * bundle does), with `edit` made to its text, and `cache` as its cache file; removed after.
 */
function bundleCopy(name: string, edit: (text: string) => string, cache: (text: string) => Buffer | undefined): string {
  const copy = join(ROOT, 'dist', 'src', `wisp-cli-test-${name}-${process.pid}.cjs`);
  const text = edit(readFileSync(CLI_BUNDLE, 'utf8'));
  writeFileSync(copy, text);
  const data = cache(text);
  if (data !== undefined) writeFileSync(cacheFileOf(copy), data);
  process.once('exit', () => {
    rmSync(copy, { force: true });
    rmSync(cacheFileOf(copy), { force: true });
  });
  return copy;
}

const SUMMARY = 'condense logs, archives, the system log';
/** The same summary in capitals: the bundle's text changes, its length does not. */
const shouted = (text: string): string => {
  if (!text.includes(SUMMARY)) throw new Error(`the bundle no longer holds '${SUMMARY}': the test must name another string`);
  return text.replace(SUMMARY, SUMMARY.toUpperCase());
};
const keyOf = (text: string): Buffer => createHash('sha256').update(text).digest();

test('the built CLI runs with the code V8 compiled for it at build time, and prints what it prints compiled anew', async (t) => {
  const cached = loadCli();
  t.is(cached.cache, 'used');
  const fresh = loadCli(CLI_BUNDLE, join(ROOT, 'dist', 'no-such-cache'));
  t.is(fresh.cache, 'absent');
  const sample = join(ROOT, 'fixtures', 'samples', 'service-sample.log');
  for (const argv of [['log', sample], ['log', '--json', sample], ['--help']]) {
    const a = await run(cached, argv);
    t.is(a.code, 0);
    t.deepEqual(await run(fresh, argv), a, argv.join(' '));
  }
});

test('the bundle is ASCII: V8 holds its text one byte a character', (t) => {
  const text = readFileSync(CLI_BUNDLE, 'latin1');
  const at = text.search(/[^\x00-\x7f]/);
  t.is(at, -1, at === -1 ? '' : `a byte past ASCII: ...${text.slice(Math.max(0, at - 60), at + 20)}...`);
});

test("a cache made for another bundle of the same length is not run: V8 would take it, knowing a source by its length alone", async (t) => {
  // The real cache, beside a bundle whose text differs from the one it was made for.
  const copy = bundleCopy('stale', shouted, () => readFileSync(cacheFileOf(CLI_BUNDLE)));
  t.is(readFileSync(copy).length, readFileSync(CLI_BUNDLE).length);
  const cli = loadCli(copy);
  t.is(cli.cache, 'stale');
  const help = await run(cli, ['--help']);
  t.true(help.stdout.includes(SUMMARY.toUpperCase()), help.stdout);
});

test('data V8 refuses (another node, other flags, a damaged file) is compiled anew', async (t) => {
  const cli = loadCli(bundleCopy('refused', shouted, (text) => Buffer.concat([keyOf(text), Buffer.from('not V8 code data '.repeat(64))])));
  t.is(cli.cache, 'rejected');
  const help = await run(cli, ['--help']);
  t.is(help.code, 0);
  t.true(help.stdout.includes(SUMMARY.toUpperCase()));
});

test('the cache a loaded bundle gives, as the build writes it, is used by the next load', async (t) => {
  const copy = bundleCopy('made', shouted, () => undefined);
  const first = loadCli(copy);
  t.is(first.cache, 'absent');
  await run(first, ['--help']);
  writeFileSync(cacheFileOf(copy), first.codeCache());
  const second = loadCli(copy);
  t.is(second.cache, 'used');
  const help = await run(second, ['--help']);
  t.true(help.stdout.includes(SUMMARY.toUpperCase()));
});
