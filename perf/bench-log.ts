/**
 * condense_log throughput, against baselines measured in the same run on the same files:
 * `wc -l` (the floor: reading and counting lines) and a plain single-threaded
 * "regex masks + Map" condenser. Prints a table; `--json` prints the figures as JSON.
 *
 * The 60 MB case runs whole processes: `wisp log FILE` as a user runs it (start-up, its
 * threads, rendering) against the regex baseline in a process of its own, interleaved
 * run by run so that load from other processes hits both alike.
 *
 *   npm run bench                          # all cases
 *   npm run bench -- --quick               # 20 MB instead of 100 MB (the CLI case stays 60 MB)
 *   npm run bench -- --before /path/build  # also another build's CLI (a checkout with dist/ built)
 *   npm run bench -- --cli-only            # the whole-process case alone
 *   npm run bench -- --runs 9              # whole-process runs per build (median; default 3, log show 5)
 *   npm run bench -- --json-lines          # also a 30 MB JSON-lines log of errors with request ids, as a CLI process
 *   npm run bench -- --syslog              # also a 20 MB syslog without a level column, as a CLI process
 *
 * With --before, the other build's CLI runs interleaved with this one's, run by run, on
 * the 60 MB log (with the default threads and with --workers 0) and on the log show file.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonLinesLog, logShowDefault, mixedLogLines, plainSyslog } from '../fixtures/logs.js';
import { condenseLog } from '../src/log/index.js';
import { fileSource } from '../src/input/sources.js';
import { defaultThreadCount, WorkerPool } from '../src/pipeline/worker-pool.js';
import { cliRun, median, ROOT } from './cli-runs.js';
import { regexMapCondense } from './regex-map-baseline.js';

const REGEX_BASELINE = fileURLToPath(new URL('./regex-map-baseline.js', import.meta.url));
const quick = process.argv.includes('--quick');
const asJson = process.argv.includes('--json');
const BIG_MB = quick ? 20 : 100;
const CLI_MB = 60;
const cliOnly = process.argv.includes('--cli-only');
const jsonLines = process.argv.includes('--json-lines');
const syslog = process.argv.includes('--syslog');
const beforeAt = process.argv.indexOf('--before');
const BEFORE_ROOT = beforeAt === -1 ? undefined : process.argv[beforeAt + 1];
const runsAt = process.argv.indexOf('--runs');
const RUNS = runsAt === -1 ? undefined : Number(process.argv[runsAt + 1]);
if (RUNS !== undefined && !(Number.isInteger(RUNS) && RUNS >= 1 && RUNS <= 99)) {
  console.error(`--runs takes a whole number from 1 to 99, got '${process.argv[runsAt + 1]}'`);
  process.exit(2);
}
if (BEFORE_ROOT === undefined && beforeAt !== -1) {
  console.error('--before takes the root of another build (a checkout with dist/ built)');
  process.exit(2);
}
/** How many rounds a whole-process case runs: --runs, else its own default. */
const rounds = (n: number): number => RUNS ?? n;

const dir = mkdtempSync(join(tmpdir(), 'wisp-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

async function writeMixed(path: string, bytes: number): Promise<void> {
  const out = createWriteStream(path);
  let written = 0;
  let batch = '';
  for (const line of mixedLogLines(11)) {
    batch += `${line}\n`;
    if (batch.length > 1 << 20) {
      written += batch.length;
      if (!out.write(batch)) await new Promise<void>((r) => out.once('drain', () => r()));
      batch = '';
      if (written >= bytes) break;
    }
  }
  await new Promise<void>((r) => out.end(r));
}

async function timeIt(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** The regex baseline as a whole process of its own (a script that loads nothing of wisp). */
function regexProcess(path: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [REGEX_BASELINE, path], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return performance.now() - t0;
}

/**
 * How much two CPU-bound threads get done here next to one: the regex baseline run alone,
 * then as two processes at once. On a machine with two free cores this is about 2; on a
 * shared host, less. It bounds what a pool of two threads can gain over one.
 */
async function twoAtOnce(path: string): Promise<number> {
  const once = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [REGEX_BASELINE, path], { stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`regex baseline exited ${code}`))));
    });
  const t0 = performance.now();
  await once();
  const alone = performance.now() - t0;
  const t1 = performance.now();
  await Promise.all([once(), once()]);
  const pair = performance.now() - t1;
  return (2 * alone) / pair;
}

function wcLines(path: string): number {
  const t0 = performance.now();
  execFileSync('wc', ['-l', path]);
  return performance.now() - t0;
}

/** Peak memory of a whole condense run in a fresh process. */
function peakRssMb(path: string): number {
  const script = `import('${join(ROOT, 'dist/src/index.js')}').then(async (w) => { await w.condenseLog([w.fileSource(process.argv[1])]); console.log(process.resourceUsage().maxRSS); })`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, path], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return Number(r.stdout.trim()) / 1024;
}

type Row = Record<string, string | number>;
const mb = (path: string): number => statSync(path).size / (1024 * 1024);

