/**
 * How well `wisp log --baseline` tells what is new, on Loghub-2k style data: each
 * system's first 1,000 lines are the baseline, the next 1,000 the run. A line of the run
 * is truly new when its true event (EventId) is on no line of the baseline; it is marked
 * new when wisp lists its group under "new in this run" (a group whose words or values
 * changed counts as marked, though its event is not new: such lines lower the precision).
 *
 *   node dist/perf/compare-accuracy.js DIR [--dev A,B,C]
 *
 * Prints precision and recall over lines per system and pooled, and with --dev, pooled
 * for the development systems and for the rest, held out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compareStates } from '../src/compare/compare-states.js';
import { matchGroups, type MatchedGroup } from '../src/compare/match-groups.js';
import { condenseChunk } from '../src/log/chunk/condense-chunk.js';
import { condenseLogState } from '../src/log/index.js';
import type { LogState } from '../src/log/model/state.js';
import { detectFormat, withFormat } from '../src/log/read/detect.js';
import { recordChunks } from '../src/log/read/record-chunks.js';
import { textSource } from '../src/input/sources.js';
import { lineChunks } from '../src/split/line-chunks.js';
import { truth } from './loghub-truth.js';

const HALF = 1000;

async function stateOf(text: string): Promise<LogState> {
  const state = await condenseLogState([textSource('half', text)], { workers: 0, crashReports: false });
  if (state.kind !== 'merged') throw new Error('a half reads as a crash report');
  return state;
}

/** The group key of each line of `text` (1-based), through the same chunking as the condenser. */
async function keysOf(text: string): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const opened = await textSource('half', text).open();
  let base = 0;
  const decide = (head: Buffer) => detectFormat(new TextDecoder().decode(head));
  for await (const { info, chunk } of recordChunks(withFormat(lineChunks(opened.chunks), decide), { cutRecords: 0 })) {
    const onRecord = (first: number, lines: number, key: string): void => {
      for (let k = 0; k < lines; k++) out.set(base + first + k, key);
    };
    const p = condenseChunk(chunk, info, { onRecord });
    base += p.lines;
  }
  return out;
}

interface Score {
  marked: number;
  truth: number;
  both: number;
}

async function score(logPath: string, csvPath: string): Promise<Score> {
  const lines = readFileSync(logPath, 'utf8').split('\n');
  const events = truth(csvPath);
  const wasText = `${lines.slice(0, HALF).join('\n')}\n`;
  const nowText = `${lines.slice(HALF, 2 * HALF).join('\n')}\n`;
  const [was, now] = [await stateOf(wasText), await stateOf(nowText)];
  const result = compareStates(now, was, Number.MAX_SAFE_INTEGER);
  const marked = new Set(result.new.shown.map((e) => `${e.template}\u0001${e.firstLine}`));
  const groupOfKey = new Map<string, MatchedGroup>();
  for (const m of matchGroups(now.merged, was.merged)) for (const g of m.now?.members ?? []) groupOfKey.set(g.key, m);
  const wasEvents = new Set<string>();
  for (let i = 1; i <= HALF; i++) wasEvents.add(events.get(i) ?? '');
  const keys = await keysOf(nowText);
  const s: Score = { marked: 0, truth: 0, both: 0 };
  for (let i = 1; i <= HALF; i++) {
    const m = groupOfKey.get(keys.get(i) ?? '');
    const isMarked = m !== undefined && marked.has(`${m.template}\u0001${m.now!.firstLine}`);
    const isNew = !wasEvents.has(events.get(HALF + i) ?? '');
    if (isMarked) s.marked++;
    if (isNew) s.truth++;
    if (isMarked && isNew) s.both++;
  }
  return s;
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { dev: { type: 'string' } } });
const dir = positionals[0];
if (dir === undefined) {
  process.stderr.write('usage: compare-accuracy DIR [--dev A,B,C]\n');
  process.exit(2);
}
const systems = readdirSync(dir).filter((s) => existsSync(join(dir, s, `${s}_2k.log`)) && existsSync(join(dir, s, `${s}_2k.log_structured.csv`))).sort();
const dev = new Set((values.dev ?? '').split(',').filter((s) => s !== ''));
const pooled = new Map<string, Score>();
const add = (split: string, s: Score): void => {
  const p = pooled.get(split) ?? { marked: 0, truth: 0, both: 0 };
  pooled.set(split, { marked: p.marked + s.marked, truth: p.truth + s.truth, both: p.both + s.both });
};
const line = (name: string, s: Score): string =>
  `${name.padEnd(14)} marked ${String(s.marked).padStart(4)}  truly new ${String(s.truth).padStart(4)}  both ${String(s.both).padStart(4)}  precision ${ratio(s.both, s.marked)}  recall ${ratio(s.both, s.truth)}`;
const ratio = (a: number, b: number): string => (b === 0 ? '  n/a' : (a / b).toFixed(3));
for (const system of systems) {
  const s = await score(join(dir, system, `${system}_2k.log`), join(dir, system, `${system}_2k.log_structured.csv`));
  process.stdout.write(`${line(system, s)}${dev.size > 0 ? (dev.has(system) ? '  dev' : '  held out') : ''}\n`);
  add('all', s);
  if (dev.size > 0) add(dev.has(system) ? 'dev' : 'held out', s);
}
for (const [split, s] of pooled) process.stdout.write(`${line(`pooled ${split}`, s)}\n`);
