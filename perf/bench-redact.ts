/**
 * Redaction throughput: MB/s of `redact()` on example-sized lines (~200 characters, what
 * log examples, json_shape strings and command lines are) and on long lines, next to a
 * baseline measured in the same run over the same lines: one `String.prototype.replace`
 * with one trivial regex. The ratio says what the rule set costs over touching every line
 * once, independently of the machine.
 *
 *   node dist/perf/bench-redact.js [--json] [--seconds S]
 */
import { redact } from '../src/redact/index.js';
import { negatives, positives } from '../fixtures/redaction-corpus.js';

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const secondsArg = args.indexOf('--seconds');
const seconds = secondsArg >= 0 ? Number(args[secondsArg + 1]) : 1;

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

const trivialBaseline = (line: string): string => line.replace(/\d{4}/g, 'NNNN');

interface Measurement {
  mbPerSecond: number;
  runs: number;
}

function measure(lines: readonly string[], fn: (line: string) => string): Measurement {
  const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0);
  for (const line of lines.slice(0, 200)) fn(line); // warm up
  let runs = 0;
  let sink = 0;
  const started = performance.now();
  let elapsed = 0;
  do {
    for (const line of lines) sink += fn(line).length;
    runs++;
    elapsed = performance.now() - started;
  } while (elapsed < seconds * 1000);
  if (sink === 0) throw new Error('nothing measured');
  return { mbPerSecond: (bytes * runs) / 1e6 / (elapsed / 1000), runs };
}

const cases: [string, string[]][] = [
  ['example lines (~200 chars)', exampleLines(5000)],
  ['long lines (64 KB)', longLines(64 * 1024, 8)],
  ['long lines (1 MB)', longLines(1 << 20, 2)],
];

const rows = cases.map(([name, lines]) => {
  const redaction = measure(lines, redact);
  const baseline = measure(lines, trivialBaseline);
  return {
    case: name,
    lines: lines.length,
    redactMBps: Number(redaction.mbPerSecond.toFixed(2)),
    baselineMBps: Number(baseline.mbPerSecond.toFixed(1)),
    baselineOverRedact: Number((baseline.mbPerSecond / redaction.mbPerSecond).toFixed(1)),
  };
});

if (asJson) {
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
} else {
  const header = ['case', 'lines', 'redact MB/s', 'baseline MB/s', 'baseline/redact'];
  const body = rows.map((r) => [r.case, String(r.lines), r.redactMBps.toFixed(2), r.baselineMBps.toFixed(1), `${r.baselineOverRedact.toFixed(1)}x`]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const format = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  process.stdout.write(`${format(header)}\n${body.map(format).join('\n')}\n`);
  process.stdout.write(`baseline: String.prototype.replace(/\\d{4}/g) over the same lines, same run\n`);
}
