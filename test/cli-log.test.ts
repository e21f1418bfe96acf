import test from 'ava';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { ips309Crash, ips309Truncated, ips309WithSecrets } from '../fixtures/crash.js';
import { javaServiceLog, logShowDefault, mixedLog } from '../fixtures/logs.js';
import { WISP_BIN, runCli, tempDir, writeTemp } from './helpers.js';

const dir = tempDir('cli-log');
const emptyDir = tempDir('cli-log-empty');

test('text output is byte-identical across worker counts and chunk sizes', async (t) => {
  const file = writeTemp(dir, 'mixed.log', mixedLog(20_000) + javaServiceLog(2_000));
  const runs = await Promise.all([
    runCli(['log', file, '--workers', '0', '--top', '8']),
    runCli(['log', file, '--workers', '2', '--chunk-bytes', '50000', '--top', '8']),
    runCli(['log', file, '--workers', '1', '--chunk-bytes', '4K', '--top', '8']),
  ]);
  for (const r of runs) {
    t.is(r.code, 0, r.stderr);
    t.is(r.stdout, runs[0]!.stdout);
  }
  t.true(Buffer.byteLength(runs[0]!.stdout) <= 10_500, `text output is about 10 KB (${Buffer.byteLength(runs[0]!.stdout)})`);
  t.regex(runs[0]!.stdout, /^read .* lines from .*mixed\.log \(format: timestamped log\)\nfound \d[\d,]* groups in [\d,]+ records; showing/);
  t.regex(runs[0]!.stdout, /\nleft out: [\d,]+ groups?, [\d,]+ lines \(/);
});

test("WISP_CHUNK_TIMES=1 times each chunk on stderr, on native lanes and here, and changes nothing on stdout", async (t) => {
  const file = writeTemp(dir, 'timed.log', mixedLog(6_000));
  const plain = await runCli(['log', file, '--workers', '2', '--chunk-bytes', '100000']);
  const timed = await Promise.all(['0', '2'].map((w) => runCli(['log', file, '--workers', w, '--chunk-bytes', '100000'], undefined, { WISP_CHUNK_TIMES: '1' })));
  for (const r of timed) {
    t.is(r.code, 0, r.stderr);
    t.is(r.stdout, plain.stdout);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('wisp: chunk of '));
    t.true(lines.length >= 5, r.stderr);
    // In the calling thread (thread 0) with --workers 0; on a lane, then here, with threads.
    for (const l of lines) t.regex(l, r === timed[0] ? /^wisp: chunk of \d+ bytes in \d+\.\d ms \(thread 0\)$/ : /^wisp: chunk of \d+ bytes in \d+\.\d ms on a lane, then \d+\.\d ms here$/);
    // Every byte of the file is in one chunk's count.
    t.is(lines.reduce((n, l) => n + Number(/of (\d+) bytes/.exec(l)![1]), 0), readFileSync(file).length);
  }
  t.false(plain.stderr.includes('wisp: chunk of'));
});

test('--json gives totals, groups with their fields, and what was omitted', async (t) => {
  const text = logShowDefault(2_000);
  const file = writeTemp(dir, 'logshow.log', text);
  const r = await runCli(['log', file, '--json', '--top', '5']);
  t.is(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  t.is(j.read.lines, text.split('\n').length - 1);
  t.is(j.totals.lines + j.read.frameLines, j.read.lines);
  t.is(j.read.frameLines, 5);
  t.is(j.groups.length, 5);
  for (const g of j.groups) {
    for (const k of ['severity', 'count', 'template', 'example', 'firstLine', 'lastLine', 'firstTime', 'lastTime']) t.true(k in g, k);
  }
  t.is(j.omitted.groups, j.totals.groups - 5);
});

test('gzip files and stdin are read; several files in one call', async (t) => {
  const text = mixedLog(3_000);
  const plain = writeTemp(dir, 'a.log', text);
  const gz = writeTemp(dir, 'a.log.gz', gzipSync(text));
  const fromPlain = await runCli(['log', plain, '--json']);
  const fromGz = await runCli(['log', gz, '--json']);
  const fromStdin = await runCli(['log', '-', '--json'], gzipSync(text));
  t.is(fromGz.code, 0, fromGz.stderr);
  t.is(fromStdin.code, 0, fromStdin.stderr);
  const groups = (s: string): unknown => JSON.parse(s).groups;
  t.deepEqual(groups(fromGz.stdout), groups(fromPlain.stdout));
  t.deepEqual(groups(fromStdin.stdout), groups(fromPlain.stdout));
  t.true(JSON.parse(fromGz.stdout).read.inputs[0].gzip);
  const both = JSON.parse((await runCli(['log', plain, gz, '--json'])).stdout);
  t.is(both.totals.lines, 6_000);
});

test('bad input: a clear one-line error with a code, exit 2', async (t) => {
  const cases: [string[], string, string | Buffer | undefined][] = [
    [['log', `${dir}/missing.log`], 'WISP_FILE_NOT_FOUND', undefined],
    [['log', emptyDir], 'WISP_NOT_A_FILE', undefined],
    [['log', writeTemp(dir, 'bin.dat', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3, 0, 0, 0]))], 'WISP_BINARY_INPUT', undefined],
    [['log', writeTemp(dir, 'bad.gz', Buffer.concat([gzipSync('hello\n'.repeat(1000)).subarray(0, 30), Buffer.from('garbage')]))], 'WISP_BAD_GZIP', undefined],
    [['log', '--top', '0', '-'], 'WISP_BAD_ARGUMENT', 'x\n'],
    [['log', '--workers', 'many', '-'], 'WISP_BAD_ARGUMENT', 'x\n'],
    [['log', '--max-bytes', '-5', '-'], 'WISP_BAD_ARGUMENT', 'x\n'],
    [['log', '--bogus'], 'WISP_BAD_ARGUMENT', 'x\n'],
  ];
  for (const [args, code, stdin] of cases) {
    const r = await runCli(args, stdin);
    t.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    t.true(r.stderr.includes(code), `${args.join(' ')}: ${r.stderr}`);
    t.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    t.is(r.stdout, '');
  }
});

