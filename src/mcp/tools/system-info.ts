import { z } from 'zod';
import { systemInfo, TOPICS } from '../../system-info/index.js';
import type { AuditEntry } from '../audit-log.js';
import { toolError, type ServerContext } from '../context.js';
import { fitAnswer } from '../result.js';
import { toolArgs } from '../schema.js';

export function registerSystemInfo(ctx: ServerContext): void {
  ctx.server.registerTool(
    'system_info',
    {
      title: 'Facts about this machine',
      description:
        'Answers "what is on port 8080, what fills my disk, what eats CPU, is process X running" from fixed, read-only probes, as a short table (at most 15 rows, 4 KB) that says what it could not see. Prefer it to running ps, top, lsof, ss, netstat, df or du: those print pages, need flags per platform, and can hang. Topics: ports (optionally one port), freeSpace, folderSizes (a path), processes (CPU is sampled over 0.5 s), memory, process (a name or pid), battery, system, network.',
      inputSchema: toolArgs({
        topic: z.enum(TOPICS).describe('What to look at.'),
        process: z
          .string()
          .max(256)
          .optional()
          .describe('For topic "process": a pid or an exact process name (case-insensitive, no substrings; its descendants are included).'),
        port: z.number().int().min(1).max(65535).optional().describe('For topic "ports": only this port.'),
        path: z.string().min(1).max(4096).optional().describe('For topic "folderSizes": an absolute path of a folder inside the allowed roots.'),
      }),
      outputSchema: {
        topic: z.string(),
        summary: z.string(),
        moreRows: z.number().int().describe('Rows left out to stay within 15 rows and 4 KB.'),
        unseen: z.array(z.string()).describe('What could not be seen, and why.'),
        text: z.string().describe('The whole answer as the model should read it: facts, the table, notes and what could not be seen.'),
      },
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args, extra) => {
      const source = `${args.topic}${args.port !== undefined ? ` port ${args.port}` : ''}${args.process ? ` process ${args.process}` : ''}${args.path ? ` ${args.path}` : ''}`;
      const audit: AuditEntry = { tool: 'system_info', source, outcome: 'error' };
      const call = ctx.beginCall(extra);
      const signal = call.signal;
      try {
        // A folder to measure is a path like any other: it must lie inside the roots.
        const path = args.path === undefined ? undefined : await ctx.roots.check(args.path);
        const request = {
          topic: args.topic,
          ...(args.port !== undefined ? { port: args.port } : {}),
          ...(args.process !== undefined && args.process !== '' ? { process: args.process } : {}),
          ...(path !== undefined ? { path } : {}),
        };
        const answer = await ctx.bounded(systemInfo(request, { signal }), signal);
        audit.outcome = 'ok';
        audit.bytes = answer.text.length;
        const facts = { topic: answer.topic, summary: answer.summary, moreRows: answer.moreRows, unseen: answer.unseen };
        return fitAnswer(facts, () => answer.text, ctx.limits.resultMaxBytes);
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
