import { z } from 'zod';
import { renderCrashReport } from '../../crash/index.js';
import { WispError } from '../../core/errors.js';
import { condenseLog } from '../../log/index.js';
import { AGENT_MAX_BYTES } from '../../log/options.js';
import type { CondenseResult } from '../../log/model/result.js';
import { renderLogText } from '../../log/render/log-text.js';
import { formatCount } from '../../core/text.js';
import { journalSource } from '../../input/journal.js';
import { fileSource, textSource, type LogSource } from '../../input/sources.js';
import type { AuditEntry } from '../audit-log.js';
import { mb, progressReporter, toolError, type ServerContext } from '../context.js';
import type { PayloadOrigin } from '../raw-store.js';
import { fitAnswer, type ToolAnswer } from '../result.js';
import { exactlyOne, originOf, resolveSource, sourceFields, sourceLabel } from '../sources.js';
import { commandFacts, commandFactsShape, commandPreamble } from './command-facts.js';
import { toolArgs } from '../schema.js';
import { baselineField, compareSource, comparisonShape } from './compare-answer.js';
import { MCP_TOP, type CondenseCall } from './condense-call.js';


/**
 * `last` as the schema bounds it: a span of at most a day (86400s, 1440m, 24h, 1d), so a
 * client sees the limit in the schema rather than in a refusal.
 */
export const LAST_PATTERN = /^(?:[1-9]\d{0,3}s|[1-7]\d{4}s|8[0-5]\d{3}s|86[0-3]\d{2}s|86400s|[1-9]\d{0,2}m|1[0-3]\d{2}m|14[0-3]\dm|1440m|[1-9]h|1\dh|2[0-4]h|1d)$/;

export const topField = z.number().int().min(1).max(100).optional().describe(`How many groups to rank and show (default ${MCP_TOP}); the text stays within the result budget whatever this says, and says how many it left out.`);

/** The facts beside the text: what a program needs without reading it. */
export const logResultShape = {
  handle: z.string().describe('Handle to exactly the bytes read: search them with grep_raw, or read wisp://raw/{handle}?from=N.'),
  source: z.string(),
  kind: z.enum(['log', 'crash']),
  format: z.string(),
  read: z.object({
    bytes: z.number().int(),
    lines: z.number().int(),
    skippedHeadBytes: z.number().int().describe('Bytes of the head skipped to keep the last 8 MiB.'),
    cutLines: z.number().int().describe('Lines of 64 KiB or more, cut to 64 KiB.'),
  }),
  totals: z.object({ lines: z.number().int(), records: z.number().int(), groups: z.number().int() }).optional(),
  omitted: z.object({ groups: z.number().int(), lines: z.number().int() }).optional().describe('Groups and lines past `top`.'),
  command: commandFactsShape.optional(),
  comparison: comparisonShape,
  text: z.string().describe('The whole condensed result as the model should read it: boundary, notes, groups with examples, continuation and cause lines.'),
};

