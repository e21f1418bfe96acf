/**
 * Loads the CLI's bundle (dist/src/wisp-cli.cjs, made by scripts/bundle-cli.mjs) with the
 * code V8 compiled for it when it was built (dist/src/wisp-cli.cache). Node 20 keeps no
 * compiled code for modules between runs: compiling the bundle's functions again cost each
 * CLI run about 30-45 ms of the 110-125 ms wisp's own start took beyond node's.
 *
 * The cache file is the SHA-256 of the bundle's bytes, then V8's data. V8 checks that its
 * data is its own (its version and flags) but knows the source only by its length, so the
 * hash is what ties the data to this bundle: a bundle rebuilt without its cache is compiled
 * as it loads, never run with another bundle's code.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import type { main } from './main.js';

/** The bundle that bin/wisp.js runs, beside this module's folder once built. */
export const CLI_BUNDLE = fileURLToPath(new URL('../wisp-cli.cjs', import.meta.url));

/** What became of the cache: run with it, refused by V8 (another node or other flags), made for another bundle, or not there (or not readable). */
export type CacheUse = 'used' | 'rejected' | 'stale' | 'absent';

export interface LoadedCli {
  main: typeof main;
  cache: CacheUse;
  /** The cache file's bytes for this bundle, with what V8 has compiled of it so far: what the build writes after running it. */
  codeCache(): Buffer;
}

const KEY_BYTES = 32;

/** The cache file beside a bundle. */
export const cacheFileOf = (bundle: string): string => bundle.replace(/\.cjs$/, '.cache');

export function loadCli(bundle = CLI_BUNDLE, cacheFile = cacheFileOf(bundle)): LoadedCli {
  // Hashed as read, before it is text: the bytes need no encoding again.
  const bytes = readFileSync(bundle);
  const key = createHash('sha256').update(bytes).digest();
  const source = bytes.toString('utf8');
  let cache: CacheUse = 'absent';
  let cachedData: Buffer | undefined;
  try {
    const file = readFileSync(cacheFile);
    if (file.length > KEY_BYTES && key.equals(file.subarray(0, KEY_BYTES))) cachedData = file.subarray(KEY_BYTES);
    else cache = 'stale';
  } catch {
    // No cache (or none readable) costs a run its compiling, nothing more.
  }
  // The bundle is CommonJS, wrapped as node wraps a module. It holds no dynamic import():
  // node 20 runs none in a script without --experimental-vm-modules (core/optional.ts).
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    cachedData,
  });
  if (cachedData !== undefined) cache = script.cachedDataRejected === true ? 'rejected' : 'used';
  const module = { exports: {} as { main: typeof main } };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return {
    main: module.exports.main,
    cache,
    codeCache: () => Buffer.concat([key, script.createCachedData()]),
  };
}
