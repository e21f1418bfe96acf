/**
 * Two builds' CLI on one file, run by run in turn (so that load from other processes hits
 * both alike), as whole processes: the median wall time of each.
 *
 *   node dist/perf/cli-pair.js --before OTHER_ROOT [--runs 31] FILE [-- wisp log arguments]
 *
 * OTHER_ROOT is a checkout with dist/ built. Start-up changes show here, where a bench's
 * larger inputs hide them in their noise.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cliRun, median, ROOT } from './cli-runs.js';

const { values, positionals } = parseArgs({ options: { before: { type: 'string' }, runs: { type: 'string', default: '31' } }, allowPositionals: true });
const runs = Number(values.runs);
const [file, ...extra] = positionals;
if (values.before === undefined || file === undefined || !(Number.isInteger(runs) && runs >= 1 && runs <= 999)) {
  console.error('usage: node dist/perf/cli-pair.js --before OTHER_ROOT [--runs 1-999] FILE [wisp log arguments]');
  process.exit(2);
}
const builds = [resolve(values.before), resolve(ROOT)];
const times: number[][] = builds.map(() => []);
for (let r = 0; r < runs; r++) for (const [k, root] of builds.entries()) times[k]!.push(cliRun(file, extra, root).ms);
for (const [k, root] of builds.entries()) console.log(`${Math.round(median(times[k]!))} ms  ${k === 0 ? 'before' : 'this build'}  ${root}`);
