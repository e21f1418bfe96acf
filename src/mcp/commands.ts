import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { WispError } from '../core/errors.js';
import { commandAllowed, runCommand, type CommandResult } from '../input/command.js';
import { commandEnv, existingRealPaths, secretPaths, type SandboxPolicy } from '../input/sandbox.js';
import type { AuditCommand } from './audit-log.js';
import type { ServerContext, ToolExtra } from './context.js';

export interface RanCommand {
  result: CommandResult;
  allowedBy: 'allowlist' | 'approved';
  sandbox: string;
}

/** An argv for messages: plain words as they are, the rest quoted. */
export function showArgv(argv: string[]): string {
  return argv.map((a) => (/^[\w./:=@%+-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

/**
 * Gates, sandboxes and runs one command. `audit` is filled in as it goes, so that the
 * caller's audit line says how far it got whatever is thrown: refused (not allowed, not
 * approved, no sandbox), failed (could not start), ran.
 */
export async function runGatedCommand(ctx: ServerContext, tool: string, argv: string[], extra: ToolExtra, signal: AbortSignal, audit: AuditCommand): Promise<RanCommand> {
  if (argv.some((a) => a.includes('\0'))) throw new WispError('WISP_BAD_ARGUMENT', 'command arguments cannot contain NUL');
  const allowedBy = await gate(ctx, tool, argv, extra);
  audit.allowedBy = allowedBy;
  const sandbox = ctx.commands.sandbox ? await ctx.sandbox() : undefined;
  audit.sandbox = sandbox?.kind ?? 'none';
  const roots = await ctx.roots.current();
  const policy: SandboxPolicy = {
    writable: existingRealPaths(roots),
    hidden: existingRealPaths([...secretPaths(homedir()), ctx.stateDir]),
    network: ctx.commands.allowNetwork,
    cwd: roots[0],
  };
  // A profile matches real paths (macOS's temporary folder is under a symlink).
  const tmp = sandbox?.needsTmpDir ? realpathSync(mkdtempSync(join(tmpdir(), 'wisp-command-'))) : undefined;
  try {
    audit.outcome = 'failed';
    const result = await ctx.track(runCommand(argv, {
      timeoutMs: ctx.limits.commandTimeoutMs,
      maxBytes: ctx.limits.commandMaxBytes,
      signal,
      env: commandEnv(process.env, ctx.commands.passEnv, tmp),
      ...(policy.cwd !== undefined ? { cwd: policy.cwd } : {}),
      ...(sandbox !== undefined ? { spawnArgv: sandbox.wrap(argv, policy, tmp) } : {}),
      onStart: () => (audit.outcome = 'ran'),
    }));
    // bwrap reports a program it cannot start as its own output and exit status 1.
    const bwrapFailure = sandbox?.kind === 'bwrap' && result.exitStatus === 1 ? /^bwrap: (.*)/.exec(result.output.subarray(0, 512).toString('utf8')) : null;
    if (bwrapFailure !== null) {
      audit.outcome = 'failed';
      const why = bwrapFailure[1]!.split('\n')[0]!;
      const notFound = /^execvp [^:]*: /.test(why);
      throw new WispError(
        'WISP_COMMAND_FAILED_TO_START',
        `could not run ${argv[0]} in the sandbox: ${why.replace(/^execvp [^:]*: /, '')}`,
        { hint: notFound ? 'name a program on the PATH, or give its absolute path' : undefined },
      );
    }
    audit.exitStatus = result.exitStatus;
    audit.timedOut = result.timedOut;
    return { result, allowedBy, sandbox: sandbox?.kind ?? 'none' };
  } finally {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  }
}

/** The allowlist first; else, where the client can ask its user, the user's approval. */
async function gate(ctx: ServerContext, tool: string, argv: string[], extra: ToolExtra): Promise<'allowlist' | 'approved'> {
  if (commandAllowed(argv, ctx.commands.allow)) return 'allowlist';
  const shown = showArgv(argv);
  if (ctx.server.server.getClientCapabilities()?.elicitation !== undefined) {
    const where = ctx.commands.sandbox ? 'in a sandbox' : 'WITHOUT a sandbox';
    const answer = await ctx.server.server.elicitInput(
      {
        message: `wisp ${tool} asks to run this command (no shell, ${where}, ${Math.round(ctx.limits.commandTimeoutMs / 1000)} s limit): ${shown}`,
        requestedSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean', title: 'Run it', description: 'Run this command once' } },
          required: ['approve'],
        },
      },
      { signal: extra.signal },
    );
    if (answer.action === 'accept' && answer.content?.approve === true) return 'approved';
    throw new WispError('WISP_COMMAND_NOT_ALLOWED', `the user did not approve running ${shown}`);
  }
  const allowed = ctx.commands.allow.map((p) => p.join(' '));
  throw new WispError(
    'WISP_COMMAND_NOT_ALLOWED',
    `${shown} is not on the server's command allowlist`,
    { hint: allowed.length === 0
      ? 'the server allows no commands: start it with --allow-command "PROGRAM ARGS" (flags must be part of the entry)'
      : `allowed prefixes (extra arguments may not be flags): ${allowed.join('; ')}` },
  );
}

/** What run_and_condense's description says about the commands it may run and where. */
export function describeCommandPolicy(ctx: ServerContext): string {
  const allowed = ctx.commands.allow.map((p) => `"${p.join(' ')}"`);
  const roots = ctx.roots.list();
  const parts = [
    allowed.length > 0
      ? `Allowed without asking (argv starting with one of these, no extra flags): ${allowed.join(', ')}.`
      : 'No command is allowed without asking.',
    'Other commands run only if the user approves them (where the client can ask).',
    ctx.commands.sandbox
      ? `Commands run in a sandbox: the file system read-only except the roots (${roots.length > 0 ? roots.join(', ') : 'none yet'}) and a private /tmp, secrets hidden, ${ctx.commands.allowNetwork ? 'the network reachable' : 'no network'}, a clean environment.`
      : `Commands run WITHOUT a sandbox (--no-sandbox), in ${roots[0] ?? 'the server\'s folder'}, with a clean environment.`,
  ];
  return parts.join(' ');
}
