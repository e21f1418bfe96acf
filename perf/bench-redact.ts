/**
 * Redaction throughput and precision, each against a baseline measured in the same run.
 *
 * Throughput (MB/s, per line as the condenser calls it): redact(), the byte screen
 * mayNeedRedaction(), and two trivial baselines (one String.prototype.replace with one
 * trivial regex; one table read per byte), over example-sized lines, a mixed service log,
 * the real tool outputs in fixtures/real/out, Loghub-like lines when a folder of logs is
 * given, and long lines. The ratios say what redaction costs over touching every line
 * once, and how much the screen saves, independently of the machine (timed in CPU time,
 * which other processes on the machine do not add to). With `--against
 * DIR`, the screen of another build (its dist folder, e.g. main's) is measured in the
 * same run, for a before and after.
 *
 * Precision: the share of lines redact() changes in ordinary text that holds no secret:
 * TypeScript declarations, minified JS, lock files (this project's node_modules and its
 * own package-lock.json) and `git log --stat` of this repository. Material that is not
 * there is skipped and said so.
 *
 *   node dist/perf/bench-redact.js [--json] [--seconds S] [--show N] [--logs DIR] [--against DIST]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mayNeedRedaction, redact } from '../src/redact/index.js';
import { negatives, positives } from '../fixtures/redaction-corpus.js';
import { mixedLog } from '../fixtures/logs.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const asJson = args.includes('--json');
const seconds = Number(option('--seconds') ?? 1);
const show = Number(option('--show') ?? 0);
const logsDir = option('--logs');
const againstDir = option('--against');
type Screen = (bytes: Uint8Array, start: number, end: number) => boolean;
const against: Screen | undefined =
  againstDir === undefined ? undefined : ((await import(pathToFileURL(resolve(againstDir, 'src/redact/screen.js')).href)) as { mayNeedRedaction: Screen }).mayNeedRedaction;

// ---------- throughput ----------

/**
 * About 200-character lines: the corpus texts (negatives and, one in ten, positives), each
 * padded with an ordinary log prefix or cut, the way examples look once condensed.
 */
function exampleLines(count: number): string[] {
  const texts = [...negatives.map((n) => n.text), ...positives.filter((_, i) => i % 10 === 0).map((p) => p.text)]
    .flatMap((t) => t.split('\n'))
    .filter((t) => t.length > 0);
  const lines: string[] = [];
  for (let i = 0; lines.length < count; i++) {
    const text = texts[(i * 7919) % texts.length]!;
    const prefix = `2024-05-0${(i % 9) + 1}T12:${String(i % 60).padStart(2, '0')}:07.${String(i % 1000).padStart(3, '0')}Z INFO svc-${i % 17} pid=${1000 + (i % 5000)} - `;
    const line = `${prefix}${text}`;
    lines.push(line.length > 200 ? line.slice(0, 200) : line.padEnd(200, ' .'));
  }
  return lines;
}

/** Long lines: example lines joined with spaces into one line of `length` characters. */
function longLines(length: number, count: number): string[] {
  const pool = exampleLines(Math.ceil(length / 200) + 50);
  const lines: string[] = [];
  for (let n = 0; n < count; n++) {
    let line = '';
    for (let i = n; line.length < length; i++) line += `${pool[i % pool.length]} `;
    lines.push(line.slice(0, length));
  }
  return lines;
}

function logFolderLines(dir: string): string[] {
  const lines: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.log')) lines.push(...readFileSync(path, 'utf8').split('\n').filter((l) => l.length > 0));
    }
  };
  walk(dir);
  return lines;
}

/** One case for the logs under `dir`, or one for each folder in it (Loghub's systems). */
function logCases(dir: string): [string, string[]][] {
  const folders = readdirSync(dir)
    .sort()
    .filter((name) => statSync(join(dir, name)).isDirectory());
  if (folders.length === 0) return [[`log lines under ${dir}`, logFolderLines(dir)]];
  return folders.map((name) => [`log lines under ${join(dir, name)}`, logFolderLines(join(dir, name))]);
}