export function registerCondenseLog(ctx: ServerContext): void {
  ctx.server.registerTool(
    'condense_log',
    {
      title: 'Condense a log',
      description:
        'Condenses a log file, CI output, a macOS crash report or the system log into its distinct events: groups of lines by template, ranked by severity then count, each with line range, first/last time, a redacted example and its continuation lines. Prefer it to reading a log or running cat/tail on one: it reads megabytes in about a second and states what it left out. Reads files inside the allowed roots, inline text, or the system log (last); it runs nothing (see run_and_condense for commands). The result carries a handle; search the full raw text with grep_raw. With baseline (a passing run: a path or an earlier handle), it shows what is new in this run first.',
      inputSchema: toolArgs({
        ...sourceFields,
        last: z
          .string()
          .regex(LAST_PATTERN, 'last is a span of at most a day: a number and s, m, h or d, such as 10m or 2h (at most 86400s, 1440m, 24h or 1d)')
          .optional()
          .describe('Read the system log (the systemd journal) for this long back: a number and s, m, h or d, such as 10m or 2h, at most a day (86400s, 1440m, 24h, 1d).'),
        process: z.string().min(1).max(256).optional().describe('With last: only this process (exact name or syslog identifier).'),
        subsystem: z.string().min(1).max(256).optional().describe('With last: only this systemd unit (on macOS, a log subsystem).'),
        top: topField,
        baseline: baselineField,
      }),
      outputSchema: logResultShape,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args, extra) => {
      const call = ctx.beginCall(extra);
      const signal = call.signal;
      const audit: AuditEntry = { tool: 'condense_log', source: args.last !== undefined ? `journal (last ${args.last})` : sourceLabel(args), outcome: 'error' };
      try {
        if ((args.process !== undefined || args.subsystem !== undefined) && args.last === undefined) {
          throw new WispError('WISP_BAD_ARGUMENT', 'process and subsystem filter the system log: give last too');
        }
        exactlyOne(args, ['path', 'text', 'last']);
        let source: LogSource;
        let origin: PayloadOrigin;
        let notes: string[] = [];
        if (args.last !== undefined) {
          const journal = journalSource({
            last: args.last,
            ...(args.process !== undefined ? { process: args.process } : {}),
            ...(args.subsystem !== undefined ? { subsystem: args.subsystem } : {}),
            signal,
          });
          audit.source = journal.name;
          source = journal;
          notes = journal.notes;
          origin = { kind: 'journal' };
        } else {
          const resolved = await resolveSource(ctx, args);
          source = resolved.kind === 'path' ? fileSource(resolved.path) : textSource('text', resolved.text);
          origin = originOf(resolved);
        }
        const call: CondenseCall = { top: args.top, signal, extra, notes };
        const work = args.baseline === undefined ? condenseSource(ctx, source, audit.source!, origin, call) : compareSource(ctx, source, audit.source!, origin, args.baseline, call);
        const result = await ctx.bounded(work, signal);
        audit.outcome = 'ok';
        audit.bytes = (result.structuredContent.read as { bytes: number }).bytes;
        return result;
      } catch (err) {
        audit.error = (err as Error).message;
        return toolError(err);
      } finally {
        call.end();
        ctx.audit.record(audit);
      }
    },
  );
}


/** Condenses one source, keeps its bytes behind a handle, and renders the answer within budget. */
export async function condenseSource(ctx: ServerContext, source: LogSource, label: string, origin: PayloadOrigin, call: CondenseCall): Promise<ToolAnswer> {
  const progress = progressReporter(call.extra);
  const writer = ctx.store.begin(label);
  let result: CondenseResult;
  try {
    result = await condenseLog(
      [source],
      {
        top: call.top ?? MCP_TOP,
        maxBytes: AGENT_MAX_BYTES,
        signal: call.signal,
        tap: (bytes) => writer.write(bytes),
        onProgress: ({ bytes, totalBytes }) => progress.report(bytes, totalBytes, `read ${mb(bytes)}${totalBytes !== undefined ? ` of ${mb(totalBytes)}` : ''} MB`),
        pool: await ctx.pool(),
      },
    );
  } catch (err) {
    writer.abandon();
    throw err;
  } finally {
    progress.stop();
  }
  const skipped = result.kind === 'log' ? result.read.skippedHeadBytes : 0;
  const payload = writer.finish({ notStoredBytes: skipped + (call.command?.result.droppedBytes ?? 0), origin });
  if (result.kind === 'log') result.read.notes.push(...(call.notes ?? []));

  const facts: Record<string, unknown> = { handle: payload.handle, source: label, kind: result.kind, format: result.format };
  if (result.kind === 'log') {
    facts.read = { bytes: result.read.bytes, lines: result.read.lines, skippedHeadBytes: result.read.skippedHeadBytes, cutLines: result.read.cutLines };
    facts.totals = result.totals;
    facts.omitted = { groups: result.omitted.groups, lines: result.omitted.lines };
  } else {
    facts.read = { bytes: result.read.bytes, lines: result.read.lines, skippedHeadBytes: 0, cutLines: 0 };
  }
  if (call.command !== undefined) facts.command = commandFacts(call.command);

  const before = call.command !== undefined ? commandPreamble(call.command) : '';
  const after = `raw: ${payload.handle} (${formatCount(payload.lines)} lines kept; search with grep_raw, read lines at wisp://raw/${payload.handle}?from=N)\n`;
  const body = (budget: number): string =>
    result.kind === 'crash' ? `read ${formatCount(result.read.bytes)} bytes (format: ${result.format})\n${renderCrashReport(result.report)}` : renderLogText(result, budget);
  return fitAnswer(facts, (budget) => `${before}${body(budget - before.length - after.length).trimEnd()}\n${after}`, ctx.limits.resultMaxBytes);
}