async function main(): Promise<void> {
  const rows: Row[] = [];
  if (!cliOnly) await smallCases(rows);
  await wholeProcessCase(rows);
  if (jsonLines) jsonLinesCase(rows);
  if (syslog) syslogCase(rows);
  if (!cliOnly) await inProcessCases(rows);
  print(rows);
}

async function smallCases(rows: Row[]): Promise<void> {
  // 1. A small log show: 2.8 MB, 14,333 lines.
  const small = join(dir, 'logshow.log');
  writeFileSync(small, logShowDefault(14_333));
  const smallMb = mb(small);
  for (let i = 0; i < 3; i++) await condenseLog([fileSource(small)]); // warm up
  const warm = await timeIt(9, () => condenseLog([fileSource(small)]));
  const smallRegex = await timeIt(5, () => regexMapCondense(small));
  const smallWc = median([wcLines(small), wcLines(small), wcLines(small)]);
  const { ms: cli, before } = interleaved(small, rounds(5));
  const nodeStart = median([1, 2, 3, 4, 5].map(() => {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    return performance.now() - t0;
  }));
  rows.push(
    { case: `log show ${smallMb.toFixed(1)} MB, in process (warm)`, ms: warm, 'MB/s': smallMb / (warm / 1000), target: '< 40 ms' },
    { case: '  baseline: regex masks + Map, 1 thread', ms: smallRegex, 'MB/s': smallMb / (smallRegex / 1000), ratio: smallRegex / warm },
    { case: '  baseline: wc -l (process)', ms: smallWc, 'MB/s': smallMb / (smallWc / 1000) },
    { case: `log show ${smallMb.toFixed(1)} MB, whole CLI process`, ms: cli, 'MB/s': smallMb / (cli / 1000), target: '< 300 ms (at most 1,200 ms)' },
    { case: '  of which: node start-up (node -e 0)', ms: nodeStart },
  );
  if (before !== undefined) rows.push({ case: `  before: ${BEFORE_ROOT}, whole CLI process`, ms: before, 'MB/s': smallMb / (before / 1000), ratio: before / cli });
}

async function wholeProcessCase(rows: Row[]): Promise<void> {
  // 2. A 60 MB mixed log, whole processes: wisp's CLI against the regex baseline's process.
  const mid = join(dir, 'mixed-60.log');
  await writeMixed(mid, CLI_MB * 1024 * 1024);
  const midMb = mb(mid);
  const cliTimes: Record<string, number[]> = { pool: [], main: [], regex: [], wc: [], before: [], beforeMain: [] };
  for (let i = 0; i < rounds(3); i++) {
    cliTimes.pool!.push(cliRun(mid).ms);
    cliTimes.regex!.push(regexProcess(mid));
    cliTimes.main!.push(cliRun(mid, ['--workers', '0']).ms);
    cliTimes.wc!.push(wcLines(mid));
    if (BEFORE_ROOT !== undefined) {
      cliTimes.before!.push(cliRun(mid, [], BEFORE_ROOT).ms);
      cliTimes.beforeMain!.push(cliRun(mid, ['--workers', '0'], BEFORE_ROOT).ms);
    }
  }
  const scaling = median([await twoAtOnce(mid), await twoAtOnce(mid), await twoAtOnce(mid)]);
  const cliPool = median(cliTimes.pool!);
  const cliRegex = median(cliTimes.regex!);
  const cliMain = median(cliTimes.main!);
  const cliWc = median(cliTimes.wc!);
  rows.push(
    { case: `mixed ${midMb.toFixed(0)} MB, whole CLI process (wisp log FILE)`, ms: cliPool, 'MB/s': midMb / (cliPool / 1000), target: '>= 6x regex baseline' },
    { case: '  baseline: regex masks + Map, whole process', ms: cliRegex, 'MB/s': midMb / (cliRegex / 1000), ratio: cliRegex / cliPool, target: 'ratio >= 6' },
    { case: '  wisp log --workers 0, whole CLI process', ms: cliMain, 'MB/s': midMb / (cliMain / 1000), ratio: cliRegex / cliMain },
    { case: '  baseline: wc -l (process)', ms: cliWc, 'MB/s': midMb / (cliWc / 1000), ratio: cliWc / cliPool },
    { case: '  this machine: work done by 2 baseline processes at once / by 1', ratio: scaling, target: '2 on two free cores' },
  );
  if (BEFORE_ROOT !== undefined) {
    const before = median(cliTimes.before!);
    const beforeMain = median(cliTimes.beforeMain!);
    rows.push(
      { case: `  before: ${BEFORE_ROOT}, whole CLI process`, ms: before, 'MB/s': midMb / (before / 1000), ratio: cliRegex / before },
      { case: `  before: ${BEFORE_ROOT}, --workers 0`, ms: beforeMain, 'MB/s': midMb / (beforeMain / 1000), ratio: cliRegex / beforeMain },
    );
  }
}

