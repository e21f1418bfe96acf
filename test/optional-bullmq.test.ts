import test from 'ava';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importOptional } from '../src/core/optional.js';
import { WispError } from '../src/core/errors.js';
import { WISP_BIN, tempDir } from './helpers.js';

test('an optional package that is not installed is a WISP_UNAVAILABLE naming it and how to install it', async (t) => {
  const err = await t.throwsAsync(importOptional('wisp-no-such-package', 'wisp cluster'));
  t.true(err instanceof WispError);
  t.is((err as WispError).code, 'WISP_UNAVAILABLE');
  t.regex(err!.message, /wisp cluster needs the package wisp-no-such-package/);
  t.is((err as WispError).hint, 'install it beside wisp: npm install wisp-no-such-package');
  t.truthy(err!.cause, 'the loader error is kept as the cause');
});

test('wisp cluster without bullmq installed exits 2 saying so; wisp log does not need it', (t) => {
  // A resolver that finds no bullmq: as if it had been left out (npm install --omit=optional).
  // wisp loads it with require (core/optional.ts), so the hook is CommonJS resolution's.
  const dir = tempDir('no-bullmq');
  writeFileSync(
    join(dir, 'no-bullmq.cjs'),
    "const Module = require('node:module');\nconst resolve = Module._resolveFilename;\nModule._resolveFilename = function (request, ...rest) {\n  if (request === 'bullmq') { const e = new Error(\"Cannot find module 'bullmq'\"); e.code = 'MODULE_NOT_FOUND'; throw e; }\n  return resolve.call(this, request, ...rest);\n};\n",
  );
  const run = (args: string[], input = '') => spawnSync(process.execPath, ['--require', join(dir, 'no-bullmq.cjs'), WISP_BIN, ...args], { input, encoding: 'utf8', timeout: 60_000 });
  const cluster = run(['cluster', 'collect', '--redis', 'redis://127.0.0.1:1', '--wait', '0']);
  t.is(cluster.status, 2, cluster.stderr);
  t.regex(cluster.stderr, /wisp cluster needs the package bullmq, which is not installed \(install it beside wisp: npm install bullmq\) \[WISP_UNAVAILABLE\]/);
  const log = run(['log', '-'], '2026-01-01 00:00:00 ERROR something failed\n');
  t.is(log.status, 0, log.stderr);
});
