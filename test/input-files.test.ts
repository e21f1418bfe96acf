/**
 * What `wisp log` does with files that are not ordinary text logs: a FIFO or a device (refused
 * before anything waits on it), leading NUL bytes, UTF-16, inputs it skips, hidden files in a
 * folder, and bad numbers.
 */
import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CliRun, WISP_BIN, tempDir } from './helpers.js';

const dir = tempDir('input-files');

/** runCli with a limit: a run that waits on its input is killed, so the test ends either way. */
function runCliWithin(args: string[], ms: number): Promise<CliRun & { killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WISP_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, ms);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, killed, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

test('a FIFO with no writer and a character device are refused at once, naming the path', async (t) => {
  const fifo = join(dir, 'pipe.log');
  execFileSync('mkfifo', [fifo]);
  for (const [path, what] of [
    [fifo, 'a FIFO'],
    ['/dev/zero', 'a character device'],
  ] as const) {
    const r = await runCliWithin(['log', path], 20_000);
    t.false(r.killed, `${path}: still waiting after 20 s`);
    t.is(r.code, 2, r.stderr);
    t.true(r.stderr.includes(`${path} is ${what}`), r.stderr);
    t.regex(r.stderr, /not a regular file/);
    t.regex(r.stderr, /\[WISP_NOT_A_FILE\]/);
  }
});

test('a negative, fractional or not-a-number count is a clear WISP_BAD_ARGUMENT error', async (t) => {
  const log = join(dir, 'count.log');
  writeFileSync(log, '2024-01-01 ERROR x\n');
  for (const [flag, value] of [['--top', '-1'], ['--top', 'NaN'], ['--top', '-0'], ['--top', '2.5'], ['--workers', '-3'], ['--top', '-Infinity']] as const) {
    const r = await runCliWithin(['log', log, flag, value], 20_000);
    t.is(r.code, 2, r.stderr);
    t.true(r.stderr.startsWith(`wisp log: ${flag} takes a whole number from `), r.stderr);
    t.true(r.stderr.includes(value), r.stderr);
    t.regex(r.stderr, /\[WISP_BAD_ARGUMENT\]\n$/);
  }
});