/** 30 MB of pino and zap-like JSON lines, half of them errors with request ids, as a CLI process. */
function jsonLinesCase(rows: Row[]): void {
  const path = join(dir, 'json-lines.log');
  const pieces: string[] = [];
  let bytes = 0;
  for (let seed = 1; bytes < 30 * 1024 * 1024; seed++) {
    const piece = jsonLinesLog(20_000, seed);
    pieces.push(piece);
    bytes += piece.length;
  }
  writeFileSync(path, pieces.join(''));
  cliCase(rows, path, 'JSON lines');
}

/** 20 MB of a host's syslog, whose lines declare no level (their words decide), as a CLI process. */
function syslogCase(rows: Row[]): void {
  const path = join(dir, 'syslog.log');
  writeFileSync(path, plainSyslog(220_000));
  cliCase(rows, path, 'syslog without levels');
}

/** `wisp log path` as a CLI process, and the --before build's, interleaved run by run: a row each. */
function cliCase(rows: Row[], path: string, name: string): void {
  const { ms, before } = interleaved(path, rounds(3));
  rows.push({ case: `${name} ${mb(path).toFixed(0)} MB, whole CLI process`, ms, 'MB/s': mb(path) / (ms / 1000) });
  if (before !== undefined) rows.push({ case: `  before: ${BEFORE_ROOT}, whole CLI process`, ms: before, 'MB/s': mb(path) / (before / 1000), ratio: before / ms });
}

/** The median of `runs` runs of `wisp log path` as a CLI process, and of the --before build's, interleaved run by run. */
function interleaved(path: string, runs: number): { ms: number; before: number | undefined } {
  const times: number[] = [];
  const before: number[] = [];
  for (let i = 0; i < runs; i++) {
    times.push(cliRun(path).ms);
    if (BEFORE_ROOT !== undefined) before.push(cliRun(path, [], BEFORE_ROOT).ms);
  }
  return { ms: median(times), before: BEFORE_ROOT === undefined ? undefined : median(before) };
}

async function inProcessCases(rows: Row[]): Promise<void> {
  // 3. A large mixed log with the default threads (native lanes beside this thread, for this format).
  const big = join(dir, 'mixed.log');
  await writeMixed(big, BIG_MB * 1024 * 1024);
  const bigMb = mb(big);
  await condenseLog([fileSource(big)]);
  const pooled = await timeIt(3, () => condenseLog([fileSource(big)]));
  // A server keeps its pool: threads started and their code warm, as the MCP server's is.
  const pool = await WorkerPool.start(defaultThreadCount());
  await condenseLog([fileSource(big)], { pool });
  const warmPool = await timeIt(3, () => condenseLog([fileSource(big)], { pool }));
  await pool.close();
  const oneThread = await timeIt(1, () => condenseLog([fileSource(big)], { workers: 0 }));
  const bigRegex = await timeIt(1, () => regexMapCondense(big));
  const bigWc = median([wcLines(big), wcLines(big), wcLines(big)]);
  rows.push(
    { case: `mixed ${bigMb.toFixed(0)} MB, default threads (native lanes)`, ms: pooled, 'MB/s': bigMb / (pooled / 1000), target: '>= 150 MB/s' },
    { case: '  worker pool kept warm (a server\'s pool)', ms: warmPool, 'MB/s': bigMb / (warmPool / 1000), ratio: pooled / warmPool },
    { case: '  wisp in the main thread (--workers 0)', ms: oneThread, 'MB/s': bigMb / (oneThread / 1000), ratio: oneThread / pooled },
    { case: '  baseline: regex masks + Map, 1 thread', ms: bigRegex, 'MB/s': bigMb / (bigRegex / 1000), ratio: bigRegex / pooled },
    { case: '  baseline: wc -l (process)', ms: bigWc, 'MB/s': bigMb / (bigWc / 1000), ratio: bigWc / pooled },
  );

  // 4. Memory stays flat as input grows.
  const quarter = join(dir, 'quarter.log');
  await writeMixed(quarter, (BIG_MB / 4) * 1024 * 1024);
  const rssQuarter = peakRssMb(quarter);
  const rssBig = peakRssMb(big);
  rows.push(
    { case: `peak RSS, ${mb(quarter).toFixed(0)} MB input`, MB: rssQuarter },
    { case: `peak RSS, ${bigMb.toFixed(0)} MB input`, MB: rssBig, ratio: rssBig / rssQuarter, target: 'about 1x' },
  );
}

function print(rows: Row[]): void {
  if (asJson) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  const fmt = (v: string | number | undefined): string => (typeof v === 'number' ? (v >= 100 ? v.toFixed(0) : v.toFixed(2)) : (v ?? ''));
  const cols = ['case', 'ms', 'MB/s', 'ratio', 'MB', 'target'];
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => fmt(r[c]).length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(cols));
  for (const r of rows) console.log(line(cols.map((c) => fmt(r[c]))));
  console.log('\nratio: baseline time / wisp time (higher means wisp is faster); for the warm pool, default threads\' time / warm pool time; for RSS, big / quarter;');
  console.log('in the whole-process case: regex baseline process time / that row\'s time (the target: 6 or more for wisp log FILE);');
  console.log('for the log show file\'s before row: its time / this build\'s.');
}

await main();