test('a gzip file cut short is refused with how much text it held and how to read it anyway; damaged data is refused as such', async (t) => {
  const text = Array.from({ length: 5000 }, (_, i) => `2026-01-01 10:00:${String(i % 60).padStart(2, '0')} INFO line ${i} of the day\n`).join('');
  const whole = gzipSync(text);
  const cut = writeTemp(dir, 'cut.log.gz', whole.subarray(0, 4000));
  const r = await runCli(['log', cut]);
  t.is(r.code, 2);
  t.regex(r.stderr, /the gzip data ends early, after [\d,]+ bytes of text: the file was cut short, or damaged/);
  t.true(r.stderr.includes(`zcat ${cut} | wisp log -`), r.stderr);
  t.regex(r.stderr, /\[WISP_BAD_GZIP\]\n$/);
  // A flipped byte in the middle is damage zlib can name.
  const flipped = Buffer.from(whole);
  flipped[2000] = flipped[2000]! ^ 0xff;
  const damaged = await runCli(['log', writeTemp(dir, 'flipped.log.gz', flipped)]);
  t.is(damaged.code, 2);
  t.regex(damaged.stderr, /unreadable gzip data .*\[WISP_BAD_GZIP\]/);
});

test('an empty file, invalid UTF-8 and a 50 MB line without a newline do not crash or hang', async (t) => {
  const empty = await runCli(['log', writeTemp(dir, 'empty.log', ''), '--json']);
  t.is(empty.code, 0, empty.stderr);
  t.is(JSON.parse(empty.stdout).totals.lines, 0);

  const invalid = Buffer.concat([Buffer.from('2025-01-01T00:00:00Z ERROR bad bytes '), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from(' here\n')]);
  const bad = await runCli(['log', writeTemp(dir, 'invalid.log', invalid), '--json']);
  t.is(bad.code, 0, bad.stderr);
  t.is(JSON.parse(bad.stdout).groups[0].severity, 'error');

  const huge = Buffer.alloc(50 * 1024 * 1024, 'a');
  const long = await runCli(['log', writeTemp(dir, 'long.log', huge), '--json']);
  t.is(long.code, 0, long.stderr);
  const j = JSON.parse(long.stdout);
  t.is(j.read.cutLines, 1);
  t.is(j.read.bytes, huge.length);
  t.true(j.groups[0].example.length <= 1001);
});

test('--max-bytes keeps the tail and the text says how much of the head was skipped', async (t) => {
  const file = writeTemp(dir, 'big.log', mixedLog(30_000));
  const r = await runCli(['log', file, '--max-bytes', '256K']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /note: the first [\d.]+ MB were skipped to keep the last part/);
});

test('a crash report given to wisp log comes back as its fields, not as grouped lines', async (t) => {
  const secretPath = '/Users/dev/AKIAIOSFODNN7EXAMPLQ/WispDemo.app/Contents/MacOS/WispDemo';
  const file = writeTemp(dir, 'WispDemo.ips', ips309Crash({ crashedFrameCount: 30, procPath: secretPath }));
  const text = await runCli(['log', file]);
  t.is(text.code, 0, text.stderr);
  t.regex(text.stdout, /format: crash report \(\.ips\)/);
  t.regex(text.stdout, /EXC_BAD_ACCESS|EXC_BREAKPOINT|EXC_CRASH|SIG/);
  t.false(text.stdout.includes('AKIAIOSFODNN7EXAMPLQ'));
  const json = await runCli(['log', file, '--json']);
  const r = JSON.parse(json.stdout);
  t.is(r.kind, 'crash');
  t.is(r.report.faultingThread.framesTotal, 30);
  t.is(r.report.faultingThread.frames.length, 12);
  const truncated = await runCli(['log', writeTemp(dir, 'cut.ips', ips309Truncated())]);
  t.is(truncated.code, 2);
  t.regex(truncated.stderr, /WISP_NOT_JSON/);
});

