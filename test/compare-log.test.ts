import test from 'ava';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ips309Crash } from '../fixtures/crash.js';
import { compareLog, baselineItem } from '../src/compare/compare-log.js';
import { rateChange, MIN_FACTOR, MIN_RECORDS_OFF } from '../src/compare/rate-change.js';
import { renderCompareText } from '../src/compare/render-text.js';
import type { ComparisonResult } from '../src/compare/result.js';
import { textSource } from '../src/input/sources.js';
import { ROOT, runCli, tempDir, writeTemp } from './helpers.js';

const REAL = join(ROOT, 'fixtures', 'real');
const FIRST_SCREEN = 3 * 1024;

interface Pair {
  baseline: string;
  failing: string;
  new: string[];
  shared: string[];
  gone: string[];
}
const pairs = (JSON.parse(readFileSync(join(REAL, 'causes.json'), 'utf8')) as { pairs: Record<string, Pair> }).pairs;
const dir = tempDir('compare');

/** The text of one section: from its `== title` line to the next section. */
function section(text: string, title: string): string {
  const at = text.indexOf(`\n== ${title}\n`);
  if (at < 0) return '';
  const next = text.indexOf('\n== ', at + 4);
  return text.slice(at, next < 0 ? undefined : next);
}

/** Bytes of the text up to and including the first occurrence of `s`; Infinity when absent. */
function bytesThrough(text: string, s: string): number {
  const at = text.indexOf(s);
  return at < 0 ? Infinity : Buffer.byteLength(text.slice(0, at + s.length));
}

