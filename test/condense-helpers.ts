import { condenseLog } from '../src/log/index.js';
import type { CondenseLogOptions } from '../src/log/options.js';
import type { CondenseResult, LogResult, ShownGroup } from '../src/log/model/result.js';
import { textSource } from '../src/input/sources.js';

export function asLog(r: CondenseResult): LogResult {
  if (r.kind !== 'log') throw new Error(`expected a log result, got ${r.kind}`);
  return r;
}

/** condense_log on text, in process, every group shown unless the options say otherwise. */
export const condense = async (text: string, options: CondenseLogOptions = {}): Promise<LogResult> =>
  asLog(await condenseLog([textSource('input', text)], { workers: 0, top: 1000, ...options }));

/** The first group shown whose template holds `needle`. */
export const find = (r: LogResult, needle: string): ShownGroup | undefined => r.groups.find((g) => g.template.includes(needle));
