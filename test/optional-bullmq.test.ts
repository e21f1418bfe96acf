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
  // A resolver hook that finds no bullmq: as if it had been left out (npm install --omit=optional).
  const dir = tempDir('no-bullmq');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    "export async function resolve(s, c, next) { if (s === 'bullmq') { const e = new Error(\"Cannot find package 'bullmq'\"); e.code = 'ERR_MODULE_NOT_FOUND'; throw e; } return next(s, c); }\n",
  );
  writeFileSync(join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
  const run = (args: string[], input = '') => spawnSync(process.execPath, ['--import', join(dir, 'register.mjs'), WISP_BIN, ...args], { input, encoding: 'utf8' });
  const cluster = run(['cluster', 'collect', '--redis', 'redis://127.0.0.1:1', '--wait', '0']);
  t.is(cluster.status, 2, cluster.stderr);
  t.regex(cluster.stderr, /wisp cluster needs the package bullmq, which is not installed \(install it beside wisp: npm install bullmq\) \[WISP_UNAVAILABLE\]/);
  const log = run(['log', '-'], '2026-01-01 00:00:00 ERROR something failed\n');
  t.is(log.status, 0, log.stderr);
});
