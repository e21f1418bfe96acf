/**
 * json_shape against baselines measured in the same process on the same files:
 *
 *   API export (16 MiB array of records):  read + JSON.parse          target <= 1.2x
 *   map-like (16 MiB, 60,000 id keys):      read + JSON.parse          target: no slower than the API export
 *   JSON Lines (100 MB, streamed):          read + JSON.parse per line, one thread
 *                                                                      target >= 1.5x the throughput
 *     with a pool started for the call (as the CLI does) and with one kept warm (as the
 *     MCP server keeps its pool)
 *   streamed past the cap (21, 57 and 200 MB; an API-dump array, and JSON Lines):
 *     peak RSS                                                   target <= 200 MB at every size
 *     throughput beside read + JSON.parse (of the whole array; of each line)
 *     each run a child process, as the CLI is: start-up and threads count, node's own does not
 *
 * Times are medians of interleaved runs (baseline, json_shape, baseline, ...), so load
 * from other processes hits both alike; read the ratios, not the milliseconds. Peak
 * memory is measured per case in a child process (its peak RSS covers worker threads).
 *
 *   npx tsc -p . && node dist/perf/bench-shape.js [--runs N] [--quick] [--json]
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiExport, apiExportPieces, jsonLinesPieces, mapLike } from '../fixtures/json.js';
import { WorkerPool } from '../src/pipeline/worker-pool.js';
import { jsonShape, type ShapeOptions } from '../src/shape/index.js';
import { median } from './cli-runs.js';

const MIB = 1024 * 1024;
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};

// ---- child mode: run one case once and report its time and peak memory --------------------
if (args[0] === '--child') {
  const [, which, path] = args;
  const before = process.memoryUsage().rss;
  const t0 = performance.now();
  if (which === 'parse') JSON.parse(readFileSync(path as string, 'utf8'));
  else if (which === 'lines') await parseLines(path as string);
  else await jsonShape({ path: path as string }, JSON.parse(which as string) as ShapeOptions);
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ before, ms, maxRss: peakRss() }));
  process.exit(0);
}

/**
 * This process's peak RSS. On Linux from VmHWM, which starts fresh at exec; getrusage's
 * maxRSS does not (a child spawned by a big parent would report the parent's size).
 */
function peakRss(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m !== null) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

const runs = Number(flag('--runs') ?? 5);
const quick = args.includes('--quick');
const asJson = args.includes('--json');
const JSONL_BYTES = quick ? 20_000_000 : 100_000_000;
const DOC_BYTES = 16 * MIB - 4096; // under the 16 MiB agent cap

const dir = mkdtempSync(join(tmpdir(), 'wisp-bench-shape-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const SELF = fileURLToPath(import.meta.url);

/** The JSON Lines baseline: stream the file, split lines, JSON.parse each, on this thread. */
async function parseLines(path: string): Promise<number> {
  let carry = '';
  let count = 0;
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: MIB })) {
    const text = carry + (chunk as string);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      if (nl > start) {
        JSON.parse(text.slice(start, nl));
        count++;
      }
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  if (carry.trim() !== '') {
    JSON.parse(carry);
    count++;
  }
  return count;
}

async function writePieces(path: string, pieces: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const piece of pieces) if (!out.write(piece)) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((r) => out.end(r));
}

/** Interleaved runs of the baseline and each contender; medians in ms. */
async function race(fns: (() => unknown)[]): Promise<number[]> {
  const times: number[][] = fns.map(() => []);
  await fns[0]?.(); // warm up the code paths once
  for (let r = 0; r < runs; r++) {
    for (const [i, fn] of fns.entries()) {
      const t0 = performance.now();
      await fn();
      (times[i] as number[]).push(performance.now() - t0);
    }
  }
  return times.map(median);
}

