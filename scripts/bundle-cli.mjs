#!/usr/bin/env node
/**
 * Bundles the CLI (dist/src/cli/main.js and what it imports, static and dynamic) into one
 * CommonJS file, dist/src/wisp-cli.cjs, and writes the code V8 compiles for it beside it
 * (dist/src/wisp-cli.cache), which bin/wisp.js loads it with (src/cli/load-bundle.ts).
 * - One file to load where node would resolve, read and link about a hundred modules, which
 *   cost a CLI run about 90 ms before its first byte was read.
 * - CommonJS because node 20 keeps compiled code only for a script it is handed (vm.Script's
 *   cached data), not for modules: compiling the bundle's functions cost a run 30-45 ms more.
 *   The cache holds what a few runs on the repository's samples compiled; a function they
 *   did not run is compiled when it first runs, as before.
 * - ASCII: V8 then holds its text one byte a character, half the memory to fault in. esbuild
 *   escapes other characters except in regular expressions, which escape theirs in src/
 *   (test/cli-bundle.test.ts checks).
 * Packages stay outside (node_modules); the library (dist/src/index.js) and the worker files
 * load the modules as they are. The bundle sits in dist/src/, where src/paths.ts finds the
 * package's root as it does built.
 *
 *   node scripts/bundle-cli.mjs   # after tsc (npm run build runs both)
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const out = join(ROOT, 'dist', 'src');
const bundle = join(out, 'wisp-cli.cjs');
for (const f of readdirSync(out)) if (/^wisp-cli/.test(f)) rmSync(join(out, f));
await build({
  entryPoints: [join(out, 'cli', 'main.js')],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: bundle,
  packages: 'external',
  // The modules' URL is the bundle's: it sits in dist/src/, as each module's own folder does
  // not, and no module resolves anything of wisp's by its own folder (src/paths.ts goes up
  // to the package's root, two levels, from dist/src/ as from dist/src/paths.js).
  define: { 'import.meta.url': '__wispBundleUrl' },
  // Strict, as the modules were.
  banner: { js: '"use strict";\nconst __wispBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});

// node 20 runs no dynamic import() in a script without a flag (src/cli/load-bundle.ts): one
// left in the bundle would fail only when its command ran.
const dynamic = readFileSync(bundle, 'utf8').match(/.*\bimport\(.*/);
if (dynamic !== null) throw new Error(`the CLI bundle holds a dynamic import(), which node 20 cannot run in it: ${dynamic[0].trim()}`);

// What V8 compiled while the CLI condensed the samples, outputs dropped.
const { loadCli, cacheFileOf } = await import('../dist/src/cli/load-bundle.js');
const cli = loadCli(bundle);
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
const io = { stdout: sink, stderr: sink, stdin: process.stdin };
const TRAINING = [
  ['log', 'fixtures/samples/service-sample.log'],
  ['log', '--json', 'fixtures/samples/service-sample.log'],
  ['log', 'fixtures/samples/logshow-sample.log'],
  ['log', 'fixtures/real/out/python-threads.log'],
  ['log', 'fixtures/real/out/java-threads.log'],
];
let runs = 0;
for (const [command, ...args] of TRAINING) {
  const file = args.at(-1);
  if (!existsSync(join(ROOT, file))) continue;
  await cli.main([command, ...args.slice(0, -1), join(ROOT, file)], io);
  runs++;
}
writeFileSync(cacheFileOf(bundle), cli.codeCache());
process.stderr.write(`bundled the CLI into ${bundle}, with the code compiled in ${runs} runs on samples\n`);
// The runs' threads would keep the build waiting.
process.exit(0);
