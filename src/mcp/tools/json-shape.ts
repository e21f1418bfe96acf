import { z } from 'zod';
import { WispError } from '../../core/errors.js';
import { formatCount } from '../../core/text.js';
import { jsonShape, type ShapeInput, type ShapeReport } from '../../shape/index.js';
import { DEFAULT_MAX_BYTES } from '../../shape/options.js';
import type { AuditEntry } from '../audit-log.js';
import { toolError, type ServerContext } from '../context.js';
import type { PayloadOrigin } from '../raw-store.js';
import { fitAnswer, jsonBytes, type ToolAnswer } from '../result.js';
import { exactlyOne, originOf, resolveSource, sourceFields, sourceLabel } from '../sources.js';
import { commandFacts, commandFactsShape, commandFailed, commandPreamble, commandWarning, type CommandOutcome } from './command-facts.js';
import { toolArgs } from '../schema.js';

/** The agent path's cap for JSON, the library's default: larger JSON is refused, never cut (a cut document does not parse). */
export const MAX_JSON_BYTES = DEFAULT_MAX_BYTES;
const DEFAULT_MAX_LINES = 120;
const MIN_LINES = 10;

export const maxLinesField = z.number().int().min(MIN_LINES).max(400).optional().describe(`Line cap of the outline (default ${DEFAULT_MAX_LINES}); fewer lines are used where the result budget needs it, and the result says so.`);

export const shapeResultShape = {
  handle: z.string().describe('Handle to exactly the bytes read, for grep_raw and wisp://raw/{handle}?from=N.'),
  source: z.string(),
  kind: z.enum(['json', 'jsonl']),
  summary: z.string(),
  read: z.object({ bytes: z.number().int(), values: z.number().int(), records: z.number().int().optional() }),
  shown: z.object({ entries: z.number().int(), total: z.number().int() }).describe('Outline entries shown, of all.'),
  command: commandFactsShape.optional(),
  text: z.string().describe('The whole outline as the model should read it: every shown key with types, optional counts, array lengths, number ranges, enums, formats, examples, and the notes and rules.'),
};

export function registerJsonShape(ctx: ServerContext): void {
  ctx.server.registerTool(
    'json_shape',
    {
      title: 'Outline JSON',
      description:
        'Outlines a large JSON document or JSON Lines file: every key with its types, optional keys (present/total), array lengths, number ranges, enums, formats and a short redacted example, with array elements merged into one shape. Prefer it to reading or jq-ing a big JSON file: it reads 16 MB in well under a second and says what it left out. Reads a file inside the allowed roots or inline text; it runs nothing (see run_and_condense for a command\'s JSON). The result carries a handle to the raw text for grep_raw.',
      inputSchema: toolArgs({ ...sourceFields, maxLines: maxLinesField }),
      outputSchema: shapeResultShape,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args, extra) => {
      const call = ctx.beginCall(extra);
      const signal = call.signal;
      const audit: AuditEntry = { tool: 'json_shape', source: sourceLabel(args), outcome: 'error' };
      try {
        exactlyOne(args, ['path', 'text']);
        const resolved = await resolveSource(ctx, args);
        const input: ShapeInput = resolved.kind === 'path' ? { path: resolved.path } : Buffer.from(resolved.text, 'utf8');
        const result = await ctx.bounded(shapeInput(ctx, input, audit.source!, originOf(resolved), { maxLines: args.maxLines, signal }), signal);
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

export interface ShapeCall {
  maxLines: number | undefined;
  signal: AbortSignal;
  command?: CommandOutcome;
}

/**
 * Outlines JSON, keeps exactly the bytes read behind a handle, and answers within the
 * result budget: an outline too long for it is laid out again in fewer lines, from the
 * bytes kept (the parse is the cheap part).
 */
export async function shapeInput(ctx: ServerContext, input: ShapeInput, label: string, origin: PayloadOrigin, call: ShapeCall): Promise<ToolAnswer> {
  const max = ctx.limits.resultMaxBytes;
  const asked = call.maxLines ?? DEFAULT_MAX_LINES;
  let maxLines = asked;
  let report: ShapeReport;
  const read: Buffer[] = [];
  try {
    report = await jsonShape(input, { maxBytes: MAX_JSON_BYTES, maxLines, workers: 0, signal: call.signal, tap: (b) => read.push(b) });
  } catch (err) {
    // A failed command's output is rarely JSON: say that it failed, not only that the JSON is bad.
    if (call.command !== undefined && commandFailed(call.command.result) && err instanceof WispError) {
      throw new WispError(err.code, `${commandWarning(call.command.result)}; then: ${err.message}`, { hint: err.hint, cause: err });
    }
    throw err;
  }
  const bytes = read.length === 1 ? read[0]! : Buffer.concat(read);
  const writer = ctx.store.begin(label);
  writer.write(bytes);
  const payload = writer.finish({ notStoredBytes: call.command?.result.droppedBytes ?? 0, origin });

  const factsOf = (r: ShapeReport): Record<string, unknown> => {
    const tree = r.tree;
    const facts: Record<string, unknown> = {
      handle: payload.handle,
      source: label,
      kind: tree.kind,
      summary: tree.summary,
      read: { bytes: tree.read.bytes, values: tree.read.values, ...(tree.read.records !== undefined ? { records: tree.read.records } : {}) },
      shown: tree.shown,
    };
    if (call.command !== undefined) facts.command = commandFacts(call.command);
    return facts;
  };
  const before = call.command !== undefined ? commandPreamble(call.command) : '';
  const textOf = (r: ShapeReport): string => {
    const lowered = maxLines < asked ? `note: the outline has ${maxLines} lines instead of ${asked} to stay within ${formatCount(max)} bytes\n` : '';
    return `${before}${lowered}${r.text}raw: ${payload.handle} (search with grep_raw, read lines at wisp://raw/${payload.handle}?from=N)\n`;
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const size = jsonBytes({ ...factsOf(report), text: textOf(report) });
    if (size <= max || maxLines <= MIN_LINES) break;
    maxLines = Math.max(MIN_LINES, Math.floor((maxLines * max) / size) - 2);
    report = await jsonShape(bytes, { maxBytes: MAX_JSON_BYTES, maxLines, workers: 0, signal: call.signal });
  }
  const final = report;
  return fitAnswer(factsOf(final), () => textOf(final), max);
}
