import { formatCount } from '../../render/numbers.js';
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { WispError } from '../../errors.js';
import { jsonShape, type ShapeTreeNode } from '../../shape/index.js';
import { commandFailed, commandWarning, type CommandResult } from '../../source/command.js';
import { toolError, type ServerContext } from '../context.js';
import { commandFields, resolveSource, sourceFields, sourceLabel } from '../sources.js';

/** The agent path's cap (ADR 0032): larger JSON is refused, never cut (a cut document does not parse). */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

export function registerJsonShape(ctx: ServerContext): void {
  ctx.server.registerTool(
    'json_shape',
    {
      title: 'Outline JSON',
      description:
        'Outlines a large JSON document or JSON Lines file: every key with its types, optional keys (present/total), array lengths, number ranges, enums, formats and a short redacted example, with array elements merged into one shape. Prefer it to reading or jq-ing a big JSON file: it reads 16 MB in well under a second and says what it left out. The result carries a handle to the raw text for grep_raw.',
      inputSchema: {
        ...sourceFields,
        maxLines: z.number().int().min(10).max(400).optional().describe('Line cap of the outline (default 120).'),
      },
      outputSchema: {
        handle: z.string().describe('Handle to exactly the bytes read, for grep_raw and wisp://raw/{handle}.'),
        source: z.string(),
        kind: z.enum(['json', 'jsonl']),
        summary: z.string(),
        read: z.object({ bytes: z.number().int(), values: z.number().int(), records: z.number().int().optional() }),
        shown: z.object({ entries: z.number().int(), total: z.number().int() }),
        paths: z.array(z.string()).describe('The paths shown in the outline, in its order.'),
        notes: z.array(z.string()),
        rules: z.array(z.string()).describe('The rules behind maps, enums and formats.'),
        exitStatus: z.number().int().nullable().optional(),
        timedOut: z.boolean().optional(),
      },
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args, extra) => {
      const signal = ctx.callSignal(extra);
      const label = sourceLabel(args);
      let command: CommandResult | undefined;
      try {
        const resolved = await resolveSource(ctx, 'json_shape', args, extra, signal);
        let bytes: Buffer;
        if (resolved.kind === 'path') {
          const size = (await stat(resolved.path)).size;
          if (size > MAX_JSON_BYTES) {
            throw new WispError('WISP_INPUT_TOO_LARGE', `${args.path} is ${formatCount(size)} bytes; json_shape reads at most ${formatCount(MAX_JSON_BYTES)}`, 'run wisp shape --max-bytes N on the command line for larger input');
          }
          bytes = await readFile(resolved.path);
        } else if (resolved.kind === 'text') {
          bytes = Buffer.from(resolved.text, 'utf8');
        } else {
          command = resolved.result;
          bytes = command.output;
        }
        const report = await jsonShape(bytes, { maxBytes: MAX_JSON_BYTES, ...(args.maxLines !== undefined ? { maxLines: args.maxLines } : {}), workers: 0, signal });
        const writer = ctx.store.begin(label);
        writer.write(bytes);
        const payload = writer.finish();
        ctx.audit.record({ tool: 'json_shape', source: label, outcome: 'ok', bytes: bytes.length, ...commandFields(command) });
        const warning = command !== undefined ? commandWarning(command) : undefined;
        const tree = report.tree;
        const text = `${warning !== undefined ? `${warning}\n` : ''}${report.text}raw: ${payload.handle} (search with grep_raw)\n`;
        return {
          content: [{ type: 'text' as const, text }],
          structuredContent: {
            handle: payload.handle,
            source: label,
            kind: tree.kind,
            summary: tree.summary,
            read: { bytes: tree.read.bytes, values: tree.read.values, ...(tree.read.records !== undefined ? { records: tree.read.records } : {}) },
            shown: tree.shown,
            paths: shownPaths(tree.root),
            notes: tree.notes,
            rules: tree.rules,
            ...commandFields(command),
          },
        };
      } catch (err) {
        ctx.audit.record({ tool: 'json_shape', source: label, outcome: 'error', error: (err as Error).message, ...commandFields(command) });
        return toolError(command !== undefined && commandFailed(command) ? withCommand(err, command) : err);
      }
    },
  );
}

/** A failed command's output is rarely JSON: say that the command failed, not only that the JSON is bad. */
function withCommand(err: unknown, c: CommandResult): unknown {
  if (!(err instanceof WispError)) return err;
  return new WispError(err.code, `${commandWarning(c)}; then: ${err.message}`, err.hint);
}

function shownPaths(root: ShapeTreeNode): string[] {
  const out: string[] = [];
  const stack: ShapeTreeNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node.path);
    const kids = node.children ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return out;
}
