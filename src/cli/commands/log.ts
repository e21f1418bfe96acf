/** `wisp log`: reads the arguments; log-run.ts runs the pipeline. */
import { WispError } from '../../core/errors.js';
import { plural } from '../../core/text.js';
import { expandPaths } from '../../input/expand-paths.js';
import { journalSource } from '../../input/journal.js';
import { fileSource, streamSource, type LogSource } from '../../input/sources.js';
import type { CondenseResult } from '../../log/model/result.js';
import type { CondenseLogOptions } from '../../log/options.js';
import { parseByteCount, parseInteger, parseCommandLine } from '../args.js';
import type { CommandRunner } from '../io.js';

export const LOG_USAGE =
  'wisp log [FILE|DIR|GLOB...|-] [--json] [--top N] [--workers N] [--max-bytes N] [--per-file] [--emit-partial OUT] [--assignments OUT.csv] [--baseline BASE]... | wisp log --last 10m [--process NAME] [--subsystem UNIT]';

export const runLog: CommandRunner = async (args, io) => {
  const parsed = parseCommandLine(args, {
    json: { type: 'boolean', default: false },
    'per-file': { type: 'boolean', default: false },
    'emit-partial': { type: 'string' },
    assignments: { type: 'string' },
    top: { type: 'string' },
    workers: { type: 'string' },
    'max-bytes': { type: 'string' },
    last: { type: 'string' },
    process: { type: 'string' },
    subsystem: { type: 'string' },
    baseline: { type: 'string', multiple: true },
    // Not for users: lets tests prove that results do not depend on the chunk size.
    'chunk-bytes': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  }, LOG_USAGE);
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(`usage: ${LOG_USAGE}\n`);
    return 0;
  }
  const options: CondenseLogOptions = {};
  if (values.top !== undefined) options.top = parseInteger('--top', values.top, 1, 1000);
  if (values.workers !== undefined) options.workers = parseInteger('--workers', values.workers, 0, 64);
  if (values['max-bytes'] !== undefined) options.maxBytes = parseByteCount('--max-bytes', values['max-bytes']);
  if (values['chunk-bytes'] !== undefined) options.chunkBytes = parseByteCount('--chunk-bytes', values['chunk-bytes']);
  const baseline = values.baseline;
  if (baseline !== undefined) {
    const other = (['per-file', 'emit-partial', 'assignments'] as const).find((k) => values[k] !== undefined && values[k] !== false);
    if (other !== undefined) throw new WispError('WISP_BAD_ARGUMENT', `--baseline compares one run with another; drop --${other}`);
  }

  if (values.last !== undefined || values.process !== undefined || values.subsystem !== undefined) {
    if (values.last === undefined) throw new WispError('WISP_BAD_ARGUMENT', '--process and --subsystem filter the system log: give --last too');
    if (positionals.length > 0) throw new WispError('WISP_BAD_ARGUMENT', 'read either files or the system log (--last), not both');
    if (baseline !== undefined) throw new WispError('WISP_BAD_ARGUMENT', '--baseline compares files; write the system log to a file to compare it');
    const journal = journalSource({
      last: values.last,
      ...(values.process !== undefined ? { process: values.process } : {}),
      ...(values.subsystem !== undefined ? { subsystem: values.subsystem } : {}),
    });
    return (await import('./log-run.js')).runJournalLog(journal, options, values.json, io);
  }

  if (positionals.length === 0 && (io.stdin as { isTTY?: boolean }).isTTY) {
    throw new WispError('WISP_BAD_ARGUMENT', `no input: name a log file or pipe one in; usage: ${LOG_USAGE}`);
  }
  const left = { hidden: 0 };
  const paths = await expandPaths(positionals.length > 0 ? positionals : ['-'], left);
  // Hidden entries of the folders walked: left out, and said so, since a user may have meant them.
  const withHidden = (result: CondenseResult): CondenseResult => {
    if (left.hidden > 0 && result.kind === 'log') result.read.notes.push(`${plural(left.hidden, 'hidden entry', 'hidden entries')} (names starting with '.') of the folders named ${left.hidden === 1 ? 'was' : 'were'} left out: name ${left.hidden === 1 ? 'it' : 'them'} to read ${left.hidden === 1 ? 'it' : 'them'}`);
    return result;
  };
  if (paths.filter((p) => p === '-').length > 1) throw new WispError('WISP_BAD_ARGUMENT', 'stdin (-) can be read only once');
  const sourceOf = (p: string): LogSource => (p === '-' ? streamSource('-', io.stdin) : fileSource(p));

  const flags = {
    json: values.json,
    perFile: values['per-file'],
    emitPartial: values['emit-partial'],
    assignments: values.assignments,
    baseline,
  };
  // Threads, where a run needs them, start with its first chunk that the native lanes do not read (log/index.ts).
  const { runLogOnPaths } = await import('./log-run.js');
  return runLogOnPaths(paths, sourceOf, flags, options, withHidden, io);
};
