import test from 'ava';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { attachDashValues, runInfo } from '../src/cli/commands/info.js';
import type { CliIo } from '../src/cli/io.js';
import { validateRequest, type SystemInfoRequest } from '../src/system-info/index.js';
import { tempDir } from './helpers.js';

const dir = tempDir('system-info-validation');
const file = join(dir, 'a-file.txt');
writeFileSync(file, 'x');

const BAD: [string, SystemInfoRequest][] = [
  ['no topic', { topic: '' }],
  ['unknown topic', { topic: 'disk' }],
  ['port 0', { topic: 'ports', port: 0 }],
  ['port 65536', { topic: 'ports', port: 65536 }],
  ['port not whole', { topic: 'ports', port: 80.5 }],
  ['port not a number', { topic: 'ports', port: '80a' }],
  ['port negative', { topic: 'ports', port: '-1' }],
  ['port empty (not "every port")', { topic: 'ports', port: '' }],
  ['port blank', { topic: 'ports', port: '  ' }],
  ['port empty on another topic', { topic: 'memory', port: '' }],
  ['port on another topic', { topic: 'memory', port: 80 }],
  ['process missing', { topic: 'process' }],
  ['process empty', { topic: 'process', process: '  ' }],
  ['pid 0', { topic: 'process', process: '0' }],
  ['pid too large', { topic: 'process', process: '99999999' }],
  ['process as a path', { topic: 'process', process: '/usr/bin/node' }],
  ['process as a relative path', { topic: 'process', process: './node' }],
  ['process with a newline', { topic: 'process', process: 'a\nb' }],
  ['process too long', { topic: 'process', process: 'x'.repeat(300) }],
  ['process on another topic', { topic: 'freeSpace', process: 'freeSpace' }],
  ['path missing', { topic: 'folderSizes' }],
  ['path that does not exist', { topic: 'folderSizes', path: join(dir, 'nope') }],
  ['path to a file', { topic: 'folderSizes', path: file }],
  ['path on another topic', { topic: 'ports', path: dir }],
  ['path ~user (not expanded)', { topic: 'folderSizes', path: '~nobody' }],
];

for (const [name, request] of BAD) {
  test(`refused before anything runs: ${name}`, async (t) => {
    const err = await t.throwsAsync(validateRequest(request));
    t.is((err as { code?: string }).code, 'WISP_BAD_ARGUMENT', (err as Error).message);
  });
}

test('accepted: the forms callers use', async (t) => {
  t.deepEqual(await validateRequest({ topic: 'ports' }), { topic: 'ports', port: undefined });
  t.deepEqual(await validateRequest({ topic: 'ports', port: '8080', process: '' }), { topic: 'ports', port: 8080 });
  t.deepEqual(await validateRequest({ topic: 'FREESPACE', process: '' }), { topic: 'freeSpace' });
  t.deepEqual(await validateRequest({ topic: 'process', process: ' 1234 ' }), { topic: 'process', target: { pid: 1234 } });
  t.deepEqual(await validateRequest({ topic: 'process', process: 'Ollama' }), { topic: 'process', target: { name: 'Ollama' } });
  const folder = await validateRequest({ topic: 'folderSizes', path: dir });
  t.is(folder.topic, 'folderSizes');
  // Kernel threads are named with a slash.
  t.deepEqual(await validateRequest({ topic: 'process', process: 'ksoftirqd/0' }), { topic: 'process', target: { name: 'ksoftirqd/0' } });
  t.deepEqual(await validateRequest({ topic: 'process', process: 'kworker/0:1H' }), { topic: 'process', target: { name: 'kworker/0:1H' } });
});

test('~ and ~/x name the home folder', async (t) => {
  const home = await realpath(homedir());
  t.deepEqual(await validateRequest({ topic: 'folderSizes', path: '~' }), { topic: 'folderSizes', path: home });
  mkdirSync(join(homedir(), '.wisp-test-tilde'), { recursive: true });
  t.teardown(() => rmSync(join(homedir(), '.wisp-test-tilde'), { recursive: true, force: true }));
  t.deepEqual(await validateRequest({ topic: 'folderSizes', path: '~/.wisp-test-tilde' }), { topic: 'folderSizes', path: join(home, '.wisp-test-tilde') });
});

test('the directive error for process without a name says how to retry', async (t) => {
  const err = await t.throwsAsync(validateRequest({ topic: 'process', process: '' }));
  t.regex((err as Error).message, /needs the process: a name such as ollama or a pid/);
});

function memoryIo(): CliIo & { out(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (b: Buffer) => chunks.push(b));
  return { stdout, stderr, stdin: new PassThrough(), out: () => Buffer.concat(chunks).toString('utf8') };
}

test('wisp info: bad arguments are WISP_BAD_ARGUMENT', async (t) => {
  for (const args of [[], ['ports', 'memory'], ['ports', '--bogus'], ['ports', '--port', 'x'], ['nonsense'], ['memory', '--path', dir], ['ports', '--port']]) {
    const err = await t.throwsAsync(runInfo(args, memoryIo()));
    t.is((err as { code?: string }).code, 'WISP_BAD_ARGUMENT', args.join(' '));
  }
});

test('wisp info: --port "" and --port -1 are refused by the port check itself', async (t) => {
  for (const [value, shown] of [['', '""'], ['-1', '"-1"'], ['-80', '"-80"']] as const) {
    const err = await t.throwsAsync(runInfo(['ports', '--port', value], memoryIo()));
    t.is((err as { code?: string }).code, 'WISP_BAD_ARGUMENT');
    t.is((err as Error).message, `a port is a whole number from 1 to 65535, got ${shown}`);
  }
  t.deepEqual(attachDashValues(['ports', '--port', '-1', '--json']), ['ports', '--port=-1', '--json']);
  // A flag after --port is a missing value, not the value.
  t.deepEqual(attachDashValues(['ports', '--port', '--json']), ['ports', '--port', '--json']);
});

test('wisp info: text and --json answers, and --help', async (t) => {
  const io = memoryIo();
  t.is(await runInfo(['system'], io), 0);
  t.regex(io.out(), /^system: this machine\n/);
  const json = memoryIo();
  t.is(await runInfo(['memory', '--json'], json), 0);
  const answer = JSON.parse(json.out());
  t.is(answer.topic, 'memory');
  t.true(Array.isArray(answer.rows) && typeof answer.text === 'string');
  const help = memoryIo();
  t.is(await runInfo(['--help'], help), 0);
  t.regex(help.out(), /^usage: wisp info TOPIC/);
});