for (const [name, pair] of Object.entries(pairs)) {
  const failing = join(REAL, pair.failing);
  const baseline = join(REAL, pair.baseline);

  test(`${name}: what is new is in the first 3 KB, the shared noise is not among it, the shared part is stated`, async (t) => {
    const r = await runCli(['log', failing, '--baseline', baseline]);
    t.is(r.code, 0, r.stderr);
    const text = r.stdout;
    for (const s of pair.new) t.true(bytesThrough(text, s) <= FIRST_SCREEN, `${JSON.stringify(s)} within the first ${FIRST_SCREEN} bytes (at ${bytesThrough(text, s)})`);
    const fresh = section(text, 'new in this run');
    t.not(fresh, '');
    for (const s of pair.shared) {
      t.false(fresh.includes(s), `shared noise ${JSON.stringify(s)} is not ranked among what is new`);
      t.true(readFileSync(failing, 'utf8').includes(s) && readFileSync(baseline, 'utf8').includes(s));
    }
    const shared = /^shared with the baseline: (\d+) groups, (\d+) lines \(baseline (\d+) lines\), left out$/m.exec(text);
    t.truthy(shared, 'the shared part is stated on a line of its own');
    t.true(Number(shared![1]) > 0);
    // What only the baseline had is said: as what a new group was, or under gone.
    for (const s of pair.gone) t.true(text.includes(s.trim()), `gone ${JSON.stringify(s)} is shown`);
    t.regex(text, /^rate changed: .*\(rule: per record of each run, 2x or more up or down, and 5 or more records away from the baseline's rate\)$/m);
  });

  test(`${name}: a run against itself has nothing new`, async (t) => {
    const r = await runCli(['log', failing, '--baseline', failing]);
    t.is(r.code, 0, r.stderr);
    t.regex(r.stdout, /^new in this run: nothing \(every group of this run is in the baseline\)$/m);
    t.regex(r.stdout, /^rate changed: none /m);
    t.regex(r.stdout, /^gone since the baseline: nothing$/m);
    t.false(r.stdout.includes('\n== '));
  });

  test(`${name}: --json carries the same sections, and parses`, async (t) => {
    const [text, json] = await Promise.all([runCli(['log', failing, '--baseline', baseline]), runCli(['log', failing, '--baseline', baseline, '--json'])]);
    t.is(json.code, 0, json.stderr);
    const j = JSON.parse(json.stdout) as ComparisonResult;
    t.is(j.kind, 'comparison');
    t.regex(text.stdout, new RegExp(`^new in this run: ${j.new.groups} groups, ${j.new.lines} lines`, 'm'));
    t.regex(text.stdout, new RegExp(`^shared with the baseline: ${j.shared.groups} groups, ${j.shared.lines} lines`, 'm'));
    t.is(j.new.shown.length, j.new.groups);
    const shownNew = JSON.stringify(j.new.shown.map((e) => [e.examples, e.was?.examples]));
    for (const s of pair.new) t.true(shownNew.includes(JSON.stringify(s).slice(1, -1)), `${s} in new`);
    for (const s of pair.shared) t.false(shownNew.includes(JSON.stringify(s).slice(1, -1)), `${s} not in new`);
    t.is(j.rules.rate.minFactor, MIN_FACTOR);
  });

  test(`${name}: the same bytes for any worker count and chunk size, either side, and from a partial baseline`, async (t) => {
    const partial = join(dir, `${name}.partial.json.gz`);
    const emitted = await runCli(['log', baseline, '--emit-partial', partial]);
    t.is(emitted.code, 0, emitted.stderr);
    const runs = await Promise.all([
      runCli(['log', failing, '--baseline', baseline, '--workers', '0']),
      runCli(['log', failing, '--baseline', baseline, '--workers', '2', '--chunk-bytes', '1K']),
      runCli(['log', failing, '--baseline', partial, '--workers', '2']),
    ]);
    for (const r of runs) t.is(r.code, 0, r.stderr);
    t.is(runs[1]!.stdout, runs[0]!.stdout);
    // The partial's inputs are the log's; the text says it was read from the partial.
    const note = `note: baseline: read from the partial ${partial} (written by wisp `;
    t.true(runs[2]!.stdout.includes(note));
    t.is(runs[2]!.stdout.replace(/^note: baseline: read from the partial .*\n/m, ''), runs[0]!.stdout);
  });
}

test('a baseline that cannot be read is an error naming it (exit 2), never a comparison with nothing', async (t) => {
  const failing = join(REAL, pairs['python-logging']!.failing);
  const empty = writeTemp(dir, 'empty.log', '');
  const binary = writeTemp(dir, 'binary.log', Buffer.from([0, 1, 2, 0, 0, 5, 6, 0]));
  const damaged = writeTemp(dir, 'damaged.partial.json', '{"format":"wisp-log-partial","version":2}');
  const badGzip = writeTemp(dir, 'cut.log.gz', gzipSync('2026-01-01 10:00:00 INFO a line\n'.repeat(200)).subarray(0, 40));
  const cases: [string, RegExp][] = [
    [join(dir, 'missing.log'), /WISP_FILE_NOT_FOUND/],
    [empty, /WISP_EMPTY_INPUT/],
    [binary, /WISP_BINARY_INPUT/],
    [damaged, /WISP_BAD_ARGUMENT/],
    [badGzip, /WISP_BAD_GZIP/],
    [join(dir, 'none-*.log'), /WISP_FILE_NOT_FOUND/],
  ];
  for (const [path, code] of cases) {
    const r = await runCli(['log', failing, '--baseline', path]);
    t.is(r.code, 2, `${path}: ${r.stdout}`);
    t.is(r.stdout, '');
    t.regex(r.stderr, code);
    t.true(r.stderr.includes('baseline') && r.stderr.includes(path), r.stderr);
  }
  const both = await runCli(['log', failing, '--baseline', failing, '--per-file']);
  t.is(both.code, 2);
  t.regex(both.stderr, /--baseline .* drop --per-file/);
});

test('several baseline inputs are read as one baseline, and every one must be read', async (t) => {
  const pair = pairs['python-logging']!;
  const a = join(dir, 'base-a.log');
  copyFileSync(join(REAL, pair.baseline), a);
  const two = await runCli(['log', join(REAL, pair.failing), '--baseline', a, '--baseline', join(REAL, pair.baseline)]);
  t.is(two.code, 0, two.stderr);
  t.regex(two.stdout, /^baseline: read .* from .*base-a\.log, .*python-logging\.pass\.log/m);
  const oneMissing = await runCli(['log', join(REAL, pair.failing), '--baseline', a, '--baseline', join(dir, 'gone.log')]);
  t.is(oneMissing.code, 2);
  t.regex(oneMissing.stderr, /baseline: .*gone\.log/);
});

test('test runner summaries read as changed: `40 passed` -> `38 passed, 2 failed`', async (t) => {
  const run = (summary: string): string =>
    `collected 40 items\n${'test_x.py::test_case PASSED\n'.repeat(5)}============ ${summary} ============\n`;
  const r = (await compareLog(
    [textSource('now.log', run('2 failed, 38 passed in 3.41s'))],
    [{ kind: 'log', source: textSource('was.log', run('40 passed in 3.20s')) }],
    { workers: 0 },
  )) as ComparisonResult;
  const summary = r.new.shown.find((e) => e.examples[0]!.example.includes('2 failed, 38 passed'));
  t.truthy(summary);
  t.is(summary!.change, 'words');
  t.true(summary!.was!.examples[0]!.example.includes('40 passed'));
  // Paired, the old summary is not also listed as gone.
  t.is(r.gone.groups, 0);
  t.regex(renderCompareText(r, 10_000), /was \(words changed\): \w+ x1 +=+ 40 passed in 3\.20s =+/);
});

test('ids, times, durations and run-specific paths do not make a run new; a new value of a word variable is the same event', async (t) => {
  const users = (names: string[], seed: number): string =>
    names
      .map((u, i) => `2026-01-0${1 + (seed % 2)} 10:00:${String(i).padStart(2, '0')} INFO job ${seed * 1000 + i} for user ${u} done in ${37 + i * seed} ms, wrote /tmp/run-${seed}a${i}f/out.json\n`)
      .join('');
  const was = users(['alice', 'bob', 'carol', 'dave', 'erin'], 1);
  const now = users(['frank', 'grace'], 2);
  const r = (await compareLog([textSource('now.log', now)], [{ kind: 'log', source: textSource('was.log', was) }], { workers: 0 })) as ComparisonResult;
  t.is(r.new.groups, 0, JSON.stringify(r.new.shown.map((e) => e.template)));
  t.is(r.shared.groups, 1);
});

test('the rate rule: stated thresholds, exact integer arithmetic', (t) => {
  // 10 of 1,000 records against 10 of 1,000: the same rate.
  t.is(rateChange(10, 1000, 10, 1000), undefined);
  // Twice the rate but only 3 records off: not news.
  t.is(rateChange(6, 1000, 3, 1000), undefined);
  const up = rateChange(10 + MIN_RECORDS_OFF + 5, 1000, 10, 1000)!;
  t.is(up.direction, 'up');
  t.is(up.factor, 2);
  // Normalised by records: 20 of 2,000 is the rate of 10 of 1,000.
  t.is(rateChange(20, 2000, 10, 1000), undefined);
  t.is(rateChange(0, 1000, 40, 1000)!.direction, 'down');
  // Just under the factor.
  t.is(rateChange(19, 1000, 10, 1000), undefined);
});

test('a group whose rate changed is listed with both counts and the rule', async (t) => {
  const lines = (warnings: number, total: number, seed: number): string => {
    let s = '';
    for (let i = 0; i < total; i++) {
      s += i < warnings ? `2026-01-01 10:00:00 WARNING cache miss for key ${seed + i}\n` : `2026-01-01 10:00:00 INFO request ${seed + i} served\n`;
    }
    return s;
  };
  const r = (await compareLog([textSource('now.log', lines(60, 1000, 7))], [{ kind: 'log', source: textSource('was.log', lines(5, 1000, 3)) }], { workers: 0 })) as ComparisonResult;
  t.is(r.rateChanged.groups, 1);
  const e = r.rateChanged.shown[0]!;
  t.is(e.now.records, 60);
  t.is(e.was.records, 5);
  t.is(e.direction, 'up');
  t.is(e.factor, 12);
  t.is(r.new.groups, 0);
  t.regex(renderCompareText(r, 10_000), /== rate changed\n#1 WARNING x60, baseline x5: 60 per 1,000 records, was 5 \(up 12x\)/);
});

test('two crash reports are compared by exception and faulting frames; a crash report and a log are refused', async (t) => {
  const now = writeTemp(dir, 'now.ips', ips309Crash({ crashedFrameCount: 14 }));
  const was = writeTemp(dir, 'was.ips', ips309Crash({ crashedFrameCount: 14, lastException: true }));
  const same = await runCli(['log', now, '--baseline', now]);
  t.is(same.code, 0, same.stderr);
  t.regex(same.stdout, /^exception: the same: EXC_BAD_INSTRUCTION, SIGILL/m);
  t.regex(same.stdout, /^faulting thread: the same \d+ top frames$/m);
  const json = await runCli(['log', now, '--baseline', was, '--json']);
  t.is(json.code, 0, json.stderr);
  t.is(JSON.parse(json.stdout).kind, 'crash-comparison');

  const log = join(REAL, pairs['python-logging']!.failing);
  for (const args of [['log', now, '--baseline', log], ['log', log, '--baseline', now]]) {
    const r = await runCli(args);
    t.is(r.code, 2);
    t.regex(r.stderr, /is a crash report and .* is a log: a crash report is compared only with another crash report .*\[WISP_BAD_ARGUMENT\]/);
  }
});

test('a partial is recognised by its head, gzipped or not; anything else is read as a log', async (t) => {
  const pair = pairs['node-test-suite']!;
  const plain = join(dir, 'node.partial');
  t.is((await runCli(['log', join(REAL, pair.baseline), '--emit-partial', plain])).code, 0);
  t.is((await baselineItem(plain)).kind, 'partial');
  t.is((await baselineItem(join(REAL, pair.baseline))).kind, 'log');
  const gz = writeTemp(dir, 'node.log.gz', gzipSync(readFileSync(join(REAL, pair.baseline))));
  t.is((await baselineItem(gz)).kind, 'log');
  const fromGz = await runCli(['log', join(REAL, pair.failing), '--baseline', gz]);
  const fromPartial = await runCli(['log', join(REAL, pair.failing), '--baseline', plain]);
  const withoutBaselineLine = (s: string): string => s.replace(/^baseline: .*\n/m, '').replace(/^note: baseline: read from the partial .*\n/m, '');
  t.is(withoutBaselineLine(fromGz.stdout), withoutBaselineLine(fromPartial.stdout));
});