const trivialBaseline = (line: string): string => line.replace(/\d{4}/g, 'NNNN');
/** What any byte screen costs at least: one table read per byte. */
const BYTE_TABLE = Uint8Array.from({ length: 256 }, (_, c) => (c * 7) & 0xff);
const byteLoop = (bytes: Uint8Array): number => {
  let sum = 0;
  for (let i = 0; i < bytes.length; i++) sum += BYTE_TABLE[bytes[i]!]!;
  return sum;
};

type Measured = (line: string, bytes: Uint8Array) => unknown;

/** This process's CPU time in ms: on a machine others share, wall time measures them too. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function measure(lines: readonly string[], fn: Measured, forSeconds = seconds): number {
  const encoded = lines.map((l) => Buffer.from(l));
  const bytes = encoded.reduce((sum, b) => sum + b.length, 0);
  for (let i = 0; i < Math.min(200, lines.length); i++) fn(lines[i]!, encoded[i]!); // warm up
  let runs = 0;
  let sink = 0;
  const started = cpuMs();
  let elapsed = 0;
  do {
    for (let i = 0; i < lines.length; i++) sink += fn(lines[i]!, encoded[i]!) ? 1 : 0;
    runs++;
    elapsed = cpuMs() - started;
  } while (elapsed < forSeconds * 1000);
  if (sink < 0) throw new Error('unreachable');
  return (bytes * runs) / 1e6 / (elapsed / 1000);
}

/** The best of three alternating rounds of each function: a busy machine slows a round, not one of them. */
function measureAlternating(lines: readonly string[], fns: readonly Measured[]): number[] {
  const best = fns.map(() => 0);
  for (let round = 0; round < 3; round++) {
    fns.forEach((fn, k) => {
      best[k] = Math.max(best[k]!, measure(lines, fn, seconds / 3));
    });
  }
  return best;
}

const throughputCases: [string, string[]][] = [
  ['example lines (~200 chars)', exampleLines(5000)],
  ['mixed service log', mixedLog(20_000).split('\n').filter((l) => l.length > 0)],
  ...(existsSync('fixtures/real/out') ? ([['real tool outputs (fixtures/real/out)', logFolderLines('fixtures/real/out')]] as [string, string[]][]) : []),
  ...(logsDir !== undefined ? logCases(logsDir) : []),
  ['long lines (64 KB)', longLines(64 * 1024, 8)],
  ['long lines (1 MB)', longLines(1 << 20, 2)],
];

const throughput = throughputCases.map(([name, lines]) => {
  const redactMBps = measure(lines, (line) => redact(line));
  const screens: Measured[] = [(_line, bytes) => mayNeedRedaction(bytes, 0, bytes.length)];
  if (against !== undefined) screens.push((_line, bytes) => against(bytes, 0, bytes.length));
  const [screenMBps = 0, againstMBps] = measureAlternating(lines, screens);
  const baselineMBps = measure(lines, (line) => trivialBaseline(line));
  const byteLoopMBps = measure(lines, (_line, bytes) => byteLoop(bytes) < 0);
  const screened = lines.filter((l) => {
    const b = Buffer.from(l);
    return mayNeedRedaction(b, 0, b.length);
  }).length;
  return {
    case: name,
    lines: lines.length,
    redactMBps: Number(redactMBps.toFixed(2)),
    screenMBps: Number(screenMBps.toFixed(1)),
    baselineMBps: Number(baselineMBps.toFixed(1)),
    byteLoopMBps: Number(byteLoopMBps.toFixed(1)),
    ...(againstMBps === undefined ? {} : { againstMBps: Number(againstMBps.toFixed(1)), screenOverAgainst: Number((screenMBps / againstMBps).toFixed(2)) }),
    screenOverRedact: Number((screenMBps / redactMBps).toFixed(1)),
    baselineOverRedact: Number((baselineMBps / redactMBps).toFixed(1)),
    screenTrue: Number(((100 * screened) / lines.length).toFixed(1)),
  };
});

// ---------- precision on ordinary text ----------

