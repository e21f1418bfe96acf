import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { WispError } from '../../core/errors.js';
import { createWispServer } from '../../mcp/server.js';
import { KILL_GRACE_MS } from '../../input/command.js';
import { parseInteger, parseCommandLine } from '../args.js';
import type { CommandRunner } from '../io.js';

export const MCP_USAGE =
  'wisp mcp [--root DIR]... [--allow-command "PROGRAM ARGS"]... [--allow-network] [--pass-env NAME]... [--no-sandbox] [--state-dir DIR] [--max-payloads N] [--deadline SECONDS]';

/**
 * After the client goes, how long the server waits for its calls to wind down before it
 * exits anyway: long enough for a command that ignores SIGTERM to get its SIGKILL and go.
 */
const EXIT_GRACE_MS = KILL_GRACE_MS + 3000;

/** $XDG_STATE_HOME/wisp, else ~/.local/state/wisp. */
function defaultStateDir(): string {
  return join(process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'wisp');
}

/** Splits an allowlist entry on spaces; quoting is not offered: an entry is plain words. */
function commandPrefix(entry: string): string[] {
  const words = entry.trim().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) throw new WispError('WISP_BAD_ARGUMENT', '--allow-command needs a program name');
  return words;
}

function envName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new WispError('WISP_BAD_ARGUMENT', `--pass-env takes a variable name, got '${name}'`);
  return name;
}

/** The MCP server on stdio. stdout carries the protocol only; everything else goes to stderr. */
export const runMcp: CommandRunner = async (args, io) => {
  const parsed = parseCommandLine(args, {
    root: { type: 'string', multiple: true, default: [] },
    'allow-command': { type: 'string', multiple: true, default: [] },
    'allow-network': { type: 'boolean', default: false },
    'pass-env': { type: 'string', multiple: true, default: [] },
    'no-sandbox': { type: 'boolean', default: false },
    'state-dir': { type: 'string' },
    'max-payloads': { type: 'string' },
    deadline: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  }, MCP_USAGE);
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new WispError('WISP_BAD_ARGUMENT', `wisp mcp takes no file names (got ${positionals[0]}); usage: ${MCP_USAGE}`);
  if (values.help) {
    io.stdout.write(`usage: ${MCP_USAGE}\n`);
    return 0;
  }
  const deadlineMs = values.deadline === undefined ? undefined : parseInteger('--deadline', values.deadline, 1, 3600) * 1000;
  const maxCount = values['max-payloads'] === undefined ? undefined : parseInteger('--max-payloads', values['max-payloads'], 1, 100_000);
  const { server, context } = await createWispServer({
    roots: values.root,
    allowCommands: values['allow-command'].map(commandPrefix),
    allowNetwork: values['allow-network'],
    passEnv: values['pass-env'].map(envName),
    noSandbox: values['no-sandbox'],
    stateDir: values['state-dir'] ?? defaultStateDir(),
    ...(deadlineMs !== undefined ? { limits: { deadlineMs } } : {}),
    ...(maxCount !== undefined ? { rawLimits: { maxCount } } : {}),
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  io.stderr.write(`wisp mcp: ready on stdio; roots: ${context.roots.list().join(', ') || '(none yet)'}${values['no-sandbox'] ? '; commands run WITHOUT a sandbox' : ''}\n`);
  // The client going (stdin closed, the transport closed) ends the server, calls in flight included.
  await new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  // A call stuck where it cannot be interrupted must not keep the process alive.
  setTimeout(() => process.exit(0), EXIT_GRACE_MS).unref();
  await context.close();
  await server.close().catch(() => {});
  return 0;
};
