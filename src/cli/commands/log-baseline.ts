import { isWispError, WispError } from '../../core/errors.js';
import { baselineItem, compareLog } from '../../compare/compare-log.js';
import { renderCompareText } from '../../compare/render-text.js';
import { TEXT_BYTES } from '../../log/render/log-text.js';
import type { CondenseLogOptions } from '../../log/options.js';
import { expandPaths } from '../../input/expand-paths.js';
import type { LogSource } from '../../input/sources.js';
import type { CliIo } from '../io.js';

/**
 * `wisp log NEW... --baseline BASE...`: this run compared with a baseline (files, folders,
 * globs, .gz, partials written by --emit-partial), what is new first.
 */
export async function runLogComparison(now: LogSource[], baseline: string[], options: CondenseLogOptions, json: boolean, io: CliIo): Promise<number> {
  let paths: string[];
  try {
    paths = await expandPaths(baseline);
  } catch (err) {
    if (!isWispError(err)) throw err;
    throw new WispError(err.code, `baseline: ${err.message}`, { hint: err.hint, cause: err });
  }
  if (paths.includes('-')) throw new WispError('WISP_BAD_ARGUMENT', 'the baseline cannot be stdin: name a file, a folder, a glob or a partial');
  const items = await Promise.all(paths.map((p) => baselineItem(p)));
  const result = await compareLog(now, items, options);
  io.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : renderCompareText(result, TEXT_BYTES));
  return 0;
}
