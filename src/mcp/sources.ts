import { z } from 'zod';
import { WispError } from '../errors.js';
import { commandAllowed, runCommand, type CommandResult } from '../source/command.js';
import type { ServerContext, ToolExtra } from './context.js';

/** The source fields condense_log and json_shape share: exactly one per call. */
export const sourceFields = {
  path: z.string().min(1).max(4096).optional().describe('Absolute path of a file inside the allowed roots (plain or .gz).'),
  text: z.string().min(1).max(1_000_000).optional().describe('The content itself, inline (at most 1,000,000 characters): for short output you already hold.'),
  command: z
    .array(z.string().min(1).max(4096))
    .min(1)
    .max(64)
    .optional()
    .describe('A command as an argv array, run without a shell (e.g. ["npm","test"]); allowed when it matches the server allowlist or the user approves it.'),
};

export type SourceArgs = { path?: string | undefined; text?: string | undefined; command?: string[] | undefined };

export type ResolvedSource =
  | { kind: 'path'; path: string }
  | { kind: 'text'; text: string }
  | { kind: 'command'; result: CommandResult };

/** How a call's source is named in results and the audit log: the path, `text`, or the command. */
export function sourceLabel(args: SourceArgs): string {
  return args.path ?? (args.text !== undefined ? 'text' : `command: ${(args.command ?? []).join(' ')}`);
}

/** A command's outcome, for a result and its audit line; nothing for other sources. */
export function commandFields(c: CommandResult | undefined): { exitStatus?: number | null; timedOut?: boolean } {
  return c === undefined ? {} : { exitStatus: c.exitStatus, timedOut: c.timedOut };
}

/** Exactly one source, checked and (for a command) run. */
export async function resolveSource(
  ctx: ServerContext,
  tool: string,
  args: SourceArgs & { last?: string | undefined },
  extra: ToolExtra,
  signal: AbortSignal,
): Promise<ResolvedSource> {
  const given = (['path', 'text', 'command', 'last'] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw new WispError(
      'WISP_BAD_ARGUMENT',
      given.length === 0 ? 'give one source: path, text or command' : `give exactly one source, got ${given.join(' and ')}`,
    );
  }
  if (args.path !== undefined) {
    return { kind: 'path', path: await ctx.roots.check(args.path) };
  }
  if (args.text !== undefined) return { kind: 'text', text: args.text };
  const argv = args.command!;
  await gateCommand(ctx, tool, argv, extra);
  const result = await runCommand(argv, {
    timeoutMs: ctx.limits.commandTimeoutMs,
    maxBytes: ctx.limits.commandMaxBytes,
    signal,
    ...(ctx.roots.list()[0] !== undefined ? { cwd: ctx.roots.list()[0] } : {}),
  });
  return { kind: 'command', result };
}

/** The allowlist first; else, where the client can ask its user, the user's approval. */
async function gateCommand(ctx: ServerContext, tool: string, argv: string[], extra: ToolExtra): Promise<void> {
  if (argv.some((a) => a.includes('\0'))) throw new WispError('WISP_BAD_ARGUMENT', 'command arguments cannot contain NUL');
  if (commandAllowed(argv, ctx.allowCommands)) return;
  const shown = argv.map((a) => (/^[\w./:=@%+-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
  if (ctx.server.server.getClientCapabilities()?.elicitation !== undefined) {
    const answer = await ctx.server.server.elicitInput(
      {
        message: `wisp ${tool} asks to run this command (no shell, ${Math.round(ctx.limits.commandTimeoutMs / 1000)} s limit): ${shown}`,
        requestedSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean', title: 'Run it', description: 'Run this command once' } },
          required: ['approve'],
        },
      },
      { signal: extra.signal },
    );
    if (answer.action === 'accept' && answer.content?.approve === true) return;
    throw new WispError('WISP_COMMAND_NOT_ALLOWED', `the user did not approve running ${shown}`);
  }
  const allowed = ctx.allowCommands.map((p) => p.join(' '));
  throw new WispError(
    'WISP_COMMAND_NOT_ALLOWED',
    `${shown} is not on the server's command allowlist`,
    allowed.length === 0
      ? 'the server allows no commands: start it with --allow-command "PROGRAM ARGS" (flags must be part of the entry)'
      : `allowed prefixes (extra arguments may not be flags): ${allowed.join('; ')}`,
  );
}
