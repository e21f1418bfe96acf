import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { orderRotated } from '../src/input/expand-paths.js';
import { mixedLog } from '../fixtures/logs.js';
import { spawnSync } from 'node:child_process';
import { WISP_BIN, runCli, tempDir } from './helpers.js';

const dir = tempDir('batch');
const archive = join(dir, 'archive');
mkdirSync(join(archive, 'old'), { recursive: true });
const day = (d: number, lines: number): string =>
  mixedLog(lines, d).replace(/^2025-12-11/gm, `2025-12-${String(d).padStart(2, '0')}`);
writeFileSync(join(archive, 'app.log.2.gz'), gzipSync(day(1, 3000)));
writeFileSync(join(archive, 'app.log.1'), day(2, 3000));
writeFileSync(join(archive, 'app.log'), day(3, 3000));
writeFileSync(join(archive, 'old', 'app.log.1.gz'), gzipSync(day(4, 500)));
writeFileSync(join(archive, '.hidden.log'), 'never read\n');

test('rotated files are read oldest first', (t) => {
  t.deepEqual(orderRotated(['/l/app.log', '/l/app.log.1', '/l/app.log.10.gz', '/l/app.log.2.gz', '/l/db.log']), [
    '/l/app.log.10.gz',
    '/l/app.log.2.gz',
    '/l/app.log.1',
    '/l/app.log',
    '/l/db.log',
  ]);
});

test('a folder is read recursively, rotated files oldest first, gzip as streams; groups say which files they occur in', async (t) => {
  const r = await runCli(['log', archive, '--json', '--workers', '2']);
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, '', 'nothing on stderr when it is not a terminal');
  const j = JSON.parse(r.stdout);
  t.deepEqual(
    j.read.inputs.map((i: { name: string }) => i.name.slice(archive.length + 1)),
    ['app.log.2.gz', 'app.log.1', 'app.log', 'old/app.log.1.gz'],
  );
  t.is(j.totals.lines, 9500);
  const top = j.groups[0];
  t.is(top.inputCount, 4);
  t.is(top.inputs.length, 4);
  t.is(top.inputs.reduce((n: number, i: { count: number }) => n + i.count, 0), top.count);
  t.true(top.firstAt.name.endsWith('app.log.2.gz'), 'first seen in the oldest file');
  t.is(top.firstAt.line, top.firstLine);
  const text = await runCli(['log', archive, '--top', '3']);
  t.regex(text.stdout, /\n {2}in 4 inputs: .*app\.log.* x[\d,]+.*; first at .*app\.log\.2\.gz:\d+/);
});

test('globs expand; the merged report is the same for any worker count and chunk size', async (t) => {
  const a = await runCli(['log', join(archive, '*.log*'), '--json', '--workers', '0']);
  const b = await runCli(['log', join(archive, '**', 'app.log*'), '--json', '--workers', '2', '--chunk-bytes', '10000']);
  t.is(a.code, 0, a.stderr);
  const ja = JSON.parse(a.stdout);
  const jb = JSON.parse(b.stdout);
  t.is(ja.read.inputs.length, 3);
  t.is(jb.read.inputs.length, 4);
  const c = await runCli(['log', join(archive, '**', 'app.log*'), '--json', '--workers', '1']);
  t.is(c.stdout, b.stdout);
});