/** Files under `dir` whose name passes `accept`, sorted, until `maxBytes` are taken. */
function collect(dir: string, accept: (name: string) => boolean, maxBytes: number): string[] {
  const out: string[] = [];
  let taken = 0;
  const walk = (d: string): void => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (taken >= maxBytes) return;
      const path = join(d, name);
      let isDir = false;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        continue;
      }
      if (isDir) walk(path);
      else if (accept(name)) {
        const text = readFileSync(path, 'utf8');
        out.push(text);
        taken += text.length;
      }
    }
  };
  walk(dir);
  return out;
}

function gitLog(): string | undefined {
  try {
    return execFileSync('git', ['log', '--stat', '-n', '2000'], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

const MB = 1 << 20;
const materials: [string, () => string[]][] = [
  ['TypeScript declarations (node_modules/**/*.d.ts)', () => collect('node_modules', (n) => n.endsWith('.d.ts'), 8 * MB)],
  ['minified JS (node_modules/**/*.min.js, *.bundle.js)', () => collect('node_modules', (n) => /\.(?:min|bundle)\.js$/.test(n), 8 * MB)],
  ['lock files (package-lock.json)', () => [...(existsSync('package-lock.json') ? [readFileSync('package-lock.json', 'utf8')] : []), ...collect('node_modules', (n) => n === 'package-lock.json' || n === 'yarn.lock', 4 * MB)]],
  ['git log --stat', () => {
    const log = gitLog();
    return log === undefined ? [] : [log];
  }],
];

const precision = materials.map(([name, load]) => {
  const lines = load()
    .flatMap((text) => text.split('\n'))
    .filter((l) => l.trim().length > 0);
  let changed = 0;
  let unsound = 0;
  const examples: string[] = [];
  for (const line of lines) {
    const out = redact(line);
    const b = Buffer.from(line);
    if (out !== line) {
      changed++;
      if (!mayNeedRedaction(b, 0, b.length)) unsound++;
      if (examples.length < show) examples.push(`${line.slice(0, 160)}\n      -> ${out.slice(0, 160)}`);
    }
  }
  return { material: name, lines: lines.length, changed, changedPercent: lines.length === 0 ? null : Number(((100 * changed) / lines.length).toFixed(3)), unsound, examples };
});

if (asJson) {
  process.stdout.write(`${JSON.stringify({ throughput, precision }, null, 2)}\n`);
} else {
  const table = (header: string[], body: string[][]): string => {
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
    const format = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    return `${format(header)}\n${body.map(format).join('\n')}\n`;
  };
  process.stdout.write(
    table(
      [
        'case',
        'lines',
        'redact MB/s',
        'screen MB/s',
        'baseline MB/s',
        'byte loop MB/s',
        ...(against === undefined ? [] : ['against MB/s', 'screen/against']),
        'screen/redact',
        'baseline/redact',
        'screen true',
      ],
      throughput.map((r) => [
        r.case,
        String(r.lines),
        r.redactMBps.toFixed(2),
        r.screenMBps.toFixed(1),
        r.baselineMBps.toFixed(1),
        r.byteLoopMBps.toFixed(1),
        ...(r.againstMBps === undefined ? [] : [r.againstMBps.toFixed(1), `${r.screenOverAgainst}x`]),
        `${r.screenOverRedact}x`,
        `${r.baselineOverRedact}x`,
        `${r.screenTrue}%`,
      ]),
    ),
  );
  process.stdout.write('baseline: String.prototype.replace(/\\d{4}/g); byte loop: one table read per byte; both over the same lines, same run\n');
  if (againstDir !== undefined) process.stdout.write(`against: the screen of ${againstDir}, same lines, same run\n`);
  process.stdout.write('\n');
  process.stdout.write(
    table(
      ['material', 'lines', 'changed', 'changed %', 'screen said no'],
      precision.map((p) => [p.material, String(p.lines), String(p.changed), p.changedPercent === null ? 'not there' : `${p.changedPercent}%`, String(p.unsound)]),
    ),
  );
  for (const p of precision) for (const e of p.examples) process.stdout.write(`  [${p.material.split(' ')[0]}] ${e}\n`);
}
