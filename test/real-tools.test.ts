/**
 * What real tools print when they fail (fixtures/real: pytest, node --test, ava, jest,
 * vitest, mocha, cargo, Go, Java, Python, npm, shells), condensed as an agent gets it:
 * every root cause fixtures/real/causes.json names must be in the first screen (4 KB) of
 * the text, alone and buried under a long run of another real program's log lines.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { condenseLog } from '../src/log/index.js';
import type { LogResult } from '../src/log/model/result.js';
import { renderLogText } from '../src/log/render/log-text.js';
import { textSource } from '../src/input/sources.js';
import { ROOT } from './helpers.js';

const REAL = join(ROOT, 'fixtures', 'real');
const FIRST_SCREEN = 4096;

interface Expected {
  tool: string;
  causes: string[];
}
const expected = JSON.parse(readFileSync(join(REAL, 'causes.json'), 'utf8')) as { outputs: Record<string, Expected> };
const outputs = Object.entries(expected.outputs);

async function firstScreen(text: string, workers = 0): Promise<{ screen: string; grouped: string; result: LogResult }> {
  const r = await condenseLog([textSource('run.log', text)], { workers, chunkBytes: workers === 0 ? undefined : 4096 });
  if (r.kind !== 'log') throw new Error(`expected a log result, got ${r.kind}`);
  const screen = (x: LogResult): string => Buffer.from(renderLogText(x, 10_000)).subarray(0, FIRST_SCREEN).toString('utf8');
  // Small inputs come back whole; their groups must lead with the cause all the same.
  const { whole: _, ...grouped } = r;
  return { screen: screen(r), grouped: screen(grouped), result: r };
}

const missing = (screen: string, causes: string[]): string[] => causes.filter((c) => !screen.includes(c));

test('the fixtures are there: every real-tool output has causes to find', (t) => {
  t.true(outputs.length >= 20);
  for (const [, e] of outputs) t.true(e.causes.length > 0);
});

for (const [file, e] of outputs) {
  test(`${e.tool}: the root cause is in the first screen (${file})`, async (t) => {
    const text = readFileSync(join(REAL, file), 'utf8');
    const { screen, grouped } = await firstScreen(text);
    t.deepEqual(missing(screen, e.causes), [], screen);
    t.deepEqual(missing(grouped, e.causes), [], grouped);
  });
}

test('buried under 3,000 lines of another program\'s log, every cause still leads (text and records as a whole)', async (t) => {
  // A real program's passing run, its noise included (a cache-miss warning in every run).
  const noiseRun = readFileSync(join(REAL, 'pairs', 'out', 'python-logging.pass.log'), 'utf8');
  let noise = '';
  while (noise.split('\n').length < 3000) noise += noiseRun;
  const misses: Record<string, string[]> = {};
  for (const [file, e] of outputs) {
    const text = readFileSync(join(REAL, file), 'utf8');
    const { screen } = await firstScreen(noise + text, 2);
    const m = missing(screen, e.causes);
    if (m.length > 0) misses[file] = m;
  }
  t.deepEqual(misses, {});
});

test('printed after a service\'s own recurring errors (a dozen kinds, 2,000 lines), every cause still leads', async (t) => {
  // A real program that logs the same real failures every round and exits 0: its errors
  // outnumber any failure printed after it, and rank first.
  const noiseRun = readFileSync(join(REAL, 'out', 'noisy-service.log'), 'utf8');
  let noise = '';
  while (noise.split('\n').length < 2000) noise += noiseRun;
  const misses: Record<string, string[]> = {};
  for (const [file, e] of outputs) {
    const { screen, result } = await firstScreen(noise + readFileSync(join(REAL, file), 'utf8'), 2);
    t.true(result.groups.slice(0, 5).every((g) => g.late !== undefined || g.severity !== 'info'), file);
    const m = missing(screen, e.causes);
    if (m.length > 0) misses[file] = m;
  }
  t.deepEqual(misses, {});
});

test('followed by the service\'s routine run (its INFO lines go on after the failure), every cause still leads', async (t) => {
  // As a failing job's output lands in a service's log that goes on: tail shows only the routine.
  const noiseRun = readFileSync(join(REAL, 'pairs', 'out', 'python-logging.pass.log'), 'utf8');
  let noise = '';
  while (noise.split('\n').length < 3000) noise += noiseRun;
  const routine = `${noiseRun.split('\n').filter((l) => / INFO /.test(l)).slice(0, 20).join('\n')}\n`;
  const misses: Record<string, string[]> = {};
  for (const [file, e] of outputs) {
    const { screen } = await firstScreen(noise + readFileSync(join(REAL, file), 'utf8') + routine, 2);
    const m = missing(screen, e.causes);
    if (m.length > 0) misses[file] = m;
  }
  t.deepEqual(misses, {});
});