function inChild(which: string, path: string): { ms: number; maxRss: number } {
  const child = spawnSync(process.execPath, [SELF, '--child', which, path], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`child ${which} failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as { ms: number; maxRss: number };
}

function peakMemory(which: string, path: string): number {
  return inChild(which, path).maxRss;
}

const mib = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;
const ms = (t: number): string => `${t.toFixed(0)} ms`;

interface Row {
  case: string;
  input: string;
  baseline: string;
  baselineMs: number;
  shapeMs: number;
  ratio: string;
  target: string;
  peakBaseline: string;
  peakShape: string;
}

const rows: Row[] = [];
const workers = availableParallelism();

// ---- the documents --------------------------------------------------------------------------
const apiPath = join(dir, 'api-export.json');
writeFileSync(apiPath, apiExport(DOC_BYTES, 1));
const mapPath = join(dir, 'map-like.json');
writeFileSync(mapPath, mapLike(60_000, DOC_BYTES, 2));
const apiText = readFileSync(apiPath, 'utf8');

const readParse = (path: string) => () => JSON.parse(readFileSync(path, 'utf8'));
const [apiBase, apiShape] = (await race([readParse(apiPath), () => jsonShape({ path: apiPath })])) as [number, number];
const [mapBase, mapShape] = (await race([readParse(mapPath), () => jsonShape({ path: mapPath })])) as [number, number];
const [textBase, textShape] = (await race([() => JSON.parse(apiText), () => jsonShape(apiText)])) as [number, number];

const apiPeak = peakMemory('parse', apiPath);
rows.push(
  {
    case: 'API export (file)',
    input: mib(statSync(apiPath).size),
    baseline: 'read + JSON.parse',
    baselineMs: apiBase,
    shapeMs: apiShape,
    ratio: `${(apiShape / apiBase).toFixed(2)}x time`,
    target: '<= 1.2x',
    peakBaseline: mib(apiPeak),
    peakShape: mib(peakMemory('{}', apiPath)),
  },
  {
    case: 'API export, text in memory',
    input: mib(Buffer.byteLength(apiText)),
    baseline: 'JSON.parse(text)',
    baselineMs: textBase,
    shapeMs: textShape,
    ratio: `${(textShape / textBase).toFixed(2)}x time`,
    target: '(one thread)',
    peakBaseline: '',
    peakShape: '',
  },
  {
    case: 'map-like, 60,000 id keys',
    input: mib(statSync(mapPath).size),
    baseline: 'read + JSON.parse',
    baselineMs: mapBase,
    shapeMs: mapShape,
    ratio: `${(mapShape / mapBase).toFixed(2)}x time; ${(mapShape / apiShape).toFixed(2)}x the API export's`,
    target: '<= 1.0x the API export',
    peakBaseline: mib(peakMemory('parse', mapPath)),
    peakShape: mib(peakMemory('{}', mapPath)),
  },
);

// ---- JSON Lines -----------------------------------------------------------------------------
const linesPath = join(dir, 'events.jsonl');
await writePieces(linesPath, jsonLinesPieces(JSONL_BYTES, 3));
// The same lines three times over: streaming memory should not grow with the input.
const triplePath = join(dir, 'events-x3.jsonl');
{
  const all = readFileSync(linesPath);
  writeFileSync(triplePath, all);
  appendFileSync(triplePath, all);
  appendFileSync(triplePath, all);
}
const bigOptions: ShapeOptions = { maxBytes: 2 * JSONL_BYTES };

/** Race json_shape on a JSON Lines file against the one-thread baseline; one table row. */
async function linesRow(label: string, path: string, options: ShapeOptions): Promise<Row> {
  const size = statSync(path).size;
  const [base, shape] = (await race([() => parseLines(path), () => jsonShape({ path }, options)])) as [number, number];
  const mbps = (t: number): string => `${(size / 1e6 / (t / 1000)).toFixed(0)} MB/s`;
  return {
    case: `${label} (${workers} workers)`,
    input: `${(size / 1e6).toFixed(0)} MB`,
    baseline: 'JSON.parse per line, 1 thread',
    baselineMs: base,
    shapeMs: shape,
    ratio: `${(base / shape).toFixed(2)}x throughput (${mbps(shape)} vs ${mbps(base)})`,
    target: '>= 1.5x',
    peakBaseline: '',
    peakShape: '',
  };
}

rows.push({
  ...(await linesRow('JSON Lines, streamed', linesPath, bigOptions)),
  peakBaseline: mib(peakMemory('lines', linesPath)),
  peakShape: `${mib(peakMemory(JSON.stringify(bigOptions), linesPath))} (x3, ${(statSync(triplePath).size / 1e6).toFixed(0)} MB: ${mib(peakMemory(JSON.stringify({ maxBytes: 4 * JSONL_BYTES }), triplePath))})`,
});
// Each call above starts its threads, which then run unoptimized code until V8 has
// compiled the walker (about a quarter of a second here in all); on three times the
// input that is a smaller share.
rows.push(await linesRow('JSON Lines x3, streamed', triplePath, { maxBytes: 4 * JSONL_BYTES }));
// The MCP server keeps one pool warm between calls: a lent pool skips both.
const warmPool = await WorkerPool.start(workers);
rows.push(await linesRow('JSON Lines, pool kept warm', linesPath, { ...bigOptions, pool: warmPool }));
await warmPool.close();

