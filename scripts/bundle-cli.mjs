#!/usr/bin/env node
/**
 * Bundles the CLI (dist/src/cli/main.js and what it imports, static and dynamic) into
 * dist/src/wisp-cli.js and its chunks (dist/src/wisp-cli-*.js), which bin/wisp.js runs:
 * one module to load where node would resolve, read and link about a hundred, which cost
 * a CLI run about 90 ms before its first byte was read. Packages stay outside (node_modules);
 * the library (dist/src/index.js) and the worker files load the modules as they are. The
 * chunks sit in dist/src/, where src/paths.ts finds the package's root as it does built.
 *
 *   node scripts/bundle-cli.mjs   # after tsc (npm run build runs both)
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const out = join(ROOT, 'dist', 'src');
for (const f of readdirSync(out)) if (/^wisp-cli.*\.js$/.test(f)) rmSync(join(out, f));
await build({
  entryPoints: { 'wisp-cli': join(out, 'cli', 'main.js') },
  bundle: true,
  // Commands load their code when they run (cli/main.ts imports them lazily): each is a chunk.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: out,
  chunkNames: 'wisp-cli-[hash]',
  packages: 'external',
  logLevel: 'warning',
});
process.stderr.write(`bundled the CLI into ${join(out, 'wisp-cli.js')}\n`);
