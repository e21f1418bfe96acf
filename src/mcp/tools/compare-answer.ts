import { z } from 'zod';
import { baselineItem, baselineState, compareCondensed, type BaselineItem } from '../../compare/compare-log.js';
import { renderCompareText } from '../../compare/render-text.js';
import type { CompareResult } from '../../compare/result.js';
import { isWispError, WispError } from '../../core/errors.js';
import { condenseLogState } from '../../log/index.js';
import { AGENT_MAX_BYTES } from '../../log/options.js';
import { formatCount } from '../../core/text.js';
import type { LogSource } from '../../input/sources.js';
import { mb, progressReporter, type ServerContext } from '../context.js';
import type { PayloadOrigin } from '../raw-store.js';
import { fitAnswer, type ToolAnswer } from '../result.js';
import { checkRegularFile } from '../roots.js';
import { MCP_TOP, type CondenseCall } from './condense-call.js';

const HANDLE = /^raw_[0-9a-f]{20}$/;

export const baselineField = z
  .string()
  .min(1)
  .max(4096)
  .optional()
  .describe(
    'Compare with a baseline (a passing run): an absolute path inside the allowed roots (a log, .gz, or a partial written by `wisp log --emit-partial`), or the handle of an earlier result (raw_...). The answer then shows what is new in this run first, then groups whose rate changed, groups gone, and one line on what both share.',
  );

export const comparisonShape = z
  .object({
    baseline: z.string(),
    new: z.number().int().optional().describe('Groups only this run has (some of them a baseline group with words or values changed).'),
    rateChanged: z.number().int().optional(),
    gone: z.number().int().optional(),
    shared: z.number().int().optional(),
    crash: z
      .object({ sameException: z.boolean(), newFrames: z.number().int(), goneFrames: z.number().int() })
      .optional()
      .describe('Two crash reports: whether the exception is the same, and faulting-thread frames only this run or only the baseline has.'),
  })
  .optional()
  .describe('With baseline: how many groups each section of the comparison holds.');

/** The baseline named by a call: a handle from this store, or a file inside the roots. */
export async function resolveBaseline(ctx: ServerContext, baseline: string): Promise<BaselineItem> {
  try {
    if (HANDLE.test(baseline)) {
      const payload = ctx.store.get(baseline);
      return await baselineItem(payload.file, `${baseline} (${payload.source})`);
    }
    return await baselineItem(await checkRegularFile(ctx.roots, baseline), baseline);
  } catch (err) {
    if (!isWispError(err)) throw err;
    throw new WispError(err.code, `baseline: ${err.message}`, { hint: err.hint, cause: err });
  }
}

/**
 * condense_log with a baseline: this run's bytes kept behind a handle as usual, the
 * baseline condensed under the same 8 MiB cap, and the comparison rendered within budget.
 */
export async function compareSource(
  ctx: ServerContext,
  source: LogSource,
  label: string,
  origin: PayloadOrigin,
  baselineArg: string,
  call: CondenseCall,
): Promise<ToolAnswer> {
  const baseline = await resolveBaseline(ctx, baselineArg);
  const baselineName = baseline.kind === 'log' ? baseline.source.name : baseline.name;
  const pool = await ctx.pool();
  const top = call.top ?? MCP_TOP;
  const was = await baselineState([baseline], { top, maxBytes: AGENT_MAX_BYTES, signal: call.signal, pool });
  const progress = progressReporter(call.extra);
  const writer = ctx.store.begin(label);
  let result: CompareResult;
  let skipped = 0;
  try {
    const now = await condenseLogState(
      [source],
      {
        top,
        maxBytes: AGENT_MAX_BYTES,
        signal: call.signal,
        tap: (bytes) => writer.write(bytes),
        onProgress: ({ bytes, totalBytes }) => progress.report(bytes, totalBytes, `read ${mb(bytes)}${totalBytes !== undefined ? ` of ${mb(totalBytes)}` : ''} MB`),
        pool,
      },
    );
    if (now.kind === 'merged') {
      now.read.notes.push(...(call.notes ?? []));
      skipped = now.read.skippedHeadBytes;
    }
    result = compareCondensed(now, was, label, top);
  } catch (err) {
    writer.abandon();
    throw err;
  } finally {
    progress.stop();
  }
  const payload = writer.finish({ notStoredBytes: skipped, origin });
  const facts: Record<string, unknown> = { handle: payload.handle, source: label };
  if (result.kind === 'comparison') {
    const r = result.now.read;
    Object.assign(facts, {
      kind: 'log',
      format: result.now.format,
      read: { bytes: r.bytes, lines: r.lines, skippedHeadBytes: r.skippedHeadBytes, cutLines: r.cutLines },
      totals: result.now.totals,
      comparison: { baseline: baselineName, new: result.new.groups, rateChanged: result.rateChanged.groups, gone: result.gone.groups, shared: result.shared.groups },
    });
  } else {
    Object.assign(facts, {
      kind: 'crash',
      format: result.now.format,
      read: { bytes: payload.bytes, lines: payload.lines, skippedHeadBytes: 0, cutLines: 0 },
      comparison: { baseline: baselineName, crash: { sameException: result.sameException, newFrames: result.newFrames.length, goneFrames: result.goneFrames.length } },
    });
  }
  const after = `raw: ${payload.handle} (${formatCount(payload.lines)} lines of this run kept; search with grep_raw, read lines at wisp://raw/${payload.handle}?from=N)\n`;
  return fitAnswer(facts, (budget) => `${renderCompareText(result, budget - after.length).trimEnd()}\n${after}`, ctx.limits.resultMaxBytes);
}
