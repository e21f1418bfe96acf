/**
 * `wisp log` once its arguments are read: the pipeline's modules, loaded after log.ts has
 * started the threads (they load theirs meanwhile).
 */
import { isWispError, WispError } from '../../core/errors.js';
import { WISP_VERSION } from '../../core/version.js';
import { renderCrashReport } from '../../crash/index.js';
import type { LogSource } from '../../input/sources.js';
import { condenseLog, condenseLogToPartial } from '../../log/index.js';
import { writePartial } from '../../log/merge/partial-io.js';
import type { CondenseResult } from '../../log/model/result.js';
import type { CondenseLogOptions } from '../../log/options.js';
import { formatBytes, renderLogText, TEXT_BYTES } from '../../log/render/log-text.js';
import { defaultThreadCount, WorkerPool } from '../../pipeline/worker-pool.js';
import type { CliIo } from '../io.js';
import { progressBar } from '../progress-bar.js';

export interface LogRunFlags {
  json: boolean;
  perFile: boolean;
  emitPartial: string | undefined;
  assignments: string | undefined;
  baseline: string[] | undefined;
}

/** The system log (--last), condensed. */
export async function runJournalLog(journal: LogSource & { notes: string[] }, options: CondenseLogOptions, json: boolean, io: CliIo): Promise<number> {
  const result = await condenseLog([journal], options);
  if (result.kind === 'log') result.read.notes.push(...journal.notes);
  io.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : result.kind === 'log' ? renderLogText(result, TEXT_BYTES) : '');
  return 0;
}

/**
 * The inputs named (expanded: `paths`), condensed as the flags say. `withHidden` adds the
 * note on hidden entries left out of folders; `options.pool`, when given, is used and
 * left open.
 */
export async function runLogOnPaths(
  paths: string[],
  sourceOf: (p: string) => LogSource,
  values: LogRunFlags,
  options: CondenseLogOptions,
  withHidden: (result: CondenseResult) => CondenseResult,
  io: CliIo,
): Promise<number> {
  const baseline = values.baseline;
  const bar = progressBar(io.stderr);
  options.onProgress = bar.update;
  try {
    // Loaded only for a comparison: the compare layer is nine modules a plain run never uses.
    if (baseline !== undefined) return await (await import('./log-baseline.js')).runLogComparison(paths.map(sourceOf), baseline, options, values.json, io);
    const emitTo = values.emitPartial;
    if (emitTo !== undefined) {
      if (values.perFile) throw new WispError('WISP_BAD_ARGUMENT', '--emit-partial writes one partial for all inputs; drop --per-file');
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
    if (!values.perFile) {
      io.stdout.write(render(withHidden(await condenseLog(paths.map(sourceOf), options)), values.json) + (values.json ? '\n' : ''));
      return 0;
    }
    // One report per input: the same condenser, once per file, one pool for them all.
    const lent = options.pool;
    const pool = lent ?? (options.workers === 0 ? undefined : await WorkerPool.start(options.workers ?? defaultThreadCount()));
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
      if (lent === undefined) await pool?.close();
    }
    return 0;
  } finally {
    bar.done();
  }
}

function render(result: CondenseResult, json: boolean): string {
  if (json) return JSON.stringify(result, null, 2);
  if (result.kind === 'crash') return `read ${formatBytes(result.read.bytes)} from ${result.read.inputs[0]!.name} (format: ${result.format})\n${renderCrashReport(result.report)}`;
  return renderLogText(result, TEXT_BYTES);
}
