import { clip } from '../../render/clip.js';
import { formatCount } from '../../render/numbers.js';
import { z } from 'zod';
import { renderCrashReport } from '../../crash/index.js';
import { condenseLog } from '../../log/condense-log.js';
import { AGENT_MAX_BYTES } from '../../log/options.js';
import type { CondenseResult } from '../../log/result.js';
import { renderLogText } from '../../render/log-text.js';
import { commandWarning, type CommandResult } from '../../source/command.js';
import { journalSource } from '../../source/journal-source.js';
import { fileSource, textSource, type LogSource } from '../../source/log-source.js';
import { WispError } from '../../errors.js';
import { mb, progressReporter, toolError, type ServerContext } from '../context.js';
import type { RawPayload } from '../raw-store.js';
import { commandFields, resolveSource, sourceFields, sourceLabel } from '../sources.js';

/** The MCP result shows fewer groups than the CLI: a few KB, not ten. */
const MCP_TOP = 20;
const MCP_TEXT_BUDGET = 6000;

const groupShape = z.object({
  rank: z.number().int(),
  severity: z.enum(['critical', 'error', 'warning', 'notice', 'info', 'debug']),
  count: z.number().int(),
  lines: z.number().int(),
  template: z.string(),
  example: z.string(),
  firstLine: z.number().int(),
  lastLine: z.number().int(),
  firstTime: z.string().nullable(),
  lastTime: z.string().nullable(),
});

const outputShape = {
  handle: z.string().describe('Handle to exactly the bytes read: search them with grep_raw, or read wisp://raw/{handle}.'),
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
  groups: z.array(groupShape).optional(),
  omitted: z
    .object({
      groups: z.number().int(),
      lines: z.number().int(),
      bySeverity: z.record(z.string(), z.object({ groups: z.number().int(), lines: z.number().int() })),
    })
    .optional(),
  crash: z.record(z.string(), z.unknown()).optional().describe('For a crash report: its parsed fields.'),
  exitStatus: z.number().int().nullable().optional().describe('For a command: its exit status (null when a signal ended it).'),
  timedOut: z.boolean().optional(),
};

