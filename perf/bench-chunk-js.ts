/**
 * The TypeScript side of condensing a chunk, timed alone: `condenseScreened` on chunks whose
 * screen and native pass have run already (as a lane hands them over), in microseconds a
 * line. Three inputs: the bench's mixed service log (most records read natively, the errors
 * with their frames left to TypeScript), only those errors with their frames (every line
 * read in TypeScript), and a dump of indented lines that never repeat (half the size). The
 * first round is cold, as a CLI run's code is; the median of the rounds after it is warm.
 *
 *   node dist/perf/bench-chunk-js.js [--mb 8] [--rounds 7] [--against OTHER/dist]
 *
 * --against runs another build's condenser (its dist/ folder) on the same inputs, each
 * build in a process of its own (each loads its own native library), alternately.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { mixedLogLines } from '../fixtures/logs.js';
import { median } from './cli-runs.js';

const { values } = parseArgs({
  options: { mb: { type: 'string', default: '8' }, rounds: { type: 'string', default: '7' }, against: { type: 'string' }, child: { type: 'string' }, input: { type: 'string' } },
});
const THIS_DIST = resolve(import.meta.dirname, '..');
const CHUNK = 1 << 20;

interface Timing {
  lines: number;
  cold: number;
  warm: number;
}

/** In a child: one build's condenseScreened over one input's chunks, cold and warm (ms). */
async function timeIn(dist: string, input: string, rounds: number): Promise<Timing> {
  const mod = (p: string): Promise<Record<string, (...a: unknown[]) => unknown>> => import(pathToFileURL(join(dist, p)).href);
  const { readFileSync } = await import('node:fs');
  const { detectFormat } = await mod('src/log/read/detect.js');
  const { screenLines } = await mod('src/redact/screen.js');
  const { nativePass } = await mod('src/log/chunk/native-chunk.js');
  const { condenseScreened } = await mod('src/log/chunk/condense-chunk.js');
  const { lineChunks, countLines } = await mod('src/split/line-chunks.js');
  const all = readFileSync(input);
  // Chunks as a run cuts them, each a buffer of its own.
  const chunks: Buffer[] = [];
  for await (const chunk of lineChunks!([all], { chunkBytes: CHUNK }) as AsyncIterable<Buffer>) chunks.push(chunk);
  const info = detectFormat!(all.subarray(0, 65536).toString('latin1'));
  const screens = chunks.map((c) => screenLines!(c, 0, c.length));
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let ms = 0;
    for (let i = 0; i < chunks.length; i++) {
      // The pass writes into one arena per thread: run it right before its chunk is read.
      const native = nativePass!(chunks[i], info, screens[i], 65536);
      const t0 = performance.now();
      condenseScreened!(chunks[i], info, screens[i], native);
      ms += performance.now() - t0;
    }
    times.push(ms);
  }
  return { lines: countLines!(all) as number, cold: times[0]!, warm: median(times.length > 1 ? times.slice(1) : times) };
}

if (values.child !== undefined) {
  const t = await timeIn(values.child, values.input!, Number(values.rounds));
  process.stdout.write(JSON.stringify(t));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'wisp-chunk-js-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  // The mixed log, and its errors with their frames alone (a header line and the indented lines under it).
  const bytes = Number(values.mb) * 1e6;
  const mixed: string[] = [];
  const errors: string[] = [];
  let size = 0;
  let open = false;
  let previous = '';
  for (const line of mixedLogLines(11)) {
    mixed.push(line);
    size += line.length + 1;
    if (line.startsWith(' ')) {
      if (!open) errors.push(previous);
      errors.push(line);
      open = true;
    } else open = false;
    previous = line;
    if (size >= bytes) break;
  }
  // And a dump whose indented lines never repeat, under a header line now and then: where
  // answers kept for lines seen lately (line-shape.ts) cannot help, what keeping them costs.
  const dump: string[] = [];
  for (let i = 0, n = 0; n < bytes / 2; i++) {
    const line = i % 50 === 0 ? `2025-12-11T12:00:00.000Z INFO dump ${i}` : `    field_${i}: value ${(i * 7919) % 100003} and more text ${i}`;
    dump.push(line);
    n += line.length + 1;
  }
  const inputs = { 'mixed service log': join(dir, 'mixed.log'), 'errors with frames only': join(dir, 'errors.log'), 'unique indented lines': join(dir, 'dump.log') };
  writeFileSync(inputs['mixed service log'], `${mixed.join('\n')}\n`);
  writeFileSync(inputs['errors with frames only'], `${errors.join('\n')}\n`);
  writeFileSync(inputs['unique indented lines'], `${dump.join('\n')}\n`);
  const builds: [string, string][] = [['this build', THIS_DIST], ...(values.against !== undefined ? [[values.against, resolve(values.against)] as [string, string]] : [])];
  console.log(`condenseScreened alone, us a line (cold: the first round; warm: the median of ${Number(values.rounds) - 1} after it)`);
  for (const [name, input] of Object.entries(inputs)) {
    for (const [label, dist] of builds) {
      const run = spawnSync(process.execPath, [join(THIS_DIST, 'perf', 'bench-chunk-js.js'), '--child', dist, '--input', input, '--rounds', String(values.rounds)], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(run.stderr);
      const t = JSON.parse(run.stdout) as Timing;
      console.log(`${name.padEnd(24)} ${label.padEnd(28)} ${t.lines.toLocaleString('en-US').padStart(9)} lines  cold ${((1000 * t.cold) / t.lines).toFixed(3)}  warm ${((1000 * t.warm) / t.lines).toFixed(3)}`);
    }
  }
}
