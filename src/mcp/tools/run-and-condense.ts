import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { redact } from '../../redact/index.js';
import { textSource } from '../../input/sources.js';
import type { AuditEntry } from '../audit-log.js';
import { describeCommandPolicy, runGatedCommand, showArgv } from '../commands.js';
import { toolError, type ServerContext } from '../context.js';
import { commandFactsShape } from './command-facts.js';
import { condenseSource, logResultShape, topField } from './condense-log.js';
import { maxLinesField, shapeInput, shapeResultShape } from './json-shape.js';
import { toolArgs } from '../schema.js';

const BASE_DESCRIPTION =
  'Runs a command (an argv array, no shell) and condenses its output: as a log (default; groups of lines by template, ranked by severity, with examples) or, with as "json", as an outline of its JSON. Use it for test runs, builds and CLIs that print a lot. A failed or timed-out command\'s result starts with a warning and its first line of output. The result carries a handle for grep_raw.';

/**
 * The one tool that runs commands, so that the reading tools can say truthfully that they
 * only read: clients' plan and approval modes trust readOnlyHint.
 */
export function registerRunAndCondense(ctx: ServerContext): RegisteredTool {
  return ctx.server.registerTool(
    'run_and_condense',
    {
      title: 'Run a command and condense its output',
      description: runDescription(ctx),
      inputSchema: toolArgs({
        command: z
          .array(z.string().min(1).max(4096))
          .min(1)
          .max(64)
          .describe('The command as an argv array, run without a shell, e.g. ["npm","test"]; arguments after an allowed prefix may not be flags.'),
        as: z.enum(['log', 'json']).optional().describe('How to condense the output: "log" (default) or "json".'),
        top: topField.describe('For as "log": how many groups to show (default 20).'),
        maxLines: maxLinesField.describe('For as "json": the outline\'s line cap (default 120).'),
      }),
      outputSchema: {
        ...logResultShape,
        ...shapeResultShape,
        kind: z.enum(['log', 'crash', 'json', 'jsonl']),
        format: z.string().optional(),
        read: z.object({
          bytes: z.number().int(),
          lines: z.number().int().optional(),
          skippedHeadBytes: z.number().int().optional(),
          cutLines: z.number().int().optional(),
          values: z.number().int().optional(),
          records: z.number().int().optional(),
        }),
        summary: z.string().optional(),
        shown: shapeResultShape.shown.optional(),
        command: commandFactsShape,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: ctx.commands.allowNetwork },
    },
    async (args, extra) => {
      const call = ctx.beginCall(extra);
      const signal = call.signal;
      // The model wrote the argv, but results show nothing unredacted, whoever wrote it.
      const label = `command: ${redact(showArgv(args.command))}`;
      const audit: AuditEntry = { tool: 'run_and_condense', outcome: 'error', command: { argv: args.command, outcome: 'refused' } };
      try {
        const ran = await ctx.bounded(runGatedCommand(ctx, 'run_and_condense', args.command, extra, signal, audit.command!), signal);
        const origin = { kind: 'command' as const, argv: args.command.map(redact) };
        const answer =
          args.as === 'json'
            ? await ctx.bounded(shapeInput(ctx, ran.result.output, label, origin, { maxLines: args.maxLines, signal, command: ran }), signal)
            : await ctx.bounded(condenseSource(ctx, textSource(label, ran.result.output), label, origin, { top: args.top, signal, extra, command: ran }), signal);
        audit.outcome = 'ok';
        audit.bytes = ran.result.output.length;
        return answer;
      } catch (err) {
        audit.outcome = audit.command!.outcome === 'refused' ? 'refused' : 'error';
        audit.error = (err as Error).message;
        return toolError(err);
      } finally {
        call.end();
        ctx.audit.record(audit);
      }
    },
  );
}

/** The description names what may run and where: it changes with the client's roots. */
export function runDescription(ctx: ServerContext): string {
  return `${BASE_DESCRIPTION} ${describeCommandPolicy(ctx)}`;
}
