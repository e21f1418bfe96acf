import { formatCount } from '../../render/numbers.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { WispError } from '../../errors.js';
import { readLines } from '../../grep/grep-file.js';
import { grepInThread } from '../../grep/grep-in-thread.js';
import { toolError, type ServerContext } from '../context.js';

const GREP_TIMEOUT_MS = 10_000;
/** The raw resource returns at most this much text a read. */
const RESOURCE_MAX_CHARS = 256 * 1024;
const RESOURCE_MAX_LINES = 5000;

export function registerGrepRaw(ctx: ServerContext): void {
  ctx.server.registerTool(
    'grep_raw',
    {
      title: 'Search a raw payload',
      description:
        'Searches the full raw text behind a handle from condense_log or json_shape, for what the condensed view left out: a word, an id, a trace, a time. Returns matching lines with their line numbers (redacted, bounded) and how many more matched.',
      inputSchema: {
        handle: z.string().min(1).max(64).describe('The handle from a condense_log or json_shape result.'),
        pattern: z.string().min(1).max(1000).describe('Text to find (or a regular expression when regex is true).'),
        regex: z.boolean().optional().describe('Treat pattern as a JavaScript regular expression (default false).'),
        ignoreCase: z.boolean().optional().describe('Match without regard to case (default false).'),
        context: z.number().int().min(0).max(10).optional().describe('Lines of context before and after each match (default 0).'),
        maxMatches: z.number().int().min(1).max(200).optional().describe('How many matches to return (default 30).'),
      },
      outputSchema: {
        handle: z.string(),
        totalMatches: z.number().int(),
        shown: z.number().int(),
        linesScanned: z.number().int(),
        matches: z.array(z.object({ line: z.number().int(), text: z.string(), before: z.array(z.string()), after: z.array(z.string()) })),
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args, extra) => {
      try {
        const payload = ctx.store.get(args.handle);
        const result = await grepInThread(
          payload.file,
          { pattern: args.pattern, regex: args.regex ?? false, ignoreCase: args.ignoreCase ?? false, context: args.context ?? 0, maxMatches: args.maxMatches ?? 30 },
          GREP_TIMEOUT_MS,
          ctx.callSignal(extra),
        );
        ctx.audit.record({ tool: 'grep_raw', source: args.handle, outcome: 'ok', bytes: payload.bytes });
        const shown = result.matches.length;
        const more = result.totalMatches - shown;
        let text = `${formatCount(result.totalMatches)} matching lines of ${formatCount(result.linesScanned)} in ${args.handle}${more > 0 ? `; showing the first ${shown}, ${formatCount(more)} more` : ''}\n`;
        for (const m of result.matches) {
          for (const [i, b] of m.before.entries()) text += `  ${m.line - m.before.length + i}- ${b}\n`;
          text += `  ${m.line}: ${m.text}\n`;
          for (const [i, a] of m.after.entries()) text += `  ${m.line + i + 1}+ ${a}\n`;
        }
        return {
          content: [{ type: 'text' as const, text }],
          structuredContent: { handle: args.handle, totalMatches: result.totalMatches, shown, linesScanned: result.linesScanned, matches: result.matches },
        };
      } catch (err) {
        ctx.audit.record({ tool: 'grep_raw', source: args.handle, outcome: 'error', error: (err as Error).message });
        return toolError(err);
      }
    },
  );

  const read = (uri: URL, variables: Record<string, string | string[]>) => {
    const handle = String(variables.handle);
    const payload = ctx.store.get(handle);
    const from = lineNumber(variables.from, 1);
    const to = Math.min(lineNumber(variables.to, from + RESOURCE_MAX_LINES - 1), from + RESOURCE_MAX_LINES - 1);
    if (to < from) throw new WispError('WISP_BAD_ARGUMENT', `to (${to}) is before from (${from})`);
    const { lines, cut } = readLines(payload.file, from, to, RESOURCE_MAX_CHARS);
    const last = from + lines.length - 1;
    const note = cut || last < Math.min(to, payload.lines) ? `\n[wisp: lines ${from}-${last} of ${payload.lines} shown; ask for ?from=${last + 1} for more]` : '';
    ctx.audit.record({ tool: 'resource:raw', source: handle, outcome: 'ok', bytes: payload.bytes });
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: lines.join('\n') + note }] };
  };
  // Two templates, the one with the query first: `{handle}` alone would swallow `?from=..`,
  // and a template with a query part matches only URIs that have one.
  ctx.server.registerResource(
    'raw-lines',
    new ResourceTemplate('wisp://raw/{handle}{?from,to}', { list: undefined }),
    {
      title: 'Raw payload lines',
      description: `Lines from..to (1-based) of a raw payload, at most ${formatCount(RESOURCE_MAX_LINES)} lines or 256 KB a read (redacted).`,
      mimeType: 'text/plain',
    },
    read,
  );
  ctx.server.registerResource(
    'raw',
    new ResourceTemplate('wisp://raw/{handle}', {
      list: () => ({
        resources: ctx.store.list().map((p) => ({
          uri: `wisp://raw/${p.handle}`,
          name: p.handle,
          description: `${p.source}: ${formatCount(p.lines)} lines, ${formatCount(p.bytes)} bytes`,
          mimeType: 'text/plain',
        })),
      }),
    }),
    {
      title: 'Raw payloads',
      description: `Exactly what a condense_log call read, by handle (redacted; the first ${formatCount(RESOURCE_MAX_LINES)} lines or 256 KB).`,
      mimeType: 'text/plain',
    },
    read,
  );
}

function lineNumber(v: string | string[] | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined || !/^\d{1,10}$/.test(s) || Number(s) < 1) {
    throw new WispError('WISP_BAD_ARGUMENT', `line numbers are whole numbers from 1, got '${String(s)}'`);
  }
  return Number(s);
}