test('an unreadable, corrupt or binary file in the middle is reported and skipped; the run goes on', async (t) => {
  const mixed = join(dir, 'mixed');
  mkdirSync(mixed);
  writeFileSync(join(mixed, 'a.log'), day(5, 1000));
  writeFileSync(join(mixed, 'b.log.gz'), Buffer.concat([gzipSync(day(6, 5000)).subarray(0, 4000), Buffer.from('garbage')]));
  writeFileSync(join(mixed, 'c.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]));
  writeFileSync(join(mixed, 'd.log'), day(7, 1000));
  const r = await runCli(['log', mixed, join(mixed, 'missing.log'), '--json']);
  t.is(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  const skipped = j.read.skippedInputs.map((s: { name: string; reason: string }) => [s.name.slice(mixed.length + 1), s.reason.match(/\[(\w+)\]/)![1]]);
  t.deepEqual(skipped, [
    ['b.log.gz', 'WISP_BAD_GZIP'],
    ['c.bin', 'WISP_BINARY_INPUT'],
    ['missing.log', 'WISP_FILE_NOT_FOUND'],
  ]);
  t.is(j.totals.lines, 2000, 'the lines of the corrupt file read before the error are not counted');
  const text = await runCli(['log', mixed]);
  t.regex(text.stdout, /note: skipped .*b\.log\.gz: .*WISP_BAD_GZIP/);
});

test('--per-file gives one report per file', async (t) => {
  const r = await runCli(['log', archive, '--per-file', '--json', '--top', '2']);
  t.is(r.code, 0, r.stderr);
  const reports = JSON.parse(r.stdout);
  t.is(reports.length, 4);
  t.deepEqual(reports.map((x: { totals: { lines: number } }) => x.totals.lines), [3000, 3000, 3000, 500]);
  const text = await runCli(['log', archive, '--per-file', '--top', '1']);
  t.is(text.stdout.split('\n').filter((l) => l.startsWith('== ')).length, 4);
});

test('partials: an archive split three ways and merged gives the single run report byte for byte', async (t) => {
  const split = join(dir, 'split');
  mkdirSync(split);
  const files: string[] = [];
  for (let d = 1; d <= 6; d++) {
    const f = join(split, `day${d}.log${d % 2 === 0 ? '.gz' : ''}`);
    writeFileSync(f, d % 2 === 0 ? gzipSync(day(d + 10, 2000)) : day(d + 10, 2000));
    files.push(f);
  }
  writeFileSync(join(split, 'day7.bin'), Buffer.from([0, 1, 2, 3]));
  files.push(join(split, 'day7.bin'));
  const single = await runCli(['log', ...files, '--json', '--top', '40']);
  const singleText = await runCli(['log', ...files, '--top', '40']);
  t.is(single.code, 0, single.stderr);
  const parts = [files.slice(0, 2), files.slice(2, 5), files.slice(5)];
  const outs: string[] = [];
  for (const [k, part] of parts.entries()) {
    const out = join(split, `part${k}.json${k === 1 ? '.gz' : ''}`);
    const r = await runCli(['log', ...part, '--emit-partial', out, '--workers', String(k)]);
    t.is(r.code, 0, r.stderr);
    outs.push(out);
  }
  const merged = await runCli(['merge', ...outs, '--json', '--top', '40']);
  t.is(merged.code, 0, merged.stderr);
  t.is(merged.stdout, single.stdout);
  t.is((await runCli(['merge', ...outs, '--top', '40'])).stdout, singleText.stdout);
  // Out of order is a different archive: the report says so by its line numbers.
  const reordered = await runCli(['merge', outs[2]!, outs[0]!, outs[1]!, '--json', '--top', '40']);
  t.not(reordered.stdout, single.stdout);
  const bad = await runCli(['merge', files[0]!]);
  t.is(bad.code, 2);
  t.regex(bad.stderr, /not a wisp partial/);
});

test('on a terminal, stderr shows a progress line (bytes, files, MB/s, ETA)', async (t) => {
  // util-linux's script gives the CLI a pseudo-terminal, as a user's shell would.
  const big = join(dir, 'progress.log');
  writeFileSync(big, mixedLog(120_000));
  const out = spawnSync('script', ['-qc', `${process.execPath} ${WISP_BIN} log ${big} > /dev/null`, '/dev/null'], { encoding: 'utf8' });
  t.is(out.status, 0, out.stderr);
  t.regex(out.stdout, /wisp: \d+ of \d+ MB, \d of 1 files, \d+ MB\/s, ETA \d+ s/);
});
