import { z } from 'zod';
import { grepInThread } from '../../grep/grep-in-thread.js';
import { formatCount } from '../../core/text.js';
import type { AuditEntry } from '../audit-log.js';
import { showArgv } from '../commands.js';
import { mb, toolError, type ServerContext } from '../context.js';
import type { RawPayload } from '../raw-store.js';
import { fitAnswer } from '../result.js';
import { toolArgs } from '../schema.js';

const GREP_TIMEOUT_MS = 10_000;
/** Room kept in the answer for its header, footer and facts. */
const FRAME_BYTES = 1536;

export function registerGrepRaw(ctx: ServerContext): void {
  ctx.server.registerTool(
    'grep_raw',
    {
      title: 'Search a raw payload',
      description: `Searches the full raw text behind a handle from condense_log, json_shape or run_and_condense, for what the condensed view left out: a word, an id, a trace, a time. Searches whole lines of any length; shows matching lines with their line numbers (a long line as windows around each match, with columns), context merged into hunks, redacted, at most ${formatCount(ctx.limits.grepMaxBytes)} bytes an answer, and a cursor for the next page.`,
      inputSchema: toolArgs({
        handle: z.string().min(1).max(64).describe('The handle from a condense_log, json_shape or run_and_condense result.'),
        pattern: z.string().min(1).max(1000).describe('Text to find (or a JavaScript regular expression when regex is true).'),
        regex: z.boolean().optional().describe('Treat pattern as a JavaScript regular expression (default false).'),
        ignoreCase: z.boolean().optional().describe('Match without regard to case (default false).'),
        context: z.number().int().min(0).max(10).optional().describe('Lines of context before and after each matching line (default 0); overlapping context is merged.'),
        maxMatches: z.number().int().min(1).max(200).optional().describe('Matching lines to show at most (default 30); fewer when the answer would pass its byte budget.'),
        cursor: z
          .string()
          .regex(/^[1-9]\d{0,9}:[1-9]\d{0,9}$/)
          .optional()
          .describe('Where to start, as "line:column" (1-based): the nextCursor of an earlier answer with the same pattern. Default: the first line.'),
      }),
      outputSchema: {
        handle: z.string(),
        totalMatches: z.number().int().describe('Matching lines in the whole payload.'),
        shown: z.number().int().describe('Matching lines shown in this answer.'),
        linesScanned: z.number().int(),
        nextCursor: z.string().optional().describe('Pass as cursor for the next page; absent when nothing more matches.'),
        notStored: z
          .object({ bytes: z.number().int(), how: z.string() })
          .optional()
          .describe('When the payload is only the tail of its source: what was not stored (and so not searched), and how to search it.'),
        text: z.string().describe('The answer as the model should read it: a header, the hunks, and what to ask next.'),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args, extra) => {
      const audit: AuditEntry = { tool: 'grep_raw', source: args.handle, outcome: 'error' };
      const call = ctx.beginCall(extra);
      const signal = call.signal;
      try {
        const payload = ctx.store.get(args.handle);
        const [line, column] = (args.cursor ?? '1:1').split(':').map(Number) as [number, number];
        const frame = FRAME_BYTES + Buffer.byteLength(JSON.stringify(args.pattern));
        const result = await ctx.bounded(
          grepInThread(
            payload.file,
            {
              pattern: args.pattern,
              regex: args.regex ?? false,
              ignoreCase: args.ignoreCase ?? false,
              context: args.context ?? 0,
              maxMatches: args.maxMatches ?? 30,
              from: { line, column },
              maxBytes: ctx.limits.grepMaxBytes - frame,
            },
            GREP_TIMEOUT_MS,
            signal,
          ),
          signal,
        );
        audit.outcome = 'ok';
        audit.bytes = payload.bytes;

        const notStored = payload.notStoredBytes > 0 ? { bytes: payload.notStoredBytes, how: howToSearchRest(payload, args) } : undefined;
        let head = `${formatCount(result.totalMatches)} matching lines of ${formatCount(result.linesScanned)} in ${args.handle}`;
        if (result.shown > 0) {
          const range = result.firstShownLine === result.lastShownLine ? `line ${formatCount(result.firstShownLine!)}` : `lines ${formatCount(result.firstShownLine!)}-${formatCount(result.lastShownLine!)}`;
          head += `; showing ${formatCount(result.shown)} (${range})`;
        } else if (result.totalMatches > 0) {
          head += '; none from the cursor on';
        }
        if (result.matchesBefore > 0) head += `, ${formatCount(result.matchesBefore)} before the cursor`;
        head += '\n';
        if (notStored !== undefined) {
          head += `note: this payload is the last ${mb(payload.bytes)} MB of ${payload.source}; the first ${mb(notStored.bytes)} MB were not stored and were not searched: ${notStored.how}\n`;
        }
        let foot = '';
        if (result.nextCursor !== undefined) {
          const why = result.stoppedBy === 'maxMatches' ? `maxMatches (${args.maxMatches ?? 30})` : `the ${formatCount(ctx.limits.grepMaxBytes)}-byte answer budget`;
          foot = `more matches follow (this page stopped at ${why}): call grep_raw again with cursor "${result.nextCursor}"\n`;
        }
        const facts = {
          handle: args.handle,
          totalMatches: result.totalMatches,
          shown: result.shown,
          linesScanned: result.linesScanned,
          ...(result.nextCursor !== undefined ? { nextCursor: result.nextCursor } : {}),
          ...(notStored !== undefined ? { notStored } : {}),
        };
        return fitAnswer(facts, () => `${head}${result.text}${foot}`, ctx.limits.grepMaxBytes);
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

/** How to search what the payload does not hold: the source itself, by the agent's own means. */
function howToSearchRest(p: RawPayload, args: { pattern: string; regex?: boolean | undefined; ignoreCase?: boolean | undefined }): string {
  const o = p.origin;
  if (o.kind === 'file') {
    const tool = o.path.endsWith('.gz') ? 'zgrep' : 'grep';
    const flags = `-n${args.ignoreCase ? 'i' : ''}${args.regex ? 'P' : 'F'}`;
    return `search the whole file on the command line: ${tool} ${flags} -e ${shellQuote(args.pattern)} ${shellQuote(o.path)}`;
  }
  if (o.kind === 'command') return `run ${showArgv(o.argv)} with its output sent to a file inside a root, then grep that file (or condense_log its path)`;
  if (o.kind === 'journal') return 'read a shorter span with condense_log last, or filter it with process or subsystem';
  return 'pass the text in smaller parts';
}

const shellQuote = (s: string): string => (/^[\w./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
