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

const TEXT = '2024-01-01T10:00:00Z ERROR disk full on /var — ünïcode\n2024-01-01T10:00:01Z INFO retry ok\n';

test('a UTF-16 log (either byte order, with its BOM) is read decoded, and a note says so', async (t) => {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TEXT, 'utf16le')]);
  const be = Buffer.from(le.subarray(2)).swap16();
  for (const [name, bytes, order] of [['le.log', le, 'little'], ['be.log', Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'big']] as const) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const r = await runCliWithin(['log', path, '--json'], 60_000);
    t.is(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    t.is(j.read.lines, 2);
    t.true(j.groups.some((g: { example: string }) => g.example === '2024-01-01T10:00:00Z ERROR disk full on /var — ünïcode'), r.stdout);
    t.true(j.read.notes.some((n: string) => n.includes(`UTF-16 (${order}-endian)`)), j.read.notes.join('\n'));
  }
});

test('UTF-16 split anywhere between chunks, and leading NULs in chunks of their own, decode the same', async (t) => {
  const { textBytes } = await import('../src/input/text-bytes.js');
  const bytes = Buffer.concat([Buffer.alloc(3), Buffer.from([0xff, 0xfe]), Buffer.from(TEXT, 'utf16le')]);
  async function* oneByteAtATime(): AsyncGenerator<Buffer> {
    for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
  }
  const notes: string[] = [];
  const out: Buffer[] = [];
  for await (const b of textBytes(oneByteAtATime(), 'x.log', notes)) out.push(b);
  t.is(Buffer.concat(out).toString('utf8'), TEXT);
  t.deepEqual(notes, ['x.log is UTF-16 (little-endian): read decoded to UTF-8; its byte counts are of the decoded text', 'x.log starts with 3 NUL bytes: skipped, the text after them was read']);
});

test('a source that fills one buffer again and again is read right a byte at a time, and its first buffer goes on without a copy', async (t) => {
  const { textBytes } = await import('../src/input/text-bytes.js');
  const read = async (bytes: Buffer, size: number): Promise<{ text: string; first: Buffer | undefined; buffer: Buffer }> => {
    // As a file is read: one buffer, filled anew for each read.
    const buffer = Buffer.alloc(size);
    async function* reused(): AsyncGenerator<Buffer> {
      for (let at = 0; at < bytes.length; at += size) {
        const n = bytes.copy(buffer, 0, at, at + size);
        yield buffer.subarray(0, n);
      }
    }
    // Each buffer is good until the next is asked for: what is read of it is copied.
    const out: Buffer[] = [];
    let first: Buffer | undefined;
    for await (const b of textBytes(reused(), 'x.log', [])) {
      first ??= b;
      out.push(Buffer.from(b));
    }
    return { text: Buffer.concat(out).toString('utf8'), first, buffer };
  };
  const text = `ab ${TEXT}`;
  t.is((await read(Buffer.from(text), 1)).text, text, 'the first byte waits for the second in a copy of its own');
  t.is((await read(Buffer.concat([Buffer.alloc(2), Buffer.from(text)]), 1)).text, text);
  const whole = await read(Buffer.from(text), 4096);
  t.is(whole.text, text);
  t.is(whole.first?.buffer, whole.buffer.buffer, 'a first buffer that holds two bytes is passed on as it came');
});

test('leading NUL bytes do not make a text log binary; the note counts them; NULs inside still do', async (t) => {
  const path = join(dir, 'preallocated.log');
  writeFileSync(path, Buffer.concat([Buffer.alloc(70_000), Buffer.from(TEXT)]));
  const r = await runCliWithin(['log', path], 60_000);
  t.is(r.code, 0, r.stderr);
  t.true(r.stdout.includes(`note: ${path} starts with 70000 NUL bytes: skipped, the text after them was read`), r.stdout);
  t.true(r.stdout.includes('ERROR disk full on /var'));
  const inside = join(dir, 'inside.log');
  writeFileSync(inside, Buffer.concat([Buffer.from(TEXT), Buffer.alloc(100), Buffer.from(TEXT)]));
  const bad = await runCliWithin(['log', inside], 60_000);
  t.is(bad.code, 2);
  t.regex(bad.stderr, /WISP_BINARY_INPUT/);
});
