import { createRequire } from 'node:module';
import { WispError } from './errors.js';

/**
 * Loaded with require, not import(): the CLI runs as a script handed to V8 with its
 * compiled code (src/cli/load-bundle.ts), where node 20 runs no dynamic import() without a
 * flag. The optional packages ship CommonJS.
 */
const requireHere = createRequire(import.meta.url);

/**
 * Loads a package that only one feature needs (bullmq for `wisp cluster`), when that
 * feature runs: a wisp installed without it works, and the feature says what is missing.
 */
export async function importOptional<T>(name: string, feature: string): Promise<T> {
  try {
    return requireHere(name) as T;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw err;
    throw new WispError('WISP_UNAVAILABLE', `${feature} needs the package ${name}, which is not installed`, { hint: `install it beside wisp: npm install ${name}`, cause: err });
  }
}