export function registerCondenseLog(ctx: ServerContext): void {
  ctx.server.registerTool(
    'condense_log',
    {
      title: 'Condense a log',
      description:
        'Condenses a log, CI output, a command\'s output or a macOS crash report into its distinct events: groups of lines by template, ranked by severity then count, each with line range, first/last time and a redacted example. Prefer it to reading a log or running cat/tail on one: it reads megabytes in about a second and states what it left out. The result carries a handle; search the full raw text with grep_raw.',
      inputSchema: {
        ...sourceFields,
        last: z
          .string()
          .regex(/^[1-9]\d{0,4}[smhd]$/)
          .optional()
          .describe('Read the system log (the systemd journal) for this long back, such as 10m or 2h, at most 1d.'),
        process: z.string().min(1).max(256).optional().describe('With last: only this process (exact name or syslog identifier).'),
        subsystem: z.string().min(1).max(256).optional().describe('With last: only this systemd unit (on macOS, a log subsystem).'),
        top: z.number().int().min(1).max(100).optional().describe(`How many groups to show (default ${MCP_TOP}).`),
      },
      outputSchema: outputShape,
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args, extra) => {
      const signal = ctx.callSignal(extra);
      const progress = progressReporter(extra);
      let label = sourceLabel(args);
      let command: CommandResult | undefined;
      try {
        if ((args.process !== undefined || args.subsystem !== undefined) && args.last === undefined) {
          throw new WispError('WISP_BAD_ARGUMENT', 'process and subsystem filter the system log: give last too');
        }
        let source: LogSource;
        let notes: string[] = [];
        if (args.last !== undefined && args.path === undefined && args.text === undefined && args.command === undefined) {
          const journal = journalSource({
            last: args.last,
            ...(args.process !== undefined ? { process: args.process } : {}),
            ...(args.subsystem !== undefined ? { subsystem: args.subsystem } : {}),
            signal,
          });
          label = journal.name;
          source = journal;
          notes = journal.notes;
        } else {
          const resolved = await resolveSource(ctx, 'condense_log', args, extra, signal);
          if (resolved.kind === 'path') source = fileSource(resolved.path);
          else if (resolved.kind === 'text') source = textSource('text', resolved.text);
          else {
            command = resolved.result;
            source = textSource(label, command.output);
          }
        }
        const writer = ctx.store.begin(label);
        let result: CondenseResult;
        try {
          result = await condenseLog(
            [source],
            {
              top: args.top ?? MCP_TOP,
              maxBytes: AGENT_MAX_BYTES,
              signal,
              tap: (bytes) => writer.write(bytes),
              onProgress: ({ bytes, totalBytes }) => progress.report(bytes, totalBytes, `read ${mb(bytes)}${totalBytes !== undefined ? ` of ${mb(totalBytes)}` : ''} MB`),
            },
            await ctx.pool(),
          );
        } catch (err) {
          writer.abandon();
          throw err;
        }
        const payload = writer.finish();
        if (result.kind === 'log') result.read.notes.push(...notes);
        ctx.audit.record({ tool: 'condense_log', source: label, outcome: 'ok', bytes: result.read.bytes, ...commandFields(command) });
        return {
          content: [{ type: 'text' as const, text: renderText(result, payload, command) }],
          structuredContent: structured(result, payload, label, command),
        };
      } catch (err) {
        ctx.audit.record({ tool: 'condense_log', source: label, outcome: 'error', error: (err as Error).message, ...commandFields(command) });
        return toolError(err);
      } finally {
        progress.stop();
      }
    },
  );
}

function renderText(r: CondenseResult, payload: RawPayload, command: CommandResult | undefined): string {
  const parts: string[] = [];
  const warning = command !== undefined ? commandWarning(command) : undefined;
  if (warning !== undefined) parts.push(warning);
  if (command !== undefined && command.droppedBytes > 0) parts.push(`note: the command printed ${mb(command.droppedBytes)} MB more than kept; the last part was kept`);
  if (r.kind === 'crash') parts.push(`read ${r.read.bytes} bytes (format: ${r.format})\n${renderCrashReport(r.report)}`);
  else parts.push(renderLogText(r, MCP_TEXT_BUDGET).trimEnd());
  parts.push(`raw: ${payload.handle} (${formatCount(payload.lines)} lines kept; search with grep_raw, read ranges at wisp://raw/${payload.handle}?from=N&to=M)`);
  return `${parts.join('\n')}\n`;
}

function structured(r: CondenseResult, payload: RawPayload, label: string, command: CommandResult | undefined): Record<string, unknown> {
  const base = {
    handle: payload.handle,
    source: label,
    kind: r.kind,
    format: r.format,
    ...commandFields(command),
  };
  if (r.kind === 'crash') {
    return { ...base, read: { bytes: r.read.bytes, lines: r.read.lines, skippedHeadBytes: 0, cutLines: 0 }, crash: r.report as unknown as Record<string, unknown> };
  }
  return {
    ...base,
    read: { bytes: r.read.bytes, lines: r.read.lines, skippedHeadBytes: r.read.skippedHeadBytes, cutLines: r.read.cutLines },
    totals: r.totals,
    groups: r.groups.map((g) => ({
      rank: g.rank,
      severity: g.severity,
      count: g.count,
      lines: g.lines,
      template: clip(g.template, 200),
      example: clip(g.example, 240),
      firstLine: g.firstLine,
      lastLine: g.lastLine,
      firstTime: g.firstTime,
      lastTime: g.lastTime,
    })),
    omitted: { groups: r.omitted.groups, lines: r.omitted.lines, bySeverity: r.omitted.bySeverity },
  };
}
