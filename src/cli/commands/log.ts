import { isWispError, WispError } from '../../core/errors.js';
import { plural } from '../../core/text.js';
import { WISP_VERSION } from '../../core/version.js';
import { renderCrashReport } from '../../crash/index.js';
import { expandPaths } from '../../input/expand-paths.js';
import { journalSource } from '../../input/journal.js';
import { fileSource, streamSource, type LogSource } from '../../input/sources.js';
import { condenseLog, condenseLogToPartial } from '../../log/index.js';
import { writePartial } from '../../log/merge/partial-io.js';
import type { CondenseResult } from '../../log/model/result.js';
import type { CondenseLogOptions } from '../../log/options.js';
import { formatBytes, renderLogText, TEXT_BYTES } from '../../log/render/log-text.js';
import { defaultThreadCount, WorkerPool } from '../../pipeline/worker-pool.js';
import { parseByteCount, parseInteger, parseCommandLine } from '../args.js';
import type { CommandRunner } from '../io.js';
import { progressBar } from '../progress-bar.js';
import { runLogComparison } from './log-baseline.js';

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
    const result = await condenseLog([journal], options);
    if (result.kind === 'log') result.read.notes.push(...journal.notes);
    io.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : result.kind === 'log' ? renderLogText(result, TEXT_BYTES) : '');
    return 0;
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

  const bar = progressBar(io.stderr);
  options.onProgress = bar.update;
  try {
    if (baseline !== undefined) return await runLogComparison(paths.map(sourceOf), baseline, options, values.json, io);
    const emitTo = values['emit-partial'];
    if (emitTo !== undefined) {
      if (values['per-file']) throw new WispError('WISP_BAD_ARGUMENT', '--emit-partial writes one partial for all inputs; drop --per-file');
      const partial = await condenseLogToPartial(paths.map(sourceOf), options, `wisp ${WISP_VERSION}`);
      await writePartial(emitTo, partial);
      io.stderr.write(`wisp log: wrote a partial of ${partial.read.inputs.length} inputs, ${partial.read.lines} lines to ${emitTo}\n`);
      return 0;
    }
    if (values.assignments !== undefined) {
      if (paths.includes('-')) throw new WispError('WISP_BAD_ARGUMENT', '--assignments reads its inputs twice: name files, not stdin');
      const result = withHidden(await condenseLog(paths.map(sourceOf), { ...options, assignmentsFile: values.assignments }));
      io.stdout.write(render(result, values.json) + (values.json ? '\n' : ''));
      return 0;
    }
    if (!values['per-file']) {
      io.stdout.write(render(withHidden(await condenseLog(paths.map(sourceOf), options)), values.json) + (values.json ? '\n' : ''));
      return 0;
    }
    // One report per input: the same condenser, once per file, one pool for them all.
    const pool = options.workers === 0 ? undefined : await WorkerPool.start(options.workers ?? defaultThreadCount());
    try {
      const reports: unknown[] = [];
      for (const p of paths) {
        let result: CondenseResult | { name: string; error: string };
        try {
          result = await condenseLog([sourceOf(p)], { ...options, ...(pool !== undefined ? { pool } : {}) });
        } catch (err) {
          if (!isWispError(err)) throw err;
          result = { name: p, error: `${err.message} [${err.code}]` };
        }
        if (values.json) reports.push(result);
        else io.stdout.write(`== ${p}\n${'error' in result ? `skipped: ${result.error}\n` : render(result, false)}\n`);
      }
      if (values.json) io.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
    } finally {
      await pool?.close();
    }
    return 0;
  } finally {
    bar.done();
  }
};

function render(result: CondenseResult, json: boolean): string {
  if (json) return JSON.stringify(result, null, 2);
  if (result.kind === 'crash') return `read ${formatBytes(result.read.bytes)} from ${result.read.inputs[0]!.name} (format: ${result.format})\n${renderCrashReport(result.report)}`;
  return renderLogText(result, TEXT_BYTES);
}