test('--assignments writes LineId,GroupId for every line; continuation lines take their record\'s group', async (t) => {
  const text = javaServiceLog(300);
  const file = writeTemp(dir, 'assign.log', text);
  const csv = `${dir}/assign.csv`;
  const r = await runCli(['log', file, '--assignments', csv, '--json']);
  t.is(r.code, 0, r.stderr);
  const rows = readFileSync(csv, 'utf8').trim().split('\n');
  t.is(rows[0], 'LineId,GroupId');
  const lines = text.trimEnd().split('\n');
  t.is(rows.length - 1, lines.length);
  const groupOf = new Map(rows.slice(1).map((row) => row.split(',') as [string, string]));
  lines.forEach((line, i) => {
    if (line.startsWith('\tat ') || line.startsWith('Caused by') || line.startsWith('java.lang')) {
      t.is(groupOf.get(String(i + 1)), groupOf.get(String(i)), `line ${i + 1} continues line ${i}`);
    }
  });
  const groups = new Set(groupOf.values());
  t.is(groups.size, JSON.parse(r.stdout).totals.groups);
  const stdin = await runCli(['log', '-', '--assignments', csv], text);
  t.is(stdin.code, 2);
  t.regex(stdin.stderr, /name files, not stdin/);
});

test('a crash report with --json is redacted: no token, key or email of its exception or termination reason', async (t) => {
  const { text, secrets } = ips309WithSecrets();
  const file = writeTemp(dir, 'secrets.ips', text);
  for (const args of [['log', file, '--json'], ['log', file]]) {
    const r = await runCli(args);
    t.is(r.code, 0, r.stderr);
    t.true(r.stdout.includes('[REDACTED:'), r.stdout);
    for (const secret of secrets) t.false(r.stdout.includes(secret), `${args.join(' ')}: ${secret}`);
  }
});

test('a folder: an input skipped is named with its reason, not among what was read; hidden entries left out are counted', async (t) => {
  const folder = tempDir('cli-log-folder');
  const log = writeTemp(folder, 'app.log', mixedLog(500));
  const binary = writeTemp(folder, 'core.bin', Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919) % 256)));
  writeTemp(folder, '.secret.log', mixedLog(10));
  writeTemp(folder, '.cache-state', 'x\n');
  const r = await runCli(['log', folder]);
  t.is(r.code, 0, r.stderr);
  const first = r.stdout.split('\n')[0]!;
  t.true(first.includes(log), first);
  t.false(first.includes('core.bin'), first);
  t.regex(r.stdout, new RegExp(`note: skipped ${binary.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `));
  t.regex(r.stdout, /note: 2 hidden entries \(names starting with '\.'\) of the folders named were left out/);
  const json = JSON.parse((await runCli(['log', folder, '--json'])).stdout);
  const read = json.read.inputs.filter((i: { skipped?: boolean }) => i.skipped !== true);
  t.deepEqual(read.map((i: { name: string }) => i.name), [log]);
  t.is(json.read.bytes, read[0].bytes);
});

/** The CLI with its stdout on `out` (a file descriptor), as `wisp ... > /dev/full` runs it. */
function runCliTo(out: number, args: string[], stdin: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WISP_BIN, ...args], { stdio: ['pipe', out, 'pipe'] });
    const err: Buffer[] = [];
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin!.on('error', () => {});
    child.stdin!.end(stdin);
  });
}

test('a result that cannot be written (a full disk) is an error that says so, not a stack trace', async (t) => {
  if (!existsSync('/dev/full')) return t.pass('no /dev/full here');
  const file = writeTemp(dir, 'to-full.log', mixedLog(3_000));
  const full = openSync('/dev/full', 'w');
  try {
    for (const args of [['log', file], ['log', '--json', file], ['shape', '-'], ['redact'], ['merge', '--help']]) {
      const r = await runCliTo(full, args, args[0] === 'shape' ? '{"a": [1, 2, 3]}' : mixedLog(2_000));
      t.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      t.regex(r.stderr, /could not write the result to stdout: no space left on device \(ENOSPC\) \[WISP_WRITE_FAILED\]\n$/, args.join(' '));
      t.notRegex(r.stderr, /internal error|\n\s+at /, args.join(' '));
    }
  } finally {
    closeSync(full);
  }
});

test('a reader that leaves early (`| head -c 1`) ends the output quietly', async (t) => {
  const text = mixedLog(40_000);
  const child = spawn(process.execPath, [WISP_BIN, 'redact'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const err: Buffer[] = [];
  child.stderr.on('data', (b: Buffer) => err.push(b));
  child.stdout.once('data', () => child.stdout.destroy());
  child.stdin.on('error', () => {});
  child.stdin.end(text);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.is(Buffer.concat(err).toString('utf8'), '');
  t.is(code, 0);
});
