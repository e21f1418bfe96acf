import { z } from 'zod';
import { systemInfo, TOPICS } from '../../system-info/index.js';
import { toolError, type ServerContext } from '../context.js';

export function registerSystemInfo(ctx: ServerContext): void {
  ctx.server.registerTool(
    'system_info',
    {
      title: 'Facts about this machine',
      description:
        'Answers "what is on port 8080, what fills my disk, what eats CPU, is process X running" from fixed, read-only probes, as a short table (at most 15 rows, 4 KB) that says what it could not see. Prefer it to running ps, top, lsof, ss, netstat, df or du: those print pages, need flags per platform, and can hang. Topics: ports (optionally one port), freeSpace, folderSizes (a path), processes (CPU is sampled over 0.5 s), memory, process (a name or pid), battery, system, network.',
      inputSchema: {
        topic: z.enum(TOPICS).describe('What to look at.'),
        process: z
          .string()
          .max(256)
          .describe('For topic "process": a pid or an exact process name (case-insensitive, no substrings; its descendants are included). Empty for the other topics.'),
        port: z.number().int().min(1).max(65535).optional().describe('For topic "ports": only this port.'),
        path: z.string().min(1).max(4096).optional().describe('For topic "folderSizes": an absolute path of a folder inside the allowed roots.'),
      },
      outputSchema: {
        topic: z.string(),
        summary: z.string(),
        facts: z.array(z.object({ label: z.string(), value: z.string() })),
        columns: z.array(z.string()),
        rows: z.array(z.array(z.string())),
        moreRows: z.number().int().describe('Rows left out to stay within 15 rows and 4 KB.'),
        notes: z.array(z.string()),
        unseen: z.array(z.string()).describe('What could not be seen, and why.'),
      },
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args, extra) => {
      const source = `${args.topic}${args.port !== undefined ? ` port ${args.port}` : ''}${args.process ? ` process ${args.process}` : ''}${args.path ? ` ${args.path}` : ''}`;
      try {
        // A folder to measure is a path like any other: it must lie inside the roots.
        const path = args.path === undefined ? undefined : await ctx.roots.check(args.path);
        const answer = await systemInfo(
          {
            topic: args.topic,
            ...(args.port !== undefined ? { port: args.port } : {}),
            ...(args.process !== '' ? { process: args.process } : {}),
            ...(path !== undefined ? { path } : {}),
          },
          { signal: ctx.callSignal(extra) },
        );
        ctx.audit.record({ tool: 'system_info', source, outcome: 'ok', bytes: answer.text.length });
        const { text, ...structured } = answer;
        return { content: [{ type: 'text' as const, text }], structuredContent: structured };
      } catch (err) {
        ctx.audit.record({ tool: 'system_info', source, outcome: 'error', error: (err as Error).message });
        return toolError(err);
      }
    },
  );
}
