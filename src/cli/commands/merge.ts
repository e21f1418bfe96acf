import { WispError } from '../../core/errors.js';
import { mergeLogPartials } from '../../log/index.js';
import { readPartial } from '../../log/merge/partial-io.js';
import { renderLogText, TEXT_BYTES } from '../../log/render/log-text.js';
import { parseInteger, parseCommandLine } from '../args.js';
import type { CommandRunner } from '../io.js';

export const MERGE_USAGE = 'wisp merge PARTIAL... [--json] [--top N]';

/** Merges partials (wisp log --emit-partial) in the order given into one report. */
export const runMerge: CommandRunner = async (args, io) => {
  const parsed = parseCommandLine(args, { json: { type: 'boolean', default: false }, top: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } }, MERGE_USAGE);
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(`usage: ${MERGE_USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new WispError('WISP_BAD_ARGUMENT', `name the partials to merge; usage: ${MERGE_USAGE}`);
  const top = values.top === undefined ? undefined : parseInteger('--top', values.top, 1, 1000);
  const partials = [];
  for (const p of positionals) partials.push(await readPartial(p));
  const result = mergeLogPartials(partials, { top });
  io.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : renderLogText(result, TEXT_BYTES));
  return 0;
};
