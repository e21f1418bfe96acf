/** What the benches share: a median, and `wisp log` run as a user runs it, as a process of its own. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This build's root, from dist/perf/. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `wisp log path` as a user runs it, from the build at `root` (this one by default): its wall time. */
export function cliRun(path: string, args: string[] = [], root = ROOT): { ms: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(root, 'bin/wisp.js'), 'log', ...args, path], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  // 0: condensed; anything else is an error (2) or a crash, which times nothing.
  if (r.status !== 0) throw new Error(r.stderr);
  return { ms };
}
