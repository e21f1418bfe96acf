/**
 * Grouping accuracy (GA) of condense_log's templates on Loghub-2k style data: for each
 * system, `<S>/<S>_2k.log` (raw lines) and `<S>/<S>_2k.log_structured.csv` (the true
 * EventId per line). A line counts as right when the group wisp puts it in holds exactly
 * the lines of its true group. Raw lines, headers and all, with no per-system settings.
 *
 *   node dist/perf/grouping-accuracy.js DIR [--dev A,B,C] [--json]
 *
 * With --dev, the systems named are the development split and the rest are held out:
 * both averages are printed, so a rule that helps only where it was written shows.
 */
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileSource } from '../src/input/sources.js';
import { assignLines } from '../src/log/group/assignments.js';
import { condenseLogState, groupLog } from '../src/log/index.js';
import { truth } from './loghub-truth.js';

/** wisp's group of each line, as `wisp log --assignments` writes it (lines in no record left out). */
async function predicted(logPath: string): Promise<Map<number, string>> {
  const sources = [fileSource(logPath)];
  const state = await condenseLogState(sources, { workers: 0, crashReports: false });
  if (state.kind !== 'merged') throw new Error(`${logPath} reads as a crash report`);
  const words = groupLog(state);
  const out = new Map<number, string>();
  for await (const batch of assignLines(sources, state, (key) => words.representative.get(key) ?? key)) {
    for (const row of batch.split('\n')) {
      const comma = row.indexOf(',');
      if (comma < 0 || row.endsWith(',frame')) continue;
      out.set(Number(row.slice(0, comma)), row.slice(comma + 1));
    }
  }
  return out;
}

/** GA: the share of lines whose predicted group is exactly their true group. */
function groupingAccuracy(pred: Map<number, string>, real: Map<number, string>): number {
  const members = (m: Map<number, string>): Map<string, number[]> => {
    const g = new Map<string, number[]>();
    for (const [line, id] of m) {
      let list = g.get(id);
      if (list === undefined) g.set(id, (list = []));
      list.push(line);
    }
    return g;
  };
  const truthGroups = members(real);
  const predGroups = members(pred);
  let right = 0;
  for (const lines of predGroups.values()) {
    const ids = new Set(lines.map((l) => real.get(l)));
    if (ids.size !== 1) continue;
    const trueLines = truthGroups.get([...ids][0]!);
    if (trueLines !== undefined && trueLines.length === lines.length) right += lines.length;
  }
  return right / real.size;
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { dev: { type: 'string' }, json: { type: 'boolean', default: false } } });
const dir = positionals[0];
if (dir === undefined) {
  process.stderr.write('usage: grouping-accuracy DIR [--dev A,B,C] [--json]\n');
  process.exit(2);
}
const systems = readdirSync(dir).filter((s) => existsSync(join(dir, s, `${s}_2k.log`)) && existsSync(join(dir, s, `${s}_2k.log_structured.csv`))).sort();
const dev = new Set((values.dev ?? '').split(',').filter((s) => s !== ''));
const rows: { system: string; ga: number; split: string }[] = [];
for (const s of systems) {
  const ga = groupingAccuracy(await predicted(join(dir, s, `${s}_2k.log`)), truth(join(dir, s, `${s}_2k.log_structured.csv`)));
  rows.push({ system: s, ga, split: dev.size === 0 ? 'all' : dev.has(s) ? 'dev' : 'held out' });
}
const avg = (xs: number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const summary = {
  systems: rows,
  average: avg(rows.map((r) => r.ga)),
  ...(dev.size > 0 ? { dev: avg(rows.filter((r) => r.split === 'dev').map((r) => r.ga)), heldOut: avg(rows.filter((r) => r.split === 'held out').map((r) => r.ga)) } : {}),
};
if (values.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
else {
  for (const r of rows) process.stdout.write(`${r.system.padEnd(14)} ${r.ga.toFixed(3)}  ${r.split}\n`);
  process.stdout.write(`average        ${summary.average.toFixed(3)}  (${rows.length} systems)\n`);
  if ('dev' in summary) process.stdout.write(`dev            ${summary.dev!.toFixed(3)}\nheld out       ${summary.heldOut!.toFixed(3)}\n`);
}
