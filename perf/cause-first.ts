/**
 * Is the cause in the first screen? For every real-tool output in fixtures/real
 * (causes.json names the strings an agent must see), the share of those strings within the
 * first 4 KB of `wisp log`'s text: alone, and printed after another program's log (the
 * noise). The noise is the committed noisy-service and python-logging runs, each repeated
 * to 2,000 lines, and any log files named with --noise (Loghub's raw logs, say: they are
 * not in the repository).
 *
 *   node dist/perf/cause-first.js [--noise FILE]... [--against DIST] [--json] [--misses]
 *
 * --against DIST runs another build's condenser (its dist/ folder) on the same inputs in
 * the same run, so a change shows as before and after. --misses names, on stderr, each cause
 * a build left out of the first screen, with the noise and the output.
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..', '..');
const REAL = join(ROOT, 'fixtures', 'real');
const FIRST_SCREEN = 4096;
const NOISE_LINES = 2000;

const { values } = parseArgs({
  options: { noise: { type: 'string', multiple: true }, against: { type: 'string' }, json: { type: 'boolean' }, misses: { type: 'boolean' } },
});

interface Build {
  name: string;
  condense: (name: string, text: string) => Promise<string>;
}

async function load(dist: string, name: string): Promise<Build> {
  const mod = (p: string): Promise<Record<string, unknown>> => import(pathToFileURL(join(dist, p)).href);
  // Older builds kept these modules elsewhere: the first path that loads is the one.
  const first = async (paths: string[]): Promise<Record<string, unknown>> => {
    for (const p of paths) {
      try {
        return await mod(p);
      } catch {}
    }
    throw new Error(`${dist}: none of ${paths.join(', ')} loads`);
  };
  const log = await first(['src/log/index.js', 'src/log/condense-log.js']);
  const render = await first(['src/log/render/log-text.js', 'src/render/log-text.js']);
  const sources = await first(['src/input/sources.js', 'src/source/log-source.js']);
  const condenseLog = log.condenseLog as (s: unknown[], o: object) => Promise<{ kind: string }>;
  const renderLogText = render.renderLogText as (r: unknown, budget: number) => string;
  const textSource = sources.textSource as (name: string, text: string) => unknown;
  return {
    name,
    condense: async (n, text) => {
      const r = await condenseLog([textSource(n, text)], { workers: 0 });
      return r.kind === 'log' ? renderLogText(r, 10_000) : JSON.stringify(r);
    },
  };
}

const causes = JSON.parse(readFileSync(join(REAL, 'causes.json'), 'utf8')) as { outputs: Record<string, { causes: string[] }> };
const outputs = Object.entries(causes.outputs).map(([file, e]) => ({ file, text: readFileSync(join(REAL, file), 'utf8'), causes: e.causes }));

function repeated(text: string): string {
  const run = text.endsWith('\n') ? text : `${text}\n`;
  let out = '';
  while (out.split('\n').length < NOISE_LINES) out += run;
  return out;
}

const noises: { name: string; text: string }[] = [
  { name: '(alone)', text: '' },
  { name: 'noisy-service', text: repeated(readFileSync(join(REAL, 'out', 'noisy-service.log'), 'utf8')) },
  { name: 'python-logging', text: repeated(readFileSync(join(REAL, 'pairs', 'out', 'python-logging.pass.log'), 'utf8')) },
  ...(values.noise ?? []).map((f) => {
    const text = readFileSync(f, 'utf8');
    return { name: basename(f), text: text.endsWith('\n') ? text : `${text}\n` };
  }),
];

const builds = [await load(join(ROOT, 'dist'), 'this build')];
if (values.against !== undefined) builds.push(await load(resolve(values.against), values.against));

const rows: { noise: string; build: string; found: number; of: number }[] = [];
for (const noise of noises) {
  for (const build of builds) {
    let found = 0;
    let of = 0;
    for (const o of outputs) {
      const text = await build.condense('run.log', noise.text + o.text);
      const screen = Buffer.from(text).subarray(0, FIRST_SCREEN).toString('utf8');
      for (const c of o.causes) {
        of++;
        if (screen.includes(c)) found++;
        else if (values.misses) process.stderr.write(`missed by ${build.name}, after ${noise.name}: ${o.file}: ${c}\n`);
      }
    }
    rows.push({ noise: noise.name, build: build.name, found, of });
  }
}

if (values.json) {
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
} else {
  process.stdout.write(`causes in the first ${FIRST_SCREEN} bytes of wisp log's text, over ${outputs.length} real-tool outputs\n`);
  for (const r of rows) process.stdout.write(`${r.noise.padEnd(24)} ${r.build.padEnd(28)} ${String(r.found).padStart(4)} of ${r.of}\n`);
  const total = (b: string): string => {
    const mine = rows.filter((r) => r.build === b && r.noise !== '(alone)');
    return `${mine.reduce((n, r) => n + r.found, 0)} of ${mine.reduce((n, r) => n + r.of, 0)}`;
  };
  for (const b of builds) process.stdout.write(`buried, all noises: ${b.name}: ${total(b.name)}\n`);
}