// ---- streamed past the cap -----------------------------------------------------------------
const STREAM_MB = quick ? [21] : [21, 57, 200];
const RSS_TARGET_MB = 200;
const streamRuns = Math.max(1, Math.min(runs, 3));

interface StreamRow {
  case: string;
  input: string;
  baseline: string;
  baselineMBps: number;
  shapeMBps: number;
  ratio: string;
  peakBaseline: string;
  peakShape: string;
  target: string;
}

/** Interleaved child runs of the baseline and json_shape (as `wisp shape --max-bytes` runs it); one row. */
function streamRow(label: string, path: string, baseline: 'parse' | 'lines'): StreamRow {
  const size = statSync(path).size;
  const options = JSON.stringify({ maxBytes: 2 * size } satisfies ShapeOptions);
  const base: { ms: number; maxRss: number }[] = [];
  const shape: { ms: number; maxRss: number }[] = [];
  for (let r = 0; r < streamRuns; r++) {
    base.push(inChild(baseline, path));
    shape.push(inChild(options, path));
  }
  const mbps = (xs: { ms: number }[]): number => size / 1e6 / (median(xs.map((x) => x.ms)) / 1000);
  const peak = (xs: { maxRss: number }[]): number => Math.max(...xs.map((x) => x.maxRss)) / 1e6;
  const shapePeak = peak(shape);
  return {
    case: label,
    input: `${(size / 1e6).toFixed(0)} MB`,
    baseline: baseline === 'parse' ? 'read + JSON.parse' : 'JSON.parse per line',
    baselineMBps: mbps(base),
    shapeMBps: mbps(shape),
    ratio: `${(mbps(shape) / mbps(base)).toFixed(2)}x throughput`,
    peakBaseline: `${peak(base).toFixed(0)} MB`,
    peakShape: `${shapePeak.toFixed(0)} MB ${shapePeak <= RSS_TARGET_MB ? 'ok' : 'OVER'}`,
    target: `<= ${RSS_TARGET_MB} MB`,
  };
}

const streamRows: StreamRow[] = [];
for (const mb of STREAM_MB) {
  const arrayPath = join(dir, `api-dump-${mb}mb.json`);
  await writePieces(arrayPath, apiExportPieces(mb * 1e6, 5));
  streamRows.push(streamRow('API dump array, streamed', arrayPath, 'parse'));
  rmSync(arrayPath);
  const linesPath = join(dir, `events-${mb}mb.jsonl`);
  await writePieces(linesPath, jsonLinesPieces(mb * 1e6, 6));
  streamRows.push(streamRow('JSON Lines, streamed', linesPath, 'lines'));
  rmSync(linesPath);
}

// ---- report ---------------------------------------------------------------------------------
/** A table: a header, a rule, a line per row. */
function table(titles: string[], cells: string[][]): string {
  const widths = titles.map((t, i) => Math.max(t.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]): string => c.map((x, i) => x.padEnd(widths[i] as number)).join('  ').trimEnd();
  return `${line(titles)}\n${line(widths.map((w) => '-'.repeat(w)))}\n${cells.map(line).join('\n')}\n`;
}

if (asJson) {
  process.stdout.write(`${JSON.stringify({ rows, streamed: streamRows }, null, 2)}\n`);
} else {
  const header: (keyof Row)[] = ['case', 'input', 'baseline', 'baselineMs', 'shapeMs', 'ratio', 'target', 'peakBaseline', 'peakShape'];
  const titles = ['case', 'input', 'baseline', 'baseline', 'json_shape', 'ratio', 'target', 'peak RSS base', 'peak RSS shape'];
  const cells = rows.map((r) => header.map((k) => (typeof r[k] === 'number' ? ms(r[k] as number) : String(r[k]))));
  process.stdout.write(`json_shape bench: medians of ${runs} interleaved runs, ${availableParallelism()} cores (node ${process.version})\n`);
  process.stdout.write(table(titles, cells));
  const streamHeader: (keyof StreamRow)[] = ['case', 'input', 'baseline', 'baselineMBps', 'shapeMBps', 'ratio', 'peakBaseline', 'peakShape', 'target'];
  const streamTitles = ['case', 'input', 'baseline', 'baseline', 'json_shape', 'ratio', 'peak RSS base', 'peak RSS shape', 'RSS target'];
  const mbps = (x: number): string => `${x.toFixed(0)} MB/s`;
  const streamCells = streamRows.map((r) => streamHeader.map((k) => (typeof r[k] === 'number' ? mbps(r[k] as number) : String(r[k]))));
  process.stdout.write(`\nstreamed past the cap, each run a child process (medians of ${streamRuns}; peak RSS the highest run)\n`);
  process.stdout.write(table(streamTitles, streamCells));
}
